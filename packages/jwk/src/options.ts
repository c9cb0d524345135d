/**
 * Options of `jwk()` and `createJwksVerifier()`: what they mean, their defaults, and the checks that
 * refuse a dangerous or mistyped configuration when the helper is built rather than on the first request.
 */
import { formatChallenge, type Logger, type PreBodyContext } from '@charter/core';
import { JWT_ALGORITHMS, type JwtAlgorithm, type JwtHeader, type JwtPayload } from '@charter/jwt';
import { type JwkSet, type ParsedJwkSet, parseJwkSet, type Jwk } from './jwk-set.ts';

type MaybePromise<T> = T | Promise<T>;

/** A fetch-compatible function (e.g. `fetchGuard()` from `charter`). */
export type JwksFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Finds the verification key(s) for a token from its protected header: a JWK set, one JWK, or a
 * CryptoKey; undefined when there is none (the token is refused with 401).
 */
export type JwkResolver = (header: JwtHeader) => MaybePromise<JwkSet | Jwk | CryptoKey | undefined>;

/** Application check after the signature and claims are valid: return false to refuse with 403. */
export type JwkVerifyHook = (payload: JwtPayload, ctx: PreBodyContext) => MaybePromise<boolean | void>;

/** Asymmetric JWS algorithms a JWK set can verify (RFC 7518 §3.1, RFC 8037 §3.1). */
export type JwkAlgorithm = Exclude<JwtAlgorithm, 'HS256' | 'HS384' | 'HS512'>;

/** Options of `jwk()` (and of `createJwksVerifier()`, which ignores `realm` and `verify`). */
export interface JwkOptions {
  /**
   * Where the public keys come from: a JWK set (`{ keys: [...] }`, checked now), an `https:` URL
   * serving one (fetched and cached; `http:` is refused), or a resolver function. Required.
   */
  jwks: JwkSet | string | URL | JwkResolver;
  /** Accepted algorithms; required and non-empty. HS256/384/512 and `none` are refused. */
  algorithms: readonly JwkAlgorithm[];
  /** Accepted `iss` value(s) (RFC 7519 §4.1.1); required. */
  issuer: string | readonly string[];
  /**
   * Accepted `aud` value(s) (RFC 7519 §4.1.3): the token must name one of them. Required; `false` says
   * this API has no audience identifier: only tokens without `aud` are then accepted (§4.1.3), and the
   * recipient should be checked in `verify` (e.g. a `client_id` claim).
   */
  audience: string | readonly string[] | false;
  /** Leeway for `exp`, `nbf` and `iat`, in seconds; default 0. */
  clockSkewSeconds?: number;
  /** Longest accepted token lifetime, in seconds; default 2592000 (30 days); `Infinity` disables the cap. */
  maxLifetimeSeconds?: number;
  /**
   * Required `typ` header, e.g. `at+jwt` for RFC 9068 access tokens (§2.1), compared case-insensitively
   * with `application/` optional (RFC 7515 §4.1.9); default not checked.
   */
  typ?: string;
  /** Longest accepted token, in characters; default 8192. */
  maxTokenLength?: number;
  /** `realm` of the `WWW-Authenticate` challenge (RFC 6750 §3); default `api`. */
  realm?: string;
  /** URL sources: how long a fetched set is fresh, in seconds (the ceiling for `Cache-Control: max-age`); default 300. */
  fetchTtlSeconds?: number;
  /** URL sources: how long past its freshness a set is still used while refetching fails; default 3600, 0 disables. */
  maxStaleSeconds?: number;
  /**
   * URL sources: the least time between two fetches, in seconds: an unknown `kid` triggers at most one
   * refetch per cooldown, a failed fetch is not retried sooner, and `Cache-Control: max-age` cannot go
   * below it. Default 30.
   */
  cooldownSeconds?: number;
  /** URL sources: time limit of one fetch, response body included, in milliseconds; default 5000. */
  timeoutMs?: number;
  /** URL sources: largest accepted JWKS response body, in bytes; default 262144 (256 KiB). */
  maxJwksBytes?: number;
  /** URL sources: the fetch to use; default `globalThis.fetch`. Pass `fetchGuard()` for an outbound guard. */
  fetch?: JwksFetch;
  /** Runs after a token verified: return false to refuse the request with 403. */
  verify?: JwkVerifyHook;
  /** Where JWKS fetch failures are logged (`warn` while a stale set is served, else `error`); default nowhere. */
  logger?: Logger;
  /** The clock, in milliseconds since the epoch; default `Date.now`. For tests. */
  now?: () => number;
}

