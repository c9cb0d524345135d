/**
 * W3C Trace Context (Recommendation, Level 1): parsing the `traceparent` (§3.2) and `tracestate`
 * (§3.3) request headers strictly. A header that breaks any rule is discarded, never repaired: an
 * invalid `traceparent` starts a new trace (§3.2.2, §4.3), an invalid `tracestate` is dropped whole
 * (§3.3.1.3) without affecting `traceparent`. Plain string scanning, no regular expressions.
 */
import type { OtelTraceState } from './otel-types.ts';

/** A caller's span, as a valid `traceparent` names it. */
export interface TraceParent {
  /** 32 lower-case hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lower-case hex digits, not all zero. */
  readonly parentId: string;
  /** Only the `sampled` bit (0x01) is kept: it is the only flag Level 1 defines (§3.2.2.5). */
  readonly traceFlags: number;
}

/** Length of a version-00 `traceparent`: `vv-<32>-<16>-ff` (§3.2.2). */
const VERSION_00_LENGTH = 55;

function isLowerHex(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

function isAllZero(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) !== 0x30) return false;
  return true;
}

/**
 * Parses a `traceparent` header value, or answers undefined when it is invalid: version `00` must be
 * exactly 55 characters; lower-case hex only; trace-id and parent-id must not be all zeros; version `ff`
 * is invalid. A higher version is read as version 00 followed by `-` and more data (§4.3 "Versioning").
 */
export function parseTraceParent(value: string | null | undefined): TraceParent | undefined {
  if (typeof value !== 'string' || value.length < VERSION_00_LENGTH) return undefined;
  if (!isLowerHex(value, 0, 2) || value.charCodeAt(2) !== 0x2d) return undefined;
  const version = value.slice(0, 2);
  if (version === 'ff') return undefined;
  if (version === '00') {
    if (value.length !== VERSION_00_LENGTH) return undefined;
  } else if (value.length > VERSION_00_LENGTH && value.charCodeAt(VERSION_00_LENGTH) !== 0x2d) {
    // §4.3: after the flags of a future version comes the end of the value or a dash.
    return undefined;
  }
  if (value.charCodeAt(35) !== 0x2d || value.charCodeAt(52) !== 0x2d) return undefined;
  if (!isLowerHex(value, 3, 35) || !isLowerHex(value, 36, 52) || !isLowerHex(value, 53, 55)) return undefined;
  if (isAllZero(value, 3, 35) || isAllZero(value, 36, 52)) return undefined;
  return {
    traceId: value.slice(3, 35),
    parentId: value.slice(36, 52),
    traceFlags: Number.parseInt(value.slice(53, 55), 16) & 0x01,
  };
}

/** Most list-members a `tracestate` may carry (§3.3.1.1): more and the whole header is discarded. */
export const MAX_TRACESTATE_MEMBERS = 32;

const isLcAlpha = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
// lcalpha / DIGIT / "_" / "-" / "*" / "/"
const isKeyChar = (c: number): boolean =>
  isLcAlpha(c) || isDigit(c) || c === 0x5f || c === 0x2d || c === 0x2a || c === 0x2f;

function keyCharsFrom(key: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isKeyChar(key.charCodeAt(i))) return false;
  return true;
}

/**
 * A `tracestate` key (§3.3.1.3.1): `simple-key` (lcalpha, then up to 255 key characters) or
 * `tenant-id@system-id` (tenant: lcalpha or digit, then up to 240; system: lcalpha, then up to 13).
 */
export function isTraceStateKey(key: string): boolean {
  const at = key.indexOf('@');
  if (at === -1) {
    return (
      key.length >= 1 && key.length <= 256 && isLcAlpha(key.charCodeAt(0)) && keyCharsFrom(key, 1, key.length)
    );
  }
  const tenantLength = at;
  const systemLength = key.length - at - 1;
  if (tenantLength < 1 || tenantLength > 241 || systemLength < 1 || systemLength > 14) return false;
  const first = key.charCodeAt(0);
  return (
    (isLcAlpha(first) || isDigit(first)) &&
    keyCharsFrom(key, 1, at) &&
    isLcAlpha(key.charCodeAt(at + 1)) &&
    keyCharsFrom(key, at + 2, key.length)
  );
}

/**
 * A `tracestate` value (§3.3.1.3.2): 1 to 256 printable ASCII characters except `,` and `=`; spaces
 * allowed inside but not at the end.
 */
export function isTraceStateValue(value: string): boolean {
  if (value.length < 1 || value.length > 256) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x2c || c === 0x3d) return false;
  }
  return value.charCodeAt(value.length - 1) !== 0x20;
}

/** Optional whitespace around list-members (RFC 9110 §5.6.3 OWS: space and tab). */
function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return text.slice(start, end);
}

/** An immutable, validated `tracestate` list, implementing the OpenTelemetry TraceState interface. */
export class TraceStateList implements OtelTraceState {
  readonly #entries: readonly (readonly [string, string])[];

  constructor(entries: readonly (readonly [string, string])[] = []) {
    this.#entries = entries;
  }

  get(key: string): string | undefined {
    for (const [name, value] of this.#entries) if (name === key) return value;
    return undefined;
  }

  /** A new list with `key` set and moved to the front (§3.5: an updated member goes left); invalid input is ignored. */
  set(key: string, value: string): TraceStateList {
    if (!isTraceStateKey(key) || !isTraceStateValue(value)) return this;
    const rest = this.#entries.filter(([name]) => name !== key);
    return new TraceStateList([[key, value] as const, ...rest].slice(0, MAX_TRACESTATE_MEMBERS));
  }

  unset(key: string): TraceStateList {
    return new TraceStateList(this.#entries.filter(([name]) => name !== key));
  }

  serialize(): string {
    return this.#entries.map(([name, value]) => `${name}=${value}`).join(',');
  }
}

/**
 * Parses a `tracestate` header value; undefined when absent, empty or invalid (a bad member, a
 * duplicated key, or more than 32 members discard the whole header, §3.3.1.1 and §3.3.1.3).
 */
export function parseTraceState(value: string | null | undefined): TraceStateList | undefined {
  if (typeof value !== 'string') return undefined;
  const entries: (readonly [string, string])[] = [];
  const seen = new Set<string>();
  for (const raw of value.split(',')) {
    const member = trimOws(raw);
    // Empty list-members are allowed and ignored (§3.3.1.1).
    if (member.length === 0) continue;
    if (entries.length === MAX_TRACESTATE_MEMBERS) return undefined;
    const eq = member.indexOf('=');
    if (eq === -1) return undefined;
    const key = member.slice(0, eq);
    const memberValue = member.slice(eq + 1);
    if (!isTraceStateKey(key) || !isTraceStateValue(memberValue) || seen.has(key)) return undefined;
    seen.add(key);
    entries.push([key, memberValue]);
  }
  return entries.length === 0 ? undefined : new TraceStateList(entries);
}
