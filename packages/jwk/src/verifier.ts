/**
 * Verifying a token against a JWK source: the key is chosen from the token's protected header after
 * `@charter/jwt` has checked its structure, algorithm, `crit` and `typ` (so a malformed or refused token
 * never causes a JWKS fetch), then the signature and the claims are checked by `@charter/jwt`.
 */
import { createJwtVerifier, isJwtError, type JwtVerifierOptions, type VerifiedJwt } from '@charter/jwt';
import { createJwksSource, type KeyCandidate } from './jwks-source.ts';
import { type JwkOptions, type ResolvedJwkOptions, resolveJwkOptions } from './options.ts';

/** Verifies bearer tokens against a JWK set. */
export interface JwksVerifier {
  /**
   * Resolves the header and claims of a valid token. Throws `JwtError` (with a `code`) for a refused
   * token, and `JwksUnavailableError` when no key set can be had (the JWKS endpoint is down).
   */
  verify(token: string): Promise<VerifiedJwt>;
}

// A key that does not verify is followed by the next candidate only for these failures: any other
// (an expired token, a wrong audience) would fail the same way with every key.
const NEXT_KEY_CODES = new Set(['invalid-signature', 'invalid-key', 'alg-not-allowed']);

/** The verifier for options already resolved (shared by `jwk()` and `createJwksVerifier()`). */
export function jwksVerifierFor(options: ResolvedJwkOptions): JwksVerifier {
  const source = createJwksSource(options);
  const base: Omit<JwtVerifierOptions, 'key'> = {
    algorithms: options.algorithms,
    issuer: options.issuer,
    // Without an audience, @charter/jwt refuses any token that has `aud` (RFC 7519 §4.1.3).
    audience: options.audience === false ? undefined : options.audience,
    clockSkewSeconds: options.clockSkewSeconds,
    maxLifetimeSeconds: options.maxLifetimeSeconds,
    // RFC 9068 §2.2: an access token always carries `exp`.
    requireExp: true,
    typ: options.typ,
    maxTokenLength: options.maxTokenLength,
    now: () => Math.floor(options.now() / 1000),
  };
  try {
    createJwtVerifier({ ...base, key: () => undefined });
  } catch (error) {
    throw new TypeError(`jwk: ${(error as Error).message}`);
  }

  return {
    async verify(token) {
      // Per call, so the resolver can walk this token's candidates: several keys fit a token without `kid`.
      let candidates: readonly KeyCandidate[] | undefined;
      let attempt = 0;
      const verifier = createJwtVerifier({
        ...base,
        key: async (header) => {
          candidates ??= await source.candidates(header);
          return candidates[attempt]?.key;
        },
      });
      for (;;) {
        try {
          return await verifier.verify(token);
        } catch (error) {
          const more = candidates !== undefined && attempt + 1 < candidates.length;
          if (more && isJwtError(error) && NEXT_KEY_CODES.has(error.code)) {
            attempt++;
            continue;
          }
          throw error;
        }
      }
    },
  };
}

/**
 * A JWKS-backed token verifier without the HTTP layer, for places that are not a route (a WebSocket
 * upgrade, a queue consumer). Takes the `jwk()` options; `realm` and `verify` are not used.
 *
 * @example
 * const verifier = createJwksVerifier({ jwks: 'https://id.example/jwks.json', algorithms: ['RS256'], issuer: 'https://id.example', audience: 'api' });
 * const { payload } = await verifier.verify(token);
 */
export function createJwksVerifier(options: JwkOptions): JwksVerifier {
  return jwksVerifierFor(resolveJwkOptions(options));
}
