/**
 * MCP 2026-07-28, multi round-trip requests: the opaque `requestState` a server hands back with
 * `resultType: "input_required"` and the client echoes on its retry. The client controls what it
 * echoes, so the state is sealed with AES-256-GCM (NIST SP 800-38D): its content stays private, any
 * altered byte fails authentication, the additional authenticated data binds it to the method,
 * target, arguments and caller it was issued for, a short expiry rides inside, and a nonce makes each
 * state single use.
 */
import { assertStrongSecret, decodeBase64Url, encodeBase64Url } from '@charter/core';

/** Why `open` refused a request state. */
export type RequestStateRefusal = 'malformed' | 'too-long' | 'forged' | 'expired' | 'replayed';

/** The outcome of `open`: the sealed value, or why the state was refused. */
export type OpenedState = { ok: true; value: unknown } | { ok: false; reason: RequestStateRefusal };

/** What a request state is bound to; the retry must present the same binding to open it. */
export interface RequestStateBinding {
  /** The JSON-RPC method: `tools/call`, `resources/read` or `prompts/get`. */
  method: string;
  /** The tool name, prompt name or resource URI. */
  target: string;
  /** The call's arguments (compared by canonical JSON: object key order does not matter). */
  arguments: unknown;
  /** An opaque caller identity, such as a hash of the Authorization header; undefined when anonymous. */
  principal?: string;
}

/** Options of `createRequestStateSealer`. */
export interface RequestStateOptions {
  /**
   * The secret the sealing key is derived from; it must pass `assertStrongSecret`. Default: 32 random
   * bytes, which suits a single process only: several instances behind a load balancer need one shared
   * key, or a retry that lands on another instance is refused as forged.
   */
  key?: string | Uint8Array;
  /** How long a state stays valid, in milliseconds; a positive integer. Default 600000 (10 minutes). */
  ttlMs?: number;
  /** The longest token accepted or produced, in characters. Default 8192 (the MCP request-state limit). */
  maxLength?: number;
  /** The clock, in milliseconds since the epoch (tests replace it). Default `Date.now`. */
  now?: () => number;
  /** How many used nonces are remembered to refuse replays; a positive integer. Default 10000. */
  replayCacheSize?: number;
}

/** Seals and opens request states with one key. */
export interface RequestStateSealer {
  /** Seals a JSON value for the call in `binding`; throws a RangeError when the token would be too long. */
  seal(value: unknown, binding: RequestStateBinding): Promise<string>;
  /** Opens a client-supplied token for the call in `binding`; never throws for client input. */
  open(token: unknown, binding: RequestStateBinding): Promise<OpenedState>;
}

interface ResolvedRequestStateOptions {
  readonly secret: Uint8Array<ArrayBuffer>;
  readonly ttlMs: number;
  readonly maxLength: number;
  readonly now: () => number;
  readonly replayCacheSize: number;
}

const DEFAULT_TTL_MS = 600_000;
const DEFAULT_MAX_LENGTH = 8192;
const DEFAULT_REPLAY_CACHE_SIZE = 10_000;

const PREFIX = 'v1.';
// A 96-bit IV is the size GCM is defined for without an extra GHASH pass (SP 800-38D §8.2).
const IV_BYTES = 12;
const TAG_BYTES = 16;
const NONCE_BYTES = 16;
// Fixed HKDF inputs (RFC 5869 §3.1, §3.2): the info string separates this key from any other key
// derived from the same secret, and names the format version so a future v2 derives a fresh key.
const HKDF_SALT = 'charter/mcp request state v1 salt';
const HKDF_INFO = 'charter/mcp request state v1 AES-256-GCM key';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function resolveRequestStateOptions(options: RequestStateOptions): ResolvedRequestStateOptions {
  let secret: Uint8Array<ArrayBuffer>;
  if (options.key === undefined) {
    secret = crypto.getRandomValues(new Uint8Array(32));
  } else {
    assertStrongSecret(options.key, 'requestStateKey');
    // A copy: a caller reusing its buffer must not change the key after the fact.
    secret = typeof options.key === 'string' ? encoder.encode(options.key) : new Uint8Array(options.key);
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') {
    throw new TypeError('requestStateNow must be a function returning milliseconds');
  }
  return Object.freeze({
    secret,
    ttlMs: positiveInteger(options.ttlMs, DEFAULT_TTL_MS, 'requestStateTtlMs'),
    maxLength: positiveInteger(options.maxLength, DEFAULT_MAX_LENGTH, 'requestStateMaxLength'),
    now,
    replayCacheSize: positiveInteger(
      options.replayCacheSize,
      DEFAULT_REPLAY_CACHE_SIZE,
      'requestStateReplayCacheSize',
    ),
  });
}

