import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import {
  type AnyContext,
  type Hooks,
  httpBearerScheme,
  rateLimit,
  unauthorized,
  withHookTraits,
} from '@charter/core';
import charterPackage from '../../packages/charter/package.json' with { type: 'json' };
import {
  DOCS_MCP_INSTRUCTIONS,
  DOCS_MCP_MAX_BATCH_SIZE,
  DOCS_MCP_MAX_BODY_BYTES,
  docsMcpServer,
  withSiteProblemMembers,
} from './server.ts';
import { corpusSite } from './test-corpus.ts';
import { callInit, type Json, rpcInit, textOf } from './test-rpc.ts';
import { DOCS_TOOL_NAMES } from './tools.ts';

const ORIGIN = 'https://charter.dev';
const RESOURCE_METADATA = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;
const content = corpusSite();

/**
 * Mimics the site's optional-bearer hook: no Authorization passes anonymously, `Bearer good` is a
 * principal with `docs:read`, `Bearer narrow` one without it, anything else a 401 naming the
 * resource metadata (RFC 9728 §5.1).
 */
function mimicAuth(): Hooks {
  return withHookTraits(
    {
      preBody(ctx: AnyContext) {
        const header = ctx.request.headers.get('authorization');
        if (header === null) return;
        if (header === 'Bearer good' || header === 'Bearer narrow') {
          const scopes = header === 'Bearer good' ? ['docs:read'] : ['other'];
          ctx.state.user = { sub: 'agent', scopes, claims: {} };
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

function makeApp(options: { openapi?: boolean; securitySchemes?: boolean } = {}) {
  const server = docsMcpServer({ content, origin: ORIGIN, auth: mimicAuth() });
  const app = new App({
    logger: false,
    ...(options.openapi === true && { openapi: true }),
    ...(options.securitySchemes === true && { securitySchemes: { bearer: httpBearerScheme() } }),
  });
  app.registerRoutes(server.routes);
  return { app, server };
}

const { app, server } = makeApp();

async function post(init: RequestInit): Promise<{ response: Response; body: Json }> {
  const response = await app.request('/mcp', init);
  const text = await response.text();
  return { response, body: text === '' ? {} : (JSON.parse(text) as Json) };
}

function withAuth(init: RequestInit, token: string): RequestInit {
  return {
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
  };
}

describe('docsMcpServer', () => {
  test('returns the handler, the three tools, the index and the POST, GET, OPTIONS (and 405-only) routes on /mcp', () => {
    expect(typeof server.handler).toBe('function');
    expect(server.tools.map((tool) => tool.name)).toEqual([...DOCS_TOOL_NAMES]);
    expect(server.index.size).toBe(content.pages.length);
    expect(server.routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'POST /mcp',
      'GET /mcp',
      'OPTIONS /mcp',
      'DELETE /mcp',
      'PUT /mcp',
      'PATCH /mcp',
    ]);
    for (const route of server.routes) expect(route.tags).toEqual(['mcp']);
  });

  test('the POST route declares optional bearer auth with docs:read and the 400, 401, 405, 413 answers', () => {
    const post = server.routes.find((route) => route.method === 'POST');
    expect(post?.auth).toEqual({ scheme: 'bearer', scopes: ['docs:read'], optional: true });
    for (const status of [200, 400, 401, 403, 405, 413, 415]) expect(post?.responses[status]).toBeDefined();
    expect(post?.responses[401]?.headers?.['WWW-Authenticate']).toBeDefined();
    const get = server.routes.find((route) => route.method === 'GET');
    expect(get?.auth).toBeUndefined();
  });

  test('initialize names the server charter-docs with the charter version and the instructions', async () => {
    const { response, body } = await post(
      rpcInit('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'test', version: '1.0.0' },
      }),
    );
    expect(response.status).toBe(200);
    expect(body.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'charter-docs', title: 'Charter documentation', version: charterPackage.version },
      instructions: DOCS_MCP_INSTRUCTIONS,
      capabilities: { tools: {} },
    });
    for (const name of DOCS_TOOL_NAMES) expect(DOCS_MCP_INSTRUCTIONS).toContain(name);
  });

  test('the version option sets serverInfo.version', async () => {
    const versioned = docsMcpServer({ content, origin: ORIGIN, auth: {}, version: '9.9.9' });
    expect(versioned.handler.info.serverInfo.version).toBe('9.9.9');
  });

  test('modern lists carry public cache hints of five minutes', async () => {
    const { body } = await post(rpcInit('tools/list', {}, { era: 'modern' }));
    expect(body.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
  });

  test('each tool answers a good call, without credentials and with a good token', async () => {
    for (const token of [undefined, 'good']) {
      const calls: Array<[string, Json]> = [
        ['search_docs', { query: 'quokka', limit: 1 }],
        ['get_doc', { path: 'docs/jwt' }],
        ['list_docs', { limit: 2 }],
      ];
      for (const [name, args] of calls) {
        const init = callInit(name, args);
        const { response, body } = await post(token === undefined ? init : withAuth(init, token));
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/json');
        const result = body.result as Json;
        expect(result.isError).toBeUndefined();
        expect(result.structuredContent).toBeDefined();
      }
    }
    const { body } = await post(callInit('get_doc', { path: '/docs/jwt.md' }));
    expect(textOf(body.result as Json)).toBe(content.byPath('docs/jwt')?.markdown as string);
  });

  test('bad arguments of each tool are -32602 with HTTP 200', async () => {
    for (const [name, args] of [
      ['search_docs', { query: '' }],
      ['get_doc', { path: 3 }],
      ['list_docs', { limit: 500 }],
    ] as const) {
      const { response, body } = await post(callInit(name, args));
      expect(response.status).toBe(200);
      expect(body.error).toMatchObject({ code: -32602 });
    }
  });

  test('an unknown page and a bad cursor are isError results', async () => {
    const unknown = (await post(callInit('get_doc', { path: 'docs/nope' }))).body.result as Json;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('Closest paths');
    const cursor = (await post(callInit('list_docs', { cursor: 'AAAA' }))).body.result as Json;
    expect(cursor.isError).toBe(true);
  });

  test('a bad token is 401 with a Bearer challenge naming resource_metadata', async () => {
    const { response, body } = await post(withAuth(callInit('list_docs', {}), 'forged'));
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toStartWith('application/problem+json');
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toStartWith('Bearer ');
    expect(challenge).toContain(`resource_metadata="${RESOURCE_METADATA}"`);
    expect(challenge).toContain('error="invalid_token"');
    expect(body).toMatchObject({ status: 401 });
  });

  test('a valid token without docs:read is refused with 403 insufficient_scope', async () => {
    const { response } = await post(withAuth(callInit('list_docs', {}), 'narrow'));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('insufficient_scope');
  });

  test('GET /mcp is 405 with the handler’s JSON hint, the site’s code, and Allow', async () => {
    const response = await app.request('/mcp', { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toStartWith('application/problem+json');
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({
      status: 405,
      code: 'method_not_allowed',
      transport: 'streamable-http',
      hint: 'POST JSON-RPC 2.0 messages to this URL',
    });
    expect(body.protocolVersions).toContain('2026-07-28');
    expect(body.protocolVersions).toContain('2025-11-25');
  });

  test('OPTIONS /mcp is 204 with Allow', async () => {
    const response = await app.request('/mcp', { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  test('a body over 64 KiB is 413 with code and hint', async () => {
    const init = callInit('search_docs', { query: 'x'.repeat(DOCS_MCP_MAX_BODY_BYTES) });
    const { response, body } = await post(init);
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toStartWith('application/problem+json');
    expect(body).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(String(body.hint)).toContain(String(DOCS_MCP_MAX_BODY_BYTES));
  });

  test('a body that is not application/json is 415 with code and hint', async () => {
    const { response, body } = await post({
      ...callInit('list_docs', {}),
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect(body).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(String(body.hint)).toContain('application/json');
  });

  test('bad JSON is a 400 problem (site.md) that keeps the JSON-RPC parse error -32700', async () => {
    const { response, body } = await post({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc": "2.0", "id": 1,',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(body).toMatchObject({
      status: 400,
      code: 'invalid_jsonrpc',
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700 },
    });
    expect(typeof (body as { hint?: unknown }).hint).toBe('string');
  });

  test('a JSON body that is not a request object is a 400 problem with -32600', async () => {
    for (const text of ['[]', '{}', '42']) {
      const { response, body } = await post({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(body).toMatchObject({ code: 'invalid_jsonrpc', error: { code: -32600 } });
    }
  });

  test('a browser on another origin is 403; the site’s own origin is served', async () => {
    const evil = 'https://evil.example';
    // On POST the App's cross-origin guard refuses first; it admits only what the handler admits.
    const other = await post({
      ...callInit('list_docs', {}),
      headers: { 'content-type': 'application/json', origin: evil },
    });
    expect(other.response.status).toBe(403);
    expect(other.body).toMatchObject({ status: 403, type: 'https://charter.dev/errors/forbidden' });
    // On GET the handler's own Origin check answers, with the site's code.
    const probe = await app.request('/mcp', { headers: { origin: evil } });
    expect(probe.status).toBe(403);
    expect(await probe.json()).toMatchObject({ status: 403, code: 'origin_not_allowed' });
    const own = await post({
      ...callInit('list_docs', {}),
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', origin: ORIGIN },
    });
    expect(own.response.status).toBe(200);
  });

  test('an unknown method in the modern era is 404 -32601', async () => {
    const { response, body } = await post(rpcInit('nope/nothing', {}, { era: 'modern' }));
    expect(response.status).toBe(404);
    expect(body.error).toMatchObject({ code: -32601 });
  });

  test('registers in an App that declares the bearer scheme, and the OpenAPI document shows the answers', async () => {
    const { app: documented } = makeApp({ openapi: true, securitySchemes: true });
    const response = await documented.request('/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { paths: Record<string, Record<string, Json>> };
    const operation = document.paths['/mcp']?.post as {
      responses: Record<string, Json>;
      security?: unknown[];
    };
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '405', '413', '415']),
    );
    // Optional auth: the scheme, or nothing (OpenAPI 3.1 §4.8.30, the empty requirement).
    expect(operation.security).toEqual(expect.arrayContaining([{}, { bearer: ['docs:read'] }]));
    // GET is answered 405 (no stream) and is not in Allow, so it is no operation of the document.
    expect(Object.keys(document.paths['/mcp'] ?? {}).sort()).toEqual(['options', 'post']);
  });
});

describe('docsMcpServer batches', () => {
  const call = () => JSON.parse(callInit('list_docs', { limit: 1 }).body as string) as Json;
  const batch = (size: number): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(Array.from({ length: size }, (_, id) => ({ ...call(), id }))),
  });

  /** The server behind an App whose POST route is limited to `max`, with batchLimit set to that limit. */
  function limitedApp(max: number): App {
    const limit = rateLimit({ windowMs: 60_000, max, phase: 'preBody', legacyHeaders: true });
    const limited = docsMcpServer({ content, origin: ORIGIN, auth: limit, batchLimit: limit });
    const app = new App({ logger: false });
    app.registerRoutes(limited.routes);
    return app;
  }

  test('with batchLimit, a batch of n counts n against the limit', async () => {
    const response = await limitedApp(20).request('/mcp', batch(5));
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-remaining')).toBe('15');
    expect(((await response.json()) as unknown[]).length).toBe(5);
  });

  test('with batchLimit, a batch past the quota is a 429 problem with Retry-After', async () => {
    const response = await limitedApp(4).request('/mcp', batch(5));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(response.headers.get('ratelimit-remaining')).toBe('0');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  test(`at most ${DOCS_MCP_MAX_BATCH_SIZE} messages; more is a 400 problem that keeps the -32600 envelope`, async () => {
    expect((await post(batch(DOCS_MCP_MAX_BATCH_SIZE))).response.status).toBe(200);
    const { response, body } = await post(batch(DOCS_MCP_MAX_BATCH_SIZE + 1));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(body).toMatchObject({
      status: 400,
      code: 'invalid_jsonrpc',
      id: null,
      error: {
        code: -32600,
        message: `Invalid Request: a batch may carry at most ${DOCS_MCP_MAX_BATCH_SIZE} messages`,
      },
    });
  });
});

describe('resolveDocsMcpServerOptions (through docsMcpServer)', () => {
  test('refuses missing content, a non-origin, missing auth and an empty version, naming the option', () => {
    const auth = {};
    expect(() => docsMcpServer({ content: undefined as never, origin: ORIGIN, auth })).toThrow(/"content"/);
    expect(() => docsMcpServer({ content, origin: 'charter.dev', auth })).toThrow(/"origin"/);
    expect(() => docsMcpServer({ content, origin: 'https://charter.dev/docs', auth })).toThrow(/"origin"/);
    expect(() => docsMcpServer({ content, origin: 'ftp://charter.dev', auth })).toThrow(/"origin"/);
    expect(() => docsMcpServer({ content, origin: ORIGIN, auth: undefined as never })).toThrow(/"auth"/);
    expect(() => docsMcpServer({ content, origin: ORIGIN, auth, version: '' })).toThrow(/"version"/);
    expect(() => docsMcpServer({ content, origin: ORIGIN, auth, index: {} as never })).toThrow(/"index"/);
    for (const batchLimit of [null, 'x', {}, { onSend: () => {} }]) {
      expect(() => docsMcpServer({ content, origin: ORIGIN, auth, batchLimit: batchLimit as never })).toThrow(
        'docsMcpServer: option "batchLimit" must be the hooks of rateLimit(...) (an onRequest, preBody or beforeHandle hook)',
      );
    }
  });

  test('accepts an origin with a trailing slash, admitting its bare form', async () => {
    const slashed = docsMcpServer({ content, origin: 'https://charter.dev/', auth: {} });
    const response = await slashed.handler(
      new Request('https://charter.dev/mcp', {
        ...callInit('list_docs', {}),
        headers: { 'content-type': 'application/json', origin: ORIGIN },
      }),
    );
    expect(response.status).toBe(200);
  });
});

describe('withSiteProblemMembers', () => {
  test('keeps code and hint already present and leaves non-problem answers alone', async () => {
    const problem = new Response(
      JSON.stringify({ type: 'about:blank', title: 'x', status: 405, hint: 'mine' }),
      {
        status: 405,
        headers: { 'content-type': 'application/problem+json', 'content-length': '999' },
      },
    );
    const completed = await withSiteProblemMembers(problem);
    expect(await completed.json()).toMatchObject({ code: 'method_not_allowed', hint: 'mine' });
    expect(completed.headers.get('content-length')).not.toBe('999');
    // A 400 the client acts on (here a version refusal with an id) stays a JSON-RPC answer.
    const envelope = '{"jsonrpc":"2.0","id":7,"error":{"code":-32022,"message":"unsupported"}}';
    const plain = new Response(envelope, { status: 400, headers: { 'content-type': 'application/json' } });
    const kept = await withSiteProblemMembers(plain);
    expect(kept.headers.get('content-type')).toBe('application/json');
    expect(await kept.text()).toBe(envelope);
    const success = new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    expect(await withSiteProblemMembers(success)).toBe(success);
  });
});
