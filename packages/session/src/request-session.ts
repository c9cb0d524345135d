// The session of one request: the API handlers use, and the state the commit step reads.
import { isForbiddenObjectKey, type State } from '@charter/core';
import type { ResolvedSessionOptions } from './options.ts';
import {
  deepFreeze,
  frozenJsonCopy,
  normalizeSessionUser,
  type SessionData,
  type SessionRecord,
  type SessionUser,
  type StoredSessionUser,
} from './record.ts';

/** A value as `get` returns it: frozen, so a change must go through `set`. */
export type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Options of `rotateSession(ctx, options?)` and `session.rotate(options?)`. */
export interface RotateSessionOptions {
  /** Carry the data over to the new id; default true. */
  keepData?: boolean;
  /**
   * Sign a user in (an object) or out (`null`); leave it out to keep the current user. A change of
   * user starts a new session lifetime: the absolute timeout counts from now.
   */
  user?: SessionUser | null;
}

/** The session of the current request, from `sessionOf(ctx)`. Changes are saved when the response is sent. */
export interface Session<D extends object = SessionData> {
  /** True when no stored session backed this request (no cookie, or an invalid, unknown or expired one). */
  readonly isNew: boolean;
  /** The signed-in user, if any. */
  readonly user: StoredSessionUser | undefined;
  /** When the session began or its user signed in (ms since the epoch). */
  readonly createdAt: number;
  /** When the session ends unless used again (ms since the epoch), as loaded for this request. */
  readonly expiresAt: number;
  /** A value, deep-frozen; undefined when absent. */
  get<K extends keyof D & string>(key: K): DeepReadonly<D[K]> | undefined;
  /** Stores a JSON value (copied); throws a TypeError for anything JSON would not keep. */
  set<K extends keyof D & string>(key: K, value: D[K]): void;
  has(key: keyof D & string): boolean;
  delete(key: keyof D & string): void;
  /** The keys in the session. */
  keys(): string[];
  /** Removes every value (the user stays signed in). */
  clear(): void;
  /** A new id for this session (on sign-in or a change of privilege): the old id stops working. */
  rotate(options?: RotateSessionOptions): void;
  /** Ends the session: its record is deleted and the cookie cleared (unless new data is set afterwards). */
  destroy(): void;
}

/** What a valid cookie led to. */
export interface LoadedSession {
  readonly id: string;
  readonly record: SessionRecord;
  /** Index of the secret that verified the cookie: above 0, the cookie is signed again with the first. */
  readonly keyIndex: number;
}

/** The symbol under which a request's session sits on `ctx.state` (registered: survives two bundled copies). */
const SESSION_SLOT: unique symbol = Symbol.for('charter.session');

type Slotted = { [SESSION_SLOT]?: SessionState };

/** The session `session()` loaded for this request state, if any. */
export function sessionSlot(state: State): SessionState | undefined {
  return (state as Slotted)[SESSION_SLOT];
}

/** Puts a request's session on its state, out of sight of `Object.keys` and JSON. */
export function attachSession(state: State, session: SessionState): SessionState {
  Object.defineProperty(state, SESSION_SLOT, { value: session, enumerable: false, configurable: true });
  return session;
}

/** The session of one request. Fields without `#` are read by the commit step. */
export class SessionState implements Session {
  readonly owner: ResolvedSessionOptions;
  readonly isNew: boolean;
  /** The id of the stored record this request loaded. */
  readonly originalId: string | undefined;
  /** The request carried a cookie of this name (valid or not). */
  readonly cookiePresent: boolean;
  /** The cookie was signed with an older secret. */
  readonly resign: boolean;
  /** Data or user changed: the record must be written. */
  dirty = false;
  /** The original record is to be deleted (rotation or destruction). */
  discardOriginal = false;
  destroyed = false;
  committed = false;
  user: StoredSessionUser | undefined;
  createdAt: number;
  readonly expiresAt: number;
  #data: SessionData;
  readonly #state: State;