/**
 * Canonical JSON (RFC 8785 style): object keys sorted by UTF-16 code units (§3.2.3), numbers and strings
 * as ECMAScript's JSON.stringify writes them (§3.2.2), arrays in order, no whitespace. Values JSON
 * cannot carry follow JSON.stringify (`toJSON` honoured, undefined members dropped, undefined array
 * items null); a BigInt or a cycle throws a TypeError. Returns undefined for a value JSON would omit.
 */
function canonicalJson(input: unknown, ancestors: object[]): string | undefined {
  let value = input;
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      throw new TypeError('A request-state binding cannot hold a BigInt');
    case 'object':
      break;
    default:
      return undefined;
  }
  const object = value as object;
  if (ancestors.includes(object)) throw new TypeError('A request-state binding cannot be cyclic');
  ancestors.push(object);
  let out: string;
  if (Array.isArray(object)) {
    out = `[${object.map((item) => canonicalJson(item, ancestors) ?? 'null').join(',')}]`;
  } else {
    const members: string[] = [];
    const record = object as Record<string, unknown>;
    for (const key of Object.keys(record).sort()) {
      const member = canonicalJson(record[key], ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    out = `{${members.join(',')}}`;
  }
  ancestors.pop();
  return out;
}

/** SHA-256 of the binding's canonical JSON: the AAD of the seal, so a state opens only for its own call. */
async function bindingDigest(binding: RequestStateBinding): Promise<Uint8Array<ArrayBuffer>> {
  // Only the four named fields count; anything else on the object is ignored.
  const canonical = canonicalJson(
    {
      method: binding.method,
      target: binding.target,
      arguments: binding.arguments,
      principal: binding.principal,
    },
    [],
  ) as string;
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(canonical)));
}

/** Unpadded base64url length of `bytes` bytes (RFC 4648 §5). */
function base64UrlLength(bytes: number): number {
  return Math.ceil((bytes * 4) / 3);
}

interface Payload {
  v: unknown;
  e: number;
  n: string;
}

/** Reads the decrypted payload; undefined if it is not the shape this module writes. */
function readPayload(plaintext: ArrayBuffer): Payload | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(plaintext));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { v, e, n } = parsed as Record<string, unknown>;
  if (typeof e !== 'number' || !Number.isFinite(e) || typeof n !== 'string') return undefined;
  return { v, e, n };
}

/**
 * Used nonces with their expiry, in insertion order. When full, expired entries go first, then the
 * oldest: a state whose nonce was evicted that way could be opened once more until it expires, which
 * is why the expiry is short and the default size large.
 */
function createReplayCache(capacity: number) {
  const entries = new Map<string, number>();
  return {
    has: (nonce: string): boolean => entries.has(nonce),
    record(nonce: string, expiresAt: number, now: number): void {
      if (entries.size >= capacity) {
        for (const [key, expiry] of entries) if (expiry <= now) entries.delete(key);
      }
      for (const key of entries.keys()) {
        if (entries.size < capacity) break;
        entries.delete(key);
      }
      entries.set(nonce, expiresAt);
    },
  };
}

const refused = (reason: RequestStateRefusal): OpenedState => ({ ok: false, reason });

