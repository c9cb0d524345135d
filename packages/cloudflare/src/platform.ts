/**
 * The Workers platform objects of a request (`env`, the execution context), kept per request like the
 * adapters' other per-request records (the peer address, the TLS client certificate), so a handler or
 * hook reads them from `ctx.request` without the App knowing about Workers.
 */
import { originalRequest } from '@charter/core';
import type { WorkerExecutionContext } from './workers-types.ts';

interface WorkerPlatform {
  readonly env: unknown;
  readonly context: WorkerExecutionContext;
}

const platforms = new WeakMap<Request, WorkerPlatform>();

/** For the adapter: records what the runtime passed beside `request`. */
export function setWorkerPlatform(request: Request, env: unknown, context: WorkerExecutionContext): void {
  platforms.set(request, { env, context });
}

function platformOf(request: Request, what: string): WorkerPlatform {
  const platform = platforms.get(request) ?? platforms.get(originalRequest(request));
  if (platform === undefined) {
    throw new Error(
      `${what}: this request did not arrive through charter/cloudflare's toWorker(app) (pass ctx.request, or the Request a hook received)`,
    );
  }
  return platform;
}

/**
 * The worker's `env` (bindings: KV namespaces, secrets, vars, Durable Objects...) for a request served
 * by `toWorker`. Type it with your bindings: `workerEnv<Env>(ctx.request).MY_KV`. Throws for a
 * request that did not come through `toWorker` (an `app.request()` in a test, say).
 */
export function workerEnv<Env = Record<string, unknown>>(request: Request): Env {
  return platformOf(request, 'workerEnv()').env as Env;
}

/**
 * The execution context of a request served by `toWorker`: `waitUntil(promise)` keeps the worker
 * alive for work that outlives the response, `passThroughOnException()` forwards the request to the
 * origin when the worker throws. Throws for a request that did not come through `toWorker`.
 */
export function workerContext(request: Request): WorkerExecutionContext {
  return platformOf(request, 'workerContext()').context;
}
