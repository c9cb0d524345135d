/**
 * The two OAuth discovery documents: authorization server metadata (RFC 8414 §2) and protected
 * resource metadata (RFC 9728 §2), with their arktype schemas for the OpenAPI document.
 */
import { type } from 'arktype';
import { type ProtectedResource, resourceUrl } from './resources.ts';
import { DOCS_READ_SCOPE } from './tokens.ts';

/** The page documenting the site's machine APIs, OAuth included (`service_documentation`). */
export const OAUTH_DOCUMENTATION_PATH = '/docs/site-apis';

/** The token endpoint's path (RFC 6749 §3.2). */
export const TOKEN_ENDPOINT_PATH = '/oauth/token';

/** The introspection endpoint's path (RFC 7662 §2). */
export const INTROSPECTION_ENDPOINT_PATH = '/oauth/introspect';

/** The authorization endpoint's path: it exists only to say that there is no such flow. */
export const AUTHORIZATION_ENDPOINT_PATH = '/oauth/authorize';

/** Schema of the authorization server metadata document. */
export const AuthorizationServerMetadata = type({
  issuer: 'string',
  authorization_endpoint: 'string',
  token_endpoint: 'string',
  introspection_endpoint: 'string',
  grant_types_supported: 'string[]',
  response_types_supported: 'string[]',
  token_endpoint_auth_methods_supported: 'string[]',
  introspection_endpoint_auth_methods_supported: 'string[]',
  scopes_supported: 'string[]',
  service_documentation: 'string',
}).configure({ title: 'AuthorizationServerMetadata' });

/** Schema of a protected resource metadata document. */
export const ProtectedResourceMetadata = type({
  resource: 'string',
  authorization_servers: 'string[]',
  scopes_supported: 'string[]',
  bearer_methods_supported: 'string[]',
  resource_name: 'string',
  resource_documentation: 'string',
}).configure({ title: 'ProtectedResourceMetadata' });

/**
 * The RFC 8414 §2 document. `issuer` is the origin exactly, as clients compare it with the URL they
 * derived the metadata URL from (RFC 8414 §3.3).
 *
 * `authorization_endpoint` is advertised although the only grant, `client_credentials` (RFC 6749
 * §4.4), never uses it: RFC 8414 §2 would let it be left out, but the official MCP SDKs
 * (`@modelcontextprotocol/sdk` 1.x, `@modelcontextprotocol/client` 2.x) and the MCP inspector
 * refuse a document without it, so an MCP client could not get a token by itself (issue 19).
 * `/oauth/authorize` answers every call with the OAuth error `unsupported_response_type`, and
 * `response_types_supported` (required by RFC 8414 §2) is empty: no response type is offered. Clients authenticate with nothing
 * (`none`, RFC 7591 §2): every client is public. No PKCE (`code_challenge_methods_supported`),
 * since there is no code flow.
 */
export function authorizationServerMetadata(origin: string): typeof AuthorizationServerMetadata.infer {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}${AUTHORIZATION_ENDPOINT_PATH}`,
    token_endpoint: `${origin}${TOKEN_ENDPOINT_PATH}`,
    introspection_endpoint: `${origin}${INTROSPECTION_ENDPOINT_PATH}`,
    grant_types_supported: ['client_credentials'],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ['none'],
    introspection_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [DOCS_READ_SCOPE],
    service_documentation: `${origin}${OAUTH_DOCUMENTATION_PATH}`,
  };
}

/**
 * The RFC 9728 §2 document of one resource. `resource` is the identifier the well-known URL was
 * built from (RFC 9728 §3.3 requires the two to be identical); this origin is its own authorization
 * server, and tokens travel in the `Authorization` header only (RFC 6750 §2.1).
 */
export function protectedResourceMetadata(
  origin: string,
  resource: ProtectedResource,
): typeof ProtectedResourceMetadata.infer {
  return {
    resource: resourceUrl(origin, resource.id),
    authorization_servers: [origin],
    scopes_supported: [DOCS_READ_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: resource.name,
    resource_documentation: `${origin}${OAUTH_DOCUMENTATION_PATH}`,
  };
}
