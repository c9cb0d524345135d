/**
 * The context Vercel passes beside the request to a web handler (`{ waitUntil }` outside Next.js),
 * kept per request like the adapters' other per-request records, so handlers and hooks read it from
 * `ctx.request`.
 */
import { originalRequest } from '@charter/core';

/** The second argument of a Vercel web handler. */
export interface VercelContext {
  /** Keeps the function alive for work that outlives the response (logs, analytics, cache fills). */
  waitUntil?(promise: Promise<unknown>): void;
  [key: string]: unknown;
}

const contexts = new WeakMap<Request, VercelContext>();

/** For the adapter: records what Vercel passed beside `request`. */
export function setVercelContext(request: Request, context: VercelContext): void {
  contexts.set(request, context);
}

/**
 * The Vercel context of a request served by a web handler of `toVercelHandlers` (`waitUntil`);
 * undefined for other requests (the Node form, `app.request()` in a test), so use `?.`.
 *
 * @example
 * vercelContext(ctx.request)?.waitUntil?.(sendAnalytics(event));
 */
export function vercelContext(request: Request): VercelContext | undefined {
  return contexts.get(request) ?? contexts.get(originalRequest(request));
}
