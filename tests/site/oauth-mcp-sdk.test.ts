/**
 * MCP clients get a token from the site by themselves (issue 19): the official SDKs' own OAuth code,
 * `auth()` with their `ClientCredentialsProvider` (`@modelcontextprotocol/sdk` 1.32.2 and
 * `@modelcontextprotocol/client` 2.4.0), against the real site on a loopback port. Both start from
 * the protected-resource metadata of /mcp (RFC 9728), and both recover from a 401 at /mcp: the
 * transport reads `resource_metadata` from the challenge, runs the grant and retries. The SDKs
 * refuse RFC 8414 metadata without `authorization_endpoint`, so the site advertises it (the endpoint
 * still answers `unsupported_response_type`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  auth as v2Auth,
  Client as V2Client,
  ClientCredentialsProvider as V2ClientCredentialsProvider,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { auth as v1Auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider as V1ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { type RunningSite, startSite } from './support.ts';

const TEST_TIMEOUT_MS = 15_000;

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** One exchange as the SDK's fetch saw it. */
interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly authorization: string | null;
  readonly body: string | undefined;
  readonly challenge: string | null;
}

/** What both providers share; the SDKs' own types differ only in their generics. */
interface Provider {
  tokens(): { access_token: string; token_type: string; scope?: string } | undefined;
  saveTokens(tokens: { access_token: string; token_type: string }): void;
}

interface Sdk {
  readonly name: string;
  provider(issuer: string): Provider;
  auth(provider: Provider, options: { serverUrl: string; fetchFn: FetchLike }): Promise<string>;
  /** Connects a client whose transport holds `provider`, lists the tools, and closes. */
  listToolsWith(provider: Provider, url: URL, fetchLike: FetchLike): Promise<string[]>;
}

const SDKS: readonly Sdk[] = [
  {
    name: '@modelcontextprotocol/sdk 1.32.2',
    // A public client: no secret, so the SDK picks `none` from token_endpoint_auth_methods_supported.
    provider: (issuer) =>
      new V1ClientCredentialsProvider({
        clientId: 'sdk-v1-agent',
        expectedIssuer: issuer,
        scope: 'docs:read',
      } as unknown as ConstructorParameters<typeof V1ClientCredentialsProvider>[0]) as unknown as Provider,
    auth: (provider, options) => v1Auth(provider as never, options),
    async listToolsWith(provider, url, fetchLike) {
      const client = new V1Client({ name: 'oauth-sdk-v1', version: '1.0.0' });
      await client.connect(new V1Transport(url, { authProvider: provider as never, fetch: fetchLike }));
      try {
        return (await client.listTools()).tools.map((tool) => tool.name);
      } finally {
        await client.close();
      }
    },
  },
  {
    name: '@modelcontextprotocol/client 2.4.0',
    provider: (issuer) =>
      new V2ClientCredentialsProvider({
        clientId: 'sdk-v2-agent',
        expectedIssuer: issuer,
        scope: 'docs:read',
      } as unknown as ConstructorParameters<typeof V2ClientCredentialsProvider>[0]) as unknown as Provider,
    auth: (provider, options) => v2Auth(provider as never, options),
    async listToolsWith(provider, url, fetchLike) {
      const client = new V2Client(
        { name: 'oauth-sdk-v2', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new V2Transport(url, { authProvider: provider as never, fetch: fetchLike }));
      try {
        return (await client.listTools()).tools.map((tool) => tool.name);
      } finally {
        await client.close();
      }
    },
  },
];

let site: RunningSite;

beforeAll(async () => {
  site = await startSite({ rateLimit: { max: 10_000, windowMs: 60_000 } });
});

afterAll(() => site.stop());

function recordingFetch(wire: Exchange[]): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    const headers = new Headers(init?.headers);
    wire.push({
      method: init?.method ?? 'GET',
      path: new URL(String(url)).pathname,
      status: response.status,
      authorization: headers.get('authorization'),
      body:
        typeof init?.body === 'string'
          ? init.body
          : init?.body instanceof URLSearchParams
            ? String(init.body)
            : undefined,
      challenge: response.headers.get('www-authenticate'),
    });
    return response;
  };
}

