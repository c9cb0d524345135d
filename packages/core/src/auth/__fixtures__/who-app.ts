// Test support only (a __fixtures__ module: never built or exported).
import { type } from 'arktype';
import { App } from '../../app/index.ts';
import type { Hooks } from '../../types/index.ts';

const Who = type({ sub: 'string', credentials: 'string', scheme: 'string' });

/**
 * An App whose `POST <path>` runs `hooks` and answers what they set: the user's `sub`, and the
 * credentials and scheme of `ctx.state.auth` (each as a string, "undefined" when unset).
 */
export function whoApp(path: string, hooks: Hooks): App {
  const app = new App({ logger: false });
  app.post(path, { responses: { 200: { body: Who } }, hooks }, (ctx) => ({
    status: 200,
    body: {
      sub: String(ctx.state.user?.sub),
      credentials: String(ctx.state.auth?.credentials),
      scheme: String(ctx.state.auth?.scheme),
    },
  }));
  return app;
}
