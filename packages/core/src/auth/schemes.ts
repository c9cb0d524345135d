/**
 * Security-scheme builders: the OpenAPI 3.1 Security Scheme Object (OAS 3.1.1 §4.8.27) for http
 * bearer and basic, apiKey, OAuth 2, OpenID Connect and mutualTLS, checked when built, plus the
 * `x-charter-require-payload-auth` extension, which says the scheme's credentials must cover the
 * request body too (an HMAC or signature over it), not only the headers.
 */
import type { ApiKeyLocation } from './credentials.ts';
import { assertSecurityScheme, copySecurityScheme } from './scheme-check.ts';
import {
  type ApiKeySecurityScheme,
  type HttpSecurityScheme,
  type MutualTlsSecurityScheme,
  type OAuth2SecurityScheme,
  type OAuthFlows,
  type OpenIdConnectSecurityScheme,
  PAYLOAD_AUTH_EXTENSION,
  type SecurityScheme,
} from './scheme-types.ts';

export { assertAuthSpec, assertSecurityScheme, requiresPayloadAuth } from './scheme-check.ts';
export * from './scheme-types.ts';

/** What every builder accepts. */
export interface SchemeOptions {
  /** Shown in the OpenAPI document (CommonMark). */
  description?: string;
  /** Sets `x-charter-require-payload-auth: true`; default false (the member is then left out). */
  requirePayloadAuth?: boolean;
}

/** Options of `httpBearerScheme`. */
export interface HttpBearerSchemeOptions extends SchemeOptions {
  /** e.g. `JWT`; documentation only. */
  bearerFormat?: string;
}

/** Options of `apiKeyScheme`. */
export interface ApiKeySchemeOptions extends SchemeOptions {
  in: ApiKeyLocation;
  name: string;
}

/** Options of `oauth2Scheme`. */
export interface OAuth2SchemeOptions extends SchemeOptions {
  flows: OAuthFlows;
}

/** Options of `openIdConnectScheme`. */
export interface OpenIdConnectSchemeOptions extends SchemeOptions {
  openIdConnectUrl: string;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** Adds the common members, validates the result under the builder's name and freezes it. */
function build<S extends SecurityScheme>(
  where: string,
  core: Record<string, unknown>,
  opts: SchemeOptions,
): S {
  if (typeof opts !== 'object' || opts === null) throw new TypeError(`${where} options must be an object`);
  if (opts.requirePayloadAuth !== undefined && typeof opts.requirePayloadAuth !== 'boolean') {
    throw new TypeError(`${where} option "requirePayloadAuth" must be a boolean`);
  }
  const scheme: Record<string, unknown> = { ...core, description: opts.description };
  if (opts.requirePayloadAuth === true) scheme[PAYLOAD_AUTH_EXTENSION] = true;
  assertSecurityScheme(scheme, where);
  return deepFreeze(copySecurityScheme(scheme)) as S;
}

/** `{ type: 'http', scheme: 'bearer' }`: `Authorization: Bearer <token>` (RFC 6750). */
export function httpBearerScheme(opts: HttpBearerSchemeOptions = {}): HttpSecurityScheme {
  return build(
    'httpBearerScheme',
    { type: 'http', scheme: 'bearer', bearerFormat: opts?.bearerFormat },
    opts,
  );
}

/** `{ type: 'http', scheme: 'basic' }`: `Authorization: Basic <user:pass>` (RFC 7617). */
export function httpBasicScheme(opts: SchemeOptions = {}): HttpSecurityScheme {
  return build('httpBasicScheme', { type: 'http', scheme: 'basic' }, opts);
}

/** `{ type: 'apiKey', in, name }`; the name must be valid for its location. */
export function apiKeyScheme(opts: ApiKeySchemeOptions): ApiKeySecurityScheme {
  return build('apiKeyScheme', { type: 'apiKey', in: opts?.in, name: opts?.name }, opts);
}

/**
 * `{ type: 'oauth2', flows }`. Every endpoint URL must be absolute https (http only on a loopback
 * host, for development), without credentials or fragment (RFC 6749 §3.1, §3.2); each flow needs its
 * URLs and a `scopes` map. The implicit and password flows are accepted but deprecated (RFC 9700).
 */
export function oauth2Scheme(opts: OAuth2SchemeOptions): OAuth2SecurityScheme {
  return build('oauth2Scheme', { type: 'oauth2', flows: opts?.flows }, opts);
}

/** `{ type: 'openIdConnect', openIdConnectUrl }`; the URL must be absolute https (http only on loopback). */
export function openIdConnectScheme(opts: OpenIdConnectSchemeOptions): OpenIdConnectSecurityScheme {
  return build(
    'openIdConnectScheme',
    { type: 'openIdConnect', openIdConnectUrl: opts?.openIdConnectUrl },
    opts,
  );
}

/** `{ type: 'mutualTLS' }`: the caller authenticates with a TLS client certificate. */
export function mutualTlsScheme(opts: SchemeOptions = {}): MutualTlsSecurityScheme {
  return build('mutualTlsScheme', { type: 'mutualTLS' }, opts);
}

/**
 * The scheme as a fresh, plain OpenAPI 3.1 Security Scheme Object (members in specification order,
 * extensions last), after checking it as the builders do: a hand-written scheme is validated too.
 */
export function toOpenAPISecurityScheme(scheme: SecurityScheme): Record<string, unknown> {
  assertSecurityScheme(scheme, 'toOpenAPISecurityScheme');
  return copySecurityScheme(scheme as unknown as Readonly<Record<string, unknown>>);
}
