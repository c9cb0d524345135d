/**
 * `otelTracing()` over a real socket: an App served by `@charter/bun` on 127.0.0.1, called with
 * `fetch`. The span carries the server address from Host, the client address the App trusts (the
 * peer, never a forwarded header it does not trust), the caller's trace, and one span per request.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { type BunServer, serve } from '@charter/bun';
import { App } from '@charter/core';
import { otelTracing } from '@charter/tracing';
import { type } from 'arktype';
import { PARENT_ID, recorder, SpanKind, TRACE_ID, TRACEPARENT } from './support/sdk.ts';

const servers: BunServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close(100);
});

async function start(app: App): Promise<string> {
  const server = await serve(app, { port: 0, signals: false });
  servers.push(server);
  return server.url.replace(/\/$/, '');
}

function tracedApp(
  rec: ReturnType<typeof recorder>,
  options: ConstructorParameters<typeof App>[0] = {},
): App {
  const app = new App({
    logger: false,
    ...options,
    hooks: otelTracing({ tracer: rec.tracer, includeResponseHeaders: ['content-type'] }),
  });
  app.get(
    '/hello/:name',
    { request: { params: type({ name: 'string' }) }, responses: { 200: { body: type({ hi: 'string' }) } } },
    (ctx) => ({
      status: 200,
      body: { hi: ctx.params.name },
    }),
  );
  app.get('/ping', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, () => ({
    status: 200,
    body: { ok: true },
  }));
  return app;
}

describe('otelTracing over HTTP', () => {
  test('records the server and client addresses, the parent and the response', async () => {
    const rec = recorder();
    const base = await start(tracedApp(rec));
    const port = Number(new URL(base).port);
    const res = await fetch(`${base}/hello/ada?lang=en`, {
      headers: { traceparent: TRACEPARENT, 'x-forwarded-for': '203.0.113.9', 'user-agent': 'tracing-test' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hi: 'ada' });
    const span = rec.only();
    expect(span.name).toBe('GET /hello/:name');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'url.path': '/hello/ada',
      'url.query': 'lang=REDACTED',
      'http.route': '/hello/:name',
      'server.address': '127.0.0.1',
      'server.port': port,
      'client.address': '127.0.0.1',
      'user_agent.original': 'tracing-test',
      'http.response.status_code': 200,
      'http.response.header.content-type': ['application/json'],
    });
  });

  test('takes client.address from X-Forwarded-For only when the App trusts its proxy', async () => {
    const rec = recorder();
    const base = await start(tracedApp(rec, { behindProxy: 'loopback' }));
    await fetch(`${base}/hello/bob`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(rec.only().attributes['client.address']).toBe('203.0.113.9');
  });

  test('traces a static route that Bun serves from its native route table', async () => {
    const rec = recorder();
    const base = await start(tracedApp(rec));
    expect((await fetch(`${base}/ping`)).status).toBe(200);
    expect(rec.only().name).toBe('GET /ping');
  });

  test('ends one span per request for 50 concurrent requests, unmatched ones included', async () => {
    const rec = recorder();
    const base = await start(tracedApp(rec));
    const paths = Array.from({ length: 50 }, (_, n) => (n % 10 === 9 ? `/nope/${n}` : `/hello/u${n}`));
    const statuses = await Promise.all(
      paths.map(async (path) => {
        const res = await fetch(base + path);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((status) => status === 404)).toHaveLength(5);
    const spans = rec.spans();
    expect(spans).toHaveLength(50);
    expect(new Set(spans.map((span) => span.attributes['url.path']))).toEqual(new Set(paths));
    for (const span of spans) {
      const unmatched = String(span.attributes['url.path']).startsWith('/nope/');
      expect(span.name).toBe(unmatched ? 'GET' : 'GET /hello/:name');
      expect(span.attributes['http.response.status_code']).toBe(unmatched ? 404 : 200);
    }
  });
});
