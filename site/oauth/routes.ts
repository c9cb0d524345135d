/**
 * The site's OAuth 2.0 routes: discovery (RFC 8414, RFC 9728), the client-credentials token endpoint
 * (RFC 6749 §4.4) with RFC 8707 resource indicators, introspection (RFC 7662), and an authorization
 * endpoint that only says there is no browser flow. The OAuth endpoints answer errors as RFC 6749
 * §5.2 bodies, not problem documents; the well-known routes answer problems.
 */
import { type AnyRouteDefinition, defineRoute, NotFoundError } from '@charter/core';
import { type } from 'arktype';
import { isOAuthErrorResult, readOAuthForm } from './form.ts';
import {
  AUTHORIZATION_ENDPOINT_PATH,
  AuthorizationServerMetadata,
  authorizationServerMetadata,
  INTROSPECTION_ENDPOINT_PATH,
  ProtectedResourceMetadata,
  protectedResourceMetadata,
  TOKEN_ENDPOINT_PATH,
} from './metadata.ts';
import { NoStoreHeader, oauthError, oauthErrorResponse } from './oauth-error.ts';
import {
  allResourceUrls,
  findProtectedResource,
  ORIGIN_RESOURCE_ID,
  PROTECTED_RESOURCES,
  resolveSiteOrigin,
  resourceMetadataUrl,
  resourceUrl,
} from './resources.ts';
import {
  checkIntrospectionRequest,
  checkTokenRequest,
  INTROSPECTION_PARAMETERS,
  MAX_CLIENT_ID_LENGTH,
  TOKEN_PARAMETERS,
} from './token-request.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, DOCS_READ_SCOPE, type TokenService } from './tokens.ts';

/** Options of `oauthRoutes`. */
export interface OAuthRoutesOptions {
  /** The site origin (`SITE_ORIGIN`); must be the token service's origin. */
  origin: string;
  /** Issues and verifies the tokens (`createTokenService`). */
  tokens: TokenService;
}

/** The body of a successful token response (RFC 6749 §5.1). */
export const TokenResponse = type({
  access_token: 'string',
  token_type: "'Bearer'",
  expires_in: 'number.integer > 0',
  scope: 'string',
}).configure({ title: 'TokenResponse' });

/** The body of an introspection response (RFC 7662 §2.2): an active token's claims, or `active: false`. */
export const IntrospectionResponse = type({
  active: 'true',
  scope: 'string',
  'client_id?': 'string',
  token_type: "'Bearer'",
  exp: 'number.integer',
  iat: 'number.integer',
  sub: 'string',
  aud: 'string | string[]',
  iss: 'string',
  jti: 'string',
})
  .or({ active: 'false' })
  .configure({ title: 'IntrospectionResponse' });

// One spelling with the tag the document declares (site/discovery/openapi.ts), as every other tag.
const TAGS = ['oauth'] as const;
const METADATA_CACHE_VALUE = 'public, max-age=3600';
const NO_STORE = { 'Cache-Control': 'no-store' };
const METADATA_CACHE = { 'Cache-Control': METADATA_CACHE_VALUE };
const metadataHeaders = {
  'Cache-Control': {
    description: 'Metadata may be cached for an hour',
    schema: type(`'${METADATA_CACHE_VALUE}'`).configure({ title: 'CacheControlMetadata' }),
  },
} as const;
const tooLarge = { description: 'The body is larger than the App accepts (problem document)' } as const;

// OpenAPI 3.1 §4.8.14: form bodies are described by an object schema; an array property is sent as
// the same name repeated (form style, explode), which is how RFC 8707 repeats `resource`.
// Each schema says what checkTokenRequest checks (issue 19): a value the schema admits is accepted.
// An empty value counts as absent (RFC 6749 §3.2), except `resource` (RFC 8707 §2: an absolute URI).
const tokenFormSchema = (origin: string) => ({
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', const: 'client_credentials' },
    scope: {
      type: 'string',
      const: DOCS_READ_SCOPE,
      description: 'Space-separated scopes (RFC 6749 §3.3); only docs:read exists. Default docs:read.',
    },
    client_id: {
      type: 'string',
      maxLength: MAX_CLIENT_ID_LENGTH,
      // RFC 6749 Appendix A.1: VSCHAR, %x20-7E.
      pattern: '^[ -~]*$',
      description:
        'Optional name of the client (printable ASCII), echoed as the token subject. No secret: public clients only.',
    },
    resource: {
      type: 'array',
      items: { type: 'string', format: 'uri', enum: allResourceUrls(origin) },
      description:
        'RFC 8707 resource indicators: absolute URLs of this origin (the origin, /mcp, /api/v1, /md); an empty ' +
        'one is invalid_target. Default the origin.',
    },
  },
});

