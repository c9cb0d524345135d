/**
 * The site's OAuth endpoints driven by a real OAuth client, oauth4webapi, over a real Bun server on a
 * loopback port (clients.md §3): discovery, the client-credentials grant, RFC 8707 resources,
 * introspection, and the errors the client surfaces as `ResponseBodyError`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import * as oauth from 'oauth4webapi';
import { oauthRoutes } from '../../site/oauth/routes.ts';
import { createTokenService } from '../../site/oauth/tokens.ts';

let server: ReturnType<typeof Bun.serve>;
let app: App | undefined;
let issuer: URL;
let as: oauth.AuthorizationServer;
// Loopback tests only: oauth4webapi refuses http: unless told otherwise.
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const client: oauth.Client = { client_id: 'test-agent' };
const auth = oauth.None();

beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => (app === undefined ? new Response(null, { status: 503 }) : app.fetch(request)),
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const tokens = createTokenService({ origin, key: crypto.getRandomValues(new Uint8Array(32)) });
  app = new App({ logger: false });
  app.registerRoutes(oauthRoutes({ origin, tokens }));
  issuer = new URL(origin);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
});

afterAll(() => server.stop(true));

function grant(parameters: Record<string, string> | string[][]): Promise<Response> {
  return oauth.clientCredentialsGrantRequest(as, client, auth, new URLSearchParams(parameters), insecure);
}

async function bodyError(response: Promise<unknown>): Promise<oauth.ResponseBodyError> {
  try {
    await response;
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) return error;
    throw error;
  }
  throw new Error('expected a ResponseBodyError');
}

describe('oauth4webapi against the site', () => {
  test('discovery: the metadata issuer matches the URL it was discovered from', () => {
    expect(as.issuer).toBe(issuer.href.replace(/\/$/, ''));
    expect(as.token_endpoint).toBe(`${as.issuer}/oauth/token`);
    expect(as.introspection_endpoint).toBe(`${as.issuer}/oauth/introspect`);
    expect(as.grant_types_supported).toEqual(['client_credentials']);
  });

  test('client credentials with scope docs:read gives a Bearer token for docs:read', async () => {
    const token = await oauth.processClientCredentialsResponse(
      as,
      client,
      await grant({ scope: 'docs:read' }),
    );
    expect(token.token_type).toBe('bearer');
    expect(token.scope).toBe('docs:read');
    expect(token.expires_in).toBe(3600);
    expect(token.access_token.split('.')).toHaveLength(3);
  });

  test('client credentials without scope still gives docs:read', async () => {
    const token = await oauth.processClientCredentialsResponse(as, client, await grant({}));
    expect(token.scope).toBe('docs:read');
  });

  test('a resource indicator binds the token to that resource (RFC 8707)', async () => {
    const resource = `${as.issuer}/mcp`;
    const token = await oauth.processClientCredentialsResponse(as, client, await grant({ resource }));
    const introspection = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, token.access_token, insecure),
    );
    expect(introspection.aud).toBe(resource);
  });

  test('introspection reports an issued token active, with its scope and client', async () => {
    const token = await oauth.processClientCredentialsResponse(
      as,
      client,
      await grant({ scope: 'docs:read' }),
    );
    const introspection = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, token.access_token, insecure),
    );
    expect(introspection.active).toBe(true);
    expect(introspection.scope).toBe('docs:read');
    expect(introspection.client_id).toBe('test-agent');
    expect(introspection.sub).toBe('test-agent');
    expect(introspection.iss).toBe(as.issuer);
    expect(introspection.token_type).toBe('Bearer');
  });

  test('introspection reports an unknown token inactive', async () => {
    const introspection = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, 'not-a-token-of-this-server', insecure),
    );
    expect(introspection).toEqual({ active: false });
  });

  test('an unknown scope surfaces as ResponseBodyError invalid_scope', async () => {
    const error = await bodyError(
      oauth.processClientCredentialsResponse(as, client, await grant({ scope: 'docs:write' })),
    );
    expect(error.error).toBe('invalid_scope');
    expect(error.status).toBe(400);
    expect(error.error_description).toContain('docs:read');
  });

  test('another grant type surfaces as ResponseBodyError unsupported_grant_type', async () => {
    // oauth4webapi always sends grant_type=client_credentials, so this request is made by hand;
    // the client still reads the answer.
    const response = await fetch(as.token_endpoint as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=a&password=b',
    });
    const error = await bodyError(oauth.processClientCredentialsResponse(as, client, response));
    expect(error.error).toBe('unsupported_grant_type');
  });

  test('a foreign resource surfaces as ResponseBodyError invalid_target', async () => {
    const error = await bodyError(
      oauth.processClientCredentialsResponse(
        as,
        client,
        await grant({ resource: 'https://elsewhere.example/mcp' }),
      ),
    );
    expect(error.error).toBe('invalid_target');
  });
});
