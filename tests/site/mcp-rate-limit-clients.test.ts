/**
 * A 429 from /mcp as the v2 MCP client (`@modelcontextprotocol/client` 2.4.0) sees it (issue 19).
 * site.md makes the 429 a problem document; the question was whether it should also carry a
 * JSON-RPC error (`jsonrpc`, `id`, `error` as extension members), so the client's `server/discover`
 * probe would report a rate limit instead of a version-negotiation failure. It would not: the probe
 * classifies any 4xx but 401/403 as "no modern evidence" unless the body is a -32022 error, and the
 * transport reads a JSON-RPC body on 400 only. These tests pin that down (same failure with and
 * without the JSON-RPC members), and check what a client does see from the real site: in `auto`
 * mode the 429, with the problem document, after the legacy fallback's `initialize`.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { type RunningSite, startSite } from './support.ts';

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
      expect(problem).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(problem).not.toHaveProperty('jsonrpc');
      const pinned = await connectError(url, { pin: '2026-07-28' });
      expect(pinned).toBeInstanceOf(SdkError);
      expect((pinned as SdkError).code).toBe(SdkErrorCode.EraNegotiationFailed);
    },
    TEST_TIMEOUT_MS,
  );
});
