/**
 * Charter on Bun, from the built package (`charter-app.mjs`), two ways:
 *   - `fetch`: `Bun.serve({ fetch: app.fetch })`, as the docs show for any fetch-style runtime;
 *   - `serve`: `serve(app)` from `charter/bun` (static paths go to Bun's native routes table, the
 *     rest through the adapter's handler).
 *
 *   bun bench/peers/charter-bun.ts <port> fetch|serve zod|arktype
 */
import type * as CharterApp from '@charter/app';
import type * as CharterBun from '@charter/bun';
import { charterApp, charterModule, type Validator } from './charter-app.mjs';
import { announce, extraArgs, HOSTNAME, portArg } from './lifecycle.mjs';

const port = portArg();
const [mode, validator] = extraArgs();
if ((mode !== 'fetch' && mode !== 'serve') || (validator !== 'zod' && validator !== 'arktype')) {
  console.error('usage: bun bench/peers/charter-bun.ts <port> fetch|serve zod|arktype');
  process.exit(2);
}

const { App } = await charterModule<typeof CharterApp>('index.js');
const app = await charterApp(App, validator as Validator);

if (mode === 'fetch') {
  const server = Bun.serve({ port, hostname: HOSTNAME, fetch: app.fetch });
  announce(server.port ?? 0, () => server.stop(true));
} else {
  const { serve } = await charterModule<typeof CharterBun>('bun.js');
  const server = await serve(app, { port, hostname: HOSTNAME, signals: false });
  announce(server.port, () => server.close(1000));
}
