/**
 * @module charter/fastly
 * Fastly Compute. `listen(app)` registers the `fetch` event listener of a Compute service
 * (`addEventListener('fetch', (event) => event.respondWith(...))`); `toFastlyHandler(app)` answers
 * one event, for an entry point that does more. The client address is `event.client.address`;
 * `fastlyEvent(ctx.request)` gives handlers and hooks the event (geolocation, TLS fingerprints,
 * `waitUntil`).
 */
export type { FastlyAddEventListener, FastlyClientInfo, FastlyFetchEvent } from './fastly-types.ts';
export { type FastlyHandler, listen, toFastlyHandler } from './handler.ts';
export { fastlyEvent } from './platform.ts';
