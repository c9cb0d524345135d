import { describe, expect, test } from 'bun:test';
import { App, type AppOptions, RequestTimeoutError } from '@charter/core';
import { type } from 'arktype';
import { expectProblem } from './support/problem.ts';
import { post } from './support/request.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A body stream of `chunks` with no Content-Length, sent chunked. */
function chunked(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

function limitApp(options: AppOptions = {}): App {
  const app = new App({ logger: false, bodyLimitBytes: 16, ...options });
  app.post(
    '/declared',
    { request: { body: type('string') }, responses: { 200: { body: type('string') } } },
    (ctx) => ({
      status: 200,
      body: ctx.body,
    }),
  );
  app.post('/raw-text', { responses: { 200: { body: type('string') } } }, async (ctx) => ({
    status: 200,
    body: await ctx.request.text(),
  }));
  app.post('/raw-json', { responses: { 200: {} } }, async (ctx) => ({
    status: 200,
    body: (await ctx.request.json()) as never,
  }));
  return app;
}

describe('limits: body size', () => {
  test('answers 413 when Content-Length is over the limit on a route with a body', async () => {
    const body = await expectProblem(
      await limitApp().fetch(post('/declared', JSON.stringify('x'.repeat(15)))),
      413,
      'payload-too-large',
    );
    expect(body.title).toBe('Content Too Large');
    expect(String(body.detail)).toContain('16');
  });

  test('accepts a body exactly at the limit', async () => {
    const text = JSON.stringify('x'.repeat(14));
    expect(text.length).toBe(16);
    const res = await limitApp().fetch(post('/declared', text));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('x'.repeat(14));
  });

  test('answers 413 for a chunked body with no length that grows past the limit', async () => {
    const request = post('/declared', chunked(['"', 'x'.repeat(10), 'x'.repeat(10), '"']));
    expect(request.headers.get('content-length')).toBeNull();
    await expectProblem(await limitApp().fetch(request), 413, 'payload-too-large');
  });

  test('accepts a chunked body under the limit', async () => {
    const res = await limitApp().fetch(post('/declared', chunked(['"ab', 'cd"'])));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('abcd');
  });

  for (const route of ['/raw-text', '/raw-json']) {
    test(`answers 413 for a raw ctx.request read over the limit by Content-Length (${route})`, async () => {
      await expectProblem(
        await limitApp().fetch(post(route, JSON.stringify({ a: 'x'.repeat(20) }))),
        413,
        'payload-too-large',
      );
    });

    test(`answers 413 for a raw ctx.request read of a chunked body past the limit (${route})`, async () => {
      await expectProblem(
        await limitApp().fetch(post(route, chunked(['{"a":"', 'x'.repeat(10), 'x'.repeat(10), '"}']))),
        413,
        'payload-too-large',
      );
    });
  }

  test('a raw ctx.request read under the limit succeeds', async () => {
    const text = await limitApp().fetch(post('/raw-text', chunked(['hello', ' you'])));
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('hello you');
    const json = await limitApp().fetch(post('/raw-json', '{"a":1}'));
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({ a: 1 });
  });

  test('the default limit is 1 MiB', async () => {
    const app = new App({ logger: false });
    app.post('/raw', { responses: { 200: { body: type('number') } } }, async (ctx) => ({
      status: 200,
      body: (await ctx.request.arrayBuffer()).byteLength,
    }));
    const mib = 1024 * 1024;
    const octets = { 'content-type': 'application/octet-stream' };
    const ok = await app.fetch(post('/raw', new Uint8Array(mib), octets));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/json');
    expect(await ok.json()).toBe(mib);
    await expectProblem(
      await app.fetch(post('/raw', new Uint8Array(mib + 1), octets)),
      413,
      'payload-too-large',
    );
  });
});

describe('limits: request timeout', () => {
  function slowApp(options: AppOptions, delayMs = 200) {
    const app = new App({ logger: false, ...options });
    const seen: { early?: AbortSignal; late?: boolean; errors: unknown[] } = { errors: [] };
    app.use({ onError: (error) => void seen.errors.push(error) });
    app.get('/slow', { responses: { 200: { body: type('string') } } }, async (ctx) => {
      seen.early = ctx.request.signal;
      await sleep(delayMs);
      return { status: 200, body: 'done' };
    });
    app.get('/late-signal', { responses: { 200: { body: type('string') } } }, async (ctx) => {
      await sleep(delayMs);
      seen.late = ctx.request.signal.aborted;
      return { status: 200, body: 'done' };
    });
    app.get('/fast', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'fast' }));
    return { app, seen };
  }

  test('a slow handler gets a 408 request-timeout problem by default, and its signal aborts', async () => {
    const { app, seen } = slowApp({ requestTimeoutMs: 50 });
    const started = Date.now();
    const res = await app.request('/slow');
    expect(Date.now() - started).toBeLessThan(180);
    const body = await expectProblem(res, 408, 'request-timeout');
    expect(body.title).toBe('Request Timeout');
    expect(String(body.detail)).toContain('50 ms');
    expect(seen.early?.aborted).toBe(true);
    expect(seen.errors).toHaveLength(1);
    expect(seen.errors[0]).toBeInstanceOf(RequestTimeoutError);
  });

  for (const status of [503, 504] as const) {
    test(`the timeout problem has status ${status} when requestTimeoutStatus is ${status}`, async () => {
      const { app } = slowApp({ requestTimeoutMs: 50, requestTimeoutStatus: status });
      const body = await expectProblem(await app.request('/slow'), status, 'request-timeout');
      expect(body.title).toBe('Request Timeout');
    });
  }

  test('ctx.request.signal is aborted even when the handler first reads it after the timeout', async () => {
    const { app, seen } = slowApp({ requestTimeoutMs: 50 }, 100);
    await expectProblem(await app.request('/late-signal'), 408, 'request-timeout');
    await sleep(120);
    expect(seen.late).toBe(true);
  });

  test('a fast handler is not affected by the timeout', async () => {
    const { app, seen } = slowApp({ requestTimeoutMs: 50 });
    const res = await app.request('/fast');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('fast');
    expect(seen.errors).toEqual([]);
  });

  test('requestTimeoutMs: 0 disables the timeout', async () => {
    const { app, seen } = slowApp({ requestTimeoutMs: 0 }, 120);
    const res = await app.request('/slow');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('done');
    expect(seen.early?.aborted).toBe(false);
  });

  test('the timeout covers hooks', async () => {
    const app = new App({ logger: false, requestTimeoutMs: 50 });
    app.get('/x', { responses: { 200: {} }, hooks: { preBody: () => sleep(200) } }, () => ({ status: 200 }));
    const started = Date.now();
    await expectProblem(await app.request('/x'), 408, 'request-timeout');
    expect(Date.now() - started).toBeLessThan(180);
  });

  test('the timeout covers the body read', async () => {
    const app = new App({ logger: false, requestTimeoutMs: 50 });
    app.post('/x', { request: { body: type('unknown') }, responses: { 200: {} } }, () => ({ status: 200 }));
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
      },
    });
    await expectProblem(await app.fetch(post('/x', stalled)), 408, 'request-timeout');
  });

  test('requests started at different times each time out at their own deadline', async () => {
    const app = new App({ logger: false, requestTimeoutMs: 60 });
    const { promise: never } = Promise.withResolvers<void>();
    app.get('/hang', { responses: { 200: {} } }, async () => {
      await never;
      return { status: 200 };
    });
    app.get(
      '/quick/:ms',
      { request: { params: type({ ms: 'number' }) }, responses: { 200: {} } },
      async (ctx) => {
        await sleep(ctx.params.ms);
        return { status: 200 };
      },
    );
    const started = performance.now();
    const timed = (path: string) =>
      app.request(path).then((res) => ({ res, at: performance.now() - started }));
    const first = timed('/hang');
    await sleep(30);
    const quick = timed('/quick/10');
    const second = timed('/hang');
    const [a, q, b] = await Promise.all([first, quick, second]);
    await expectProblem(a.res, 408, 'request-timeout');
    await expectProblem(b.res, 408, 'request-timeout');
    expect(q.res.status).toBe(200);
    // The first expires around 60 ms, the second around 90 ms: neither early nor with the other.
    expect(a.at).toBeGreaterThanOrEqual(58);
    expect(b.at).toBeGreaterThanOrEqual(88);
    expect(b.at - a.at).toBeGreaterThanOrEqual(20);
  });

  test('the timeout problem goes through onSend', async () => {
    const app = new App({
      logger: false,
      requestTimeoutMs: 30,
      hooks: { onSend: (r) => void r.headers.set('x-s', '1') },
    });
    app.get('/x', { responses: { 200: {} } }, async () => {
      await sleep(150);
      return { status: 200 };
    });
    const res = await app.request('/x');
    expect(res.headers.get('x-s')).toBe('1');
    await expectProblem(res, 408, 'request-timeout');
  });
});

