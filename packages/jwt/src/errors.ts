// The one error type of the JWT module: every refusal carries a machine-readable `code`.

/** The mark charter's auth helpers read (`isCredentialRejection`): a registered symbol, the same everywhere. */
const CREDENTIAL_REJECTION = Symbol.for('charter.credential-rejection');

/** Why a temporal claim check failed (RFC 7519 §4.1.4, §4.1.5, §4.1.6). */
export type JwtTemporalErrorCode =
  | 'missing-exp'
  | 'expired'
  | 'not-before'
  | 'issued-in-future'
  | 'invalid-exp'
  | 'invalid-nbf'
  | 'invalid-iat'
  | 'lifetime-too-long';

/** Every code a `JwtError` can carry. */
export type JwtErrorCode =
  | JwtTemporalErrorCode
  | 'malformed'
  | 'alg-none'
  | 'alg-not-allowed'
  | 'crit-unsupported'
  | 'unknown-kid'
  | 'invalid-signature'
  | 'invalid-issuer'
  | 'invalid-audience'
  | 'invalid-typ'
  | 'invalid-key'
  | 'invalid-options';

/** Every `JwtErrorCode`, for exhaustive mapping (to HTTP statuses, log fields...). */
export const JWT_ERROR_CODES: readonly JwtErrorCode[] = Object.freeze([
  'missing-exp',
  'expired',
  'not-before',
  'issued-in-future',
  'invalid-exp',
  'invalid-nbf',
  'invalid-iat',
  'lifetime-too-long',
  'malformed',
  'alg-none',
  'alg-not-allowed',
  'crit-unsupported',
  'unknown-kid',
  'invalid-signature',
  'invalid-issuer',
  'invalid-audience',
  'invalid-typ',
  'invalid-key',
  'invalid-options',
] as const);

/**
 * A token refused, or a signer/verifier misconfigured. Messages name what was wrong and never
 * contain the token, a signature or key material.
 */
export class JwtError extends Error {
  /** What went wrong; stable, switch on it. */
  readonly code: JwtErrorCode;
  constructor(code: JwtErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JwtError';
    this.code = code;
  }

  /**
   * A refused token, as charter's auth helpers understand it: `bearer({ verify })` answers 401
   * `invalid_token` for it (logging the code) instead of a 500. A misconfigured signer or verifier
   * (`invalid-key`, `invalid-options`) is not a refused token: it stays a server error.
   */
  get [CREDENTIAL_REJECTION](): boolean {
    return !CONFIGURATION_CODES.has(this.code);
  }
}

/** Codes that say the signer or verifier is misconfigured, not that a token is bad. */
const CONFIGURATION_CODES: ReadonlySet<JwtErrorCode> = new Set(['invalid-key', 'invalid-options']);

/** True when `error` is a `JwtError`, optionally with the given code. */
export function isJwtError(error: unknown, code?: JwtErrorCode): error is JwtError {
  return error instanceof JwtError && (code === undefined || error.code === code);
}
