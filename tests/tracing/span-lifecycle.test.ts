/**
 * Every request traced by `otelTracing()` ends its span exactly once, on every path: success,
 * thrown errors, unmatched 404/405 (constructor hooks), early answers from other hooks, request
 * timeouts, streamed responses, and 50 requests in flight at once. Real Apps, real SDK.
 */
import { describe, expect, test } from 'bun:test';
import { App, type Hooks } from '@charter/core';
import { otelTracing } from '@charter/tracing';
import { type } from 'arktype';
import { recorder } from './support/sdk.ts';

const ok = { responses: { 200: { body: type({ ok: 'boolean' }) } } };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function appWith(
  placement: 'constructor' | 'use',
  hooks: Hooks,
  options: ConstructorParameters<typeof App>[0] = {},
) {
  const app = new App({ logger: false, ...options, ...(placement === 'constructor' ? { hooks } : {}) });
  if (placement === 'use') app.use(hooks);
  app.get('/items', ok, () => ({ status: 200, body: { ok: true } }));
  app.post('/items', ok, () => ({ status: 200, body: { ok: true } }));
  return app;
}

describe('otelTracing on unmatched requests', () => {
  test('as constructor hooks, ends one span for a 404 named after the method alone', async () => {
    const rec = recorder();
    const app = appWith('constructor', otelTracing({ tracer: rec.tracer }));
    const res = await app.request('/nowhere?x=1');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const span = rec.only();
    expect(span.name).toBe('GET');
    expect(span.attributes['url.path']).toBe('/nowhere');
    expect(span.attributes['url.query']).toBe('x=REDACTED');
    expect(span.attributes['http.response.status_code']).toBe(404);
    expect(span.attributes['http.route']).toBeUndefined();
    expect(span.status.code).toBe(0);
  });

  test('as constructor hooks, ends one span for a 405', async () => {
    const rec = recorder();
    const app = appWith('constructor', otelTracing({ tracer: rec.tracer }));
    const res = await app.request('/items', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    const span = rec.only();
    expect(span.name).toBe('DELETE');
    expect(span.attributes['http.response.status_code']).toBe(405);
  });

  test('through app.use, starts no span for a 404 or 405 (those hooks only see onRequest) and still traces routes', async () => {
    const rec = recorder();
    const app = appWith('use', otelTracing({ tracer: rec.tracer }));
    expect((await app.request('/nowhere')).status).toBe(404);
    expect((await app.request('/items', { method: 'DELETE' })).status).toBe(405);
    expect(rec.spans()).toHaveLength(0);
    expect((await app.request('/items')).status).toBe(200);
    expect(rec.only().name).toBe('GET /items');
  });

  test('through app.use, ends one span when a later app.use guard answers early', async () => {
    const rec = recorder();
    const app = appWith('use', otelTracing({ tracer: rec.tracer }));
    app.use({ onRequest: () => new Response('slow down', { status: 429 }) });
    const res = await app.request('/nowhere');
    expect(res.status).toBe(429);
    expect(await res.text()).toBe('slow down');
    const span = rec.only();
    expect(span.name).toBe('GET');
    expect(span.attributes['http.response.status_code']).toBe(429);
  });
});

describe('otelTracing placements and early answers', () => {
  test('as route hooks, traces only that route', async () => {
    const rec = recorder();
    const app = new App({ logger: false });
    app.get('/traced', { ...ok, hooks: otelTracing({ tracer: rec.tracer }) }, () => ({
      status: 200,
      body: { ok: true },
    }));
    app.get('/plain', ok, () => ({ status: 200, body: { ok: true } }));
    expect((await app.request('/traced')).status).toBe(200);
    expect((await app.request('/plain')).status).toBe(200);
    expect(rec.only().name).toBe('GET /traced');
  });

  test('ends one span when a beforeHandle hook refuses with a Response', async () => {
    const rec = recorder();
    const app = appWith('constructor', otelTracing({ tracer: rec.tracer }));
    app.get(
      '/guarded',
      { ...ok, hooks: { beforeHandle: () => new Response(null, { status: 403 }) } },
      () => ({ status: 200, body: { ok: true } }),
    );
    expect((await app.request('/guarded')).status).toBe(403);
    const span = rec.only();
    expect(span.name).toBe('GET /guarded');
    expect(span.attributes['http.response.status_code']).toBe(403);
  });

  test('ends one span for a request refused by validation (422)', async () => {
    const rec = recorder();
    const app = appWith('use', otelTracing({ tracer: rec.tracer }));
    app.get('/search', { ...ok, request: { query: type({ limit: 'number.integer' }) } }, () => ({
      status: 200,
      body: { ok: true },
    }));
    expect((await app.request('/search?limit=x')).status).toBe(422);
    expect(rec.only().attributes['http.response.status_code']).toBe(422);
  });

  test('two instances record two spans without disturbing each other', async () => {
    const first = recorder();
    const second = recorder();
    const app = appWith('use', otelTracing({ tracer: first.tracer }));
    app.use(otelTracing({ tracer: second.tracer }));
    await app.request('/items');
    expect(first.only().name).toBe('GET /items');
    expect(second.only().name).toBe('GET /items');
  });
});

describe('otelTracing with timeouts and streams', () => {
  test('ends one span with the timeout status when the handler overruns, and none later', async () => {
    const rec = recorder();
    const app = appWith('use', otelTracing({ tracer: rec.tracer }), {
      requestTimeoutMs: 30,
      requestTimeoutStatus: 503,
    });
    let finished = false;
    app.get('/slow', ok, async () => {
      await sleep(120);
      finished = true;
      return { status: 200, body: { ok: true } };
    });
    const res = await app.request('/slow');
    expect(res.status).toBe(503);
    const span = rec.only();
    expect(span.name).toBe('GET /slow');
    expect(span.attributes['http.response.status_code']).toBe(503);
    expect(span.attributes['error.type']).toBe('RequestTimeoutError');
    expect(span.status.code).toBe(2);
    await sleep(150);
    expect(finished).toBe(true);
    expect(rec.spans()).toHaveLength(1);
  });

  test('starts no second span when a timed-out request reaches preBody after being answered', async () => {
    const rec = recorder();
    const app = new App({ logger: false, requestTimeoutMs: 30, hooks: otelTracing({ tracer: rec.tracer }) });
    // A slow perimeter check: the request times out before routing, then the pipeline goes on.
    app.use({ onRequest: () => sleep(100) });
    app.get('/items', ok, () => ({ status: 200, body: { ok: true } }));
    expect((await app.request('/items')).status).toBe(408);
    await sleep(150);
    const span = rec.only();
    expect(span.attributes['http.response.status_code']).toBe(408);
    expect(span.status.code).toBe(0);
  });

  test('ends the span of a streamed response when the response is handed over, before the body finishes', async () => {
    const rec = recorder();
    const app = appWith('use', otelTracing({ tracer: rec.tracer }));
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    app.get(
      '/stream',
      { responses: { 200: { contentType: 'text/plain' } }, acknowledgeNoResponseBodySchema: true },
      () => {
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(encoder.encode('first\n'));
            await released;
            controller.enqueue(encoder.encode('last\n'));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      },
    );
    const res = await app.request('/stream');
    expect(res.status).toBe(200);
    expect(rec.only().attributes['http.response.status_code']).toBe(200);
    release();
    expect(await res.text()).toBe('first\nlast\n');
    expect(rec.spans()).toHaveLength(1);
  });
});

describe('otelTracing under concurrency', () => {
  test('ends exactly one span per request for 50 requests in flight at once', async () => {
    const rec = recorder();
    const app = new App({ logger: false, hooks: otelTracing({ tracer: rec.tracer }) });
    app.get('/work/:n', { ...ok, request: { params: type({ n: 'string' }) } }, async (ctx) => {
      await sleep(Number(ctx.params.n) % 7);
      if (Number(ctx.params.n) % 10 === 0) throw new Error('every tenth fails');
      return { status: 200, body: { ok: true } };
    });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, n) => app.request(n % 5 === 4 ? `/missing/${n}` : `/work/${n}`)),
    );
    const spans = rec.spans();
    expect(spans).toHaveLength(50);
    const byPath = new Map(spans.map((span) => [span.attributes['url.path'], span]));
    expect(byPath.size).toBe(50);
    responses.forEach((res, n) => {
      const path = n % 5 === 4 ? `/missing/${n}` : `/work/${n}`;
      const span = byPath.get(path);
      expect(span?.attributes['http.response.status_code']).toBe(res.status);
      expect(res.status).toBe(n % 5 === 4 ? 404 : n % 10 === 0 ? 500 : 200);
    });
    expect(new Set(spans.map((span) => span.spanContext().spanId)).size).toBe(50);
  });
});
