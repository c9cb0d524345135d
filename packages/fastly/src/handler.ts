/**
 * Fastly Compute's JavaScript entry point is a Service Worker style `fetch` event:
 * `addEventListener('fetch', (event) => event.respondWith(...))`. `toFastlyHandler(app)` answers one
 * event; `listen(app)` registers it on the runtime's global `addEventListener`. The App's body limit,
 * timeout, secure headers and problem documents apply as on any runtime.
 */
import { type App, handleWithoutWebSockets, setRequestPeer } from '@charter/core';
import type { FastlyAddEventListener, FastlyFetchEvent } from './fastly-types.ts';
import { setFastlyEvent } from './platform.ts';

/** Answers one `fetch` event with the App's response. */
export type FastlyHandler = (event: FastlyFetchEvent) => Promise<Response>;

/**
 * Refuses WebSocket routes: a Compute service answers requests; WebSockets reach it only through
 * Fanout, which hands over messages as separate requests (another model than `app.ws`).
 */
function assertFastlyServable(app: App, entry: string): void {
  const sockets = app.wsRoutes();
  if (sockets.length > 0) {
    throw new Error(
      `${entry}: the App has WebSocket routes (${sockets.map((route) => route.path).join(', ')}), which Fastly ` +
        'Compute cannot serve in the app: a service answers requests and holds no upgraded connection. ' +
        'Serve them from a long-running server (charter/node, charter/bun), or remove them from the Fastly app.',
    );
  }
}

/**
 * The handler of an App for Fastly Compute `fetch` events. The client address (`clientIp`, rate
 * limits) is `event.client.address`, the connection the Fastly edge accepted.
 *
 * @example
 * addEventListener('fetch', (event) => event.respondWith(handler(event)));
 */
export function toFastlyHandler(app: App): FastlyHandler {
  assertFastlyServable(app, 'toFastlyHandler');
  return async (event) => {
    const request = event.request;
    setFastlyEvent(request, event);
    const address = event.client?.address;
    if (typeof address === 'string' && address !== '') setRequestPeer(request, address);
    // A WebSocket route registered after the listener was made: Compute cannot complete it.
    return handleWithoutWebSockets(app, request, 'Fastly Compute');
  };
}

/**
 * Serves an App on Fastly Compute: registers the `fetch` event listener that answers every request
 * with it. Call it once, at the top level of the entry file. Throws when there is no global
 * `addEventListener` (not the Compute runtime) and for WebSocket routes.
 *
 * @example
 * // src/index.ts
 * import { listen } from 'charter/fastly';
 * import { app } from './app.ts';
 * listen(app);
 */
export function listen(app: App, addListener?: FastlyAddEventListener): void {
  const register =
    addListener ??
    (globalThis as { addEventListener?: FastlyAddEventListener }).addEventListener?.bind(globalThis);
  if (typeof register !== 'function') {
    throw new Error(
      'listen: there is no global addEventListener to register the fetch event on; it is provided by the ' +
        'Fastly Compute runtime. Elsewhere use toFastlyHandler(app) with your own event.',
    );
  }
  const handler = toFastlyHandler(app);
  register('fetch', (event) => event.respondWith(handler(event)));
}
