import { ForbiddenError, UnauthorizedError } from '../errors/index.ts';
import { isHttpToken } from '../security/header-guards.ts';

/** One `WWW-Authenticate` challenge (RFC 9110 §11.6.1): a scheme plus auth-params. */
export interface Challenge {
  /** Auth scheme token, e.g. `Bearer`, `Basic`. */
  scheme: string;
  /** Auth-params in order; undefined values are left out. `realm` is conventionally first. */
  params?: Readonly<Record<string, string | undefined>>;
}

/** True when every character is allowed inside an RFC 9110 §5.6.4 quoted-string (no CTLs but HTAB). */
function isQuotable(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f || c > 0xff) return false;
  }
  return true;
}

/**
 * Serialises a challenge: `Bearer realm="api", error="invalid_token"`. Values are always sent as
 * quoted-strings with `"` and `\` escaped (RFC 9110 §5.6.4); a scheme or parameter name that is not a
 * token, or a value with control or non-Latin-1 characters, throws a TypeError, so a challenge can never
 * split or forge a header.
 */
export function formatChallenge(challenge: Challenge): string {
  // String(): a scheme from untyped code is judged by the text it would be sent as.
  if (!isHttpToken(String(challenge.scheme))) {
    throw new TypeError(`formatChallenge: scheme ${JSON.stringify(challenge.scheme)} is not an HTTP token`);
  }
  const parts: string[] = [];
  for (const [name, value] of Object.entries(challenge.params ?? {})) {
    if (value === undefined) continue;
    if (!isHttpToken(name)) {
      throw new TypeError(`formatChallenge: parameter name ${JSON.stringify(name)} is not an HTTP token`);
    }
    if (!isQuotable(value)) {
      throw new TypeError(`formatChallenge: the value of ${name} has control or non-Latin-1 characters`);
    }
    parts.push(`${name}="${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`);
  }
  return parts.length === 0 ? challenge.scheme : `${challenge.scheme} ${parts.join(', ')}`;
}

/** RFC 6750 §3.1 error codes of the Bearer scheme. */
export type BearerErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/** What the 401 says: the challenge's scheme and realm, and optionally an RFC 6750 error. */
export interface UnauthorizedOptions {
  /** Challenge scheme; default `Bearer`. */
  scheme?: string;
  /** Protection space (RFC 9110 §11.5); default `api`. */
  realm?: string;
  /** RFC 6750 §3.1 error code; leave it out when no credentials were sent at all (§3.1, last paragraph). */
  error?: BearerErrorCode;
  /** Human-readable `error_description` (also the problem's detail). */
  description?: string;
  /** Space-separated scopes the resource needs (RFC 6750 §3). */
  scope?: string;
  /** Extra auth-params, e.g. `charset="UTF-8"` for Basic (RFC 7617 §2.1). */
  params?: Readonly<Record<string, string | undefined>>;
  /** Why, for the log (a credential rejection's code is logged); never sent to the client. */
  cause?: unknown;
}

/** A 401 UnauthorizedError whose `WWW-Authenticate` carries the given challenge. */
export function unauthorized(options: UnauthorizedOptions = {}): UnauthorizedError {
  const challenge = formatChallenge({
    scheme: options.scheme ?? 'Bearer',
    params: {
      realm: options.realm ?? 'api',
      ...options.params,
      error: options.error,
      error_description: options.description,
      scope: options.scope,
    },
  });
  return new UnauthorizedError({
    detail: options.description ?? 'Authentication is required to access this resource.',
    challenge,
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}

/**
 * A 403 for a caller whose token lacks scopes (RFC 6750 §3.1 `insufficient_scope`), with the challenge
 * naming the scopes needed so a client knows what to request.
 */
export function insufficientScope(
  required: readonly string[],
  options: { realm?: string; scheme?: string; params?: Readonly<Record<string, string>> } = {},
): ForbiddenError {
  const scope = required.join(' ');
  return new ForbiddenError({
    detail: `The credentials lack the scopes this resource needs: ${scope}.`,
    headers: {
      'www-authenticate': formatChallenge({
        scheme: options.scheme ?? 'Bearer',
        params: { realm: options.realm ?? 'api', ...options.params, error: 'insufficient_scope', scope },
      }),
    },
  });
}
