/**
 * A 429 from /mcp as the v2 MCP client (`@modelcontextprotocol/client` 2.4.0) sees it (issue 19).
 * site.md makes the 429 a problem document; the site adds the JSON-RPC error envelope (`jsonrpc`,
 * `id: null`, `error` -32000 with `data.retryAfter`) as extension members, as its 400s on /mcp do, for
 * clients that read JSON-RPC error bodies. The v2 client's `server/discover` probe still reports a
 * version-negotiation failure when pinned: it classifies any 4xx but 401/403 as "no modern evidence"
 * unless the body is a -32022 error, and its transport reads a JSON-RPC body on 400 only. These tests
 * pin that down (same outcome with and without the members) and check what a client sees from the
 * real site: in `auto` mode the 429, with the problem document and its envelope.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { type RunningSite, siteApp, startSite } from './support.ts';

// Starting the site builds the real content: seconds on a loaded CI machine.
const TEST_TIMEOUT_MS = 30_000;
type Mode = 'auto' | { readonly pin: '2026-07-28' };

async function connectError(url: string, mode: Mode): Promise<Error> {
  const client = new Client({ name: 'rate-limit-probe', version: '1.0.0' }, { versionNegotiation: { mode } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  } catch (error) {
    return error as Error;
  } finally {
    await client.close().catch(() => {});
  }
  throw new Error('expected connect() to fail');
}

/** A server that answers every request 429 with a problem, with or without JSON-RPC members. */
function limitedServer(withJsonRpc: boolean): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const message = (await request.json().catch(() => ({}))) as { id?: unknown };
      const problem: Record<string, unknown> = {
        type: 'https://charter.dev/errors/too-many-requests',
        title: 'Too Many Requests',
        status: 429,
        code: 'rate_limited',
        hint: 'Retry after 30 seconds',
      };
      if (withJsonRpc) {
        Object.assign(problem, {
          jsonrpc: '2.0',
          id: message.id ?? null,
          error: { code: -32000, message: 'Rate limited', data: { retryAfter: 30 } },
        });
      }
      return Response.json(problem, {
        status: 429,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '30' },
      });
    },
  });
}

describe('a JSON-RPC error inside the 429 would change nothing for the v2 client', () => {
  for (const mode of ['auto', { pin: '2026-07-28' }] as const) {
    test(
      `versionNegotiation ${JSON.stringify(mode)}: the same failure with and without the JSON-RPC members`,
      async () => {
        const outcomes: { name: string; code: unknown; status: unknown }[] = [];
        for (const withJsonRpc of [false, true]) {
          const server = limitedServer(withJsonRpc);
          try {
            const error = await connectError(`http://127.0.0.1:${server.port}/mcp`, mode);
            outcomes.push({
              name: error.constructor.name,
              code: (error as SdkError).code,
              status: (error as SdkHttpError).data?.status,
            });
          } finally {
            server.stop(true);
          }
        }
        expect(outcomes[1]).toEqual(outcomes[0] as (typeof outcomes)[number]);
        // Pinned: the probe's 429 reads as "no modern evidence"; auto: the legacy fallback's 429 surfaces.
        expect(outcomes[0]).toEqual(
          mode === 'auto'
            ? { name: 'SdkHttpError', code: 'CLIENT_HTTP_NOT_IMPLEMENTED', status: 429 }
            : { name: 'SdkError', code: 'ERA_NEGOTIATION_FAILED', status: undefined },
        );
      },
      TEST_TIMEOUT_MS,
    );
  }
});

describe("the site's /mcp over its quota, as the v2 client sees it", () => {
  let site: RunningSite | undefined;
  afterAll(() => site?.stop());

  test(
    "auto mode reports the 429 and the site's problem document; the problem carries Retry-After's reason",
    async () => {
      site = await startSite({ rateLimit: { max: 1, windowMs: 60_000 } });
      const url = `${site.origin}/mcp`;
      // The first request spends the quota of one.
      expect((await fetch(`${site.origin}/api/v1`)).status).toBe(200);
      const error = await connectError(url, 'auto');
      expect(error).toBeInstanceOf(SdkHttpError);
      expect((error as SdkHttpError).data?.status).toBe(429);
      const problem = JSON.parse(String((error as SdkHttpError).data?.text)) as Record<string, unknown>;
      // The problem site.md requires, with the JSON-RPC error envelope beside its members.
      expect(problem).toMatchObject({
        type: 'https://charter.dev/errors/too-many-requests',
        status: 429,
        code: 'rate_limited',
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Rate limited: retry after 60 seconds', data: { retryAfter: 60 } },
      });
      const pinned = await connectError(url, { pin: '2026-07-28' });
      expect(pinned).toBeInstanceOf(SdkError);
      expect((pinned as SdkError).code).toBe(SdkErrorCode.EraNegotiationFailed);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the site's /mcp 429 body", () => {
  const envelope = (retryAfter: number) => ({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: `Rate limited: retry after ${retryAfter} seconds`, data: { retryAfter } },
  });

  test('a single request and a batch the quota cannot cover both carry the envelope; other paths do not', async () => {
    const app = await siteApp({ rateLimit: { max: 3, windowMs: 60_000 } });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      app.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const batch = Array.from({ length: 5 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const refusedBatch = await post(batch, { 'mcp-protocol-version': '2025-03-26' });
    expect(refusedBatch.status).toBe(429);
    expect(refusedBatch.headers.get('content-type')).toBe('application/problem+json');
    expect(refusedBatch.headers.get('retry-after')).toBe('60');
    expect(await refusedBatch.json()).toMatchObject({ status: 429, code: 'rate_limited', ...envelope(60) });
    for (let i = 0; i < 3; i++) await app.request('/api/v1');
    const refused = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ status: 429, code: 'rate_limited', ...envelope(60) });
    const other = await app.request('/api/v1');
    expect(other.status).toBe(429);
    expect(await other.json()).not.toHaveProperty('jsonrpc');
  });
});
