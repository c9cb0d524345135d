/**
 * Errors that mean "this credential is refused", as opposed to "the check itself broke". A verify
 * callback of `bearer()` may throw one (charter/jwt's `JwtError` for an expired, forged or
 * wrong-audience token is one): the request is then a 401 `invalid_token` (RFC 6750 §3.1), not a 500,
 * and the error's `code` goes to the log so an operator can tell expiry from forgery. Anything else a
 * callback throws stays a 500 naming nothing.
 *
 * The mark is a registered symbol, so a package can mark its errors without importing this module,
 * and two copies of Charter in one process still agree.
 */
import type { HttpError } from './http-error.ts';
import type { Logger } from '../logger/index.ts';

/**
 * The registered symbol a rejection carries as `true` (on the error or its prototype). Not exported
 * as a value (the package exports no symbols): `Symbol.for('charter.credential-rejection')` is the
 * same symbol anywhere, and `markCredentialRejection` sets it.
 */
const CREDENTIAL_REJECTION = Symbol.for('charter.credential-rejection');

/** An error that refuses a credential; `code` is a machine-readable reason, when it has one. */
export interface CredentialRejection extends Error {
  readonly code?: unknown;
}

/** True when `error` is marked as refusing a credential. */
export function isCredentialRejection(error: unknown): error is CredentialRejection {
  return (
    error instanceof Error && (error as unknown as Record<symbol, unknown>)[CREDENTIAL_REJECTION] === true
  );
}

/**
 * Marks your own error as refusing a credential, so that `bearer({ verify })` answers 401
 * `invalid_token` when your callback throws it (its `code`, if a string, is logged).
 *
 * @example throw markCredentialRejection(Object.assign(new Error('token revoked'), { code: 'revoked' }));
 */
export function markCredentialRejection<E extends Error>(error: E): E {
  Object.defineProperty(error, CREDENTIAL_REJECTION, { value: true });
  return error;
}

/** Longest `code` logged: it comes from library code, but is bounded all the same. */
const MAX_CODE_LENGTH = 64;

/**
 * Logs a refusal whose cause is a credential rejection (info level: refusing bad tokens is routine),
 * with the rejection's code and message; never the credential. Returns whether it logged.
 */
export function logCredentialRejection(logger: Logger, error: HttpError, route: string | undefined): boolean {
  const cause = error.cause;
  if (!isCredentialRejection(cause)) return false;
  logger.info('Credentials refused', {
    route,
    status: error.status,
    ...(typeof cause.code === 'string' ? { code: cause.code.slice(0, MAX_CODE_LENGTH) } : {}),
    reason: cause.message,
  });
  return true;
}
