/**
 * The checks of a token request (RFC 6749 §4.4.2, RFC 8707 §2) and of an introspection request
 * (RFC 7662 §2.1), from the form parameters `readOAuthForm` read. Each answers what to do, or the
 * OAuth error to send; nothing here signs or verifies.
 */
import type { OAuthForm } from './form.ts';
import { type OAuthErrorResult, oauthError } from './oauth-error.ts';
import { PROTECTED_RESOURCES, resourceIdForUrl, resourceUrl } from './resources.ts';
import { DOCS_READ_SCOPE } from './tokens.ts';

/** Longest accepted `client_id`, in characters. */
export const MAX_CLIENT_ID_LENGTH = 200;

/** The parameters the token endpoint reads; others are ignored (RFC 6749 §3.2). */
export const TOKEN_PARAMETERS = ['grant_type', 'scope', 'client_id', 'client_secret', 'resource'] as const;

/** The parameters the introspection endpoint reads (RFC 7662 §2.1). */
export const INTROSPECTION_PARAMETERS = ['token', 'token_type_hint'] as const;

/** A token request that passed every check. */
export interface TokenGrant {
  readonly clientId: string | undefined;
  /** The granted scope: always `docs:read`. */
  readonly scope: string;
  /** The token's `aud`: the origin, one resource URL, or several (RFC 8707 §2). */
  readonly audience: string | readonly string[];
}

/** RFC 6749 Appendix A.1: client-id = *VSCHAR, VSCHAR = %x20-7E; here at most 200 of them. */
function isClientId(value: string): boolean {
  if (value.length > MAX_CLIENT_ID_LENGTH) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * RFC 6749 §3.3: a space-separated list of scope tokens. Only `docs:read` exists; asking for it twice
 * is still asking for it. Runs of spaces are tolerated.
 */
function isDocsReadScope(value: string): boolean {
  const tokens = value.split(' ').filter((token) => token !== '');
  return tokens.length > 0 && tokens.every((token) => token === DOCS_READ_SCOPE);
}

/** The list of resource URLs of this origin, for error descriptions. */
function knownResources(origin: string): string {
  return PROTECTED_RESOURCES.map((resource) => resourceUrl(origin, resource.id)).join(', ');
}

/**
 * Checks a client-credentials token request, in this order:
 * 1. `grant_type` missing: `invalid_request`; not `client_credentials`: `unsupported_grant_type`
 *    (RFC 6749 §5.2);
 * 2. `client_secret` present: `invalid_request` (the client is public, RFC 6749 §2.1; no secret is
 *    ever issued, so one sent is a misconfigured client and `invalid_client` would wrongly suggest a
 *    secret exists);
 * 3. `client_id` longer than 200 characters or not printable ASCII: `invalid_request` (an empty
 *    one counts as absent, RFC 6749 §3.2);
 * 4. `scope` other than `docs:read`: `invalid_scope`; absent: `docs:read` (RFC 6749 §3.3 default);
 * 5. each `resource` not the absolute URL of one of this origin's resources, an empty one included:
 *    `invalid_target` (RFC 8707 §2). None: the token's `aud` is the origin, good everywhere.
 */
export function checkTokenRequest(form: OAuthForm, origin: string): TokenGrant | OAuthErrorResult {
  const grantType = form.single.get('grant_type');
  if (grantType === undefined) {
    return oauthError('invalid_request', 'The grant_type parameter is required; use client_credentials.');
  }
  if (grantType !== 'client_credentials') {
    return oauthError(
      'unsupported_grant_type',
      'Only grant_type=client_credentials is supported (RFC 6749 section 4.4).',
    );
  }
  if (form.single.has('client_secret')) {
    return oauthError(
      'invalid_request',
      'This server has public clients only: no client secret is used. Send client_id alone, or nothing.',
    );
  }
  const clientId = form.single.get('client_id');
  if (clientId !== undefined && !isClientId(clientId)) {
    return oauthError(
      'invalid_request',
      `The client_id must be printable ASCII, at most ${MAX_CLIENT_ID_LENGTH} characters.`,
    );
  }
  const scope = form.single.get('scope');
  if (scope !== undefined && !isDocsReadScope(scope)) {
    return oauthError('invalid_scope', `The only scope issued is ${DOCS_READ_SCOPE}.`);
  }
  const audiences: string[] = [];
  for (const value of form.multi.get('resource') ?? []) {
    const id = resourceIdForUrl(origin, value);
    if (id === undefined) {
      return oauthError(
        'invalid_target',
        `Each resource must be the absolute URL of one of this server's resources: ${knownResources(origin)}.`,
      );
    }
    const url = resourceUrl(origin, id);
    if (!audiences.includes(url)) audiences.push(url);
  }
  const audience =
    audiences.length === 0 ? origin : audiences.length === 1 ? (audiences[0] as string) : audiences;
  return { clientId, scope: DOCS_READ_SCOPE, audience };
}

/**
 * Checks an introspection request: `token` missing is `invalid_request` (RFC 7662 §2.1 makes it
 * required); a `token_type_hint` other than `access_token` is `unsupported_token_type`.
 *
 * RFC 7662 §2.1 lets a server ignore a hint it cannot use, but this server issues access tokens only:
 * a hint naming another type (`refresh_token`) names something that cannot exist here, and the client
 * learns that better from an error than from `active: false`. The code is RFC 7009 §2.2.1's, the one
 * error the OAuth registry defines for a token type a server does not support; RFC 7662 shares its
 * `token_type_hint` registry with RFC 7009.
 */
export function checkIntrospectionRequest(form: OAuthForm): { token: string } | OAuthErrorResult {
  const token = form.single.get('token');
  if (token === undefined) {
    return oauthError('invalid_request', 'The token parameter is required (RFC 7662 section 2.1).');
  }
  const hint = form.single.get('token_type_hint');
  if (hint !== undefined && hint !== 'access_token') {
    return oauthError(
      'unsupported_token_type',
      'This server issues access tokens only; token_type_hint may only be access_token.',
    );
  }
  return { token };
}
