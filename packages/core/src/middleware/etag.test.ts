import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { compression } from './compression.ts';
import { entityTagOf, etag, ifNoneMatchMatches, resolveEtagOptions } from './etag.ts';

const Item = type({ id: 'number', name: 'string' });
const ITEM = { id: 1, name: 'Ada' };
const raw = { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 'raw' } } };

function buildApp(options?: Parameters<typeof etag>[0]): App {
  const app = new App({ logger: false });
  app.use(etag(options));
  app.get('/item', { responses: { 200: { body: Item } } }, (ctx) => {
    ctx.set.headers.set('cache-control', 'max-age=60');
    ctx.set.headers.set('x-request-id', 'req-1');
    return { status: 200 as const, body: ITEM };
  });
  app.post('/item', { responses: { 200: { body: Item } } }, () => ({ status: 200 as const, body: ITEM }));
  app.get('/created', { responses: { 201: { body: Item } } }, () => ({ status: 201 as const, body: ITEM }));
  return app;
}

async function expectedTag(body: string, weak = false): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
  const b64 = Buffer.from(digest.subarray(0, 16)).toString('base64url');
  return weak ? `W/"${b64}"` : `"${b64}"`;
}

describe('etag: tagging', () => {
  test('adds a strong ETag from the SHA-256 of the body to a GET 200', async () => {
    const res = await buildApp().request('/item');
    expect(res.status).toBe(200);
    const body = JSON.stringify(ITEM);
    expect(res.headers.get('etag')).toBe(await expectedTag(body));
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe(body);
  });

  test('gives the same tag for the same body and another for another body', async () => {
    const a = await entityTagOf(new TextEncoder().encode('one'));
    expect(await entityTagOf(new TextEncoder().encode('one'))).toBe(a);
    expect(await entityTagOf(new TextEncoder().encode('two'))).not.toBe(a);
    expect(a).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  test('sends weak tags when asked', async () => {
    const res = await buildApp({ weak: true }).request('/item');
    expect(res.headers.get('etag')).toBe(await expectedTag(JSON.stringify(ITEM), true));
  });

  test('keeps an ETag the handler set', async () => {
    const app = new App({ logger: false });
    app.use(etag());
    app.get(
      '/own',
      raw,
      () => new Response('hello', { headers: { etag: '"v7"', 'content-type': 'text/plain' } }),
    );
    const res = await app.request('/own');
    expect(res.headers.get('etag')).toBe('"v7"');
    expect(await res.text()).toBe('hello');
    const cached = await app.request('/own', { headers: { 'if-none-match': '"v7"' } });
    expect(cached.status).toBe(304);
  });

  test('tags HEAD like GET', async () => {
    const app = buildApp();
    const res = await app.request('/item', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(await expectedTag(JSON.stringify(ITEM)));
    expect(await res.text()).toBe('');
  });

  test('leaves other methods and statuses alone', async () => {
    const app = buildApp();
    const post = await app.request('/item', { method: 'POST' });
    expect(post.status).toBe(200);
    expect(post.headers.get('etag')).toBeNull();
    const created = await app.request('/created');
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBeNull();
    const post304 = await app.request('/item', { method: 'POST', headers: { 'if-none-match': '*' } });
    expect(post304.status).toBe(200);
  });

  test('skips bodies over maxBytes, known from Content-Length or found by reading', async () => {
    const app = new App({ logger: false });
    app.use(etag({ maxBytes: 10 }));
    app.get('/declared', raw, () => new Response('x'.repeat(11), { headers: { 'content-length': '11' } }));
    app.get('/read', raw, () => new Response('y'.repeat(50)));
    app.get('/fits', raw, () => new Response('z'.repeat(10)));
    const declared = await app.request('/declared');
    expect(declared.headers.get('etag')).toBeNull();
    expect(await declared.text()).toBe('x'.repeat(11));
    const read = await app.request('/read');
    expect(read.headers.get('etag')).toBeNull();
    expect(await read.text()).toBe('y'.repeat(50));
    const fits = await app.request('/fits');
    expect(fits.headers.get('etag')).toBe(await expectedTag('z'.repeat(10)));
  });

  test('never waits on an event stream', async () => {
    const app = new App({ logger: false });
    app.use(etag());
    app.get('/events', raw, () => {
      const stream = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('data: 1\n\n')) });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    });
    const res = await app.request('/events');
    expect(res.headers.get('etag')).toBeNull();
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
    await reader.cancel();
  });
});

