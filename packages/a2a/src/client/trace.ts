/**
 * W3C Trace Context (Recommendation, §3.2 `traceparent`, §3.3 `tracestate`) for the A2A client: either
 * a fresh sampled trace per call, or the current context handed over by the application's tracer.
 */

/** The two Trace Context headers as a tracer gives them. */
export interface A2aTraceContext {
  /** `00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`, lowercase (§3.2.2). */
  traceparent: string;
  /** Vendor list `key=value,...` (§3.3); sent only with a valid `traceparent`. */
  tracestate?: string;
}

/**
 * `propagateTrace` option: `true` starts a new sampled trace for every call (random ids from
 * `crypto.getRandomValues`); a function returns the current context (e.g. from OpenTelemetry's
 * `propagation.inject`) or undefined to send none; `false`/absent sends no trace headers.
 */
export type A2aTracePropagation = boolean | (() => A2aTraceContext | undefined);

const HEX = '0123456789abcdef';

function isLowerHex(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!HEX.includes(text.charAt(i))) return false;
  return true;
}

function allZero(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charAt(i) !== '0') return false;
  return true;
}

/**
 * True when `value` is a `traceparent` a receiver will accept (§3.2.2-§3.2.4): version 00 is exactly
 * 55 characters; a later version (not ff) may carry more fields after a dash; the trace-id and
 * parent-id are lowercase hex and not all zeros.
 */
export function isValidTraceparent(value: unknown): value is string {
  if (typeof value !== 'string' || value.length < 55) return false;
  if (!isLowerHex(value, 0, 2) || value.slice(0, 2) === 'ff') return false;
  if (value.slice(0, 2) === '00' ? value.length !== 55 : value.length > 55 && value.charAt(55) !== '-') {
    return false;
  }
  if (value.charAt(2) !== '-' || value.charAt(35) !== '-' || value.charAt(52) !== '-') return false;
  if (!isLowerHex(value, 3, 35) || !isLowerHex(value, 36, 52) || !isLowerHex(value, 53, 55)) return false;
  return !allZero(value, 3, 35) && !allZero(value, 36, 52);
}

const MAX_TRACESTATE_LENGTH = 512;
const MAX_TRACESTATE_MEMBERS = 32;

function isKeyChar(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '_' || c === '-' || c === '*' || c === '/';
}

function isValidMember(member: string): boolean {
  const eq = member.indexOf('=');
  if (eq <= 0 || eq === member.length - 1) return false;
  const key = member.slice(0, eq);
  if (key.length > 256) return false;
  // §3.3.1.3.1: a key starts with a lowercase letter, or a digit in the `tenant@system` form.
  const at = key.indexOf('@');
  const first = key.charAt(0);
  if (!(first >= 'a' && first <= 'z') && !(at > 0 && first >= '0' && first <= '9')) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charAt(i);
    if (!isKeyChar(c) && !(c === '@' && i === at && key.indexOf('@', i + 1) === -1)) return false;
  }
  // §3.3.1.3.2: value chars are printable ASCII except ',' and '=', and it does not end with a space.
  const value = member.slice(eq + 1);
  if (value.length > 256 || value.endsWith(' ')) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x2c || code === 0x3d) return false;
  }
  return true;
}

/**
 * True when `value` is a `tracestate` worth sending (§3.3): at most 512 characters (the length every
 * vendor must propagate), at most 32 list members, each `key=value` with the §3.3.1.3 grammar; empty
 * members (`a=1,,b=2`) are allowed as the list syntax allows them.
 */
export function isValidTracestate(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_TRACESTATE_LENGTH || value.trim() === '') return false;
  let members = 0;
  for (const raw of value.split(',')) {
    const member = raw.trim();
    if (member === '') continue;
    members += 1;
    if (members > MAX_TRACESTATE_MEMBERS || !isValidMember(member)) return false;
  }
  return members > 0;
}

function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  // §3.2.2.3/§3.2.2.4: an all-zero id is invalid; draw again in that (2^-64 or rarer) case.
  do crypto.getRandomValues(buffer);
  while (buffer.every((byte) => byte === 0));
  let text = '';
  for (const byte of buffer) text += HEX.charAt(byte >> 4) + HEX.charAt(byte & 15);
  return text;
}

/** A new `traceparent` for a fresh sampled trace (version 00, flags 01) with CSPRNG ids. */
export function newTraceparent(): string {
  return `00-${randomHex(16)}-${randomHex(8)}-01`;
}

/**
 * The trace headers for one request. A malformed context from the tracer is dropped, not sent and not
 * thrown: a receiver must ignore it anyway (§3.2.2 "restart the trace"), and tracing must not fail the
 * call it observes (a tracer function that throws is treated the same). A malformed `tracestate` is
 * dropped alone.
 */
export function traceHeaders(propagation: A2aTracePropagation): Record<string, string> {
  if (propagation === false) return {};
  if (propagation === true) return { traceparent: newTraceparent() };
  let context: A2aTraceContext | undefined;
  try {
    context = propagation();
  } catch {
    return {};
  }
  if (context === undefined || context === null || !isValidTraceparent(context.traceparent)) return {};
  const headers: Record<string, string> = { traceparent: context.traceparent };
  if (isValidTracestate(context.tracestate)) headers.tracestate = context.tracestate;
  return headers;
}