describe('limits: header count', () => {
  function headersOf(count: number): Headers {
    const headers = new Headers();
    for (let i = 0; i < count; i++) headers.set(`x-h-${i}`, String(i));
    return headers;
  }

  function countApp(options: AppOptions = {}) {
    const calls: string[] = [];
    const app = new App({
      logger: false,
      hooks: { onRequest: () => void calls.push('onRequest') },
      ...options,
    });
    app.get('/x', { responses: { 200: { body: type('number') } } }, (ctx) => ({
      status: 200,
      body: Object.keys(ctx.headers).length,
    }));
    return { app, calls };
  }

  test('answers 431 for a request with 100 header fields at the default maxHeaderCount', async () => {
    const { app, calls } = countApp();
    const body = await expectProblem(
      await app.request('/x', { headers: headersOf(100) }),
      431,
      'request-header-fields-too-large',
    );
    expect(body.title).toBe('Request Header Fields Too Large');
    expect(String(body.detail)).toContain('99');
    expect(calls).toEqual([]);
  });

  test('accepts a request with 99 header fields at the default maxHeaderCount', async () => {
    const { app } = countApp();
    const res = await app.request('/x', { headers: headersOf(99) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toBe(99);
  });

  test('counts against a custom maxHeaderCount', async () => {
    const { app } = countApp({ maxHeaderCount: 5 });
    await expectProblem(
      await app.request('/x', { headers: headersOf(5) }),
      431,
      'request-header-fields-too-large',
    );
    const ok = await app.request('/x', { headers: headersOf(4) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/json');
    expect(await ok.json()).toBe(4);
  });

  test('maxHeaderCount: 0 disables the guard', async () => {
    const { app } = countApp({ maxHeaderCount: 0 });
    const res = await app.request('/x', { headers: headersOf(300) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toBe(300);
  });

  test('two Host header fields are refused with 400 before any hook runs (RFC 9112 §3.2)', async () => {
    let hooked = false;
    const app = new App({ logger: false, hooks: { onRequest: () => void (hooked = true) } });
    app.get('/x', { responses: { 200: {} } }, () => ({ status: 200 }));
    const problem = await expectProblem(
      await app.request('/x', { headers: { host: 'app.test, internal.test' } }),
      400,
      'bad-request',
    );
    expect(String(problem.detail)).toContain('Host');
    expect(hooked).toBe(false);
    expect((await app.request('/x', { headers: { host: 'app.test' } })).status).toBe(200);
  });

  test('the guard also answers unmatched paths with 431, not 404', async () => {
    const { app } = countApp({ maxHeaderCount: 3 });
    await expectProblem(
      await app.request('/missing', { headers: headersOf(3) }),
      431,
      'request-header-fields-too-large',
    );
  });
});

describe('limits: multipart', () => {
  function multipartApp(options: AppOptions) {
    const app = new App({ logger: false, ...options });
    app.post(
      '/upload',
      { request: { body: type('object') }, responses: { 200: { body: type('string[]') } } },
      (ctx) => ({
        status: 200,
        body: Object.keys(ctx.body),
      }),
    );
    return app;
  }

  function form(fields: Record<string, string>, files: Record<string, number>): FormData {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    for (const [name, size] of Object.entries(files))
      data.set(name, new File(['x'.repeat(size)], `${name}.bin`));
    return data;
  }

  const send = (app: App, data: FormData) => app.request('/upload', { method: 'POST', body: data });

  async function expectKeys(res: Response, keys: string[]) {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(keys);
  }

  test('answers 413 for a file larger than maxFileBytes and accepts one at the limit', async () => {
    const app = multipartApp({ multipart: { maxFileBytes: 10 } });
    const body = await expectProblem(await send(app, form({}, { f: 11 })), 413, 'payload-too-large');
    expect(String(body.detail)).toContain('10 bytes');
    await expectKeys(await send(app, form({}, { f: 10 })), ['f']);
  });

  test('answers 413 for more fields than maxFields and accepts exactly maxFields', async () => {
    const app = multipartApp({ multipart: { maxFields: 2 } });
    const body = await expectProblem(
      await send(app, form({ a: '1', b: '2', c: '3' }, {})),
      413,
      'payload-too-large',
    );
    expect(String(body.detail)).toContain('2 fields');
    await expectKeys(await send(app, form({ a: '1', b: '2' }, {})), ['a', 'b']);
  });

  test('answers 413 for more files than maxFiles and accepts exactly maxFiles', async () => {
    const app = multipartApp({ multipart: { maxFiles: 1 } });
    const body = await expectProblem(await send(app, form({}, { f: 1, g: 1 })), 413, 'payload-too-large');
    expect(String(body.detail)).toContain('1 files');
    await expectKeys(await send(app, form({ note: 'n' }, { f: 1 })), ['note', 'f']);
  });

  test('the body limit applies to multipart bodies too', async () => {
    const app = multipartApp({ bodyLimitBytes: 100 });
    await expectProblem(await send(app, form({}, { f: 200 })), 413, 'payload-too-large');
  });

  test('answers 400 for a malformed multipart body', async () => {
    const app = multipartApp({});
    await expectProblem(
      await app.fetch(
        post('/upload', 'not multipart at all', { 'content-type': 'multipart/form-data; boundary=zzz' }),
      ),
      400,
      'bad-request',
    );
  });
});
