/**
 * The header section of a Node request as the pipeline reads it (light-request.ts): `get`, `has` and
 * the field count answered straight from `req.rawHeaders`, without building an undici `Headers`, whose
 * construction (a header list, one entry object and one lower-cased name per line) costs more than the
 * few lookups the pipeline makes. Anything else (iteration, `set`, `append`, `delete`, `getSetCookie`)
 * builds the real `Headers` once, from the same lines, and is answered by it from then on.
 *
 * The lines are checked when the request is made, as `Headers` would check them (a name that is not a
 * token, a value holding NUL, CR or LF: a TypeError), so a request Fetch would refuse is refused the
 * same way. Values are compared and joined as `Headers` does: names case-insensitively, repeated fields
 * joined with ", " (RFC 9110 §5.3), leading and trailing whitespace removed (Node's parser already
 * removed it from what it read off a socket).
 */

import { isHttpToken } from '@charter/core';

/**
 * Whether a field value holds what it may never hold (Fetch standard, "header value": NUL, CR or LF),
 * checked by character rather than with a regular expression: every request runs it on each line.
 */
function hasForbiddenValueChar(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x0e && (c === 0x00 || c === 0x0a || c === 0x0d)) return true;
  }
  return false;
}

/** The bit of a field name's length in a set of lengths (`NodeLightHeaders` #lengths). */
const lengthBit = (name: string): number => 1 << (name.length & 31);

const isWhitespace = (code: number): boolean => code === 0x20 || code === 0x09;

/**
 * Whether field name `name` is `lower` (a lower-case name of the same length or not), compared
 * ASCII case-insensitively as field names are (RFC 9110 §5.1), without making a lower-cased copy.
 */
export function isFieldName(name: string, lower: string): boolean {
  const n = name.length;
  if (n !== lower.length) return false;
  if (name === lower) return true;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/** A value as `Headers` stores it: without leading or trailing spaces and tabs. */
function normalized(value: string): string {
  const n = value.length;
  if (n === 0 || (!isWhitespace(value.charCodeAt(0)) && !isWhitespace(value.charCodeAt(n - 1)))) return value;
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** The light headers; see the module comment. */
export class NodeLightHeaders {
  readonly #raw: readonly string[];
  /** RFC 9110 §7.8: Upgrade is ignored in an HTTP/1.0 request (no WebSocket handshake). */
  readonly #ignoreUpgrade: boolean;
  /**
   * The lengths of the field names present, one bit per length modulo 32: a name whose bit is clear
   * is absent without looking at any line. Most lookups the pipeline makes are for fields a request
   * does not carry (X-Forwarded-For and Forwarded on every request, Origin and Sec-Fetch-Site on
   * every POST).
   */
  readonly #lengths: number;
  #real: Headers | undefined = undefined;

  /** Throws a TypeError, as `Headers` would, for a line it refuses. */
  constructor(raw: readonly string[], ignoreUpgrade: boolean) {
    let lengths = 0;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] as string;
      if (!isHttpToken(name)) throw new TypeError(`Invalid header name: ${JSON.stringify(name)}`);
      if (hasForbiddenValueChar(raw[i + 1] as string)) {
        throw new TypeError(`Invalid value of header ${JSON.stringify(name)}`);
      }
      lengths |= lengthBit(name);
    }
    this.#raw = raw;
    this.#ignoreUpgrade = ignoreUpgrade;
    this.#lengths = lengths;
  }

  /** Whether line `i` is an Upgrade line this request ignores. */
  #ignored(name: string): boolean {
    return this.#ignoreUpgrade && isFieldName(name, 'upgrade');
  }

  /** The real Headers: every line, in order (repeated fields stay repeated). Built once. */
  real(): Headers {
    let real = this.#real;
    if (real === undefined) {
      linkLightHeaders();
      real = new Headers();
      const raw = this.#raw;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = raw[i] as string;
        if (!this.#ignored(name)) real.append(name, raw[i + 1] as string);
      }
      this.#real = real;
    }
    return real;
  }

  /**
   * How many field lines the request carries (what the core's header-count guard reads, as it reads
   * Bun's native count); the adapter refused a request with too many before it was made.
   */
  get count(): number {
    const real = this.#real;
    if (real !== undefined) {
      let n = 0;
      for (const _ of real.keys()) n++;
      return n;
    }
    return this.#raw.length >> 1;
  }

  get(name: string): string | null {
    if (this.#real !== undefined || !isHttpToken(name)) return this.real().get(name);
    if ((this.#lengths & lengthBit(name)) === 0) return null;
    const wanted = name.toLowerCase();
    const raw = this.#raw;
    let found: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const line = raw[i] as string;
      if (!isFieldName(line, wanted) || this.#ignored(line)) continue;
      const value = normalized(raw[i + 1] as string);
      found = found === null ? value : `${found}, ${value}`;
    }
    return found;
  }

  has(name: string): boolean {
    if (this.#real !== undefined || !isHttpToken(name)) return this.real().has(name);
    if ((this.#lengths & lengthBit(name)) === 0) return false;
    const wanted = name.toLowerCase();
    const raw = this.#raw;
    for (let i = 0; i < raw.length; i += 2) {
      const line = raw[i] as string;
      if (isFieldName(line, wanted) && !this.#ignored(line)) return true;
    }
    return false;
  }

  getSetCookie(): string[] {
    return this.real().getSetCookie();
  }
  set(name: string, value: string): void {
    this.real().set(name, value);
  }
  append(name: string, value: string): void {
    this.real().append(name, value);
  }
  delete(name: string): void {
    this.real().delete(name);
  }
  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.real().forEach((value, key) => callback.call(thisArg, value, key, this as unknown as Headers));
  }
  entries(): HeadersIterator<[string, string]> {
    return this.real().entries();
  }
  keys(): HeadersIterator<string> {
    return this.real().keys();
  }
  values(): HeadersIterator<string> {
    return this.real().values();
  }
  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.real()[Symbol.iterator]();
  }
}

// `Object.prototype.toString` says Headers.
Object.defineProperty(NodeLightHeaders.prototype, Symbol.toStringTag, { value: 'Headers' });

let linked = false;

/**
 * Puts `Headers.prototype` under the light headers, so `instanceof Headers` holds and a member this
 * class does not define would reach Headers.prototype and fail its brand check loudly, never
 * silently. Done when the real `Headers` or `Request` is first built, not at import: naming `Headers`
 * on Node loads undici (about 35 ms of a start), which a server whose user code never asks for a web
 * object does not need. User code never holds light headers (it receives the real Request).
 */
export function linkLightHeaders(): void {
  if (linked) return;
  linked = true;
  Object.setPrototypeOf(NodeLightHeaders.prototype, Headers.prototype);
}
