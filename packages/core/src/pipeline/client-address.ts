/**
 * Which client sent a request. Adapters know the peer (the socket's remote address); the App knows
 * its proxy posture. A request is bound to its App's resolver only when code that may ask for the
 * address runs (onRequest hooks, `ctx.request`), so requests that never ask pay nothing.
 */

/**
 * Answers the client address of a request under one App's proxy posture. An App's resolver also
 * carries `peer`, the socket's remote address as the adapter knows it (lazily, on Bun), so
 * `requestPeer` works on every adapter.
 */
export type ClientAddressResolver = ((request: Request) => string | undefined) & {
  readonly peer?: (request: Request) => string | undefined;
};

const resolvers = new WeakMap<Request, ClientAddressResolver>();
const peers = new WeakMap<Request, string>();
const originals = new WeakMap<Request, Request>();

/** Records that `wrapper` (the `ctx.request` user code sees) stands for `original`. */
export function linkRequest(wrapper: Request, original: Request): void {
  originals.set(wrapper, original);
}

/**
 * The Request the adapter handed to the App, given it or the `ctx.request` wrapper built from it:
 * hooks that keep per-request state from onRequest (which sees the original) find it again from a
 * context.
 */
export function originalRequest(request: Request): Request {
  return originals.get(request) ?? request;
}

/** Binds a request to the resolver of the App handling it. */
export function bindClientAddress(request: Request, resolver: ClientAddressResolver): void {
  resolvers.set(request, resolver);
}

/** For adapters: records the remote address of the connection a request arrived on. */
export function setRequestPeer(request: Request, address: string): void {
  peers.set(request, address);
}

/**
 * The remote address of the connection a request arrived on (never a forwarded header): the one an
 * adapter recorded, else the one the App's adapter resolves on demand. Undefined for in-process
 * requests.
 */
export function requestPeer(request: Request): string | undefined {
  // The ctx.request wrapper arrived on its original's connection.
  const original = originals.get(request);
  if (original !== undefined) return requestPeer(original);
  return peers.get(request) ?? resolvers.get(request)?.peer?.(request);
}

/**
 * The client address of a request being handled by an App, honouring the App's `behindProxy` /
 * `trustProxy` posture for X-Forwarded-For and RFC 7239 Forwarded. Undefined when the request is
 * not being handled by an App, or when the address cannot be known (in-process requests, or an
 * obfuscated `Forwarded` identifier where the client should be).
 */
export function clientIp(request: Request): string | undefined {
  return resolvers.get(request)?.(request);
}
