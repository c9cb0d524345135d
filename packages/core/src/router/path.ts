/**
 * Path validation and normalisation shared by route registration and lookup.
 * Both sides normalise to the same canonical percent-encoded form, so a route
 * and a request match exactly when they name the same resource.
 */

/** Thrown by `Router.add()`; the message always names the offending path. */
export class RouteDefinitionError extends Error {
  override readonly name = 'RouteDefinitionError';
}

/** A `bad-path` lookup result; the pipeline answers it with 400. */
export interface BadPath {
  readonly kind: 'bad-path';
  readonly reason: string;
}

const bad = (reason: string): BadPath => Object.freeze({ kind: 'bad-path', reason });

// Shared, frozen results: rejecting a hostile path allocates nothing.
export const NOT_ABSOLUTE = bad('pathname must start with "/"');
export const EMPTY_SEGMENT = bad('empty path segment ("//")');
export const DOT_SEGMENT = bad('dot segment ("." or "..", raw or percent-encoded)');
export const ENCODED_SEPARATOR = bad('percent-encoded "/" or "\\" (%2F, %5C)');
export const BACKSLASH = bad('backslash in path');
export const MALFORMED_ESCAPE = bad('malformed percent-encoding (expected "%" and two hex digits)');
export const INVALID_UTF8 = bad('percent-encoded bytes are not valid UTF-8');
export const LONE_SURROGATE = bad('unpaired UTF-16 surrogate');
export const CONTROL = bad('control character (raw or percent-encoded)');

const HEX = '0123456789ABCDEF';
const escapeByte = (b: number): string => `%${HEX[b >> 4]}${HEX[b & 15]}`;

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * Character classes for the fast scan of request pathnames (ASCII only; every
 * non-ASCII code unit needs normalising).
 * 0: plain; 1: needs normalising; 2: '/' or '.', check segment context; 3: always bad.
 */
const SCAN = new Uint8Array(128);
/** ASCII characters `new URL()` percent-encodes in a path (WHATWG path percent-encode set). */
const ENCODE_RAW = new Uint8Array(128);
/** RFC 3986 §2.3 unreserved characters: their escapes are decoded when normalising (§6.2.2.2). */
const UNRESERVED = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) SCAN[c] = 3;
SCAN[0x7f] = 3;
SCAN[92] = 3; // '\'
SCAN[47] = 2; // '/'
SCAN[46] = 2; // '.'
for (const ch of ' "<>`{}') {
  ENCODE_RAW[ch.charCodeAt(0)] = 1;
  SCAN[ch.charCodeAt(0)] = 1;
}
SCAN[37] = 1; // '%'
// By code ranges, not a pattern per character: 128 pattern tests cost each process about half a
// millisecond at start-up (issue 18, item 6).
for (let c = 0x30; c <= 0x39; c++) UNRESERVED[c] = 1; // 0-9
for (let c = 0x41; c <= 0x5a; c++) UNRESERVED[c] = 1; // A-Z
for (let c = 0x61; c <= 0x7a; c++) UNRESERVED[c] = 1; // a-z
for (const ch of '-._~') UNRESERVED[ch.charCodeAt(0)] = 1;

/**
 * One pass over a request pathname, allocation-free. Returns 0 when the
 * pathname is already canonical, 1 when it holds escapes or characters that
 * need `normalizePathname()`, or the bad-path result for the raw rules it can
 * decide on its own (not absolute, `//`, raw dot segments, controls, `\`).
 */
export function scanPathname(p: string): 0 | 1 | BadPath {
  const n = p.length;
  if (n === 0 || p.charCodeAt(0) !== 47) return NOT_ABSOLUTE;
  let flag: 0 | 1 = 0;
  let prev = 47;
  for (let i = 1; i < n; i++) {
    const c = p.charCodeAt(i);
    const k = c < 128 ? SCAN[c]! : 1;
    if (k !== 0) {
      if (k === 1) flag = 1;
      else if (k === 3) return c === 92 ? BACKSLASH : CONTROL;
      else if (prev === 47) {
        // A '/' or '.' opening a segment: `//`, or a `.`/`..` segment (RFC 3986 §3.3).
        if (c === 47) return EMPTY_SEGMENT;
        const next = i + 1 < n ? p.charCodeAt(i + 1) : 47;
        if (next === 47) return DOT_SEGMENT;
        if (next === 46 && (i + 2 >= n || p.charCodeAt(i + 2) === 47)) return DOT_SEGMENT;
      }
    }
    prev = c;
  }
  return flag;
}

