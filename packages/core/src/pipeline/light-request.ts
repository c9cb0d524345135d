/**
 * Requests an adapter hands to the pipeline without building a Fetch `Request` first. On Node, the
 * undici `Request` constructor (URL parsing, a header list validated line by line, a body stream, an
 * AbortSignal it follows) costs more than the rest of a small route's work. An adapter may instead
 * pass an object that answers what the pipeline reads (method, url, headers, bytes()) and builds the
 * real Request only when asked, through `[REAL_REQUEST]()`.
 *
 * The pipeline keeps such an object to itself: user code (hooks, handlers through `ctx.request`,
 * onError, onSend, onResponse) always receives the real Request (`userRequest`), so `fetch(request)`,
 * `new Request(request)` and `request.clone()` work as on any runtime. An adapter that builds the
 * real Request copies onto it what it recorded on the light one (the peer address, a TLS client
 * certificate), so `clientIp()` and `mutualTls()` see the same facts.
 */

/** The method a light request implements to build (once) and return its real Request. */
export const REAL_REQUEST: unique symbol = Symbol('charter.realRequest');

interface LightRequest {
  [REAL_REQUEST](): Request;
}

/**
 * The method a light request implements when its whole content had arrived before the pipeline
 * started (a small body in the same packets as its head): the bytes, handed over once (the body
 * reads as used from then on), or undefined when the content is not held so (read it the usual way).
 * The pipeline then parses the body in the same step as the rest of the request: no promise per
 * request with a body.
 */
export const RECEIVED_BODY: unique symbol = Symbol('charter.receivedBody');

/** The content `request` already holds, taken now (see RECEIVED_BODY); undefined for any other request. */
export function takeReceivedBody(request: Request): Uint8Array | undefined {
  const take = (request as Request & { [RECEIVED_BODY]?: () => Uint8Array | undefined })[RECEIVED_BODY];
  return take === undefined ? undefined : take.call(request);
}

/** The Request user code sees for `request`: itself, or the real one a light request builds. */
export function userRequest(request: Request): Request {
  const light = request as Request & Partial<LightRequest>;
  const build = light[REAL_REQUEST];
  return build === undefined ? request : build.call(light);
}
