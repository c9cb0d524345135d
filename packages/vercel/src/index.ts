/**
 * @module charter/vercel
 * Vercel Functions. `toVercelHandlers(app)` gives the Web handler in both documented forms: the
 * default-export object `{ fetch }` and one export per HTTP method (`GET`, `POST`...);
 * `toVercelNodeHandler(app)` is the `(req, res)` form of the Node.js runtime (charter/node's listener).
 * `vercelContext(ctx.request)` reads what Vercel passed beside the request (`waitUntil`).
 */
export { toVercelNodeHandler } from './node.ts';
export type { VercelHandlerOptions } from './options.ts';
export { type VercelContext, vercelContext } from './platform.ts';
export { toVercelHandlers, type VercelHandlers, type VercelWebHandler } from './web.ts';
