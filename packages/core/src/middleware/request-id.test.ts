import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import fc from 'fast-check';
import { App } from '../app/index.ts';
import { UnauthorizedError } from '../errors/index.ts';
import type { LogFields, Logger } from '../logger/index.ts';
import type { Hooks } from '../types/index.ts';
import { isSafeRequestId, requestId, requestIdOf, resolveRequestIdOptions } from './request-id.ts';

const Seen = type({ id: 'string', header: 'string | null' });
const GENERATED = /^[A-Za-z0-9_-]{22}$/;

/** An app whose routes report the id they saw in ctx.state and in the request header. */
function appWith(hooks: Hooks | Hooks[], header = 'x-request-id'): App {
  const app = new App({ logger: false });
  app.use(hooks as Hooks);
  app.get('/seen', { responses: { 200: { body: Seen } } }, (ctx) => ({
    status: 200,
    body: { id: String(ctx.state.requestId), header: ctx.request.headers.get(header) },
  }));
  app.get('/boom', { responses: { 200: { body: Seen } } }, () => {
    throw new Error('kaput');
  });
  return app;
}

function recordingLogger(): Logger & { lines: { message: string; fields?: LogFields }[] } {
  const lines: { message: string; fields?: LogFields }[] = [];
  const push = (message: string, fields?: LogFields) => void lines.push({ message, fields });
  return { lines, debug: push, info: push, warn: push, error: push };
}

