/**
 * The site's documentation tool server (`site/mcp`) driven by the official TypeScript MCP clients
 * over real loopback HTTP (the Bun adapter): the v1 `@modelcontextprotocol/sdk` client (legacy era,
 * 2025-11-25 after `initialize`) and the v2 `@modelcontextprotocol/client` client, pinned to
 * 2026-07-28 and in `auto` mode (modern era). Each lists the three tools and calls each of them,
 * without credentials and with `Authorization: Bearer good`; a bad token fails with 401. The App
 * carries the routes behind a hook that mimics the site's optional bearer check. The content is the
 * real `content/` when it builds, else the small corpus of `site/mcp/test-corpus.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { App } from '@charter/app';
import { type BunServer, serve } from '@charter/bun';
import { type AnyContext, type Hooks, unauthorized, withHookTraits } from '@charter/core';
import { buildContent } from '../../site/content/build.ts';
import { readContentDir } from '../../site/content/read-dir.ts';
import type { ContentSite } from '../../site/content/types.ts';
import { type DocsMcpServer, docsMcpServer } from '../../site/mcp/server.ts';
import { corpusSite } from '../../site/mcp/test-corpus.ts';

const TEST_TIMEOUT_MS = 5_000;
const ORIGIN = 'http://localhost:3000';
const RESOURCE_METADATA = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;
const CONTENT_DIR = join(import.meta.dir, '..', '..', 'content');

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

/** Mimics the site's optional bearer check: none passes, `good` has docs:read, others are 401. */
function mimicAuth(): Hooks {
  return withHookTraits(
    {
      preBody(ctx: AnyContext) {
        const header = ctx.request.headers.get('authorization');
        if (header === null) return;
        if (header === 'Bearer good') {
          ctx.state.user = { sub: 'agent', scopes: ['docs:read'], claims: {} };
          return;
        }
        throw unauthorized({
          realm: 'charter-docs',
          error: 'invalid_token',
          description: 'The access token is not valid',
          params: { resource_metadata: RESOURCE_METADATA },
        });
      },
    },
    { authenticates: true },
  );
}

/** The real content when it builds; the test corpus while `content/` is still being written. */
async function loadContent(): Promise<ContentSite> {
  try {
    return buildContent(await readContentDir(CONTENT_DIR));
  } catch {
    return corpusSite();
  }
}

/** A fetch that adds `authorization` (when given) and records every exchange. */
function clientFetch(wire: Exchange[], authorization?: string): FetchLike {
  return async (url, init) => {
    const headers = new Headers(init?.headers);
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
let mcp: DocsMcpServer;
let server: BunServer;
let url: URL;

beforeAll(async () => {
  content = await loadContent();
  mcp = docsMcpServer({ content, origin: ORIGIN, auth: mimicAuth() });
  const app = new App({ logger: false });
  app.registerRoutes(mcp.routes);
  server = await serve(app, { port: 0, hostname: '127.0.0.1', signals: false });
  url = new URL(`${server.url}/mcp`);
});

afterAll(async () => {
  await server?.close(1_000);
});

for (const setup of SETUPS) {
  for (const authorization of [undefined, 'Bearer good']) {
    describe(`${setup.name}, ${authorization === undefined ? 'without credentials' : 'with Authorization: Bearer good'}`, () => {
      const wire: Exchange[] = [];
      let client: CommonClient;
      let protocolVersion: string | undefined;

      beforeAll(async () => {
        ({ client, protocolVersion } = await setup.connect(url, clientFetch(wire, authorization)));
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
            expect(exchange.headers.get('authorization')).toBe(authorization ?? null);
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
          const expected = mcp.index.search('tool server', { limit: 5 }).results.map((r) => r.path);
          expect(structured.results.map((r) => r.path)).toEqual(expected);
          expect(expected).toContain('docs/tool-server');
          for (const found of structured.results) {
            expect(String(found.url)).toStartWith(`${ORIGIN}/`);
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
      await rejectionOf(setup.connect(url, clientFetch(wire, 'Bearer forged')));
      const [first] = wire;
      expect(first?.method).toBe('POST');
      expect(first?.status).toBe(401);
      expect(first?.responseHeaders.get('www-authenticate')).toContain(
        `resource_metadata="${RESOURCE_METADATA}"`,
      );
    },
    TEST_TIMEOUT_MS,
  );
}
