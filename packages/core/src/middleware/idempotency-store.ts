/**
 * Where `idempotency()` keeps its keys (draft-ietf-httpapi-idempotency-key-header, §2.6
 * "Idempotency Enforcement"): an interface a networked store can implement, and a bounded
 * in-memory store for a single process.
 */

type MaybePromise<T> = T | Promise<T>;

/** A response kept for replay: status, header fields and body bytes (identity-coded). */
export interface StoredResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
}

/** The state of one key: claimed by a request still running, or completed with its response. */
export type IdempotencyRecord =
  | { readonly state: 'in-flight'; readonly fingerprint: string; readonly expiresAt: number }
  | {
      readonly state: 'completed';
      readonly fingerprint: string;
      readonly expiresAt: number;
      readonly response: StoredResponse;
    };

/**
 * A store of idempotency keys. Methods may return promises, so a networked store (Redis, SQL)
 * can implement it; `begin` must be atomic across every process sharing the store (e.g. Redis
 * `SET NX PX`, or an INSERT against a unique key).
 */
export interface IdempotencyStore {
  /**
   * Claims `key` for a request with `fingerprint`, marking it in flight for at most `lockTtlMs`.
   * Returns undefined when the claim succeeded, or the live record that prevented it.
   */
  begin(key: string, fingerprint: string, lockTtlMs: number): MaybePromise<IdempotencyRecord | undefined>;
  /** Stores the response of a claimed key, kept for `ttlMs`. */
  complete(key: string, fingerprint: string, response: StoredResponse, ttlMs: number): MaybePromise<void>;
  /** Drops an in-flight claim (same fingerprint) so the client may retry; a completed record stays. */
  release(key: string, fingerprint: string): MaybePromise<void>;
  /** The live record of a key, if any. */
  get(key: string): MaybePromise<IdempotencyRecord | undefined>;
}

/** Options of `memoryIdempotencyStore()`. */
export interface MemoryIdempotencyStoreOptions {
  /** Most keys held, in flight or completed; past it the oldest is evicted. Default 10000. */
  maxEntries?: number;
  /** Most body bytes held over all stored responses; past it the oldest records are evicted. Default 64 MiB. */
  maxBytes?: number;
  /** Longest any record is kept, in ms, whatever a caller asks for. Default 24 h (86400000). */
  ttlMs?: number;
  /** The clock, in ms since the epoch. Default `Date.now` (tests pass a fake one). */
  now?: () => number;
}

/** Memory store options with defaults filled in. */
export interface ResolvedMemoryIdempotencyStoreOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly ttlMs: number;
  readonly now: () => number;
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(`memoryIdempotencyStore: ${name} must be a positive integer, got ${String(n)}`);
  }
  return n;
}

/** Validates memory store options (TypeError/RangeError naming the option) and fills defaults. */
export function resolveMemoryIdempotencyStoreOptions(
  options: MemoryIdempotencyStoreOptions = {},
): ResolvedMemoryIdempotencyStoreOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('memoryIdempotencyStore: options must be an object');
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError('memoryIdempotencyStore: now must be a function');
  return Object.freeze({
    maxEntries: positiveInteger('maxEntries', options.maxEntries, 10_000),
    maxBytes: positiveInteger('maxBytes', options.maxBytes, 64 * 1024 * 1024),
    ttlMs: positiveInteger('ttlMs', options.ttlMs, 24 * 60 * 60 * 1000),
    now,
  });
}

function sizeOf(record: IdempotencyRecord): number {
  return record.state === 'completed' ? record.response.body.byteLength : 0;
}

/**
 * An in-memory IdempotencyStore for one process, bounded in keys and bytes. Records expire lazily
 * (checked on access, and a few of the oldest on every claim); when full, the oldest record is
 * evicted, even one in flight. Size `maxEntries` above the keys you expect in a TTL window.
 */
export function memoryIdempotencyStore(options?: MemoryIdempotencyStoreOptions): IdempotencyStore {
  const { maxEntries, maxBytes, ttlMs, now } = resolveMemoryIdempotencyStoreOptions(options);
  // Insertion order is age order: a completed record is re-inserted, so the front is the oldest.
  const records = new Map<string, IdempotencyRecord>();
  let bytes = 0;

  const remove = (key: string): void => {
    const record = records.get(key);
    if (record === undefined) return;
    bytes -= sizeOf(record);
    records.delete(key);
  };
  const live = (key: string): IdempotencyRecord | undefined => {
    const record = records.get(key);
    if (record === undefined) return undefined;
    if (record.expiresAt > now()) return record;
    remove(key);
    return undefined;
  };
  const sweep = (): void => {
    // Look at a few of the oldest records only, so a claim costs O(1) whatever the store holds.
    let looked = 0;
    const time = now();
    for (const [key, record] of records) {
      if (looked++ >= 8) break;
      if (record.expiresAt <= time) remove(key);
    }
  };
  const evictWhileOver = (entries: number, extraBytes: number): void => {
    for (const key of records.keys()) {
      if (records.size < entries && bytes + extraBytes <= maxBytes) return;
      remove(key);
    }
  };

  return {
    begin(key, fingerprint, lockTtlMs) {
      sweep();
      const existing = live(key);
      if (existing !== undefined) return existing;
      evictWhileOver(maxEntries, 0);
      records.set(key, { state: 'in-flight', fingerprint, expiresAt: now() + Math.min(lockTtlMs, ttlMs) });
      return undefined;
    },
    complete(key, fingerprint, response, requestedTtlMs) {
      remove(key);
      const size = response.body.byteLength;
      // A response bigger than the whole store is not kept: the key is simply forgotten.
      if (size > maxBytes) return;
      evictWhileOver(maxEntries, size);
      const expiresAt = now() + Math.min(requestedTtlMs, ttlMs);
      records.set(key, { state: 'completed', fingerprint, expiresAt, response });
      bytes += size;
    },
    release(key, fingerprint) {
      const record = records.get(key);
      if (record !== undefined && record.state === 'in-flight' && record.fingerprint === fingerprint)
        remove(key);
    },
    get(key) {
      return live(key);
    },
  };
}
