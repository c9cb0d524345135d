/**
 * @module charter/jwk
 * Bearer JWT authentication against a JSON Web Key set (RFC 7517, RFC 6750), as Hooks: keys from a
 * fixed set, an HTTPS JWKS URL (cached, refetched on key rotation, served stale during an outage) or a
 * resolver; signatures and claims checked by `@charter/jwt`.
 */
export { scopesFromClaims, userFromPayload } from './claims.ts';
export { jwk } from './hooks.ts';
export { type Jwk, type JwkSet, MAX_JWKS_KEYS } from './jwk-set.ts';
export { JwksFetchError, type JwksFetchFailure } from './jwks-fetch.ts';
export { JwksUnavailableError } from './jwks-source.ts';
export {
  JWK_ALGORITHMS,
  JWK_DEFAULTS,
  type JwkAlgorithm,
  type JwkOptions,
  type JwkResolver,
  type JwksFetch,
  type JwkVerifyHook,
  resolveJwkOptions,
  type ResolvedJwkOptions,
  type ResolvedJwksSource,
} from './options.ts';
export { MAX_KEY_CANDIDATES } from './select-key.ts';
export { createJwksVerifier, type JwksVerifier } from './verifier.ts';