async function introspect(token: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${site.origin}/oauth/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe("the site's RFC 8414 metadata, as the SDKs read it", () => {
  test('advertises authorization_endpoint, offers no response type, and passes the SDK schema', async () => {
    const response = await fetch(`${site.origin}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata.authorization_endpoint).toBe(`${site.origin}/oauth/authorize`);
    expect(metadata.response_types_supported).toEqual([]);
    expect(OAuthMetadataSchema.safeParse(metadata).success).toBe(true);
    // Without it the SDKs refuse the document: the reason it is advertised.
    const { authorization_endpoint: _, ...without } = metadata;
    expect(OAuthMetadataSchema.safeParse(without).success).toBe(false);
  });

  test('the advertised endpoint still answers unsupported_response_type', async () => {
    const response = await fetch(`${site.origin}/oauth/authorize?response_type=code&client_id=x`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(((await response.json()) as { error: string }).error).toBe('unsupported_response_type');
  });
});

for (const sdk of SDKS) {
  describe(`${sdk.name}: ClientCredentialsProvider against the site`, () => {
    test(
      'auth() from the protected-resource metadata of /mcp: discovery, the grant, a token for /mcp',
      async () => {
        const wire: Exchange[] = [];
        const provider = sdk.provider(site.origin);
        const result = await sdk.auth(provider, {
          serverUrl: `${site.origin}/mcp`,
          fetchFn: recordingFetch(wire),
        });
        expect(result).toBe('AUTHORIZED');
        expect(wire.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
          'GET /.well-known/oauth-protected-resource/mcp 200',
          'GET /.well-known/oauth-authorization-server 200',
          'POST /oauth/token 200',
        ]);
        const grant = new URLSearchParams(wire[2]?.body ?? '');
        expect(grant.get('grant_type')).toBe('client_credentials');
        expect(grant.get('resource')).toBe(`${site.origin}/mcp`);
        expect(grant.has('client_secret')).toBe(false);
        expect(wire[2]?.authorization).toBeNull();
        const tokens = provider.tokens();
        expect(tokens?.token_type).toBe('Bearer');
        expect(tokens?.scope).toBe('docs:read');
        const claims = await introspect(tokens?.access_token ?? '');
        expect(claims).toMatchObject({ active: true, scope: 'docs:read', aud: `${site.origin}/mcp` });
        expect(claims.client_id).toStartWith('sdk-v');
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'from a 401 at /mcp: the transport follows resource_metadata, gets a token and retries',
      async () => {
        const wire: Exchange[] = [];
        const provider = sdk.provider(site.origin);
        // A stale token, as a client holds after the key rotated: /mcp refuses it with 401.
        provider.saveTokens({ access_token: 'stale.token.value', token_type: 'Bearer' });
        const tools = await sdk.listToolsWith(provider, new URL(`${site.origin}/mcp`), recordingFetch(wire));
        expect(tools.sort()).toEqual(['get_doc', 'list_docs', 'search_docs']);
        const refused = wire.find((exchange) => exchange.status === 401);
        expect(refused?.path).toBe('/mcp');
        expect(refused?.authorization).toBe('Bearer stale.token.value');
        expect(refused?.challenge).toContain('error="invalid_token"');
        expect(refused?.challenge).toContain(
          `resource_metadata="${site.origin}/.well-known/oauth-protected-resource/mcp"`,
        );
        const after = wire.slice(wire.indexOf(refused as Exchange) + 1);
        expect(after.slice(0, 3).map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
          'GET /.well-known/oauth-protected-resource/mcp 200',
          'GET /.well-known/oauth-authorization-server 200',
          'POST /oauth/token 200',
        ]);
        const token = provider.tokens()?.access_token as string;
        expect(token).not.toBe('stale.token.value');
        // Every later POST /mcp carries the new token and is served (the v1 client's GET for an SSE
        // stream is 405, as the transport allows for a server that offers none).
        const retried = after.filter((exchange) => exchange.path === '/mcp' && exchange.method === 'POST');
        expect(retried.length).toBeGreaterThan(0);
        for (const exchange of retried) {
          expect(exchange.authorization).toBe(`Bearer ${token}`);
          expect(exchange.status).toBeLessThan(300);
        }
      },
      TEST_TIMEOUT_MS,
    );
  });
}