/** Where the keys come from, after validation. */
export type ResolvedJwksSource =
  | { readonly kind: 'set'; readonly set: ParsedJwkSet }
  | { readonly kind: 'url'; readonly url: URL }
  | { readonly kind: 'resolver'; readonly resolve: JwkResolver };

/** The options after validation, defaults filled in. */
export interface ResolvedJwkOptions {
  readonly source: ResolvedJwksSource;
  readonly algorithms: readonly JwkAlgorithm[];
  readonly issuer: readonly string[];
  readonly audience: readonly string[] | false;
  readonly clockSkewSeconds: number;
  readonly maxLifetimeSeconds: number;
  readonly typ: string | undefined;
  readonly maxTokenLength: number;
  readonly realm: string;
  readonly fetchTtlSeconds: number;
  readonly maxStaleSeconds: number;
  readonly cooldownSeconds: number;
  readonly timeoutMs: number;
  readonly maxJwksBytes: number;
  readonly fetch: JwksFetch | undefined;
  readonly verify: JwkVerifyHook | undefined;
  readonly logger: Logger | undefined;
  readonly now: () => number;
}

/** Defaults of the optional settings. */
export const JWK_DEFAULTS = Object.freeze({
  clockSkewSeconds: 0,
  maxLifetimeSeconds: 2_592_000,
  maxTokenLength: 8192,
  realm: 'api',
  fetchTtlSeconds: 300,
  maxStaleSeconds: 3600,
  cooldownSeconds: 30,
  timeoutMs: 5000,
  maxJwksBytes: 262_144,
});

/** The algorithms `jwk()` accepts: every asymmetric JWS algorithm `@charter/jwt` implements. */
export const JWK_ALGORITHMS: readonly JwkAlgorithm[] = Object.freeze(
  JWT_ALGORITHMS.filter((alg): alg is JwkAlgorithm => !alg.startsWith('HS')),
);

const KNOWN_OPTIONS: ReadonlySet<string> = new Set([
  'jwks',
  'algorithms',
  'issuer',
  'audience',
  'clockSkewSeconds',
  'maxLifetimeSeconds',
  'typ',
  'maxTokenLength',
  'realm',
  'fetchTtlSeconds',
  'maxStaleSeconds',
  'cooldownSeconds',
  'timeoutMs',
  'maxJwksBytes',
  'fetch',
  'verify',
  'logger',
  'now',
]);

function resolveSource(jwks: unknown): ResolvedJwksSource {
  if (typeof jwks === 'function') return { kind: 'resolver', resolve: jwks as JwkResolver };
  if (typeof jwks === 'string' || jwks instanceof URL) {
    let url: URL;
    try {
      url = new URL(String(jwks));
    } catch {
      throw new TypeError(
        `jwk option "jwks" is not a valid URL: ${JSON.stringify(String(jwks).slice(0, 200))}`,
      );
    }
    // Keys fetched over plain http could be replaced by anyone on the path (RFC 8414 §3.2 and OpenID
    // Connect Discovery §4 require TLS for the jwks_uri for the same reason).
    if (url.protocol !== 'https:') {
      throw new TypeError(`jwk option "jwks" must be an https: URL, got ${url.protocol} (http is refused)`);
    }
    if (url.username !== '' || url.password !== '') {
      throw new TypeError('jwk option "jwks" must not carry credentials in the URL');
    }
    return { kind: 'url', url };
  }
  if (typeof jwks === 'object' && jwks !== null) {
    try {
      return { kind: 'set', set: parseJwkSet(jwks) };
    } catch (error) {
      throw new TypeError(`jwk option "jwks": ${(error as Error).message}`);
    }
  }
  throw new TypeError('jwk option "jwks" must be a JWK set, an https URL or a resolver function');
}

function resolveAlgorithms(value: unknown): readonly JwkAlgorithm[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new TypeError('jwk option "algorithms" is required: a non-empty array such as ["RS256"]');
  }
  for (const alg of value) {
    if (typeof alg === 'string' && alg.startsWith('HS')) {
      // A symmetric key would have to be shared with every verifier, and a public JWK set would make it
      // public: HS* tokens checked against a JWKS are the classic algorithm-confusion hole (RFC 8725 §2.1).
      throw new TypeError(
        `jwk option "algorithms": ${alg} is symmetric and is refused; use @charter/jwt for HMAC`,
      );
    }
    if (typeof alg === 'string' && alg.toLowerCase() === 'none') {
      throw new TypeError('jwk option "algorithms": "none" is never accepted (RFC 8725 §3.1)');
    }
    if (!(JWK_ALGORITHMS as readonly unknown[]).includes(alg)) {
      throw new TypeError(
        `jwk option "algorithms": unknown algorithm ${JSON.stringify(alg)}; use ${JWK_ALGORITHMS.join(', ')}`,
      );
    }
  }
  return Object.freeze([...new Set(value as JwkAlgorithm[])]);
}

