// The session store contract: where session records live between requests.
import { safeJsonParse } from '@charter/core';
import type { SessionRecord } from './record.ts';

type MaybePromise<T> = T | Promise<T>;

/**
 * Where sessions live. Every method may answer synchronously or with a promise; a method that
 * throws (or rejects) fails the request with a 500, never with a silently signed-out user.
 *
 * - `get(id)`: the record, or undefined/null when there is none or it has expired
 *   (`expiresAt <= now`). After `touch`, the record carries the new `expiresAt`.
 * - `set(id, record)`: creates or replaces the record; the store may forget it after
 *   `record.expiresAt`.
 * - `delete(id)`: removes the record; deleting an unknown id is not an error.
 * - `touch(id, expiresAt)` (optional): moves the expiry of an existing record without rewriting
 *   it, for rolling idle expiry; without it the whole record is written again.
 */
export interface SessionStore {
  get(id: string): MaybePromise<SessionRecord | undefined | null>;
  set(id: string, record: SessionRecord): MaybePromise<void>;
  delete(id: string): MaybePromise<void>;
  touch?(id: string, expiresAt: number): MaybePromise<void>;
}

/** Throws a TypeError naming `where` unless `store` has the methods of the contract. */
export function assertSessionStore(store: unknown, where: string): asserts store is SessionStore {
  if (typeof store !== 'object' || store === null)
    throw new TypeError(`${where} must be a session store object`);
  const candidate = store as Record<string, unknown>;
  for (const method of ['get', 'set', 'delete'] as const) {
    if (typeof candidate[method] !== 'function') throw new TypeError(`${where} has no ${method}(…) method`);
  }
  if (candidate.touch !== undefined && typeof candidate.touch !== 'function') {
    throw new TypeError(`${where}.touch must be a function when present`);
  }
}

/** Reads a `now` option: a function returning milliseconds since the epoch; default `Date.now`. */
export function resolveClock(now: unknown, where: string): () => number {
  if (now === undefined) return Date.now;
  if (typeof now !== 'function') throw new TypeError(`${where} must be a function returning milliseconds`);
  return now as () => number;
}

/** Reads a positive whole number of seconds (or the default); throws a RangeError naming the option. */
export function resolveSeconds(value: unknown, fallback: number, where: string, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(`${where} must be a finite number of seconds ${allowZero ? '>= 0' : '> 0'}`);
  }
  return value;
}

/**
 * Parses a stored record's JSON with `safeJsonParse` (no prototype-pollution keys). A failure is a
 * broken store, not a bad request: it becomes a plain Error (a 500), never the 400 the parser throws.
 */
export function parseStoredJson(text: string, where: string): unknown {
  try {
    return safeJsonParse(text);
  } catch (error) {
    throw new Error(`${where}: a stored session record is not valid JSON (${(error as Error).message})`);
  }
}
