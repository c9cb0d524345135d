import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import {
  AuthorizationServerMetadata,
  authorizationServerMetadata,
  ProtectedResourceMetadata,
  protectedResourceMetadata,
} from './metadata.ts';
import { PROTECTED_RESOURCES } from './resources.ts';

const ORIGIN = 'https://docs.example';

describe('authorizationServerMetadata', () => {
  test('describes a client-credentials-only server with public clients, its authorization endpoint advertised (RFC 8414 §2)', () => {
    const metadata = authorizationServerMetadata(ORIGIN);
    expect(metadata).toEqual({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      introspection_endpoint: `${ORIGIN}/oauth/introspect`,
      grant_types_supported: ['client_credentials'],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ['none'],
      introspection_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['docs:read'],
      service_documentation: `${ORIGIN}/docs/site-apis`,
    });
    expect('code_challenge_methods_supported' in metadata).toBe(false);
    expect(AuthorizationServerMetadata(metadata) instanceof type.errors).toBe(false);
  });
});

describe('protectedResourceMetadata', () => {
  test('names each resource by the identifier its well-known URL comes from (RFC 9728 §3.3)', () => {
    const urls = PROTECTED_RESOURCES.map((resource) => protectedResourceMetadata(ORIGIN, resource).resource);
    expect(urls).toEqual([ORIGIN, `${ORIGIN}/mcp`, `${ORIGIN}/api/v1`, `${ORIGIN}/md`]);
  });

  test('points at this origin as the authorization server, header tokens only, scope docs:read', () => {
    const mcp = PROTECTED_RESOURCES[1];
    if (mcp === undefined) throw new Error('no mcp resource');
    const metadata = protectedResourceMetadata(ORIGIN, mcp);
    expect(metadata).toEqual({
      resource: `${ORIGIN}/mcp`,
      authorization_servers: [ORIGIN],
      scopes_supported: ['docs:read'],
      bearer_methods_supported: ['header'],
      resource_name: 'Charter documentation tool server (MCP)',
      resource_documentation: `${ORIGIN}/docs/site-apis`,
    });
    expect(ProtectedResourceMetadata(metadata) instanceof type.errors).toBe(false);
    expect(ProtectedResourceMetadata({ ...metadata, resource: 1 }) instanceof type.errors).toBe(true);
  });
});