describe('etag: If-None-Match', () => {
  test('answers 304 without a body when the tag matches, keeping cache and non-representation headers', async () => {
    const app = buildApp();
    const first = await app.request('/item');
    const tag = first.headers.get('etag') as string;
    const res = await app.request('/item', { headers: { 'if-none-match': tag } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBe(tag);
    expect(res.headers.get('cache-control')).toBe('max-age=60');
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(res.headers.get('content-type')).toBeNull();
    expect(res.headers.get('content-length')).toBeNull();
  });

  test('matches with the weak comparison, in lists and with *', async () => {
    const app = buildApp();
    const tag = (await app.request('/item')).headers.get('etag') as string;
    for (const header of [`W/${tag}`, `"nope", ${tag}`, `  "a" ,W/"b",${tag}`, '*']) {
      const res = await app.request('/item', { headers: { 'if-none-match': header } });
      expect([header, res.status]).toEqual([header, 304]);
    }
  });

  test('answers 200 with the body when no tag matches', async () => {
    const app = buildApp();
    for (const header of ['"other"', 'W/"other", "x"', '', 'garbage']) {
      const res = await app.request('/item', { headers: { 'if-none-match': header } });
      expect([header, res.status]).toEqual([header, 200]);
      expect(await res.json()).toEqual(ITEM);
    }
  });

  test('ifNoneMatchMatches compares opaque tags only', () => {
    expect(ifNoneMatchMatches('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"a"', 'W/"a"')).toBe(true);
    expect(ifNoneMatchMatches('"a,b"', '"a,b"')).toBe(true);
    expect(ifNoneMatchMatches('"a", "b"', '"c"')).toBe(false);
    expect(ifNoneMatchMatches('"ab"', '"a"')).toBe(false);
  });

  test('keeps Vary and the weakened tag when registered before compression', async () => {
    const app = new App({ logger: false });
    app.use([etag(), compression({ threshold: 0 })]);
    app.get('/item', { responses: { 200: { body: Item } } }, () => ({ status: 200 as const, body: ITEM }));
    const gz = await app.request('/item', { headers: { 'accept-encoding': 'gzip' } });
    const tag = gz.headers.get('etag') as string;
    expect(tag).toBe(`W/${await expectedTag(JSON.stringify(ITEM))}`);
    const res = await app.request('/item', { headers: { 'accept-encoding': 'gzip', 'if-none-match': tag } });
    expect(res.status).toBe(304);
    expect(res.headers.get('content-encoding')).toBeNull();
  });

  test('works as route hooks only for that route', async () => {
    const app = new App({ logger: false });
    app.get('/a', { responses: { 200: { body: Item } }, hooks: etag() }, () => ({
      status: 200 as const,
      body: ITEM,
    }));
    app.get('/b', { responses: { 200: { body: Item } } }, () => ({ status: 200 as const, body: ITEM }));
    expect((await app.request('/a')).headers.get('etag')).not.toBeNull();
    expect((await app.request('/b')).headers.get('etag')).toBeNull();
  });
});

describe('resolveEtagOptions', () => {
  test('fills the defaults', () => {
    expect(resolveEtagOptions()).toEqual({ weak: false, maxBytes: 1024 * 1024 });
  });

  test('refuses bad options, naming the option', () => {
    expect(() => resolveEtagOptions({ weak: 'yes' as never })).toThrow(/weak/);
    expect(() => resolveEtagOptions({ maxBytes: -1 })).toThrow(RangeError);
    expect(() => resolveEtagOptions({ maxBytes: Number.NaN })).toThrow(/maxBytes/);
  });
});
