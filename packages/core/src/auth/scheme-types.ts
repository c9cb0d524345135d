/**
 * The OpenAPI 3.1 Security Scheme Object (OAS 3.1.1 §4.8.27) as TypeScript types, and the
 * `x-charter-require-payload-auth` extension name.
 */
import type { ApiKeyLocation } from './credentials.ts';

/** The OpenAPI extension marking a scheme whose credentials must also authenticate the payload. */
export const PAYLOAD_AUTH_EXTENSION = 'x-charter-require-payload-auth';

/** Members every security scheme may have. */
export interface SecuritySchemeBase {
  readonly description?: string;
  /** True when the credentials must cover the request body too; see `requiresPayloadAuth`. */
  readonly [PAYLOAD_AUTH_EXTENSION]?: boolean;
  /** Other specification extensions (OAS 3.1.1 §4.9), JSON values. */
  readonly [extension: `x-${string}`]: unknown;
}

/** `type: http`: an `Authorization` scheme (RFC 9110 §11), e.g. `bearer` or `basic`; case-insensitive. */
export interface HttpSecurityScheme extends SecuritySchemeBase {
  readonly type: 'http';
  readonly scheme: string;
  /** A hint of the bearer token's format (`JWT`); documentation only, and only with `bearer`. */
  readonly bearerFormat?: string;
}

/** `type: apiKey`: a key in a header, query parameter or cookie. */
export interface ApiKeySecurityScheme extends SecuritySchemeBase {
  readonly type: 'apiKey';
  readonly in: ApiKeyLocation;
  readonly name: string;
}

/** Scope name to description; may be empty (OAS 3.1.1 OAuth Flow Object). */
export type OAuthScopes = Readonly<Record<string, string>>;

/** The implicit grant (RFC 6749 §4.2). Deprecated: RFC 9700 §2.1.2 says clients SHOULD NOT use it. */
export interface OAuthImplicitFlow {
  readonly authorizationUrl: string;
  readonly refreshUrl?: string;
  readonly scopes: OAuthScopes;
}

/** The password (§4.3) and client credentials (§4.4) grants: a token endpoint only. */
export interface OAuthTokenFlow {
  readonly tokenUrl: string;
  readonly refreshUrl?: string;
  readonly scopes: OAuthScopes;
}

/** The authorization code grant (RFC 6749 §4.1; with PKCE, RFC 7636, as RFC 9700 §2.1.1 asks). */
export interface OAuthAuthorizationCodeFlow {
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  readonly refreshUrl?: string;
  readonly scopes: OAuthScopes;
}

/** The OAuth Flows Object: at least one flow. */
export interface OAuthFlows {
  /** Deprecated by RFC 9700 §2.1.2 (tokens in the front channel); kept for existing clients. */
  readonly implicit?: OAuthImplicitFlow;
  /** Deprecated by RFC 9700 §2.4 (MUST NOT be used: the client sees the password); kept for legacy clients. */
  readonly password?: OAuthTokenFlow;
  readonly clientCredentials?: OAuthTokenFlow;
  readonly authorizationCode?: OAuthAuthorizationCodeFlow;
}

/** `type: oauth2`. */
export interface OAuth2SecurityScheme extends SecuritySchemeBase {
  readonly type: 'oauth2';
  readonly flows: OAuthFlows;
}

/** `type: openIdConnect`: the OpenID Connect Discovery document URL. */
export interface OpenIdConnectSecurityScheme extends SecuritySchemeBase {
  readonly type: 'openIdConnect';
  readonly openIdConnectUrl: string;
}

/** `type: mutualTLS` (new in OpenAPI 3.1): a client certificate (RFC 8446 §4.4.2). */
export interface MutualTlsSecurityScheme extends SecuritySchemeBase {
  readonly type: 'mutualTLS';
}

/** An OpenAPI 3.1 Security Scheme Object, as the builders make it. */
export type SecurityScheme =
  | HttpSecurityScheme
  | ApiKeySecurityScheme
  | OAuth2SecurityScheme
  | OpenIdConnectSecurityScheme
  | MutualTlsSecurityScheme;
