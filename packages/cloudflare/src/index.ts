/**
 * @module charter/cloudflare
 * Cloudflare Workers: `toWorker(app)` is the module worker (`export default toWorker(app)`); the
 * worker's `env` and execution context are read per request with `workerEnv(ctx.request)` and
 * `workerContext(ctx.request)`; WebSocket routes are answered with a `WebSocketPair`.
 */
export { workerContext, workerEnv } from './platform.ts';
export { type CharterWorker, toWorker } from './worker.ts';
export type { WorkerExecutionContext } from './workers-types.ts';
