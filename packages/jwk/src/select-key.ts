/**
 * Which keys of a JWK set may verify a token (RFC 7515 §4.1.4, RFC 7517 §4): by `kid` when the token
 * names one, else every key whose type, curve and `alg` fit the token's algorithm.
 */
import type { JwtHeader } from '@charter/jwt';
import type { ParsedJwk, ParsedJwkSet } from './jwk-set.ts';

/** At most this many keys are tried for one token (several keys fit a token without `kid`). */
export const MAX_KEY_CANDIDATES = 10;

/** The keys to try for a token, and whether the set names the token's `kid` at all. */
export interface KeySelection {
  readonly candidates: readonly ParsedJwk[];
  /** False when the token has a `kid` that no key of the set carries: a refetch may find it. */
  readonly kidKnown: boolean;
}

/**
 * Selects the keys that may verify a token with this header. With a `kid`, only keys carrying that
 * kid are considered (RFC 7515 §4.1.4); without one, every key. Either way a key must fit the token's
 * algorithm: matching key type and curve, its own `alg` equal to the token's when present, `use` `sig`
 * and `key_ops` including `verify` when present (filtered at parse time).
 */
export function selectKeys(set: ParsedJwkSet, header: Pick<JwtHeader, 'alg' | 'kid'>): KeySelection {
  const { alg, kid } = header;
  const candidates: ParsedJwk[] = [];
  for (const key of set.keys) {
    if (kid !== undefined && key.kid !== kid) continue;
    if (!key.fits(alg)) continue;
    candidates.push(key);
    if (candidates.length === MAX_KEY_CANDIDATES) break;
  }
  return { candidates, kidKnown: kid === undefined || set.kids.has(kid) };
}
