/**
 * The site's documentation tool server driven by the official TypeScript MCP clients against the
 * real site (`createSite`, the Bun adapter, a loopback port): the v1 `@modelcontextprotocol/sdk`
 * client (legacy era, 2025-11-25 after `initialize`) and the v2 `@modelcontextprotocol/client`
 * client, pinned to 2026-07-28 and in `auto` mode (modern era). Each lists the three tools and calls
 * each of them, without credentials and with a real access token that `oauth4webapi` obtained from
 * the site's own token endpoint (client credentials, RFC 8707 `resource` = the tool server); a
 * forged token fails with 401 naming the RFC 9728 metadata.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oauth from 'oauth4webapi';
import type { ContentSite } from '../../site/content/types.ts';
import type { SearchIndex } from '../../site/mcp/search.ts';
import { searchIndexOf } from '../../site/search/index-cache.ts';
import { realContent, type RunningSite, startSite } from './support.ts';

const TEST_TIMEOUT_MS = 5_000;

type Json = Record<string, unknown>;
type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** One exchange as the client's fetch saw it. */
interface Exchange {
  readonly method: string;
  readonly headers: Headers;
  readonly status: number;
  readonly responseHeaders: Headers;
}

/** The client methods the suite uses, loosely typed: results are read as JSON. */
interface CommonClient {
  listTools(): Promise<{ tools: Json[] }>;
  callTool(params: { name: string; arguments?: Json }): Promise<Json>;
  close(): Promise<void>;
}

interface ClientSetup {
  readonly name: string;
  readonly protocolVersion: string;
  connect(
    url: URL,
    fetchLike: FetchLike,
  ): Promise<{ client: CommonClient; protocolVersion: string | undefined }>;
}

const SETUPS: readonly ClientSetup[] = [
  {
    name: 'v1 Client (@modelcontextprotocol/sdk 1.32.2)',
    protocolVersion: '2025-11-25',
    async connect(url, fetchLike) {
      const client = new V1Client({ name: 'site-mcp-test-v1', version: '1.0.0' });
      const transport = new V1Transport(url, { fetch: fetchLike });
      await client.connect(transport);
      return { client: client as unknown as CommonClient, protocolVersion: transport.protocolVersion };
    },
  },
  ...(['pin', 'auto'] as const).map(
    (mode): ClientSetup => ({
      name: `v2 Client, versionNegotiation ${mode === 'pin' ? "{ pin: '2026-07-28' }" : "'auto'"} (@modelcontextprotocol/client 2.4.0)`,
      protocolVersion: '2026-07-28',
      async connect(url, fetchLike) {
        const client = new V2Client(
          { name: 'site-mcp-test-v2', version: '1.0.0' },
          { versionNegotiation: { mode: mode === 'pin' ? { pin: '2026-07-28' } : 'auto' } },
        );
        await client.connect(new V2Transport(url, { fetch: fetchLike }));
        return {
          client: client as unknown as CommonClient,
          protocolVersion: client.getNegotiatedProtocolVersion(),
        };
      },
    }),
  ),
];

/** Which credentials a client sends: none, the token from the site's token endpoint, or a forged one. */
type Credentials = 'none' | 'token' | 'forged';

/** A fetch that adds the credentials and records every exchange. */
function clientFetch(wire: Exchange[], credentials: Credentials): FetchLike {
  return async (url, init) => {
    const headers = new Headers(init?.headers);
    const authorization = authorizationFor(credentials);
    if (authorization !== undefined) headers.set('authorization', authorization);
    const response = await fetch(url, { ...init, headers });
    wire.push({
      method: init?.method ?? 'GET',
      headers,
      status: response.status,
      responseHeaders: response.headers,
    });
    return response;
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: unknown };
  }
  throw new Error('expected the call to be rejected');
}

function textOf(result: Json): string {
  const [first] = result.content as { type: string; text: string }[];
  expect(first?.type).toBe('text');
  return first?.text ?? '';
}

let content: ContentSite;
let index: SearchIndex;
let site: RunningSite;
let url: URL;
let accessToken: string;
let authorizationServer: oauth.AuthorizationServer;

function authorizationFor(credentials: Credentials): string | undefined {
  if (credentials === 'none') return undefined;
  return credentials === 'token' ? `Bearer ${accessToken}` : 'Bearer forged.token.value';
}

beforeAll(async () => {
  content = await realContent();
  // The site's own index (the reference pages weighted down), as the tool server reads it.
  index = searchIndexOf(content);
  // Many clients, one address: a quota this suite cannot exhaust (the limit has its own tests).
  site = await startSite({ rateLimit: { max: 10_000, windowMs: 60_000 } });
  url = new URL(`${site.origin}/mcp`);
  const issuer = new URL(site.origin);
  const insecure = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  const client = { client_id: 'mcp-clients-test' };
  const grant = await oauth.processClientCredentialsResponse(
    as,
    client,
    await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.None(),
      new URLSearchParams({ scope: 'docs:read', resource: `${site.origin}/mcp` }),
      insecure,
    ),
  );
  accessToken = grant.access_token;
  authorizationServer = as;
});

afterAll(async () => {
  await site?.stop();
});