const INTROSPECTION_FORM_SCHEMA = {
  type: 'object',
  required: ['token'],
  properties: {
    // An empty token counts as absent (RFC 6749 §3.2), which is invalid_request.
    token: { type: 'string', minLength: 1, description: 'The access token to check' },
    token_type_hint: { type: 'string', const: 'access_token' },
  },
} as const;

const FORM = ['application/x-www-form-urlencoded'] as const;

/** The routes of the OAuth endpoints and metadata documents; register them on the site App. */
export function oauthRoutes(options: OAuthRoutesOptions): AnyRouteDefinition[] {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('oauthRoutes options must be an object');
  }
  const origin = resolveSiteOrigin(options.origin, 'oauthRoutes: option "origin"');
  const tokens = options.tokens;
  if (typeof tokens?.issue !== 'function' || typeof tokens.verify !== 'function') {
    throw new TypeError('oauthRoutes: option "tokens" must be the service createTokenService returned');
  }
  if (tokens.origin !== origin) {
    throw new TypeError(
      `oauthRoutes: option "origin" (${origin}) differs from the token service's (${tokens.origin}); ` +
        'the issuer in the metadata must be the iss of the tokens',
    );
  }
  const knownResources = PROTECTED_RESOURCES.map((r) => resourceUrl(origin, r.id)).join(', ');

  const asMetadata = defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    operationId: 'getOAuthAuthorizationServerMetadata',
    summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
    tags: TAGS,
    responses: {
      200: {
        description: 'The metadata document',
        body: AuthorizationServerMetadata,
        headers: metadataHeaders,
      },
    },
    handler: () => ({ status: 200, body: authorizationServerMetadata(origin), headers: METADATA_CACHE }),
  });

  const originMetadata = findProtectedResource(ORIGIN_RESOURCE_ID);
  if (originMetadata === undefined) throw new Error('oauthRoutes: the origin resource is missing');
  const prMetadata = defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    operationId: 'getOAuthProtectedResourceMetadata',
    summary: 'OAuth 2.0 protected resource metadata of the whole origin (RFC 9728)',
    tags: TAGS,
    responses: {
      200: {
        description: 'The metadata document',
        body: ProtectedResourceMetadata,
        headers: metadataHeaders,
      },
    },
    handler: () => ({
      status: 200,
      body: protectedResourceMetadata(origin, originMetadata),
      headers: METADATA_CACHE,
    }),
  });

  const prResourceMetadata = defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/*resource',
    operationId: 'getOAuthProtectedResourceMetadataOf',
    summary: 'OAuth 2.0 protected resource metadata of one resource (RFC 9728 §3.1)',
    description: `The resource path without its leading slash: ${PROTECTED_RESOURCES.filter(
      (r) => r.id !== '',
    )
      .map((r) => r.id)
      .join(', ')}.`,
    tags: TAGS,
    request: { params: type({ resource: 'string' }) },
    responses: {
      200: {
        description: 'The metadata document',
        body: ProtectedResourceMetadata,
        headers: metadataHeaders,
      },
      404: { description: 'No such resource; `code` is `unknown_resource` (problem document)' },
    },
    handler: (ctx) => {
      const resource = findProtectedResource(ctx.params.resource);
      if (resource === undefined || resource.id === ORIGIN_RESOURCE_ID) {
        throw new NotFoundError({
          detail: 'This origin has no protected resource at that metadata URL.',
          extensions: {
            code: 'unknown_resource',
            hint: `Known resources: ${knownResources}; the metadata of <origin>/<path> is at ${resourceMetadataUrl(origin, '<path>')}, that of the origin at ${resourceMetadataUrl(origin, ORIGIN_RESOURCE_ID)}.`,
          },
        });
      }
      return { status: 200, body: protectedResourceMetadata(origin, resource), headers: METADATA_CACHE };
    },
  });

  const token = defineRoute({
    method: 'POST',
    path: TOKEN_ENDPOINT_PATH,
    operationId: 'issueOAuthToken',
    summary: 'Issue an access token (OAuth 2.0 client credentials, public client)',
    description:
      `grant_type=client_credentials, optional scope=docs:read, client_id and RFC 8707 resource. ` +
      `Tokens are RFC 9068 JWTs valid for ${ACCESS_TOKEN_LIFETIME_SECONDS} seconds.`,
    tags: TAGS,
    // No body schema: the handler reads the form itself, so a wrong media type is an OAuth error
    // (RFC 6749 §5.2) rather than the pipeline's 415 problem. An Authorization header is not read:
    // clients are public (RFC 6749 §2.1), and one configured for client_secret_basic still gets a
    // token, which grants no more than the anonymous one would.
    request: { contentTypes: FORM },
    openapi: { jsonSchema: { body: tokenFormSchema(origin) } },
    responses: {
      200: {
        description: 'The access token (RFC 6749 §5.1)',
        body: TokenResponse,
        headers: {
          'Cache-Control': { description: 'Always `no-store` (RFC 6749 §5.1)', schema: NoStoreHeader },
          Pragma: { description: 'Always `no-cache` (RFC 6749 §5.1)', schema: type("'no-cache'") },
        },
      },
      400: oauthErrorResponse(
        'invalid_request, unsupported_grant_type, invalid_scope or invalid_target (RFC 6749 §5.2, RFC 8707 §2)',
      ),
      413: tooLarge,
    },
    handler: async (ctx) => {
      const form = await readOAuthForm(ctx.request, {
        known: TOKEN_PARAMETERS,
        repeatable: ['resource'],
        keepEmpty: ['resource'],
      });
      if (isOAuthErrorResult(form)) return form;
      const grant = checkTokenRequest(form, origin);
      if ('status' in grant) return grant;
      const issued = await tokens.issue({
        ...(grant.clientId === undefined ? {} : { clientId: grant.clientId }),
        scope: grant.scope,
        audience: grant.audience,
      });
      return {
        status: 200,
        body: {
          access_token: issued.accessToken,
          token_type: 'Bearer' as const,
          expires_in: issued.expiresIn,
          scope: issued.claims.scope,
        },
        headers: { ...NO_STORE, Pragma: 'no-cache' },
      };
    },
  });

  const authorize = defineRoute({
    method: 'GET',
    path: AUTHORIZATION_ENDPOINT_PATH,
    operationId: 'oauthAuthorize',
    summary: 'No authorization flow: always an OAuth error pointing at the token endpoint',
    description:
      'No browser redirect flow exists (client credentials only), so this never redirects: a redirect_uri ' +
      'of an unregistered client is not trusted (RFC 6749 §4.1.2.1).',
    tags: TAGS,
    responses: { 400: oauthErrorResponse('Always unsupported_response_type') },
    handler: () =>
      oauthError(
        'unsupported_response_type',
        `There is no authorization flow here. Request a token with grant_type=client_credentials at ${origin}${TOKEN_ENDPOINT_PATH}.`,
      ),
  });

  const introspect = defineRoute({
    method: 'POST',
    path: INTROSPECTION_ENDPOINT_PATH,
    operationId: 'introspectOAuthToken',
    summary: 'Token introspection (RFC 7662): is a token active, and what it grants',
    description:
      'No client authentication: tokens are 256-bit-keyed signatures, so probing for active tokens is ' +
      'hopeless (RFC 7662 §4), and every active token grants only public reads.',
    tags: TAGS,
    request: { contentTypes: FORM },
    openapi: { jsonSchema: { body: INTROSPECTION_FORM_SCHEMA } },
    responses: {
      200: {
        description: 'The token state (RFC 7662 §2.2)',
        body: IntrospectionResponse,
        headers: {
          'Cache-Control': { description: 'Always `no-store` (RFC 7662 §2.2)', schema: NoStoreHeader },
        },
      },
      400: oauthErrorResponse('invalid_request or unsupported_token_type'),
      413: tooLarge,
    },
    handler: async (ctx) => {
      const form = await readOAuthForm(ctx.request, { known: INTROSPECTION_PARAMETERS });
      if (isOAuthErrorResult(form)) return form;
      const checked = checkIntrospectionRequest(form);
      if ('status' in checked) return checked;
      const claims = await tokens.verify(checked.token);
      if (claims === undefined) return { status: 200, body: { active: false as const }, headers: NO_STORE };
      return {
        status: 200,
        body: {
          active: true as const,
          scope: claims.scope,
          ...(claims.client_id === undefined ? {} : { client_id: claims.client_id }),
          token_type: 'Bearer' as const,
          exp: claims.exp,
          iat: claims.iat,
          sub: claims.sub,
          aud: typeof claims.aud === 'string' ? claims.aud : [...claims.aud],
          iss: claims.iss,
          jti: claims.jti,
        },
        headers: NO_STORE,
      };
    },
  });

  return [asMetadata, prMetadata, prResourceMetadata, token, authorize, introspect] as AnyRouteDefinition[];
}
