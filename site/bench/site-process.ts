/**
 * The documentation site in a process of its own, for the measurement scripts beside this file:
 * the real content, the site's own quota (120 requests a minute), behind a loopback proxy so that a
 * script can speak for many clients through `X-Forwarded-For`. Prints `ready <port>` once
 * listening; stops on SIGTERM.
 */
import { serve } from '@charter/bun';
import { createSite } from '../app.ts';
import { buildContent } from '../content/build.ts';
import { readContentDir } from '../content/read-dir.ts';

const content = buildContent(await readContentDir(new URL('../../content', import.meta.url).pathname));
const port = Number(process.env.PORT ?? 0);
const site = createSite({
  origin: `http://127.0.0.1:${port}`,
  content,
  tokenKey: crypto.getRandomValues(new Uint8Array(32)),
  logger: false,
  behindProxy: 'loopback',
});
const server = await serve(site, { port, hostname: '127.0.0.1', signals: true });
console.log(`ready ${server.port}`);