/**
 * Canonical form of one path segment (RFC 3986 §6.2.2): escapes get upper-case
 * hex (§6.2.2.1), escaped unreserved characters are decoded (§6.2.2.2), and raw
 * non-ASCII, spaces and the other characters `new URL()` would escape are
 * percent-encoded as UTF-8. Escaped bytes must form valid UTF-8 (RFC 3629, so no
 * overlongs or surrogates); C0/C1 controls, DEL, `\` and escaped `/` or `\` are
 * rejected because they only serve to smuggle separators or confuse logs.
 */
export function normalizeSegment(seg: string): string | BadPath {
  let out = '';
  let copied = 0; // seg[copied, i) is still to be appended verbatim
  let need = 0; // UTF-8 continuation bytes still expected
  let lower = 0x80;
  let upper = 0xbf;
  let lead = 0;
  const n = seg.length;
  let i = 0;
  while (i < n) {
    const c = seg.charCodeAt(i);
    if (c === 37) {
      const hi = i + 2 < n ? hexValue(seg.charCodeAt(i + 1)) : -1;
      const lo = hi < 0 ? -1 : hexValue(seg.charCodeAt(i + 2));
      if (lo < 0) return MALFORMED_ESCAPE;
      const b = (hi << 4) | lo;
      let piece: string;
      if (need > 0) {
        if (b < lower || b > upper) return INVALID_UTF8;
        if (lead === 0xc2 && b < 0xa0) return CONTROL; // U+0080..U+009F (C1)
        need--;
        lower = 0x80;
        upper = 0xbf;
        piece = escapeByte(b);
      } else if (b < 0x80) {
        if (b < 0x20 || b === 0x7f) return CONTROL;
        if (b === 0x2f || b === 0x5c) return ENCODED_SEPARATOR;
        piece = UNRESERVED[b] === 1 ? String.fromCharCode(b) : escapeByte(b);
      } else {
        // UTF-8 lead byte; the ranges exclude overlongs and surrogates (RFC 3629 §4).
        lead = b;
        if (b < 0xc2 || b > 0xf4) return INVALID_UTF8;
        need = b < 0xe0 ? 1 : b < 0xf0 ? 2 : 3;
        if (b === 0xe0) lower = 0xa0;
        else if (b === 0xed) upper = 0x9f;
        else if (b === 0xf0) lower = 0x90;
        else if (b === 0xf4) upper = 0x8f;
        piece = escapeByte(b);
      }
      // Only rebuild when the escape text actually changes (e.g. `%c3` -> `%C3`).
      if (piece !== seg.slice(i, i + 3)) {
        out += seg.slice(copied, i) + piece;
        copied = i + 3;
      }
      i += 3;
      continue;
    }
    if (need > 0) return INVALID_UTF8;
    if (c < 0x80) {
      if (c < 0x20 || c === 0x7f) return CONTROL;
      if (c === 92) return BACKSLASH;
      if (ENCODE_RAW[c] === 1) {
        out += seg.slice(copied, i) + escapeByte(c);
        copied = i + 1;
      }
      i++;
      continue;
    }
    if (c <= 0x9f) return CONTROL;
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < n ? seg.charCodeAt(i + 1) : 0;
      if (d < 0xdc00 || d > 0xdfff) return LONE_SURROGATE;
      cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      width = 2;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return LONE_SURROGATE;
    }
    out += seg.slice(copied, i) + encodeCodePoint(cp);
    i += width;
    copied = i;
  }
  if (need > 0) return INVALID_UTF8;
  return copied === 0 ? seg : out + seg.slice(copied);
}

function encodeCodePoint(cp: number): string {
  if (cp < 0x800) return escapeByte(0xc0 | (cp >> 6)) + escapeByte(0x80 | (cp & 63));
  if (cp < 0x10000) {
    return escapeByte(0xe0 | (cp >> 12)) + escapeByte(0x80 | ((cp >> 6) & 63)) + escapeByte(0x80 | (cp & 63));
  }
  return (
    escapeByte(0xf0 | (cp >> 18)) +
    escapeByte(0x80 | ((cp >> 12) & 63)) +
    escapeByte(0x80 | ((cp >> 6) & 63)) +
    escapeByte(0x80 | (cp & 63))
  );
}

