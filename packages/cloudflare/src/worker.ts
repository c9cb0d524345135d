/**
 * `toWorker(app)`: the module-worker export (`export default toWorker(app)`) whose `fetch(request,
 * env, ctx)` the Workers runtime calls for each request.
 */
import { type App, setRequestPeer } from '@charter/core';
import { setWorkerPlatform } from './platform.ts';
import { answerWorkerRequest } from './websocket.ts';
import type { WorkerExecutionContext } from './workers-types.ts';

/** The module worker `toWorker` returns: the runtime calls `fetch` for every request. */
export interface CharterWorker<Env = unknown> {
  fetch(request: Request, env: Env, ctx: WorkerExecutionContext): Promise<Response>;
}

/**
 * Cloudflare's edge writes the connecting client's address in `CF-Connecting-IP` (and replaces any
 * value a client sent). A worker has no socket of its own, so this header is the nearest thing to a
 * peer address, but only Cloudflare makes it trustworthy: the App must say it sits behind a proxy.
 */
const CONNECTING_IP = 'cf-connecting-ip';

/** True when the App declared a proxy posture that admits a proxy (anything but unset or `none`). */
function trustsEdge(app: App): boolean {
  const kind = app.options.security.proxy.kind;
  return kind !== 'unset' && kind !== 'none';
}

/**
 * Turns an App into a Cloudflare module worker: `export default toWorker(app)`.
 *
 * - `env` and the execution context are reachable from any request the App handles:
 *   `workerEnv(ctx.request)`, `workerContext(ctx.request).waitUntil(...)`.
 * - The client address (`clientIp`, rate limits) is `CF-Connecting-IP`, only when the App has an
 *   explicit proxy posture (`behindProxy`, e.g. `{ hops: 1 }`): without one it is unknown.
 * - WebSocket routes (`app.ws`) are answered with a `WebSocketPair`.
 *
 * @example
 * import { App } from 'charter';
 * import { toWorker } from 'charter/cloudflare';
 * const app = new App({ production: true, behindProxy: { hops: 1 } });
 * export default toWorker(app);
 */
export function toWorker<Env = unknown>(app: App): CharterWorker<Env> {
  const edgeAddress = trustsEdge(app);
  const websockets = app.wsRoutes().length > 0;
  return {
    async fetch(request, env, ctx) {
      setWorkerPlatform(request, env, ctx);
      const peer = edgeAddress ? (request.headers.get(CONNECTING_IP) ?? undefined) : undefined;
      if (peer !== undefined) setRequestPeer(request, peer);
      const response = await app.handle(request);
      // WebSocket routes registered after toWorker() are still switched: the check is per request.
      if (!websockets && app.wsRoutes().length === 0) return response;
      return answerWorkerRequest(app, request, response, peer);
    },
  };
}
