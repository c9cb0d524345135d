// Options of session(): validated once, at construction, with errors naming the option.
import { assertCookieAttributes, type CookieAttributes, isHttpToken, isProductionEnv } from '@charter/core';
import { memorySessionStore } from './memory-store.ts';
import { normalizeSecrets, type SessionSecret, type SessionSecrets } from './signing.ts';
import { assertSessionStore, resolveClock, resolveSeconds, type SessionStore } from './store.ts';

/** The session cookie. HttpOnly is not an option: a session id is never for scripts to read. */
export interface SessionCookieOptions {
  /**
   * Cookie name; default `__Host-sid` when secure with path `/` and no domain (RFC 6265bis §4.1.3:
   * no subdomain can set or shadow it), `__Secure-sid` when secure otherwise, `sid` when not secure.
   */
  name?: string;
  /** Send over HTTPS only; default `NODE_ENV === 'production'` (required there). */
  secure?: boolean;
  /** Cross-site sending; default `Strict`. `Lax` keeps users signed in when they follow a link from another site. */
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Path scope; default `/`. */
  path?: string;
  /** Domain scope; default none (host-only, which `__Host-` requires). */
  domain?: string;
  /** Partitioned storage per top-level site (CHIPS); default false; requires secure. */
  partitioned?: boolean;
  /**
   * Keep the cookie across browser restarts: `Max-Age` is the time left before the absolute
   * timeout. Default false: a browser-session cookie. The server enforces both timeouts either way.
   */
  persistent?: boolean;
}

/** Options of `session(options)`. */
export interface SessionOptions {
  /**
   * The HMAC key that signs session ids, at least 32 random bytes in production (the App's boot
   * guard checks it). A list rotates secrets: the first signs, all verify, and a cookie signed by
   * an older one is signed again with the first.
   */
  secret: SessionSecrets;
  /** Where sessions live; default `memorySessionStore()` (one process, lost on restart). */
  store?: SessionStore;
  /** The cookie's name and attributes. */
  cookie?: SessionCookieOptions;
  /** A session unused this long ends; default 1800 (30 minutes, OWASP's upper range for idle timeouts). */
  idleTimeoutSeconds?: number;
  /** A session ends this long after it began or a user signed in, however active; default 28800 (8 hours). */
  absoluteTimeoutSeconds?: number;
  /**
   * Least gain in expiry worth a write: an unchanged session's idle deadline is moved (`touch`) only
   * when it would move by at least this much; default the smaller of 60 and a tenth of the idle timeout.
   */
  touchAfterSeconds?: number;
  /** Clock in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

/** `session` options after validation. */
export interface ResolvedSessionOptions {
  readonly secrets: readonly Uint8Array[];
  /** The secrets as given, for the boot guard's strength check. */
  readonly secretValues: readonly SessionSecret[];
  readonly store: SessionStore;
  readonly cookieName: string;
  /** Attributes of the cookie, Max-Age aside. */
  readonly cookie: Readonly<CookieAttributes>;
  readonly persistent: boolean;
  readonly idleMs: number;
  readonly absoluteMs: number;
  readonly touchAfterMs: number;
  readonly now: () => number;
}

export const DEFAULT_IDLE_TIMEOUT_SECONDS = 1800;
export const DEFAULT_ABSOLUTE_TIMEOUT_SECONDS = 28_800;

function fail(option: string, problem: string): never {
  throw new TypeError(`session option "${option}" ${problem}`);
}

function optionalBoolean(value: unknown, option: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(option, 'must be a boolean');
  return value;
}

function resolveCookie(input: SessionCookieOptions | undefined): {
  name: string;
  cookie: CookieAttributes;
  persistent: boolean;
} {
  const options = input ?? {};
  if (typeof options !== 'object' || options === null) fail('cookie', 'must be an object');
  const secure = optionalBoolean(options.secure, 'cookie.secure', isProductionEnv());
  const path = options.path ?? '/';
  const domain = options.domain;
  const defaultName = !secure ? 'sid' : path === '/' && domain === undefined ? '__Host-sid' : '__Secure-sid';
  const name = options.name ?? defaultName;
  if (typeof name !== 'string' || !isHttpToken(name)) fail('cookie.name', 'must be a cookie name (a token)');
  const cookie: CookieAttributes = {
    secure,
    httpOnly: true,
    sameSite: options.sameSite ?? 'Strict',
    path,
    partitioned: optionalBoolean(options.partitioned, 'cookie.partitioned', false),
  };
  if (domain !== undefined) cookie.domain = domain;
  try {
    assertCookieAttributes({
      scope: 'session cookie',
      name,
      attributes: cookie,
      isProduction: isProductionEnv(),
    });
  } catch (error) {
    fail('cookie', `is invalid: ${(error as Error).message}`);
  }
  return { name, cookie, persistent: optionalBoolean(options.persistent, 'cookie.persistent', false) };
}

/** Validates `session` options and fills the defaults; throws a TypeError or RangeError naming the option. */
export function resolveSessionOptions(options: SessionOptions): ResolvedSessionOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('session(options) needs an options object with a "secret"');
  }
  if (options.secret === undefined) fail('secret', 'is required (at least 32 random bytes in production)');
  const secrets = normalizeSecrets(options.secret, 'session option "secret"');
  const secretValues = (
    Array.isArray(options.secret) ? [...options.secret] : [options.secret]
  ) as SessionSecret[];
  const store = options.store ?? memorySessionStore();
  assertSessionStore(store, 'session option "store"');
  const { name, cookie, persistent } = resolveCookie(options.cookie);
  const idle = resolveSeconds(
    options.idleTimeoutSeconds,
    DEFAULT_IDLE_TIMEOUT_SECONDS,
    'session option "idleTimeoutSeconds"',
  );
  const absolute = resolveSeconds(
    options.absoluteTimeoutSeconds,
    DEFAULT_ABSOLUTE_TIMEOUT_SECONDS,
    'session option "absoluteTimeoutSeconds"',
  );
  if (idle > absolute) {
    throw new RangeError(
      'session option "idleTimeoutSeconds" must not exceed "absoluteTimeoutSeconds" (the idle timeout would never apply)',
    );
  }
  const touchAfter = resolveSeconds(
    options.touchAfterSeconds,
    Math.min(60, idle / 10),
    'session option "touchAfterSeconds"',
    true,
  );
  if (touchAfter >= idle) {
    throw new RangeError('session option "touchAfterSeconds" must be less than "idleTimeoutSeconds"');
  }
  return Object.freeze({
    secrets,
    secretValues: Object.freeze(secretValues),
    store,
    cookieName: name,
    cookie: Object.freeze(cookie),
    persistent,
    idleMs: idle * 1000,
    absoluteMs: absolute * 1000,
    touchAfterMs: touchAfter * 1000,
    now: resolveClock(options.now, 'session option "now"'),
  });
}
