import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { entityTagOf } from '@charter/core';
import { type } from 'arktype';
import {
  buildServerCard,
  SERVER_CARD_PATH,
  SERVER_CARD_SCHEMA,
  ServerCard,
  serverCardRoute,
} from './server-card.ts';
import { docsMcpServer } from './server.ts';
import { corpusSite } from './test-corpus.ts';
import { type Json, rpcInit } from './test-rpc.ts';

const ORIGIN = 'https://charter.dev';
const server = docsMcpServer({ content: corpusSite(), origin: ORIGIN, auth: {}, version: '2.3.4' });

async function rpcResult(method: string): Promise<Json> {
  const response = await server.handler(new Request(`${ORIGIN}/mcp`, rpcInit(method, {}, { era: 'modern' })));
  return ((await response.json()) as { result: Json }).result;
}

function cardApp(options = { origin: ORIGIN, handler: server.handler, tools: server.tools }) {
  const app = new App({ logger: false });
  app.registerRoutes([serverCardRoute(options)]);
  return app;
}

describe('buildServerCard', () => {
  test('fills every field of the card table from the handler', async () => {
    const card = await buildServerCard({ origin: ORIGIN, handler: server.handler, tools: server.tools });
    const discovered = await rpcResult('server/discover');
    expect(card).toMatchObject({
      $schema: SERVER_CARD_SCHEMA,
      version: '1.0',
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'charter-docs', title: 'Charter documentation', version: '2.3.4' },
      description: server.handler.info.serverInfo.description as string,
      documentationUrl: `${ORIGIN}/docs/tool-server`,
      transport: { type: 'streamable-http', endpoint: `${ORIGIN}/mcp` },
      authentication: { required: false, schemes: ['bearer'] },
      instructions: discovered.instructions as string,
    });
    expect(card.serverInfo).toEqual({
      name: 'charter-docs',
      title: 'Charter documentation',
      version: '2.3.4',
    });
    expect(card.capabilities).toEqual(discovered.capabilities as Json);
    expect(card.iconUrl).toBeUndefined();
    expect(ServerCard(card)).not.toBeInstanceOf(type.errors);
  });

  test('lists each tool with the very input schema tools/list gives', async () => {
    const card = await buildServerCard({ origin: ORIGIN, handler: server.handler });
    const listed = (await rpcResult('tools/list')).tools as Json[];
    expect(card.tools?.map((tool) => tool.name)).toEqual(['list_docs', 'search_docs', 'get_doc']);
    expect(card.tools).toEqual(
      listed.map((tool) => ({
        name: tool.name as string,
        title: tool.title as string,
        description: tool.description as string,
        inputSchema: tool.inputSchema as Json,
      })),
    );
  });

  test('the tools option picks and orders the tools; one the handler does not serve is refused', async () => {
    const [list, search] = server.tools;
    const card = await buildServerCard({
      origin: ORIGIN,
      handler: server.handler,
      tools: [search, list] as never,
    });
    expect(card.tools?.map((tool) => tool.name)).toEqual(['search_docs', 'list_docs']);
    const stranger = { ...search, name: 'not_served' } as never;
    await expect(
      buildServerCard({ origin: ORIGIN, handler: server.handler, tools: [stranger] }),
    ).rejects.toThrow(/not_served/);
  });

  test('takes a description and an icon when given', async () => {
    const card = await buildServerCard({
      origin: `${ORIGIN}/`,
      handler: server.handler,
      description: 'Docs.',
      iconUrl: `${ORIGIN}/favicon.svg`,
    });
    expect(card).toMatchObject({ description: 'Docs.', iconUrl: `${ORIGIN}/favicon.svg` });
    expect(card.transport.endpoint).toBe(`${ORIGIN}/mcp`);
  });

  test('refuses a relative origin and something that is not a handler', async () => {
    expect(() => serverCardRoute({ origin: '/x', handler: server.handler })).toThrow(/origin/);
    await expect(buildServerCard({ origin: ORIGIN, handler: {} as never })).rejects.toThrow(/handler/);
  });
});

describe('serverCardRoute', () => {
  const app = cardApp();

  test('GET answers the card as JSON with a strong ETag over its bytes and an hour of public caching', async () => {
    const response = await app.request(SERVER_CARD_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = response.headers.get('etag') as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(await entityTagOf(bytes)).toBe(etag);
    const card = JSON.parse(new TextDecoder().decode(bytes)) as Json;
    expect(ServerCard(card)).not.toBeInstanceOf(type.errors);
    expect(card).toEqual(
      (await buildServerCard({ origin: ORIGIN, handler: server.handler, tools: server.tools })) as never,
    );
    const again = await app.request(SERVER_CARD_PATH);
    expect(again.headers.get('etag')).toBe(etag);
  });

  test('a matching If-None-Match is 304 with the ETag and no body; another tag gets the card', async () => {
    const etag = (await app.request(SERVER_CARD_PATH)).headers.get('etag') as string;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await app.request(SERVER_CARD_PATH, { headers: { 'if-none-match': header } });
      expect(response.status).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(await response.text()).toBe('');
    }
    const miss = await app.request(SERVER_CARD_PATH, { headers: { 'if-none-match': '"stale"' } });
    expect(miss.status).toBe(200);
  });

  test('HEAD answers the headers of GET', async () => {
    const response = await app.request(SERVER_CARD_PATH, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toMatch(/^"/);
    expect(await response.text()).toBe('');
  });

  test('declares the 200 card schema and its headers, and the 304', () => {
    const route = serverCardRoute({ origin: ORIGIN, handler: server.handler });
    expect(route).toMatchObject({ method: 'GET', path: SERVER_CARD_PATH, operationId: 'getMcpServerCard' });
    expect(route.responses[200]?.body).toBe(ServerCard);
    expect(Object.keys(route.responses[200]?.headers ?? {})).toEqual(['ETag', 'Cache-Control']);
    expect(route.responses[304]).toBeDefined();
  });

  test('a card the handler cannot build is a 500, and the next request tries again', async () => {
    let failing = true;
    const handler = Object.assign(
      async (request: Request) => {
        if (failing)
          return new Response('{}', { status: 500, headers: { 'content-type': 'application/json' } });
        return server.handler(request);
      },
      { info: server.handler.info, notifyResourceUpdated: server.handler.notifyResourceUpdated },
    );
    const flaky = cardApp({ origin: ORIGIN, handler, tools: server.tools });
    expect((await flaky.request(SERVER_CARD_PATH)).status).toBe(500);
    failing = false;
    expect((await flaky.request(SERVER_CARD_PATH)).status).toBe(200);
  });
});