/**
 * Canonical form of a whole request pathname, or why it is rejected. Dot
 * segments are checked after decoding, so `%2e%2E` is caught like `..`. A
 * trailing empty segment (trailing slash) is kept: it is a miss, not an error.
 */
export function normalizePathname(p: string): string | BadPath {
  if (p.charCodeAt(0) !== 47) return NOT_ABSOLUTE;
  const parts = p.split('/');
  const last = parts.length - 1;
  for (let i = 1; i <= last; i++) {
    const seg = parts[i]!;
    if (seg === '') {
      if (i < last) return EMPTY_SEGMENT;
      continue;
    }
    const norm = normalizeSegment(seg);
    if (typeof norm !== 'string') return norm;
    if (norm === '.' || norm === '..') return DOT_SEGMENT;
    parts[i] = norm;
  }
  return parts.join('/');
}

/** One parsed segment of a route pattern. */
export type RouteSegment =
  | { readonly kind: 'static'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'wildcard'; readonly name: string };

export interface ParsedRoute {
  /** Canonical pattern: static segments normalised, `:name`/`*name` kept. */
  readonly pattern: string;
  readonly segments: readonly RouteSegment[];
  /** Param and wildcard names in path order. */
  readonly names: readonly string[];
  readonly isStatic: boolean;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REGEX_SYNTAX = '(){}?';
const NOT_REGEX =
  'a parameter or wildcard must be a whole segment (mixed segments and regex paths are not accepted)';

function hasAny(s: string, chars: string): boolean {
  for (const ch of chars) if (s.includes(ch)) return true;
  return false;
}

function invalid(path: string, what: string): never {
  throw new RouteDefinitionError(`Invalid route path ${JSON.stringify(path)}: ${what}`);
}

/** Parses and validates a route pattern given to `Router.add()`. */
export function parseRoutePath(path: string): ParsedRoute {
  const fail = (what: string): never => invalid(path, what);
  if (typeof path !== 'string' || path.charCodeAt(0) !== 47) fail('it must start with "/"');
  if (path === '/') return { pattern: '/', segments: [], names: [], isStatic: true };
  if (path.endsWith('/')) fail('trailing slash (only the root path "/" may end with "/")');
  const raw = path.split('/');
  const segments: RouteSegment[] = [];
  const names: string[] = [];
  for (let i = 1; i < raw.length; i++) {
    const seg = raw[i]!;
    if (seg === '') fail('empty path segment ("//")');
    const sigil = seg[0];
    if (sigil === ':' || sigil === '*') {
      const kind = sigil === ':' ? 'param' : 'wildcard';
      const name = seg.slice(1);
      if (name === '') {
        fail(kind === 'param' ? 'a parameter needs a name (":id")' : 'a bare "*" needs a name ("*path")');
      }
      if (!IDENTIFIER.test(name)) {
        fail(
          hasAny(name, `${REGEX_SYNTAX}:*+`)
            ? `"${seg}" looks like pattern syntax; ${NOT_REGEX}`
            : `"${name}" is not a valid name ([A-Za-z_][A-Za-z0-9_]*); ${NOT_REGEX}`,
        );
      }
      if (name === '__proto__')
        fail('"__proto__" cannot be a name (assigning it would corrupt the params object)');
      if (names.includes(name)) fail(`the name "${name}" is used twice`);
      if (kind === 'wildcard' && i !== raw.length - 1) fail(`the wildcard "${seg}" must be the last segment`);
      names.push(name);
      segments.push({ kind, name });
      continue;
    }
    if (hasAny(seg, `${REGEX_SYNTAX}:*`)) fail(`"${seg}" contains pattern syntax; ${NOT_REGEX}`);
    if (seg.includes('#')) fail('"#" starts a fragment, which never reaches the server');
    const text = normalizeSegment(seg);
    if (typeof text !== 'string') return invalid(path, text.reason);
    if (text === '.' || text === '..') fail(DOT_SEGMENT.reason);
    segments.push({ kind: 'static', text });
  }
  let pattern = '';
  for (const s of segments) {
    pattern += s.kind === 'static' ? `/${s.text}` : `/${s.kind === 'param' ? ':' : '*'}${s.name}`;
  }
  return { pattern, segments, names, isStatic: names.length === 0 };
}
