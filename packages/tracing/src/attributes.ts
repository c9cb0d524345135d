/**
 * Span attributes of an HTTP server span, following the OpenTelemetry semantic conventions for HTTP
 * (stable since v1.23; "HTTP server span" and "HTTP request and response headers").
 */
import type { OtelAttributes } from './otel-types.ts';

/** The methods the conventions know (RFC 9110 §9 plus PATCH, RFC 5789); any other is `_OTHER`. */
export const KNOWN_HTTP_METHODS: ReadonlySet<string> = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);

/** What replaces a redacted query value, as the conventions spell it for `url.query`. */
export const TRACE_REDACTED = 'REDACTED';

/**
 * `http.request.method` and, for a method outside the known set, `http.request.method_original`.
 * Methods are case-sensitive (RFC 9110 §9.1): `get` is `_OTHER` with the original `get`.
 */
export function methodAttributes(method: string): { method: string; original: string | undefined } {
  return KNOWN_HTTP_METHODS.has(method)
    ? { method, original: undefined }
    : { method: '_OTHER', original: method };
}

/**
 * The span name: `{method} {http.route}`, or `{method}` alone when no route matched. An unknown method
 * is named `HTTP`, so that arbitrary method strings cannot multiply span names.
 */
export function spanName(method: string, route: string | undefined): string {
  const shown = KNOWN_HTTP_METHODS.has(method) ? method : 'HTTP';
  return route === undefined ? shown : `${shown} ${route}`;
}

/** Scheme, path and query (without `?`, undefined when absent or empty) of an absolute request URL. */
export function urlParts(url: string): { scheme: string; path: string; query: string | undefined } {
  const colon = url.indexOf(':');
  const scheme = url.slice(0, colon).toLowerCase();
  // An absolute http(s) URL as the Request holds it: `scheme://authority/path?query#fragment`.
  const authorityStart = url.startsWith('//', colon + 1) ? colon + 3 : colon + 1;
  let end = url.indexOf('#', authorityStart);
  if (end === -1) end = url.length;
  let pathStart = authorityStart;
  while (pathStart < end && url[pathStart] !== '/' && url[pathStart] !== '?') pathStart++;
  const q = url.indexOf('?', pathStart);
  const pathEnd = q === -1 || q > end ? end : q;
  const path = pathStart === pathEnd ? '/' : url.slice(pathStart, pathEnd);
  const query = q === -1 || q > end || q + 1 === end ? undefined : url.slice(q + 1, end);
  return { scheme, path, query };
}

/**
 * The query with every value replaced by `REDACTED`, names kept: `a=1&b=2` gives
 * `a=REDACTED&b=REDACTED`. An empty value stays empty (it hides nothing); a piece without `=` is
 * replaced whole, since a bare piece (`?s3cr3t`) is as often a secret as a flag.
 */
export function redactQueryString(query: string): string {
  return query
    .split('&')
    .map((piece) => {
      if (piece.length === 0) return piece;
      const eq = piece.indexOf('=');
      if (eq === -1) return TRACE_REDACTED;
      return eq === piece.length - 1 ? piece : `${piece.slice(0, eq)}=${TRACE_REDACTED}`;
    })
    .join('&');
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443 };

function isRegNameChar(c: number): boolean {
  // A DNS name or IPv4 address: letters, digits, `-`, `.`, `_`, `~` (RFC 3986 §3.2.2 unreserved).
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x2d ||
    c === 0x2e ||
    c === 0x5f ||
    c === 0x7e
  );
}

function isIpv6Char(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x46) ||
    (c >= 0x61 && c <= 0x66) ||
    c === 0x3a ||
    c === 0x2e
  );
}

function parsePort(text: string): number | undefined {
  if (text.length === 0 || text.length > 5) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  const port = Number(text);
  return port <= 65535 ? port : undefined;
}

/**
 * `server.address` and `server.port` from a Host field value (RFC 9110 §7.2: `uri-host [":" port]`).
 * An IPv6 literal loses its brackets; without a port, the scheme's default (80, 443) is used. A value
 * that is not a plain host name, IPv4 or IPv6 address gives undefined (nothing recorded).
 */
export function parseHost(
  host: string,
  scheme: string,
): { address: string; port: number | undefined } | undefined {
  if (host.length === 0 || host.length > 261) return undefined;
  let address: string;
  let rest: string;
  if (host.charCodeAt(0) === 0x5b) {
    const close = host.indexOf(']');
    if (close === -1) return undefined;
    address = host.slice(1, close);
    rest = host.slice(close + 1);
    if (address.length === 0) return undefined;
    for (let i = 0; i < address.length; i++) if (!isIpv6Char(address.charCodeAt(i))) return undefined;
  } else {
    const colon = host.indexOf(':');
    address = colon === -1 ? host : host.slice(0, colon);
    rest = colon === -1 ? '' : host.slice(colon);
    if (address.length === 0 || address.length > 255) return undefined;
    for (let i = 0; i < address.length; i++) if (!isRegNameChar(address.charCodeAt(i))) return undefined;
  }
  let port: number | undefined = DEFAULT_PORTS[scheme];
  if (rest.length > 0) {
    if (rest.charCodeAt(0) !== 0x3a) return undefined;
    // RFC 3986 §3.2.3: an empty port means the scheme's default.
    if (rest.length > 1) {
      port = parsePort(rest.slice(1));
      if (port === undefined) return undefined;
    }
  }
  return { address: address.toLowerCase(), port };
}

/**
 * `<prefix><name>` attributes for the listed headers present in `headers`: a one-element array holding
 * the field value (several lines of one field arrive combined with `, `, RFC 9110 §5.3).
 */
export function headerAttributes(
  prefix: 'http.request.header.' | 'http.response.header.',
  names: readonly string[],
  headers: Headers,
): OtelAttributes {
  const out: OtelAttributes = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) out[prefix + name] = [value];
  }
  return out;
}
