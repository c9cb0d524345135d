/**
 * Reading a bearer token from the Authorization header (RFC 6750 §2.1, RFC 9110 §11.6.2), shared by
 * every bearer-style helper (`bearer()`, `jwk()`), so they refuse the same requests the same way.
 * Only the header is read: tokens in the query or a form body (RFC 6750 §2.2, §2.3) leak into logs and
 * caches, and reading a body would defeat header-only authentication.
 */
import { formatChallenge, unauthorized } from './challenge.ts';
import { isToken68, ownValue, parseAuthorization } from './credentials.ts';
import { BadRequestError } from '../errors/index.ts';
import type { RawHeaders } from '../types/index.ts';

/** What the Authorization header holds, for a bearer-token resource. */
export type BearerCredentials =
  /** No Authorization header, or an empty one. */
  | { readonly kind: 'missing' }
  /** Credentials of another scheme (Basic, DPoP...): for this resource, no bearer credentials were sent. */
  | { readonly kind: 'other-scheme' }
  /** `Bearer` followed by something that is not one token68 (RFC 9110 §11.2): `invalid_request`. */
  | { readonly kind: 'malformed'; readonly reason: string }
  | { readonly kind: 'token'; readonly token: string };

const MALFORMED = 'The Authorization header must be "Bearer" followed by exactly one token.';

/**
 * Parses an Authorization header value: `auth-scheme [ 1*SP token68 ]` (RFC 9110 §11.6.2). The scheme
 * is case-insensitive (§11.1). Several Authorization fields arrive joined by commas, which is not one
 * token68: a request must not carry two candidate tokens.
 */
export function parseBearerAuthorization(value: string | null | undefined): BearerCredentials {
  if (value === null || value === undefined) return { kind: 'missing' };
  const text = value.trim();
  // An empty field carries no credentials at all, like an absent one.
  if (text === '') return { kind: 'missing' };
  const parts = parseAuthorization(text);
  if (parts === undefined || parts.scheme.toLowerCase() !== 'bearer') return { kind: 'other-scheme' };
  return isToken68(parts.rest)
    ? { kind: 'token', token: parts.rest }
    : { kind: 'malformed', reason: MALFORMED };
}

/**
 * The bearer token of a request, from its raw header map (never `ctx.request`, whose body wrapper a
 * preBody hook has no reason to build). Throws the RFC 6750 §3.1 answers: 401 with the bare challenge
 * when no bearer credentials were sent, 400 `invalid_request` (with the challenge) when they are malformed.
 */
export function requireBearerToken(headers: RawHeaders, realm: string): string {
  const credentials = parseBearerAuthorization(ownValue(headers, 'authorization'));
  if (credentials.kind === 'token') return credentials.token;
  if (credentials.kind !== 'malformed') throw unauthorized({ realm });
  throw malformedBearer(realm, credentials.reason);
}

/** The RFC 6750 §3.1 answer to a malformed Bearer header: 400 `invalid_request`, with the challenge. */
export function malformedBearer(
  realm: string,
  reason: string,
  params?: Readonly<Record<string, string>>,
): BadRequestError {
  return new BadRequestError({
    detail: reason,
    headers: {
      'www-authenticate': formatChallenge({
        scheme: 'Bearer',
        params: { realm, ...params, error: 'invalid_request', error_description: reason },
      }),
    },
  });
}