for (const setup of SETUPS) {
  for (const credentials of ['none', 'token'] as const) {
    describe(`${setup.name}, ${credentials === 'none' ? 'without credentials' : 'with a token from /oauth/token'}`, () => {
      const wire: Exchange[] = [];
      let client: CommonClient;
      let protocolVersion: string | undefined;

      beforeAll(async () => {
        ({ client, protocolVersion } = await setup.connect(url, clientFetch(wire, credentials)));
      });

      afterAll(async () => {
        await client?.close();
      });

      test(
        `connects at ${setup.protocolVersion}`,
        () => {
          expect(protocolVersion).toBe(setup.protocolVersion);
          const posts = wire.filter((exchange) => exchange.method === 'POST');
          expect(posts.length).toBeGreaterThan(0);
          for (const exchange of posts) {
            expect(exchange.headers.get('authorization')).toBe(authorizationFor(credentials) ?? null);
            expect([200, 202]).toContain(exchange.status);
          }
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'lists the three read-only tools',
        async () => {
          const { tools } = await client.listTools();
          expect(tools.map((tool) => tool.name)).toEqual(['list_docs', 'search_docs', 'get_doc']);
          for (const tool of tools) {
            expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
            expect(tool.outputSchema).toBeDefined();
          }
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'list_docs: the first pages in reading order',
        async () => {
          const result = await client.callTool({ name: 'list_docs', arguments: {} });
          expect(result.isError).toBeUndefined();
          const structured = result.structuredContent as { pages: Json[]; total: number };
          expect(structured.total).toBe(content.pages.length);
          expect(structured.pages.map((page) => page.path)).toEqual(
            content.pages.slice(0, 50).map((page) => page.path),
          );
          expect(JSON.parse(textOf(result))).toEqual(structured);
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'search_docs: the index’s ranking, with the tool-server page among the results',
        async () => {
          const result = await client.callTool({ name: 'search_docs', arguments: { query: 'tool server' } });
          const structured = result.structuredContent as { results: Json[] };
          const expected = index.search('tool server', { limit: 5 }).results.map((r) => r.path);
          expect(structured.results.map((r) => r.path)).toEqual(expected);
          expect(expected).toContain('docs/tool-server');
          for (const found of structured.results) {
            expect(String(found.url)).toStartWith(`${site.origin}/`);
            expect(String(found.snippet)).toContain('**');
          }
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'get_doc: the page’s Markdown as text; an unknown page is an isError result',
        async () => {
          const page = content.byPath('docs/tool-server');
          const result = await client.callTool({
            name: 'get_doc',
            arguments: { path: '/docs/tool-server.md' },
          });
          expect(result.isError).toBeUndefined();
          expect(textOf(result)).toBe(page?.markdown as string);
          expect(result.structuredContent).toMatchObject({ path: 'docs/tool-server', title: page?.title });
          const missing = await client.callTool({
            name: 'get_doc',
            arguments: { path: 'docs/tool-servers' },
          });
          expect(missing.isError).toBe(true);
          expect(textOf(missing)).toContain('"docs/tool-server"');
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'bad arguments reject with -32602',
        async () => {
          const error = await rejectionOf(client.callTool({ name: 'search_docs', arguments: { query: '' } }));
          expect(error.code).toBe(-32602);
        },
        TEST_TIMEOUT_MS,
      );
    });
  }

  test(
    `${setup.name}: a bad token fails to connect with 401 naming resource_metadata`,
    async () => {
      const wire: Exchange[] = [];
      await rejectionOf(setup.connect(url, clientFetch(wire, 'forged')));
      const [first] = wire;
      expect(first?.method).toBe('POST');
      expect(first?.status).toBe(401);
      const challenge = first?.responseHeaders.get('www-authenticate') ?? '';
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toContain(
        `resource_metadata="${site.origin}/.well-known/oauth-protected-resource/mcp"`,
      );
    },
    TEST_TIMEOUT_MS,
  );
}

describe('the token the clients used', () => {
  test('introspects as active with scope docs:read and the tool server as its audience (RFC 7662, RFC 8707)', async () => {
    const client = { client_id: 'mcp-clients-test' };
    const response = await oauth.introspectionRequest(
      authorizationServer,
      client,
      oauth.None(),
      accessToken,
      {
        [oauth.allowInsecureRequests]: true,
      },
    );
    const claims = await oauth.processIntrospectionResponse(authorizationServer, client, response);
    expect(claims.active).toBe(true);
    expect(claims.scope).toBe('docs:read');
    expect(claims.client_id).toBe('mcp-clients-test');
    expect(claims.aud).toEqual(`${site.origin}/mcp`);
  });

  test('a token minted for another resource of the site is refused at /mcp with 401 invalid_token', async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', resource: `${site.origin}/api/v1` });
    const minted = await fetch(`${site.origin}/oauth/token`, { method: 'POST', body: form });
    expect(minted.status).toBe(200);
    const { access_token } = (await minted.json()) as { access_token: string };
    const refused = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${access_token}`,
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const problem = (await refused.json()) as Record<string, unknown>;
    expect(problem.code).toBe('invalid_token');
    // The same token is good where it was minted for.
    const index = await fetch(`${site.origin}/api/v1`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(index.status).toBe(200);
  });
});
