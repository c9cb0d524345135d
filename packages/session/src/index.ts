/**
 * @module charter/session
 * Cookie sessions: a random id, signed with HMAC-SHA-256, in a `__Host-` cookie; the data in a
 * pluggable store (in memory, or SQLite on Bun and Node); idle and absolute expiry; id rotation on
 * sign-in; and `requireSession()` to guard routes.
 */
export { SESSION_ID_BYTES } from './commit.ts';
export {
  type MemorySessionStore,
  type MemorySessionStoreOptions,
  memorySessionStore,
} from './memory-store.ts';
export {
  DEFAULT_ABSOLUTE_TIMEOUT_SECONDS,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  type ResolvedSessionOptions,
  resolveSessionOptions,
  type SessionCookieOptions,
  type SessionOptions,
} from './options.ts';
export type { SessionData, SessionRecord, SessionUser, StoredSessionUser } from './record.ts';
export type { DeepReadonly, RotateSessionOptions, Session } from './request-session.ts';
export { type RequireSessionOptions, requireSession, SESSION_CHALLENGE_SCHEME } from './require-session.ts';
export { rotateSession, session, sessionOf } from './session.ts';
export { type SessionSecret, type SessionSecrets, signValue, verifySignedValue } from './signing.ts';
export {
  type SqliteDatabase,
  type SqliteSessionStore,
  type SqliteSessionStoreOptions,
  type SqliteStatement,
  type SqliteValue,
  sqliteSessionStore,
} from './sqlite-store.ts';
export type { SessionStore } from './store.ts';
