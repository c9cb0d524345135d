// The time claims of a JWT: exp, nbf, iat (RFC 7519 §4.1.4-§4.1.6), plus a cap on the lifetime.
import { JwtError } from './errors.ts';

/** Default cap on a token's lifetime: 30 days, in seconds. */
export const DEFAULT_MAX_LIFETIME_SECONDS = 2592000;

/** Options of `assertTemporalClaims`. */
export interface TemporalClaimsOptions {
  /** The current time in seconds since the epoch; default the clock, in whole seconds. */
  now?: number;
  /** Leeway, in seconds, granted to every time comparison; default 0. */
  clockSkewSeconds?: number;
  /** Longest accepted lifetime in seconds; default 2592000 (30 days); `Infinity` disables the cap. */
  maxLifetimeSeconds?: number;
  /** Refuse a token without `exp`; default true. */
  requireExp?: boolean;
}

/** The current time in whole seconds since the epoch. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Throws `JwtError('invalid-options')` unless `value` is a finite number >= 0. */
export function assertSeconds(value: unknown, name: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new JwtError('invalid-options', `${name} must be a finite number of seconds >= 0`);
  }
}

/** Throws `JwtError('invalid-options')` unless `value` is a number > 0 (`Infinity` allowed). */
export function assertMaxLifetime(value: unknown, name: string): void {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new JwtError(
      'invalid-options',
      `${name} must be a number of seconds > 0 (Infinity disables the cap)`,
    );
  }
}

/** Reads the temporal options, throwing `invalid-options` naming the bad one. */
function resolveTemporalClaimsOptions(opts: TemporalClaimsOptions): Required<TemporalClaimsOptions> {
  if (typeof opts !== 'object' || opts === null) {
    throw new JwtError('invalid-options', 'assertTemporalClaims options must be an object');
  }
  const now = opts.now ?? nowSeconds();
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new JwtError('invalid-options', 'now must be a finite number of seconds since the epoch');
  }
  const clockSkewSeconds = opts.clockSkewSeconds ?? 0;
  assertSeconds(clockSkewSeconds, 'clockSkewSeconds');
  const maxLifetimeSeconds = opts.maxLifetimeSeconds ?? DEFAULT_MAX_LIFETIME_SECONDS;
  assertMaxLifetime(maxLifetimeSeconds, 'maxLifetimeSeconds');
  const requireExp = opts.requireExp ?? true;
  if (typeof requireExp !== 'boolean') throw new JwtError('invalid-options', 'requireExp must be a boolean');
  return { now, clockSkewSeconds, maxLifetimeSeconds, requireExp };
}

// NumericDate (RFC 7519 §2): a JSON number, fractions allowed. Strings, null, NaN or infinities are not.
function numericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Checks `exp`, `nbf` and `iat` against the clock. Codes, in the order they are checked:
 * `invalid-exp` / `invalid-nbf` / `invalid-iat` (present but not a finite number), `missing-exp`,
 * `expired` (now >= exp + skew), `not-before` (now + skew < nbf), `issued-in-future`
 * (iat > now + skew), `lifetime-too-long` (exp - iat, or exp - now without iat, over the cap).
 */
export function assertTemporalClaims(
  claims: { iat?: unknown; nbf?: unknown; exp?: unknown },
  opts: TemporalClaimsOptions = {},
): void {
  const { now, clockSkewSeconds: skew, maxLifetimeSeconds, requireExp } = resolveTemporalClaimsOptions(opts);
  if (typeof claims !== 'object' || claims === null) {
    throw new JwtError('malformed', 'The claims must be an object');
  }
  const { exp, nbf, iat } = claims;
  if (exp !== undefined && !numericDate(exp)) {
    throw new JwtError('invalid-exp', 'The "exp" claim is not a NumericDate');
  }
  if (nbf !== undefined && !numericDate(nbf)) {
    throw new JwtError('invalid-nbf', 'The "nbf" claim is not a NumericDate');
  }
  if (iat !== undefined && !numericDate(iat)) {
    throw new JwtError('invalid-iat', 'The "iat" claim is not a NumericDate');
  }
  if (exp === undefined && requireExp) throw new JwtError('missing-exp', 'The token has no "exp" claim');
  // RFC 7519 §4.1.4: the token MUST NOT be accepted on or after the expiration time.
  if (exp !== undefined && now >= exp + skew) throw new JwtError('expired', 'The token has expired');
  // RFC 7519 §4.1.5: the token MUST NOT be accepted before the not-before time.
  if (nbf !== undefined && now + skew < nbf) throw new JwtError('not-before', 'The token is not valid yet');
  if (iat !== undefined && iat > now + skew) {
    throw new JwtError('issued-in-future', 'The token was issued in the future');
  }
  if (exp !== undefined) {
    const lifetime = exp - (iat ?? now);
    if (lifetime > maxLifetimeSeconds) {
      throw new JwtError(
        'lifetime-too-long',
        `The token's lifetime (${lifetime} s) is over the ${maxLifetimeSeconds} s maximum`,
      );
    }
  }
}
