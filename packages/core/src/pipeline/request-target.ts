/**
 * The request target and Host field, checked before anything else sees the request (RFC 9112 §3.2,
 * RFC 9110 §7.2). Every request that reaches a hook or a route has an absolute `http(s)` URL whose
 * authority came from a valid Host; anything else is answered here, with no hook run, because a hook
 * that parses `request.url` would otherwise throw (a 500 and an error log line for each such request).
 */
import { BadRequestError, HttpError } from '../errors/index.ts';

/** What a runtime passes beside the request (Bun's `fetch(request, server)`): the listening address. */
export interface ServingAddress {
  readonly url: URL | string;
}

/** The outcome of the target check: the request to serve (maybe rebuilt), or the error to answer. */
export type TargetCheck = Request | HttpError;

// The last Host value that passed: nearly every request to a server carries the same one, so the
// character scan runs once, and each later request pays one string comparison.
let lastValidHost: string | undefined;

/**
 * The request to serve, or the error to answer:
 * - a Host field that is not `uri-host [":" port]` (RFC 9110 §7.2), is empty (RFC 9110 §4.2.1: an
 *   http URI never has an empty host), or holds two values (RFC 9112 §3.2): 400;
 * - CONNECT (authority-form target, RFC 9110 §9.3.6), which this framework does not tunnel: 501;
 * - no Host at all (HTTP/1.0, where RFC 9112 §3.2 lets it be absent) and a relative target: rebuilt
 *   on the address the server listens on, as the Node adapter does;
 * - any other target that is not an absolute `http(s)` URL: 400.
 */
export function checkRequestTarget(
  request: Request,
  serving: ServingAddress | undefined,
  method: string = request.method,
): TargetCheck {
  const hostField = request.headers.get('host');
  if (hostField === lastValidHost) return method === 'CONNECT' ? connectNotSupportedError() : request;
  if (hostField !== null) {
    const problem = hostProblem(hostField);
    if (problem !== undefined) return new BadRequestError(problem);
    if (method === 'CONNECT') return connectNotSupportedError();
    // Fetch-built requests always have an absolute URL; only a runtime's server can hand over one
    // whose target did not combine with the Host (Bun does so for the values refused above).
    if (!isAbsoluteHttpUrl(request.url)) return new BadRequestError('The request target is not a valid URL');
    lastValidHost = hostField;
    return request;
  }
  if (method === 'CONNECT') return connectNotSupportedError();
  const url = request.url;
  if (isAbsoluteHttpUrl(url)) return request;
  if (url.charCodeAt(0) === SLASH && serving !== undefined) {
    const rebuilt = `${origin(serving.url)}${url}`;
    if (URL.canParse(rebuilt)) return new Request(rebuilt, request);
  }
  return new BadRequestError('The request needs a Host header field (RFC 9112 §3.2)');
}

const SLASH = 0x2f;

/** RFC 9110 §9.3.6 / §15.6.2: a server that does not act as a tunnel answers CONNECT 501. */
export function connectNotSupportedError(): HttpError {
  // The client's own doing, not an internal failure: the detail stays in production.
  return new HttpError({ status: 501, detail: 'The CONNECT method is not supported', internal: false });
}

function isAbsoluteHttpUrl(url: string): boolean {
  return (url.startsWith('http://') || url.startsWith('https://')) && URL.canParse(url);
}

function origin(url: URL | string): string {
  const text = typeof url === 'string' ? url : url.href;
  return text.endsWith('/') ? text.slice(0, -1) : text;
}

/**
 * Why a Host field value is refused, or undefined when it is a valid authority. RFC 3986 §3.2.2 host:
 * an IP-literal in brackets, or a reg-name of unreserved, sub-delims and %-escapes; then an optional
 * port of digits. Userinfo (`@`), a path, whitespace and bytes outside ASCII are refused: spliced
 * into the URL they would let a client choose the path or the origin the app sees.
 */
export function hostProblem(value: string): string | undefined {
  if (value.length === 0) return 'The Host header field is empty';
  if (value.includes(',')) return 'The request has more than one Host header field';
  let end = value.length;
  // The port: the digits after the last colon, unless that colon is inside an IP literal.
  const colon = value.lastIndexOf(':');
  if (colon >= 0 && colon > value.lastIndexOf(']')) {
    const port = value.slice(colon + 1);
    if (!/^\d{0,5}$/.test(port) || (port.length > 0 && Number(port) > 65_535)) {
      return 'The Host header field has an invalid port';
    }
    end = colon;
  }
  if (end === 0) return 'The Host header field has no host';
  const host = value.slice(0, end);
  if (host.charCodeAt(0) === 0x5b /* [ */) {
    // An IP literal must be one a URL parser accepts (IPv6; WHATWG URL refuses IPvFuture).
    if (!host.endsWith(']') || !URL.canParse(`http://${host}/`))
      return 'The Host header field has an invalid IP literal';
    return undefined;
  }
  for (let i = 0; i < host.length; i++) {
    if (!REG_NAME[host.charCodeAt(i)]) return 'The Host header field is not a valid host name';
  }
  // %-escapes and the rarer sub-delims must still make a URL the runtime can parse.
  return URL.canParse(`http://${value}/`) ? undefined : 'The Host header field is not a valid host name';
}

/** RFC 3986 §3.2.2 reg-name characters: unreserved, sub-delims and `%` (of a pct-encoded triple). */
const REG_NAME: readonly boolean[] = (() => {
  const table = new Array<boolean>(128).fill(false);
  const allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+;=%";
  for (const char of allowed) table[char.charCodeAt(0)] = true;
  return table;
})();