function resolveStrings(name: string, value: unknown): readonly string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(`jwk option "${name}" is required: a non-empty string or array of strings`);
  }
  for (const item of list) {
    if (typeof item !== 'string' || item === '') {
      throw new TypeError(`jwk option "${name}" must hold non-empty strings`);
    }
  }
  return Object.freeze([...(list as string[])]);
}

function integer(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`jwk option "${name}" must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

function optionalFunction<T>(name: string, value: unknown): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`jwk option "${name}" must be a function`);
  }
  return value as T | undefined;
}

/** Validates `jwk()` options and fills the defaults; throws a TypeError or RangeError naming the option. */
export function resolveJwkOptions(options: JwkOptions): ResolvedJwkOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('jwk() needs an options object with at least jwks, algorithms, issuer and audience');
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`jwk: unknown option "${key}"`);
  }
  const algorithms = resolveAlgorithms(options.algorithms);
  const source = resolveSource(options.jwks);
  if (source.kind === 'set' && !source.set.keys.some((key) => algorithms.some((alg) => key.fits(alg)))) {
    throw new TypeError(
      `jwk option "jwks": no key of the set can verify any of the algorithms ${algorithms.join(', ')}`,
    );
  }
  const issuer = resolveStrings('issuer', options.issuer);
  const audience = options.audience === false ? false : resolveStrings('audience', options.audience);
  const clockSkewSeconds = options.clockSkewSeconds ?? JWK_DEFAULTS.clockSkewSeconds;
  if (typeof clockSkewSeconds !== 'number' || !Number.isFinite(clockSkewSeconds) || clockSkewSeconds < 0) {
    throw new RangeError(
      `jwk option "clockSkewSeconds" must be a number >= 0, got ${String(clockSkewSeconds)}`,
    );
  }
  const typ = options.typ;
  if (typ !== undefined && (typeof typ !== 'string' || typ === '')) {
    throw new TypeError('jwk option "typ" must be a non-empty string');
  }
  const realm = options.realm ?? JWK_DEFAULTS.realm;
  if (typeof realm !== 'string') throw new TypeError('jwk option "realm" must be a string');
  try {
    formatChallenge({ scheme: 'Bearer', params: { realm } });
  } catch {
    throw new TypeError('jwk option "realm" must not contain control or non-Latin-1 characters');
  }
  const logger = options.logger;
  if (
    logger !== undefined &&
    (typeof logger !== 'object' ||
      logger === null ||
      typeof logger.warn !== 'function' ||
      typeof logger.error !== 'function')
  ) {
    throw new TypeError('jwk option "logger" must be a Logger (an object with warn and error methods)');
  }
  return Object.freeze({
    source,
    algorithms,
    issuer,
    audience,
    clockSkewSeconds,
    maxLifetimeSeconds:
      options.maxLifetimeSeconds === Number.POSITIVE_INFINITY
        ? Number.POSITIVE_INFINITY
        : integer('maxLifetimeSeconds', options.maxLifetimeSeconds, JWK_DEFAULTS.maxLifetimeSeconds, 1),
    typ,
    maxTokenLength: integer('maxTokenLength', options.maxTokenLength, JWK_DEFAULTS.maxTokenLength, 16),
    realm,
    fetchTtlSeconds: integer('fetchTtlSeconds', options.fetchTtlSeconds, JWK_DEFAULTS.fetchTtlSeconds, 1),
    maxStaleSeconds: integer('maxStaleSeconds', options.maxStaleSeconds, JWK_DEFAULTS.maxStaleSeconds, 0),
    cooldownSeconds: integer('cooldownSeconds', options.cooldownSeconds, JWK_DEFAULTS.cooldownSeconds, 1),
    timeoutMs: integer('timeoutMs', options.timeoutMs, JWK_DEFAULTS.timeoutMs, 1),
    maxJwksBytes: integer('maxJwksBytes', options.maxJwksBytes, JWK_DEFAULTS.maxJwksBytes, 1),
    fetch: optionalFunction<JwksFetch>('fetch', options.fetch),
    verify: optionalFunction<JwkVerifyHook>('verify', options.verify),
    logger,
    now: optionalFunction<() => number>('now', options.now) ?? Date.now,
  });
}
