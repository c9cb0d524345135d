/**
 * Streaming bodies in Charter routes, in process (`app.request`): the recommended declaration (a raw
 * Response with `acknowledgeNoResponseBodySchema`, and the `{ status, body: stream }` form), what the
 * OpenAPI document shows for it, what the pipeline does around it (security headers, `ctx.set`, HEAD,
 * request timeout), and that the core's compression() and etag() leave event streams alone.
 */
import { describe, expect, test } from 'bun:test';
import { compression, etag } from '@charter/core';
import { createApp } from '@charter/app';
import { ndjsonResponse, type SseMessage, sseResponse, sseStream } from '@charter/streaming';
import { type } from 'arktype';
import { parseSseStream } from './support/sse-parser.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { keepAliveMs: 0, onError: () => {} };

function countdown(from: number): SseMessage[] {
  return Array.from({ length: from }, (_, i) => ({
    event: 'count',
    id: String(from - i),
    data: String(from - i),
  }));
}

function streamingApp() {
  const app = createApp({ logger: false, openapi: true });
  app.get(
    '/countdown',
    {
      operationId: 'countdown',
      request: { query: type({ 'from?': 'string.integer.parse' }) },
      responses: { 200: { description: 'One `count` event per second', contentType: 'text/event-stream' } },
      acknowledgeNoResponseBodySchema: true,
    },
    (ctx) => {
      ctx.set.headers.set('x-from', String(ctx.query.from ?? 3));
      return sseResponse(countdown(ctx.query.from ?? 3), { ...quiet, signal: ctx.request.signal });
    },
  );
  app.get(
    '/rows',
    {
      operationId: 'exportRows',
      responses: { 200: { description: 'One JSON object per line', contentType: 'application/x-ndjson' } },
      acknowledgeNoResponseBodySchema: true,
    },
    (ctx) => ndjsonResponse([{ id: 1 }, { id: 2 }], { signal: ctx.request.signal }),
  );
  // The other form: a stream as the body of a declared result. No acknowledgement needed, and the
  // declared contentType is the response's Content-Type.
  app.get(
    '/countdown-body',
    { responses: { 200: { contentType: 'text/event-stream; charset=utf-8' } } },
    () => ({
      status: 200,
      body: sseStream(countdown(2), quiet),
      headers: { 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
    }),
  );
  app.get('/unacknowledged', { responses: { 200: { contentType: 'text/event-stream' } } }, () =>
    sseResponse(countdown(1), quiet),
  );
  return app;
}

describe('streaming routes', () => {
  test('a raw sseResponse passes the response contract with acknowledgeNoResponseBodySchema', async () => {
    const res = await streamingApp().request('/countdown?from=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    // ctx.set headers and the App's security headers are added to the raw Response.
    expect(res.headers.get('x-from')).toBe('2');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const parsed = await parseSseStream(res.body as ReadableStream<Uint8Array>);
    expect(parsed.events).toEqual([
      { type: 'count', data: '2', lastEventId: '2' },
      { type: 'count', data: '1', lastEventId: '1' },
    ]);
  });

  test('without acknowledgeNoResponseBodySchema a raw streamed Response is a 500', async () => {
    const res = await streamingApp().request('/unacknowledged');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  test('a stream returned as the body of a declared result is sent with the declared content type', async () => {
    const res = await streamingApp().request('/countdown-body');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const parsed = await parseSseStream(res.body as ReadableStream<Uint8Array>);
    expect(parsed.events.map((e) => e.data)).toEqual(['2', '1']);
  });

  test('an NDJSON route answers one JSON line per item', async () => {
    const res = await streamingApp().request('/rows');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await res.text()).toBe('{"id":1}\n{"id":2}\n');
  });

  test('the OpenAPI document shows the streamed media types', async () => {
    const doc = (await (await streamingApp().request('/openapi.json')).json()) as {
      paths: Record<string, { get: { responses: Record<string, { description: string; content: object }> } }>;
    };
    expect(doc.paths['/countdown']?.get.responses['200']).toEqual({
      description: 'One `count` event per second',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    });
    expect(Object.keys(doc.paths['/rows']?.get.responses['200']?.content ?? {})).toEqual([
      'application/x-ndjson',
    ]);
  });

  test('HEAD answers the headers with no body and never starts the source', async () => {
    const app = createApp({ logger: false });
    let started = false;
    async function* source(): AsyncGenerator<SseMessage> {
      started = true;
      yield { data: 'x' };
    }
    app.get(
      '/head',
      { responses: { 200: { contentType: 'text/event-stream' } }, acknowledgeNoResponseBodySchema: true },
      () => sseResponse(source(), quiet),
    );
    const res = await app.request('/head', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await res.text()).toBe('');
    await sleep(5);
    expect(started).toBe(false);
  });

  test('the request timeout does not cut a stream that started in time', async () => {
    const app = createApp({ logger: false, requestTimeoutMs: 50 });
    async function* slow(): AsyncGenerator<SseMessage> {
      for (let i = 0; i < 3; i++) {
        await sleep(40);
        yield { data: String(i) };
      }
    }
    app.get(
      '/slow',
      { responses: { 200: { contentType: 'text/event-stream' } }, acknowledgeNoResponseBodySchema: true },
      () => sseResponse(slow(), quiet),
    );
    const res = await app.request('/slow');
    const parsed = await parseSseStream(res.body as ReadableStream<Uint8Array>);
    expect(parsed.events.map((e) => e.data)).toEqual(['0', '1', '2']);
  });

  test('compression() and etag() pass an event stream through untouched and unbuffered', async () => {
    const app = createApp({ logger: false });
    app.use(etag());
    app.use(compression({ threshold: 1 }));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* gated(): AsyncGenerator<SseMessage> {
      yield { data: 'first '.repeat(300) };
      await gate;
      yield { data: 'second' };
    }
    app.get(
      '/gated',
      { responses: { 200: { contentType: 'text/event-stream' } }, acknowledgeNoResponseBodySchema: true },
      () => sseResponse(gated(), quiet),
    );
    const res = await app.request('/gated', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('etag')).toBeNull();
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = performance.now() + 2000;
    while (!text.includes('first first')) {
      // Buffered by a middleware, the first event would not come before the gate opens: fail, do not hang.
      const read = await Promise.race([
        reader.read(),
        sleep(deadline - performance.now()).then(() => undefined),
      ]);
      if (read === undefined) throw new Error('the first event was held back');
      text += decoder.decode(read.value);
    }
    // The first event arrived while the source is still held at the gate.
    release();
    await reader.cancel();
  });
});
