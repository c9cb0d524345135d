// Webhook signatures: HMAC (RFC 2104) over `${timestamp}.${payload}` with crypto.subtle.
//
// Signature string: `t=<unix seconds>,v1=<lowercase hex HMAC>`. The timestamp is signed with the
// payload, so a captured delivery cannot be replayed outside the tolerance window with a fresh
// `t`. A verifier accepts several `v1=` entries (a sender rotating secrets signs with each) and
// ignores unknown keys (room for a future `v2`). The algorithm is never read from the string:
// both sides configure it, so an attacker cannot pick a weaker one.
import { encodeHex } from './hex.ts';
import { timingSafeEqual } from './tokens.ts';

/** HMAC hash functions a webhook signature may use. */
export type WebhookAlgorithm = 'sha256' | 'sha384' | 'sha512';

/** Default clock skew accepted in both directions, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const HASHES: Record<WebhookAlgorithm, string> = { sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' };

/** Arguments of `signWebhookPayload`. */
export interface SignWebhookOptions {
  /** The shared secret (text as UTF-8, or bytes). Must not be empty. */
  secret: string | Uint8Array;
  /** The exact body bytes sent (text is signed as UTF-8). */
  payload: string | Uint8Array;
  /** HMAC hash; default `sha256`. */
  algorithm?: WebhookAlgorithm;
  /** Signing time, Unix seconds or a Date; default now. */
  timestamp?: number | Date;
}

/** Arguments of `verifyWebhookSignature`. */
export interface VerifyWebhookOptions {
  /** The shared secret (text as UTF-8, or bytes). Must not be empty. */
  secret: string | Uint8Array;
  /** The raw body bytes as received, before any parsing. */
  payload: string | Uint8Array;
  /** The signature header: `t=<unix>,v1=<hex>`, or only `v1=<hex>` when `timestamp` is given apart. */
  signature: string | null | undefined;
  /** HMAC hash; default `sha256`. */
  algorithm?: WebhookAlgorithm;
  /** The timestamp when the sender sends it in its own header (Unix seconds); must equal `t=` if both are present. */
  timestamp?: number | string | Date;
  /** Accepted distance between the timestamp and now, in seconds, either way; default 300. */
  toleranceSeconds?: number;
  /** The current time, Unix seconds or a Date; default the clock. */
  now?: number | Date;
}

const encoder = new TextEncoder();

/** The WebCrypto hash name of an algorithm; a TypeError for anything else (own keys only, not `toString`). */
function hashOf(algorithm: unknown): string {
  if (typeof algorithm !== 'string' || !Object.hasOwn(HASHES, algorithm)) {
    throw new TypeError(
      `Unknown webhook algorithm ${JSON.stringify(String(algorithm))}; use sha256, sha384 or sha512`,
    );
  }
  return HASHES[algorithm as WebhookAlgorithm];
}

function secretBytes(secret: unknown): Uint8Array {
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret;
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    throw new TypeError('The webhook secret must be a non-empty string or Uint8Array');
  }
  return bytes;
}

// Unix seconds beyond this (year 5138) are almost surely milliseconds passed by mistake.
const MAX_UNIX_SECONDS = 99_999_999_999;

function unixSeconds(value: number | Date, name: string): number {
  const seconds = value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_UNIX_SECONDS) {
    throw new RangeError(
      `${name} must be Unix seconds (a non-negative integer) or a Date, got ${String(value)}`,
    );
  }
  return seconds;
}

async function hmac(
  hash: string,
  secret: Uint8Array,
  timestamp: number,
  payload: string | Uint8Array,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', secret as BufferSource, { name: 'HMAC', hash }, false, [
    'sign',
  ]);
  // The signed message is `<t>.` followed by the payload's own bytes, never a re-encoding of them.
  const prefix = encoder.encode(`${timestamp}.`);
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix, 0);
  message.set(body, prefix.length);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
}

/** Signs a webhook payload; resolves `t=<unix seconds>,v1=<hex HMAC of "<t>.<payload>">`. */
export async function signWebhookPayload(options: SignWebhookOptions): Promise<string> {
  const hash = hashOf(options.algorithm ?? 'sha256');
  const secret = secretBytes(options.secret);
  const timestamp = unixSeconds(options.timestamp ?? new Date(), 'timestamp');
  if (typeof options.payload !== 'string' && !(options.payload instanceof Uint8Array)) {
    throw new TypeError('The webhook payload must be a string or Uint8Array');
  }
  return `t=${timestamp},v1=${encodeHex(await hmac(hash, secret, timestamp, options.payload))}`;
}

const MAX_SIGNATURE_LENGTH = 4096;
const MAX_CANDIDATES = 8;

interface ParsedSignature {
  timestamp: number | undefined;
  candidates: string[];
}

/** Reads untrusted timestamp text: 1 to 11 ASCII digits, else undefined. */
function parseSeconds(text: string): number | undefined {
  if (text.length === 0 || text.length > 11) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  return Number(text);
}

/** Parses the signature header; undefined when it is malformed in any way. */
function parseSignature(signature: string): ParsedSignature | undefined {
  if (signature.length === 0 || signature.length > MAX_SIGNATURE_LENGTH) return undefined;
  let timestamp: number | undefined;
  let sawTimestamp = false;
  const candidates: string[] = [];
  for (const part of signature.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      // Two timestamps would leave the signer and the verifier free to read different ones.
      if (sawTimestamp) return undefined;
      sawTimestamp = true;
      timestamp = parseSeconds(value);
      if (timestamp === undefined) return undefined;
    } else if (key === 'v1') {
      if (candidates.length === MAX_CANDIDATES) return undefined;
      candidates.push(value.toLowerCase());
    }
  }
  return candidates.length === 0 ? undefined : { timestamp, candidates };
}

function separateTimestamp(value: number | string | Date | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : Math.floor(value.getTime() / 1000);
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string') return parseSeconds(value.trim()) ?? null;
  return null;
}

/**
 * Verifies a webhook signature made by `signWebhookPayload` (or a sender using the same format).
 * Resolves false for a malformed or mismatched signature, or a timestamp further than
 * `toleranceSeconds` from now in either direction; throws only for a bad configuration (unknown
 * algorithm, empty secret, invalid tolerance or `now`).
 */
export async function verifyWebhookSignature(options: VerifyWebhookOptions): Promise<boolean> {
  const hash = hashOf(options.algorithm ?? 'sha256');
  const secret = secretBytes(options.secret);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(
      `toleranceSeconds must be a finite number of seconds >= 0, got ${String(tolerance)}`,
    );
  }
  const now = unixSeconds(options.now ?? new Date(), 'now');
  if (typeof options.signature !== 'string') return false;
  if (typeof options.payload !== 'string' && !(options.payload instanceof Uint8Array)) return false;
  const parsed = parseSignature(options.signature);
  if (parsed === undefined) return false;
  const apart = separateTimestamp(options.timestamp);
  if (apart === null) return false;
  if (apart !== undefined && parsed.timestamp !== undefined && apart !== parsed.timestamp) return false;
  const timestamp = parsed.timestamp ?? apart;
  if (timestamp === undefined || Math.abs(now - timestamp) > tolerance) return false;
  const expected = encoder.encode(encodeHex(await hmac(hash, secret, timestamp, options.payload)));
  let matched = false;
  // Every candidate is compared, so the time taken does not reveal which one matched.
  for (const candidate of parsed.candidates) {
    if (timingSafeEqual(expected, encoder.encode(candidate))) matched = true;
  }
  return matched;
}