/**
 * Creates a sealer for MCP `requestState` tokens: `v1.` + base64url(IV ‖ AES-256-GCM ciphertext ‖ tag)
 * over `{ v, e, n }` (value, expiry in ms, random nonce), authenticated together with the binding.
 */
export function createRequestStateSealer(options: RequestStateOptions = {}): RequestStateSealer {
  const resolved = resolveRequestStateOptions(options);
  const replays = createReplayCache(resolved.replayCacheSize);
  let keyPromise: Promise<CryptoKey> | undefined;

  // Derived once, on first use (RFC 5869 HKDF-SHA-256), and not extractable.
  const sealingKey = (): Promise<CryptoKey> => {
    keyPromise ??= crypto.subtle
      .importKey('raw', resolved.secret, 'HKDF', false, ['deriveKey'])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(HKDF_SALT), info: encoder.encode(HKDF_INFO) },
          base,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        ),
      );
    return keyPromise;
  };

  return {
    async seal(value, binding) {
      const additionalData = await bindingDigest(binding);
      const nonce = encodeBase64Url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
      const plaintext = encoder.encode(
        JSON.stringify({ v: value, e: resolved.now() + resolved.ttlMs, n: nonce }),
      );
      const length = PREFIX.length + base64UrlLength(IV_BYTES + plaintext.length + TAG_BYTES);
      if (length > resolved.maxLength) {
        throw new RangeError(
          `The requestState would be ${length} characters, more than the ${resolved.maxLength} allowed: ` +
            'the tool keeps too much in it (a server bug, not the client)',
        );
      }
      // Random 96-bit IVs: SP 800-38D §8.3 allows 2^32 seals per key, far beyond a state's use.
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const key = await sealingKey();
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData }, key, plaintext);
      const token = new Uint8Array(IV_BYTES + sealed.byteLength);
      token.set(iv);
      token.set(new Uint8Array(sealed), IV_BYTES);
      return PREFIX + encodeBase64Url(token);
    },

    async open(token, binding) {
      if (typeof token !== 'string') return refused('malformed');
      // Length first, before any decoding work on a client-sized input.
      if (token.length > resolved.maxLength) return refused('too-long');
      if (!token.startsWith(PREFIX)) return refused('malformed');
      // The core's decoder is canonical: every byte string has one spelling, so no character can
      // change without changing the bytes that are authenticated.
      const bytes = decodeBase64Url(token.slice(PREFIX.length));
      if (bytes === undefined || bytes.length < IV_BYTES + TAG_BYTES) return refused('malformed');
      let additionalData: Uint8Array<ArrayBuffer>;
      try {
        additionalData = await bindingDigest(binding);
      } catch {
        // A binding that cannot be written as JSON was never sealed.
        return refused('forged');
      }
      const key = await sealingKey();
      let plaintext: ArrayBuffer;
      try {
        plaintext = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData },
          key,
          bytes.subarray(IV_BYTES),
        );
      } catch {
        // Another key, an altered byte and another call's binding all fail the same tag check; telling
        // them apart would tell an attacker which binding a stolen state belongs to.
        return refused('forged');
      }
      const payload = readPayload(plaintext);
      if (payload === undefined) return refused('forged');
      const now = resolved.now();
      if (now >= payload.e) return refused('expired');
      // No await between the check and the record: two concurrent retries cannot both pass.
      if (replays.has(payload.n)) return refused('replayed');
      replays.record(payload.n, payload.e, now);
      return { ok: true, value: payload.v };
    },
  };
}

const REASON_MESSAGES: Readonly<Record<RequestStateRefusal, string>> = Object.freeze({
  malformed: 'requestState is malformed',
  'too-long': 'requestState is too long',
  forged: 'requestState was not issued by this server for this request',
  expired: 'requestState has expired',
  replayed: 'requestState was already used',
});

/** A short client-facing sentence for a refusal, with no internal detail. */
export function reasonMessage(reason: RequestStateRefusal): string {
  return REASON_MESSAGES[reason];
}
