// The session record: what a store keeps under a session id, and the checks that keep it JSON.
import { isForbiddenObjectKey } from '@charter/core';

/** Session data: string keys to JSON values (objects, arrays, strings, finite numbers, booleans, null). */
export type SessionData = Record<string, unknown>;

/** The signed-in user to put in a session with `rotateSession(ctx, { user })`. */
export interface SessionUser {
  /** Subject identifier (a user id): a non-empty string. */
  readonly sub: string;
  /** Granted scopes (RFC 6749 §3.3 scope tokens); default none. Duplicates are dropped. */
  readonly scopes?: readonly string[];
  /** Other attributes of the user (JSON values); default none. */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** A session user as stored: every field present. */
export interface StoredSessionUser {
  readonly sub: string;
  readonly scopes: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What a session store keeps under a session id. Times are milliseconds since the Unix epoch. */
export interface SessionRecord {
  /** The data handlers put in the session. */
  readonly data: Readonly<SessionData>;
  /** The signed-in user, when there is one. */
  readonly user?: StoredSessionUser;
  /** When the session began (or when a user signed in to it): the absolute timeout counts from here. */
  readonly createdAt: number;
  /** When the session ends unless a request extends it: the idle deadline, capped by the absolute one. */
  readonly expiresAt: number;
}

/** How deep a session value may nest; deeper values are refused rather than recursed on. */
export const MAX_SESSION_VALUE_DEPTH = 32;

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Throws a TypeError naming `where` unless `value` survives JSON unchanged: null, booleans, finite
 * numbers, strings, arrays and plain objects of those. Dates, Maps, class instances, undefined,
 * functions and bigints are refused here, where the mistake is made, rather than coming back
 * different (or not at all) on the next request.
 */
export function assertJsonValue(value: unknown, where: string, depth = 0): void {
  if (depth > MAX_SESSION_VALUE_DEPTH) {
    throw new TypeError(`${where} nests deeper than ${MAX_SESSION_VALUE_DEPTH} levels`);
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${where} is ${value}, which JSON cannot hold`);
    return;
  }
  if (typeof value !== 'object') {
    throw new TypeError(
      `${where} is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}, not a JSON value`,
    );
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) assertJsonValue(value[i], `${where}[${i}]`, depth + 1);
    return;
  }
  if (!isPlainObject(value)) {
    throw new TypeError(
      `${where} is a ${value.constructor?.name ?? 'non-plain object'}, not a plain JSON object`,
    );
  }
  for (const key of Object.keys(value)) {
    if (isForbiddenObjectKey(key)) throw new TypeError(`${where} has the forbidden key "${key}"`);
    assertJsonValue((value as Record<string, unknown>)[key], `${where}.${key}`, depth + 1);
  }
}

/** Freezes a JSON value and everything in it, so a handler cannot change it without `set()`. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A checked, deep-frozen copy of a JSON value. */
export function frozenJsonCopy<T>(value: T, where: string): T {
  assertJsonValue(value, where);
  return deepFreeze(JSON.parse(JSON.stringify(value)) as T);
}

/** Checks a user handed to `rotateSession` and fills the defaults; throws a TypeError naming the field. */
export function normalizeSessionUser(user: SessionUser, where: string): StoredSessionUser {
  if (typeof user !== 'object' || user === null) throw new TypeError(`${where} must be an object`);
  if (typeof user.sub !== 'string' || user.sub === '') {
    throw new TypeError(`${where}.sub must be a non-empty string`);
  }
  const scopes = user.scopes ?? [];
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string' || scope === '')) {
    throw new TypeError(`${where}.scopes must be an array of non-empty strings`);
  }
  const claims = user.claims ?? {};
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw new TypeError(`${where}.claims must be a plain object`);
  }
  return deepFreeze({
    sub: user.sub,
    scopes: [...new Set(scopes as string[])],
    claims: frozenJsonCopy(claims, `${where}.claims`),
  });
}

/** A store broke the contract (a malformed record); the request fails with 500. */
function malformed(reason: string): Error {
  return new Error(`The session store returned a malformed record: ${reason}`);
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Checks what a store's `get` returned and gives a deep-frozen record with null-prototype data.
 * Throws (a 500 for the request) when it is not a session record: a broken store must not turn
 * into a silently signed-out user.
 */
export function parseSessionRecord(value: unknown): SessionRecord {
  if (typeof value !== 'object' || value === null) throw malformed('not an object');
  const raw = value as Record<string, unknown>;
  if (!isTime(raw.createdAt)) throw malformed('createdAt is not a number');
  if (!isTime(raw.expiresAt)) throw malformed('expiresAt is not a number');
  const rawData = raw.data;
  if (typeof rawData !== 'object' || rawData === null || Array.isArray(rawData)) {
    throw malformed('data is not an object');
  }
  let data: SessionData;
  let user: StoredSessionUser | undefined;
  try {
    assertJsonValue(rawData, 'data');
    data = Object.assign(Object.create(null) as SessionData, JSON.parse(JSON.stringify(rawData)));
    if (raw.user !== undefined && raw.user !== null)
      user = normalizeSessionUser(raw.user as SessionUser, 'user');
  } catch (error) {
    throw malformed((error as Error).message);
  }
  const record: SessionRecord = { data, createdAt: raw.createdAt, expiresAt: raw.expiresAt };
  return deepFreeze(user === undefined ? record : { ...record, user });
}
