/**
 * OAuth error responses (RFC 6749 §5.2): `400 application/json { error, error_description }` with
 * `Cache-Control: no-store`. The OAuth endpoints answer these instead of problem documents, because
 * OAuth clients (oauth4webapi, the MCP SDKs) read `error` from this exact shape.
 */
import { type } from 'arktype';

/** The error codes the site's OAuth endpoints use. */
export type OAuthErrorCode =
  // RFC 6749 §5.2
  | 'invalid_request'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  // RFC 6749 §4.1.2.1, answered by the authorization endpoint
  | 'unsupported_response_type'
  // RFC 8707 §2
  | 'invalid_target'
  // RFC 7009 §2.2.1, reused by introspection (see introspect.ts)
  | 'unsupported_token_type';

/** The body of an OAuth error (RFC 6749 §5.2). */
export const OAuthErrorBody = type({
  error: 'string',
  'error_description?': 'string',
}).configure({ title: 'OAuthError' });

/** The `Cache-Control` value of every OAuth endpoint response (RFC 6749 §5.1, RFC 7662 §2.2). */
export const NoStoreHeader = type("'no-store'").configure({ title: 'CacheControlNoStore' });

/** What a handler returns for an OAuth error. */
export interface OAuthErrorResult {
  readonly status: 400;
  readonly body: { error: OAuthErrorCode; error_description: string };
  readonly headers: Record<string, string>;
}

/**
 * True when `text` fits RFC 6749 §5.2's `error_description` syntax: printable ASCII except `"` and
 * `\` (%x20-21 / %x23-5B / %x5D-7E). Client input is never echoed into a description, so every
 * description is one of the fixed sentences of this module's callers.
 */
export function isErrorDescription(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** A 400 OAuth error response with `Cache-Control: no-store` (RFC 6749 §5.1, §5.2). */
export function oauthError(error: OAuthErrorCode, description: string): OAuthErrorResult {
  if (!isErrorDescription(description)) {
    throw new TypeError(`oauthError: the description of ${error} breaks RFC 6749 §5.2 syntax`);
  }
  return {
    status: 400,
    body: { error, error_description: description },
    headers: { 'Cache-Control': 'no-store' },
  };
}

/** The response declaration of an OAuth error, for a route's `responses[400]`. */
export function oauthErrorResponse(description: string) {
  return {
    description,
    contentType: 'application/json',
    body: OAuthErrorBody,
    headers: {
      'Cache-Control': { description: 'Always `no-store` (RFC 6749 §5.2)', schema: NoStoreHeader },
    },
  } as const;
}
