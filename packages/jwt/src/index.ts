/**
 * @module charter/jwt
 * JSON Web Tokens (RFC 7519) as compact JWS (RFC 7515): signed and verified with WebCrypto only, so
 * the module runs on Bun, Node 24 and workers. HS*, RS*, PS*, ES* and EdDSA; `none` never.
 */
export {
  isJwtAlgorithm,
  JWT_ALGORITHMS,
  type JwtAlgorithm,
  MIN_RSA_MODULUS_BITS,
} from './algorithms.ts';
export {
  isJwtError,
  JWT_ERROR_CODES,
  JwtError,
  type JwtErrorCode,
  type JwtTemporalErrorCode,
} from './errors.ts';
export { importJwtKey, type JwtKeyInput, type JwtKeyUsage } from './keys.ts';
export {
  createJwtSigner,
  DEFAULT_EXPIRES_IN_SECONDS,
  type JwtSigner,
  type JwtSignerOptions,
  type JwtSignOverrides,
} from './sign.ts';
export {
  assertTemporalClaims,
  DEFAULT_MAX_LIFETIME_SECONDS,
  type TemporalClaimsOptions,
} from './temporal.ts';
export type { Jwk, JwtHeader, JwtPayload, VerifiedJwt } from './types.ts';
export {
  createJwtVerifier,
  DEFAULT_MAX_TOKEN_LENGTH,
  type JwtKeyResolver,
  type JwtVerifier,
  type JwtVerifierOptions,
  type JwtVerifyOverrides,
} from './verify.ts';
