/**
 * What an authenticating hook leaves on `ctx.state` for the rest of the request: who the caller is
 * (`ctx.state.user`) and how they proved it (`ctx.state.auth`). Route-level `auth` declarations
 * and scope checks read these two records and nothing else.
 */

/** How the caller authenticated. */
export type AuthMethod = 'bearer' | 'basic' | 'jwt' | 'jwk' | 'webhook' | 'session' | 'apiKey' | 'mtls';

/** `ctx.state.auth`: the method and the credentials that were checked. */
export interface AuthContext {
  readonly scheme: AuthMethod;
  /** The verified credentials: a token, a user name, verified JWT claims, a session record... */
  readonly credentials: unknown;
  /**
   * The credentials also cover the request body (an HMAC or signature over it), as a security
   * scheme with `x-charter-require-payload-auth` demands.
   */
  readonly payloadVerified?: boolean;
  /**
   * The challenge of the scheme that authenticated, so a later refusal of this caller (403
   * `insufficient_scope`, RFC 6750 §3.1) answers in the same realm and with the same parameters (RFC 9728
   * §5.1 `resource_metadata`) as that scheme's own 401s.
   */
  readonly challenge?: AuthChallenge;
}

/** The `WWW-Authenticate` scheme, realm and extra parameters an authenticating hook answers with. */
export interface AuthChallenge {
  /** The HTTP authentication scheme name, e.g. `Bearer`. */
  readonly scheme: string;
  readonly realm: string;
  readonly params?: Readonly<Record<string, string>>;
}

/** `ctx.state.user`: the authenticated principal. */
export interface AuthUser {
  /** Subject identifier (JWT `sub`, user id, certificate subject); undefined when the credential has none. */
  readonly sub: string | undefined;
  /** Granted scopes (OAuth 2 `scope`, RFC 6749 §3.3), deduplicated. */
  readonly scopes: readonly string[];
  /** Every claim or attribute the credential carried. */
  readonly claims: Readonly<Record<string, unknown>>;
}
