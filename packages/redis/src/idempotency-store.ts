/**
 * An `IdempotencyStore` (the `idempotency()` middleware) in Redis: a key claimed on one instance is
 * seen as in flight, then replayed, on every other (draft-ietf-httpapi-idempotency-key-header §2.6).
 */
import {
  decodeBase64,
  encodeBase64,
  type IdempotencyRecord,
  type IdempotencyStore,
  safeJsonParse,
  type StoredResponse,
} from '@charter/core';
import {
  cachedScript,
  checkStoreOptions,
  type RedisLikeClient,
  runCommand,
  runScript,
} from './redis-client.ts';
import { IDEMPOTENCY_BEGIN_SCRIPT, IDEMPOTENCY_GET_SCRIPT, IDEMPOTENCY_RELEASE_SCRIPT } from './scripts.ts';

/** The default key prefix of `redisIdempotencyStore`. */
export const IDEMPOTENCY_KEY_PREFIX = 'charter:idem:';

/** Options of `redisIdempotencyStore()`. */
export interface RedisIdempotencyStoreOptions {
  /** The client, from `bunRedisClient(...)`, `nodeRedisClient(...)` or your own `RedisLikeClient`. Required. */
  client: RedisLikeClient;
  /** Put before every key: a key is the string `<prefix><scope and key>`. Default `charter:idem:`. */
  prefix?: string;
  /**
   * Most ms to wait for Redis per call before failing it; default 1000. A failed claim fails the
   * request with a 500 before the handler runs (fail closed: running it unrecorded could run it twice).
   */
  timeoutMs?: number;
  /** Longest any record is kept, in ms, whatever the middleware asks for. Default 24 h (86400000). */
  maxTtlMs?: number;
}

/** The Redis idempotency store, with the prefix it resolved. */
export interface RedisIdempotencyStore extends IdempotencyStore {
  readonly prefix: string;
  begin(key: string, fingerprint: string, lockTtlMs: number): Promise<IdempotencyRecord | undefined>;
  complete(key: string, fingerprint: string, response: StoredResponse, ttlMs: number): Promise<void>;
  release(key: string, fingerprint: string): Promise<void>;
  get(key: string): Promise<IdempotencyRecord | undefined>;
}

interface StoredJson {
  readonly status: number;
  readonly headers: [string, string][];
  /** The body, base64 (RFC 4648 §4): Redis strings are bytes, but the client adapters speak text. */
  readonly body: string;
}

/**
 * Values are `i:<fingerprint>` (in flight) or `c:<fingerprint>:<response JSON>` (completed): the
 * scripts compare the state and fingerprint with a prefix match, without decoding JSON.
 */
function encodeCompleted(fingerprint: string, response: StoredResponse): string {
  const json: StoredJson = {
    status: response.status,
    headers: response.headers.map(([name, value]) => [name, value]),
    body: encodeBase64(response.body, 'base64', { pad: true }),
  };
  return `c:${fingerprint}:${JSON.stringify(json)}`;
}

function decodeRecord(value: unknown, ttl: unknown): IdempotencyRecord | undefined {
  if (value === null || value === undefined) return undefined;
  const left = Number(ttl);
  if (typeof value !== 'string' || !Number.isSafeInteger(left)) {
    throw new TypeError('Redis answered the idempotency script with an unexpected reply');
  }
  // A key without expiry (-1) should not exist; treat it as expiring now rather than never.
  const expiresAt = Date.now() + Math.max(left, 0);
  if (value.startsWith('i:')) return { state: 'in-flight', fingerprint: value.slice(2), expiresAt };
  const colon = value.indexOf(':', 2);
  if (!value.startsWith('c:') || colon < 0)
    throw new Error('redisIdempotencyStore: a stored record is corrupt');
  let json: StoredJson;
  try {
    json = safeJsonParse(value.slice(colon + 1)) as StoredJson;
  } catch (error) {
    // A broken store is a 500, never the 400 the parser throws.
    throw new Error(
      `redisIdempotencyStore: a stored response is not valid JSON (${(error as Error).message})`,
    );
  }
  const body = decodeBase64(json.body, 'base64', { padded: true });
  if (body === undefined || !Array.isArray(json.headers) || !Number.isSafeInteger(json.status)) {
    throw new Error('redisIdempotencyStore: a stored response is corrupt');
  }
  return {
    state: 'completed',
    fingerprint: value.slice(2, colon),
    expiresAt,
    response: { status: json.status, headers: json.headers, body },
  };
}

function pair(reply: unknown): [unknown, unknown] {
  return Array.isArray(reply) ? [reply[0], reply[1]] : [undefined, undefined];
}

/**
 * An idempotency store in Redis. `begin` is one script (GET, else SET ... PX): exactly one of any
 * number of parallel requests with a key, on any instance, claims it. Records expire on their own
 * (the claim after `lockTtlMs`, the response after `ttlMs`), so Redis memory stays bounded.
 *
 * @example
 * app.post('/orders', { ...contract, hooks: idempotency({ store: redisIdempotencyStore({ client }) }) }, handler);
 */
export function redisIdempotencyStore(options: RedisIdempotencyStoreOptions): RedisIdempotencyStore {
  const { client, prefix, timeoutMs } = checkStoreOptions(
    'redisIdempotencyStore',
    options,
    IDEMPOTENCY_KEY_PREFIX,
  );
  const maxTtlMs = options.maxTtlMs ?? 24 * 60 * 60 * 1000;
  if (typeof maxTtlMs !== 'number' || !Number.isSafeInteger(maxTtlMs) || maxTtlMs < 1) {
    throw new RangeError('redisIdempotencyStore option "maxTtlMs" must be a positive integer');
  }
  const ttl = (ms: number): string => String(Math.max(1, Math.min(Math.floor(ms), maxTtlMs)));
  const beginScript = cachedScript(client, 'charter:idem:begin', IDEMPOTENCY_BEGIN_SCRIPT);
  const releaseScript = cachedScript(client, 'charter:idem:release', IDEMPOTENCY_RELEASE_SCRIPT);
  const getScript = cachedScript(client, 'charter:idem:get', IDEMPOTENCY_GET_SCRIPT);
  return {
    prefix,
    async begin(key, fingerprint, lockTtlMs) {
      const reply = await runScript(
        client,
        beginScript,
        [prefix + key],
        [`i:${fingerprint}`, ttl(lockTtlMs)],
        timeoutMs,
      );
      return decodeRecord(...pair(reply));
    },
    async complete(key, fingerprint, response, ttlMs) {
      const value = encodeCompleted(fingerprint, response);
      await runCommand(client, 'SET', [prefix + key, value, 'PX', ttl(ttlMs)], timeoutMs);
    },
    async release(key, fingerprint) {
      await runScript(client, releaseScript, [prefix + key], [`i:${fingerprint}`], timeoutMs);
    },
    async get(key) {
      return decodeRecord(...pair(await runScript(client, getScript, [prefix + key], [], timeoutMs)));
    },
  };
}
