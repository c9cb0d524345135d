// Header guards: field names and values (RFC 9110 §5.1, §5.5), fields that must appear once
// (RFC 9110, RFC 9112), and headers reserved for the framework's own use.
import { BadRequestError } from '../errors/index.ts';

/** Request headers in any shape a runtime hands over: `Headers`, name/value pairs, or Node's flat `rawHeaders`. */
export type HeaderSource = Headers | Iterable<readonly [string, string]> | readonly string[];

// tchar (RFC 9110 §5.6.2): "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" /
// "`" / "|" / "~" / DIGIT / ALPHA.
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~") TCHAR[c.charCodeAt(0)] = 1;
for (let c = 0x30; c <= 0x39; c++) TCHAR[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TCHAR[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) TCHAR[c] = 1;

/** True when `value` is an RFC 9110 §5.6.2 token (header names, cookie names, auth schemes). */
export function isHttpToken(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128 || TCHAR[c] !== 1) return false;
  }
  return true;
}

/**
 * Validates a field name (RFC 9110 §5.1: a token) and returns it lowercased, the form `Headers`
 * and HTTP/2 use. Throws a 400 otherwise: a name is never repaired, since a cleaned name would be
 * a different header.
 */
export function sanitizeHeaderName(name: string): string {
  if (typeof name !== 'string' || !isHttpToken(name)) {
    throw new BadRequestError('A header name is not a valid token (RFC 9110 §5.1)');
  }
  return name.toLowerCase();
}

function isFieldWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** `text` without leading or trailing OWS, i.e. SP and HTAB (RFC 9110 §5.6.3). */
export function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isFieldWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isFieldWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * Validates a field value and returns it without leading or trailing SP/HTAB (RFC 9110 §5.5).
 * Throws a 400 for CR, LF, NUL, any other control character but HTAB, DEL, or a character above
 * U+00FF: CR/LF would split the header block (response splitting), and a field value is bytes, so
 * wider characters have no single encoding. The value is refused rather than cleaned, so a caller
 * never sends something other than what it meant. `name` only labels the error.
 */
export function sanitizeHeaderValue(value: string, name?: string): string {
  const label = name === undefined ? 'A header value' : `The value of the "${safeLabel(name)}" header`;
  if (typeof value !== 'string') throw new BadRequestError(`${label} is not a string`);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) {
      throw new BadRequestError(`${label} contains a control character (RFC 9110 §5.5)`);
    }
    if (c > 0xff) throw new BadRequestError(`${label} contains a character outside Latin-1 (RFC 9110 §5.5)`);
  }
  return trimOws(value);
}

/** A header name fit to quote in an error detail: a token (cut at 64 characters), anything else replaced. */
function safeLabel(name: string): string {
  if (!isHttpToken(name)) return '(invalid name)';
  const lower = name.toLowerCase();
  return lower.length <= 64 ? lower : `${lower.slice(0, 64)}...`;
}

/**
 * Fields a request may carry once, each a source of parser disagreement when repeated:
 * - `host`: RFC 9112 §3.2 requires a 400 for more than one Host line.
 * - `content-length`: RFC 9112 §6.3 (5) makes differing lengths an unrecoverable framing error; an
 *   identical repeat is refused too, as RFC 9110 §8.6 lets a recipient do.
 * - `transfer-encoding`: a list field in theory, but a second line is the classic TE.TE smuggling
 *   probe (RFC 9112 §11.2); a request never needs one.
 * - `content-type` (RFC 9110 §8.3), `authorization` (§11.6.2), `proxy-authorization` (§11.7.2):
 *   singleton fields whose repeats let a proxy and the app read different values.
 * `cookie` is absent on purpose: HTTP/2 may split it into several fields (RFC 9113 §8.2.3).
 */
export const DEFAULT_SINGLETON_HEADERS: readonly string[] = Object.freeze([
  'host',
  'content-length',
  'transfer-encoding',
  'content-type',
  'authorization',
  'proxy-authorization',
]);

// A `Headers` object has already joined repeats with ", ". A comma can never appear in a valid
// Content-Length (1*DIGIT) or in a DNS host, so for these two the joined form is detectable.
const JOINED_FORM_DETECTABLE = new Set(['content-length', 'host']);

/** Every name/value pair of a header source, names lowercased. */
function* headerPairs(headers: HeaderSource): Iterable<[string, string]> {
  if (Array.isArray(headers) && (headers.length === 0 || typeof headers[0] === 'string')) {
    const raw = headers as readonly string[];
    if (raw.length % 2 !== 0) throw new TypeError('rawHeaders must hold name/value pairs (an even length)');
    for (let i = 0; i < raw.length; i += 2) yield [String(raw[i]).toLowerCase(), String(raw[i + 1])];
    return;
  }
  for (const [name, value] of headers as Iterable<readonly [string, string]>) {
    yield [String(name).toLowerCase(), String(value)];
  }
}

/**
 * Throws a 400 when a singleton field appears twice, in raw form (pairs or Node `rawHeaders`) or,
 * for Content-Length and Host, joined by a `Headers` object. `singletons` replaces the default list.
 */
export function assertNoDuplicateSingletonHeaders(
  headers: HeaderSource,
  singletons: readonly string[] = DEFAULT_SINGLETON_HEADERS,
): void {
  const watched = new Set(singletons.map((name) => name.toLowerCase()));
  const seen = new Set<string>();
  for (const [name, value] of headerPairs(headers)) {
    if (!watched.has(name)) continue;
    if (seen.has(name) || (JOINED_FORM_DETECTABLE.has(name) && value.includes(','))) {
      throw new BadRequestError(`The request has more than one "${safeLabel(name)}" header`);
    }
    seen.add(name);
  }
}

/**
 * Headers a client must never send: they carry meaning only between the framework's own parts.
 * `x-charter-*` is the framework's namespace; `x-middleware-subrequest` is the header that let
 * clients skip middleware in another framework (CVE-2025-29927), refused so no mounted code trusts
 * it. An entry ending in `*` is a prefix.
 */
export const DEFAULT_RESERVED_INTERNAL_HEADERS: readonly string[] = Object.freeze([
  'x-charter-*',
  'x-middleware-subrequest',
]);

/**
 * Throws a 400 when the request carries a reserved internal header: the defaults plus `reserved`
 * (exact names, or prefixes written with a trailing `*`; case-insensitive).
 */
export function assertNoReservedInternalHeaders(
  headers: HeaderSource,
  reserved: readonly string[] = [],
): void {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const entry of [...DEFAULT_RESERVED_INTERNAL_HEADERS, ...reserved]) {
    const lower = entry.toLowerCase();
    if (lower.endsWith('*')) prefixes.push(lower.slice(0, -1));
    else exact.add(lower);
  }
  for (const [name] of headerPairs(headers)) {
    if (exact.has(name) || prefixes.some((prefix) => name.startsWith(prefix))) {
      throw new BadRequestError(`The request carries the reserved internal header "${safeLabel(name)}"`);
    }
  }
}
