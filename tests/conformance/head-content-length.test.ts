/**
 * RFC 9110 §8.6 and §9.3.2: a HEAD answer carries the header fields a GET would, and a Content-Length
 * in it MUST equal the length of the content the GET would have sent (or be left out). The pipeline
 * drops the content of a HEAD answer itself; Bun and Deno then write `Content-Length: 0` for the
 * empty body unless the answer says otherwise, so the pipeline states the length of every body it
 * serialised. A body it cannot measure without reading it (a stream the handler returns) gets no
 * length: the field is left out, never guessed.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { z } from 'zod';
import { App } from '@charter/core';
import { type BunServer, serve } from '@charter/bun';

function headApp(): App {
  const app = new App({ logger: false });
  app.get('/json', { responses: { 200: { body: z.object({ word: z.string() }) } } }, () => ({
    status: 200,
    // Non-ASCII on purpose: the length is in bytes, not UTF-16 code units.
    body: { word: 'Grüße, 世界' },
  }));
  app.get(
    '/users/:id',
    { request: { params: z.object({ id: z.string() }) }, responses: { 200: {} } },
    (ctx) => ({
      status: 200,
      body: `user ${ctx.params.id}`,
    }),
  );
  app.get('/stream', { responses: { 200: {} }, acknowledgeNoResponseBodySchema: true }, () => {
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode('tick\n')),
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/plain' } });
  });
  app.get('/sized', { responses: { 200: {} }, acknowledgeNoResponseBodySchema: true }, () => {
    return new Response('twelve bytes', { status: 200, headers: { 'content-length': '12' } });
  });
  return app;
}

function byteLength(text: string): string {
  return String(new TextEncoder().encode(text).byteLength);
}

/**
 * The content HEAD's answer drops: GET's, except that the 404's detail names the method the request
 * used (`No route matches HEAD /missing`), so that answer is a byte longer than GET's.
 */
function headContent(getBody: string, path: string): string {
  return getBody.replace(`GET ${path}`, `HEAD ${path}`);
}

describe('HEAD: Content-Length is the GET body length or absent (app.fetch)', () => {
  for (const path of ['/json', '/users/7', '/missing']) {
    test(`HEAD ${path} states the length of the body GET ${path} sends`, async () => {
      const app = headApp();
      const get = await app.request(path);
      const getBody = await get.text();
      expect(getBody.length).toBeGreaterThan(0);
      const head = await app.request(path, { method: 'HEAD' });
      expect(head.status).toBe(get.status);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('content-length')).toBe(byteLength(headContent(getBody, path)));
      expect(await head.text()).toBe('');
    });
  }

  test('a streamed body gets no Content-Length on HEAD (its length is unknown without reading it)', async () => {
    const head = await headApp().request('/stream', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain');
    expect(head.headers.get('content-length')).toBeNull();
    expect(await head.text()).toBe('');
  });

  test("a handler's own Content-Length is kept on HEAD", async () => {
    const head = await headApp().request('/sized', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('12');
    expect(await head.text()).toBe('');
  });

  test('GET answers are unchanged: no Content-Length field added by the pipeline', async () => {
    const get = await headApp().request('/json');
    expect(get.status).toBe(200);
    expect(get.headers.get('content-length')).toBeNull();
    expect(await get.json()).toEqual({ word: 'Grüße, 世界' });
  });
});

describe('HEAD: Content-Length on the wire through charter/bun', () => {
  let server: BunServer | undefined;
  afterEach(async () => {
    await server?.close(100);
    server = undefined;
  });

  // /json is a static route (Bun's native routes table), /users/:id a parameter route, /missing the
  // router's 404: each path the adapter can take.
  for (const path of ['/json', '/users/7', '/missing']) {
    test(`HEAD ${path} over a socket carries the GET length, not 0`, async () => {
      server = await serve(headApp(), { port: 0, signals: false, banner: false });
      const get = await fetch(new URL(path, server.url));
      const getBody = await get.text();
      const head = await fetch(new URL(path, server.url), { method: 'HEAD' });
      expect(head.status).toBe(get.status);
      expect(get.headers.get('content-length')).toBe(byteLength(getBody));
      expect(head.headers.get('content-length')).toBe(byteLength(headContent(getBody, path)));
      expect(await head.text()).toBe('');
    });
  }

  test('a streamed body on HEAD is not given a length of 0', async () => {
    server = await serve(headApp(), { port: 0, signals: false, banner: false });
    const head = await fetch(new URL('/stream', server.url), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBeNull();
    expect(head.headers.get('content-type')).toBe('text/plain');
    expect(await head.text()).toBe('');
  });
});
