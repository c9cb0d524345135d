/**
 * The Fastly `fetch` event of a request (client information, `waitUntil`), kept per request like the
 * adapters' other per-request records, so handlers and hooks read it from `ctx.request`.
 */
import { originalRequest } from '@charter/core';
import type { FastlyFetchEvent } from './fastly-types.ts';

const events = new WeakMap<Request, FastlyFetchEvent>();

/** For the adapter: records the event a request came with. */
export function setFastlyEvent(request: Request, event: FastlyFetchEvent): void {
  events.set(request, event);
}

/**
 * The Fastly `fetch` event a request arrived with (`client.geo`, `client.tlsJA4`, `waitUntil`...);
 * undefined for a request that did not come through charter/fastly (`app.request()` in a test).
 *
 * @example
 * const country = (fastlyEvent(ctx.request)?.client.geo as { country_code?: string } | null)?.country_code;
 */
export function fastlyEvent(request: Request): FastlyFetchEvent | undefined {
  return events.get(request) ?? events.get(originalRequest(request));
}