describe('requestId', () => {
  test('makes an id when the request has none, echoes it and exposes it as ctx.state.requestId', async () => {
    const response = await appWith(requestId()).request('/seen');
    expect(response.status).toBe(200);
    const echoed = response.headers.get('x-request-id') as string;
    expect(echoed).toMatch(GENERATED);
    expect(await response.json()).toEqual({ id: echoed, header: echoed });
  });

  test('makes a different id for every request', async () => {
    const app = appWith(requestId());
    const ids = new Set<string | null>();
    for (let i = 0; i < 20; i++) ids.add((await app.request('/seen')).headers.get('x-request-id'));
    expect(ids.size).toBe(20);
  });

  test('adopts a safe incoming id', async () => {
    const incoming = 'Root=1-5759e988-bd862e3f/abc:def@x+y~z.';
    const response = await appWith(requestId()).request('/seen', { headers: { 'x-request-id': incoming } });
    expect(response.headers.get('x-request-id')).toBe(incoming);
    expect(await response.json()).toEqual({ id: incoming, header: incoming });
  });

  test('replaces an unsafe incoming id, and the request header with it', async () => {
    const app = appWith(requestId());
    for (const bad of ['has space', '<script>', 'a;b', 'x'.repeat(129), 'quote"d', 'comma,d']) {
      const response = await app.request('/seen', { headers: { 'x-request-id': bad } });
      const echoed = response.headers.get('x-request-id') as string;
      expect(echoed).toMatch(GENERATED);
      expect(await response.json()).toEqual({ id: echoed, header: echoed });
    }
  });

  test('with trustIncoming: false, replaces even a safe incoming id', async () => {
    const response = await appWith(requestId({ trustIncoming: false })).request('/seen', {
      headers: { 'x-request-id': 'client-chosen' },
    });
    const echoed = response.headers.get('x-request-id') as string;
    expect(echoed).toMatch(GENERATED);
    expect(await response.json()).toEqual({ id: echoed, header: echoed });
  });

  test('honours a custom header, maxLength and generator', async () => {
    let n = 0;
    const hooks = requestId({ header: 'X-Correlation-Id', maxLength: 4, generate: () => `gen-${++n}` });
    const app = appWith(hooks, 'x-correlation-id');
    const short = await app.request('/seen', { headers: { 'x-correlation-id': 'abcd' } });
    expect(short.headers.get('x-correlation-id')).toBe('abcd');
    expect(short.headers.get('x-request-id')).toBeNull();
    const long = await app.request('/seen', { headers: { 'x-correlation-id': 'abcde' } });
    expect(long.headers.get('x-correlation-id')).toBe('gen-1');
    expect(await long.json()).toEqual({ id: 'gen-1', header: 'gen-1' });
  });

  test('echoes the id on error responses: a 500 from the handler and a 401 from a preBody hook', async () => {
    const app = appWith([
      requestId(),
      {
        preBody: (ctx) => {
          if (ctx.request.headers.get('authorization') === 'no')
            throw new UnauthorizedError('no credentials');
        },
      },
    ]);
    const failed = await app.request('/boom', { headers: { 'x-request-id': 'req-500' } });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-type')).toBe('application/problem+json');
    expect(failed.headers.get('x-request-id')).toBe('req-500');
    const refused = await app.request('/seen', {
      headers: { 'x-request-id': 'req-401', authorization: 'no' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('req-401');
    expect(((await refused.json()) as { type: string }).type).toBe('https://charter.dev/errors/unauthorized');
  });

  test('gives onRequest-level code the same id through requestIdOf(request)', async () => {
    const seen: (string | undefined)[] = [];
    const app = appWith([requestId(), { onRequest: (request) => void seen.push(requestIdOf(request)) }]);
    const response = await app.request('/seen');
    expect(seen).toEqual([response.headers.get('x-request-id') as string]);
  });

  test('requestIdOf(ctx) reads the context and is undefined for a request no hook saw', async () => {
    const app = new App({ logger: false });
    app.use(requestId());
    app.get('/of', { responses: { 200: { body: type({ id: 'string' }) } } }, (ctx) => ({
      status: 200,
      body: { id: requestIdOf(ctx) ?? 'none' },
    }));
    const response = await app.request('/of', { headers: { 'x-request-id': 'ctx-id' } });
    expect(await response.json()).toEqual({ id: 'ctx-id' });
    expect(requestIdOf(new Request('http://charter.local/'))).toBeUndefined();
  });

  test('works as route hooks too', async () => {
    const app = new App({ logger: false });
    app.get(
      '/route',
      { hooks: requestId(), responses: { 200: { body: type({ id: 'string' }) } } },
      (ctx) => ({
        status: 200,
        body: { id: String(ctx.state.requestId) },
      }),
    );
    const response = await app.request('/route');
    const echoed = response.headers.get('x-request-id') as string;
    expect(echoed).toMatch(GENERATED);
    expect(await response.json()).toEqual({ id: echoed });
  });

  test('keeps a response header the handler set itself', async () => {
    const app = new App({ logger: false });
    app.use(requestId());
    app.get('/own', { responses: { 200: { body: type('string') } } }, () => ({
      status: 200,
      body: 'ok',
      headers: { 'x-request-id': 'from-handler' },
    }));
    expect((await app.request('/own')).headers.get('x-request-id')).toBe('from-handler');
  });

  test('with a logger, writes one line per request with id, method, path, route, status and duration', async () => {
    const logger = recordingLogger();
    const app = appWith(requestId({ logger }));
    await app.request('/seen?token=secret', { headers: { 'x-request-id': 'log-me' } });
    await app.request('/boom', { headers: { 'x-request-id': 'log-500' } });
    expect(logger.lines).toHaveLength(2);
    const [first, second] = logger.lines;
    expect(first?.message).toBe('request');
    expect(first?.fields).toMatchObject({
      requestId: 'log-me',
      method: 'GET',
      path: '/seen',
      route: '/seen',
      status: 200,
    });
    expect(typeof first?.fields?.durationMs).toBe('number');
    expect(JSON.stringify(first?.fields)).not.toContain('secret');
    expect(second?.fields).toMatchObject({ requestId: 'log-500', status: 500 });
  });

  test('without a logger, logs nothing and adds no onResponse hook', () => {
    expect(requestId().onResponse).toBeUndefined();
    expect(typeof requestId({ logger: recordingLogger() }).onResponse).toBe('function');
  });

  test('a generator returning an unsafe id fails the request with a 500', async () => {
    const response = await appWith(requestId({ generate: () => 'not safe' })).request('/seen');
    expect(response.status).toBe(500);
  });
});

describe('resolveRequestIdOptions', () => {
  test('fills the defaults', () => {
    const resolved = resolveRequestIdOptions();
    expect(resolved.header).toBe('x-request-id');
    expect(resolved.trustIncoming).toBe(true);
    expect(resolved.maxLength).toBe(128);
    expect(resolved.generate()).toMatch(GENERATED);
  });

  test('refuses bad options, naming them', () => {
    expect(() => resolveRequestIdOptions({ header: 'bad header' })).toThrow(/"header"/);
    expect(() => resolveRequestIdOptions({ header: 'x\r\ny' })).toThrow(TypeError);
    expect(() => resolveRequestIdOptions({ maxLength: 0 })).toThrow(RangeError);
    expect(() => resolveRequestIdOptions({ maxLength: 1.5 })).toThrow(/"maxLength"/);
    expect(() => resolveRequestIdOptions({ trustIncoming: 'yes' as never })).toThrow(/"trustIncoming"/);
    expect(() => resolveRequestIdOptions({ generate: 'x' as never })).toThrow(/"generate"/);
    expect(() => resolveRequestIdOptions({ logger: {} as never })).toThrow(/"logger"/);
  });
});

describe('isSafeRequestId', () => {
  const SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:@/+=';

  test('accepts ids of 1 to maxLength safe characters', () => {
    const safeChar = fc.constantFrom(...SAFE.split(''));
    fc.assert(
      fc.property(fc.array(safeChar, { minLength: 1, maxLength: 128 }), (chars) => {
        expect(isSafeRequestId(chars.join(''))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('refuses any id with a character outside the set, the empty id and overlong ids', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 1 }),
        fc.string({ maxLength: 40 }),
        (a, c, b) => {
          fc.pre(!SAFE.includes(c));
          expect(isSafeRequestId(`${a}${c}${b}`)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
    expect(isSafeRequestId('')).toBe(false);
    expect(isSafeRequestId('a'.repeat(129))).toBe(false);
    expect(isSafeRequestId('a'.repeat(129), 200)).toBe(true);
  });
});