  constructor(
    owner: ResolvedSessionOptions,
    state: State,
    loaded: LoadedSession | undefined,
    cookiePresent: boolean,
    now: number,
  ) {
    this.owner = owner;
    this.#state = state;
    this.cookiePresent = cookiePresent;
    this.isNew = loaded === undefined;
    this.originalId = loaded?.id;
    this.resign = (loaded?.keyIndex ?? 0) > 0;
    this.#data = Object.assign(Object.create(null) as SessionData, loaded?.record.data);
    this.user = loaded?.record.user;
    this.createdAt = loaded?.record.createdAt ?? now;
    this.expiresAt = loaded?.record.expiresAt ?? Math.min(now + owner.idleMs, now + owner.absoluteMs);
    this.#publishUser();
  }

  get(key: string): unknown {
    return this.#data[this.#key(key)];
  }

  set(key: string, value: unknown): void {
    this.#assertOpen();
    this.#data[this.#key(key)] = frozenJsonCopy(value, `session value "${key}"`);
    this.dirty = true;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.#data, this.#key(key));
  }

  delete(key: string): void {
    this.#assertOpen();
    if (!this.has(key)) return;
    delete this.#data[key];
    this.dirty = true;
  }

  keys(): string[] {
    return Object.keys(this.#data);
  }

  clear(): void {
    this.#assertOpen();
    if (this.keys().length === 0) return;
    this.#data = Object.create(null) as SessionData;
    this.dirty = true;
  }

  rotate(options: RotateSessionOptions = {}): void {
    this.#assertOpen();
    if (typeof options !== 'object' || options === null)
      throw new TypeError('rotateSession options must be an object');
    const keepData = options.keepData ?? true;
    if (typeof keepData !== 'boolean')
      throw new TypeError('rotateSession option "keepData" must be a boolean');
    const user =
      options.user === undefined || options.user === null
        ? options.user
        : normalizeSessionUser(options.user, 'rotateSession option "user"');
    if (this.originalId !== undefined) this.discardOriginal = true;
    if (!keepData) this.#data = Object.create(null) as SessionData;
    if (user !== undefined) {
      this.user = user ?? undefined;
      this.createdAt = this.owner.now();
      this.#publishUser();
    }
    this.dirty = true;
  }

  destroy(): void {
    this.#assertOpen();
    if (this.originalId !== undefined) this.discardOriginal = true;
    this.destroyed = true;
    this.#data = Object.create(null) as SessionData;
    this.user = undefined;
    this.createdAt = this.owner.now();
    this.dirty = true;
    this.#publishUser();
  }

  /** True when there is nothing worth storing: no data and no user. */
  isEmpty(): boolean {
    return this.user === undefined && this.keys().length === 0;
  }

  /** The record to store, expiring at `expiresAt`. */
  toRecord(expiresAt: number): SessionRecord {
    const record: SessionRecord = { data: { ...this.#data }, createdAt: this.createdAt, expiresAt };
    return this.user === undefined ? record : { ...record, user: this.user };
  }

  #key(key: string): string {
    if (typeof key !== 'string' || key === '')
      throw new TypeError('A session key must be a non-empty string');
    // Keys become JSON object keys in every store; these three would reach a prototype on a naive merge.
    if (isForbiddenObjectKey(key)) throw new TypeError(`"${key}" cannot be a session key`);
    return key;
  }

  #assertOpen(): void {
    if (this.committed) {
      throw new Error(
        'The session was already saved with the response: change it before the response is sent',
      );
    }
  }

  /**
   * `ctx.state.user` and `ctx.state.auth` follow the session's user. A principal another hook
   * authenticated first (a bearer token, say) is left alone.
   */
  #publishUser(): void {
    const state = this.#state;
    const ours = state.auth === undefined || state.auth.scheme === 'session';
    if (!ours) return;
    if (this.user === undefined) {
      delete state.auth;
      delete state.user;
      return;
    }
    state.auth = deepFreeze({ scheme: 'session', credentials: this.toRecord(this.expiresAt) });
    state.user = deepFreeze({ sub: this.user.sub, scopes: this.user.scopes, claims: this.user.claims });
  }
}
