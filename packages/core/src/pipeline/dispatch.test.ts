import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { NotFoundError, TooManyRequestsError } from '../errors/index.ts';
import type { Hooks } from '../types/index.ts';

const Ok = type({ ok: 'boolean' });
const ok = () => ({ status: 200 as const, body: { ok: true } });
const request = (path: string) => new Request(`http://charter.local${path}`);

describe('dispatch: onRequest', () => {
  test('sync onRequest hooks keep a sync route answered without a promise', async () => {
    const log: string[] = [];
    const app = new App({ logger: false, hooks: { onRequest: () => void log.push('ctor') } });
    app.use({ onRequest: () => void log.push('use') });
    app.get('/x', { responses: { 200: { body: Ok } } }, ok);
    await app.ready();
    const answer = app.handle(request('/x'));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(200);
    expect(await (answer as Response).json()).toEqual({ ok: true });
    expect(log).toEqual(['ctor', 'use']);
  });

  test('an async onRequest hook makes the answer a promise and the next hooks still run in order', async () => {
    const log: string[] = [];
    const app = new App({
      logger: false,
      hooks: [
        { onRequest: () => void log.push('ctor-1') },
        { onRequest: async () => void log.push('ctor-2') },
        { onRequest: () => void log.push('ctor-3') },
      ],
    });
    app.use({ onRequest: async () => void log.push('use') });
    app.get('/x', { responses: { 200: { body: Ok } } }, ok);
    await app.ready();
    const answer = app.handle(request('/x'));
    expect(answer).toBeInstanceOf(Promise);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(log).toEqual(['ctor-1', 'ctor-2', 'ctor-3', 'use']);
  });

  test('the first hook answering with a Response, sync or async, stops the rest', async () => {
    for (const answer of [
      () => new Response('early', { status: 401 }),
      async () => new Response('early', { status: 401 }),
    ]) {
      const log: string[] = [];
      const app = new App({
        logger: false,
        hooks: [{ onRequest: () => void log.push('first') }, { onRequest: answer }],
      });
      app.use({ onRequest: () => void log.push('use') });
      app.get('/x', { responses: { 200: { body: Ok } } }, () => {
        log.push('handler');
        return ok();
      });
      const res = await app.request('/x');
      expect(res.status).toBe(401);
      expect(await res.text()).toBe('early');
      expect(log).toEqual(['first']);
    }
  });

  test('an async app.use guard that answers on an unmatched path runs the app.use onSend', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.use({
      onRequest: async () => new Response('blocked', { status: 403 }),
      onSend: () => void log.push('onSend:use'),
    } satisfies Hooks);
    const res = await app.request('/missing');
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('blocked');
    expect(log).toEqual(['onSend:use']);
  });

  test('an async app.use guard that rejects runs the app.use onError and onSend', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.use({
      onRequest: async () => {
        throw new TooManyRequestsError({ retryAfterSeconds: 3 });
      },
      onError: () => void log.push('onError:use'),
      onSend: () => void log.push('onSend:use'),
    } satisfies Hooks);
    const res = await app.request('/missing');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(log).toEqual(['onError:use', 'onSend:use']);
  });

  test('a constructor hook that throws is a problem, and app.use guards do not run', async () => {
    const log: string[] = [];
    const app = new App({
      logger: false,
      hooks: {
        onRequest: () => {
          throw new TooManyRequestsError();
        },
      },
    });
    app.use({ onRequest: () => void log.push('use'), onSend: () => void log.push('onSend:use') });
    const res = await app.request('/missing');
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(log).toEqual([]);
  });
});

describe('dispatch: the pipeline-built answers (issue 18)', () => {
  test("a 404's body is NotFoundError's problem member for member, its detail escaped as JSON", async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: Ok } } }, ok);
    await app.ready();
    for (const path of ['/nope', '/a%22b', '/caf%C3%A9/"q"']) {
      const res = await app.fetch(request(path));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const text = await res.text();
      const pathname = new URL(`http://charter.local${path}`).pathname;
      const expected = new NotFoundError(`No route matches GET ${pathname}`).toProblem();
      expect(expected.title).toBe('Not Found');
      expect(JSON.parse(text)).toEqual(expected);
      expect(text).toBe(JSON.stringify(expected));
    }
  });

  test("a 404 for a raw target holding a quote (as a runtime's server may hand it over) escapes it", async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: Ok } } }, ok);
    await app.ready();
    // Request objects normalise the quote to %22: a server's own request object need not.
    const raw = {
      method: 'GET',
      url: 'http://charter.local/a"b',
      headers: new Headers({ host: 'charter.local' }),
      body: null,
    } as unknown as Request;
    const res = await app.fetch(raw);
    expect(res.status).toBe(404);
    const text = await res.text();
    const expected = new NotFoundError('No route matches GET /a"b').toProblem();
    expect(text).toBe(JSON.stringify(expected));
    expect(text).toContain('GET /a\\"b"');
  });

  test('answers built on a reused init keep their own status, headers and body', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: Ok } } }, ok);
    await app.ready();
    const first = await app.fetch(request('/x'));
    const second = await app.fetch(request('/x'));
    // A hook or handler changing one response's headers must not reach the next one.
    first.headers.set('x-mine', '1');
    expect(second.headers.get('x-mine')).toBeNull();
    expect((await app.fetch(request('/x'))).headers.get('x-mine')).toBeNull();
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ ok: true });
    const missing = await app.fetch(request('/missing'));
    missing.headers.set('x-mine', '1');
    const again = await app.fetch(request('/missing'));
    expect(again.status).toBe(404);
    expect(again.headers.get('x-mine')).toBeNull();
    expect(again.headers.get('content-type')).toBe('application/problem+json');
  });
});
