/**
 * The parts of Fastly Compute's JavaScript runtime this adapter uses, declared here (no dependency on
 * `@fastly/js-compute`): the `fetch` event of the Service Worker style entry point, and its client
 * information ("FetchEvent", "ClientInfo" in the runtime's type declarations).
 */

/** The downstream client of a request. */
export interface FastlyClientInfo {
  /** The client's IPv4 or IPv6 address, as the Fastly edge saw the connection. */
  readonly address: string;
  readonly requestId?: string;
  readonly geo?: unknown;
  readonly tlsJA3MD5?: string | null;
  readonly tlsJA4?: string | null;
  readonly [key: string]: unknown;
}

/** The event the runtime dispatches for each downstream request. */
export interface FastlyFetchEvent {
  readonly request: Request;
  readonly client: FastlyClientInfo;
  readonly server?: { readonly address?: string; readonly [key: string]: unknown };
  /** Sends the response; the service stays alive until it is fully sent. */
  respondWith(response: Response | PromiseLike<Response>): void;
  /** Keeps the service alive for work that outlives the response. */
  waitUntil(promise: Promise<unknown>): void;
}

/** The runtime's global `addEventListener`, for the `fetch` event. */
export type FastlyAddEventListener = (type: 'fetch', listener: (event: FastlyFetchEvent) => void) => void;
