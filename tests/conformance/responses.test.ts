import { describe, expect, test } from 'bun:test';
import { App, NotFoundError } from '@charter/core';
import { type } from 'arktype';
import * as z from 'zod';
import { expectProblem } from './support/problem.ts';

const User = type({ id: 'number', name: 'string' });

describe('responses: handler results', () => {
  test('sends the status, JSON body and headers the handler returns', async () => {
    const app = new App({ logger: false });
    app.post('/users', { responses: { 201: { body: User } } }, () => ({
      status: 201,
      body: { id: 1, name: 'Ada' },
      headers: { location: '/users/1', 'x-custom': 'c' },
    }));
    const res = await app.request('/users', { method: 'POST' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/users/1');
    expect(res.headers.get('x-custom')).toBe('c');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ id: 1, name: 'Ada' });
  });

  test('accepts headers as a Headers object or as tuples', async () => {
    const app = new App({ logger: false });
    app.get('/a', { responses: { 200: {} } }, () => ({ status: 200, headers: new Headers({ 'x-a': '1' }) }));
    app.get('/b', { responses: { 200: {} } }, () => ({ status: 200, headers: [['x-b', '2']] }));
    const a = await app.request('/a');
    expect(a.status).toBe(200);
    expect(a.headers.get('x-a')).toBe('1');
    expect(await a.text()).toBe('');
    const b = await app.request('/b');
    expect(b.status).toBe(200);
    expect(b.headers.get('x-b')).toBe('2');
    expect(await b.text()).toBe('');
  });

  test('an async handler is awaited', async () => {
    const app = new App({ logger: false });
    app.get('/u', { responses: { 200: { body: User } } }, async () => {
      await Bun.sleep(1);
      return { status: 200, body: { id: 2, name: 'Bo' } };
    });
    const res = await app.request('/u');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ id: 2, name: 'Bo' });
  });

  test('a handler that returns something other than { status } gives a 500', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: {} } }, () => 'oops' as never);
    const body = await expectProblem(await app.request('/x'), 500);
    expect(String(body.detail)).toContain('{ status, body?, headers? }');
  });
});

describe('responses: declared statuses', () => {
  test('an undeclared status gives a 500 problem naming the status and the declared ones', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: {}, 404: {} } }, () => ({ status: 201 }) as never);
    const body = await expectProblem(await app.request('/x'), 500);
    expect(body.type).toBe('https://charter.dev/errors/internal');
    expect(String(body.detail)).toContain('201');
    expect(String(body.detail)).toContain('200, 404');
  });

  test('an undeclared status problem is redacted in production', async () => {
    const app = new App({ logger: false, production: true });
    app.get('/x', { responses: { 200: {} } }, () => ({ status: 201 }) as never);
    expect(await expectProblem(await app.request('/x'), 500)).toEqual({
      type: 'https://charter.dev/errors/internal',
      title: 'Internal Server Error',
      status: 500,
    });
  });

  test('a declared error status is sent as the handler returns it', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 404: { body: type({ missing: 'string' }) } } }, () => ({
      status: 404,
      body: { missing: 'x' },
    }));
    const res = await app.request('/x');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ missing: 'x' });
  });
});

describe('responses: validateResponses', () => {
  const register = (app: App) =>
    app.get(
      '/u',
      { responses: { 200: { body: User } } },
      () => ({ status: 200, body: { id: 'one', name: 'Ada' } }) as never,
    );

  test('a body violating its schema gives a 500 whose detail names the issue in development', async () => {
    const app = new App({ logger: false, env: 'development' });
    register(app);
    const body = await expectProblem(await app.request('/u'), 500);
    expect(body.type).toBe('https://charter.dev/errors/internal');
    expect(body.title).toBe('Internal Server Error');
    expect(String(body.detail)).toContain('does not match its schema');
    expect(String(body.detail)).toContain('id');
    expect(String(body.detail)).not.toContain('"one"');
  });

  test('the 500 for a violating body has no detail in production', async () => {
    const app = new App({ logger: false, production: true });
    register(app);
    const body = await expectProblem(await app.request('/u'), 500);
    expect(body).toEqual({
      type: 'https://charter.dev/errors/internal',
      title: 'Internal Server Error',
      status: 500,
    });
  });

  test('validateResponses: false sends the violating body', async () => {
    const app = new App({ logger: false, validateResponses: false });
    register(app);
    const res = await app.request('/u');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ id: 'one', name: 'Ada' });
  });

  test('a valid body is sent as the schema outputs it', async () => {
    const app = new App({ logger: false });
    app.get('/u', { responses: { 200: { body: z.object({ id: z.number() }) } } }, () => ({
      status: 200,
      body: { id: 1, secret: 'strip me' } as { id: number },
    }));
    const res = await app.request('/u');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ id: 1 });
  });

  test('an async response schema is awaited', async () => {
    const app = new App({ logger: false });
    const Async = z.object({ n: z.number() }).refine(async (o) => o.n > 0, 'n must be positive');
    app.get('/ok', { responses: { 200: { body: Async } } }, () => ({ status: 200, body: { n: 1 } }));
    app.get('/bad', { responses: { 200: { body: Async } } }, () => ({ status: 200, body: { n: 0 } }));
    const ok = await app.request('/ok');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/json');
    expect(await ok.json()).toEqual({ n: 1 });
    const bad = await expectProblem(await app.request('/bad'), 500);
    expect(String(bad.detail)).toContain('n must be positive');
  });

  test('a status without a body schema is not validated', async () => {
    const app = new App({ logger: false });
    app.get(
      '/x',
      { responses: { 200: {} } },
      () => ({ status: 200, body: { anything: [1, 'two'] } }) as never,
    );
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ anything: [1, 'two'] });
  });
});

describe('responses: serialisation', () => {
  test('a string body is sent as text/plain', async () => {
    const app = new App({ logger: false });
    app.get('/t', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'héllo' }));
    const res = await app.request('/t');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('héllo');
  });

  test('an object, array or number body is sent as JSON', async () => {
    const app = new App({ logger: false });
    app.get('/a', { responses: { 200: { body: type('number[]') } } }, () => ({ status: 200, body: [1, 2] }));
    app.get('/n', { responses: { 200: { body: type('number') } } }, () => ({ status: 200, body: 0 }));
    const a = await app.request('/a');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json');
    expect(await a.json()).toEqual([1, 2]);
    const n = await app.request('/n');
    expect(n.status).toBe(200);
    expect(n.headers.get('content-type')).toBe('application/json');
    expect(await n.text()).toBe('0');
  });

  test('the ResponseSpec contentType is honoured for objects and strings', async () => {
    const app = new App({ logger: false });
    app.get('/vnd', { responses: { 200: { body: User, contentType: 'application/vnd.api+json' } } }, () => ({
      status: 200,
      body: { id: 1, name: 'A' },
    }));
    app.get('/csv', { responses: { 200: { body: type('string'), contentType: 'text/csv' } } }, () => ({
      status: 200,
      body: 'a,b\n1,2',
    }));
    app.get(
      '/json-string',
      { responses: { 200: { body: type('string'), contentType: 'application/json' } } },
      () => ({
        status: 200,
        body: 'quoted',
      }),
    );
    const vnd = await app.request('/vnd');
    expect(vnd.status).toBe(200);
    expect(vnd.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(await vnd.json()).toEqual({ id: 1, name: 'A' });
    const csv = await app.request('/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv');
    expect(await csv.text()).toBe('a,b\n1,2');
    const js = await app.request('/json-string');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('application/json');
    expect(await js.text()).toBe('"quoted"');
  });

  test('a content-type header returned by the handler wins over the default', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: type('string') } } }, () => ({
      status: 200,
      body: '<p>hi</p>',
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }));
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe('<p>hi</p>');
  });

  test('binary bodies pass through with the declared content type', async () => {
    const app = new App({ logger: false });
    app.get('/bin', { responses: { 200: { contentType: 'application/octet-stream' } } }, () => ({
      status: 200,
      body: new Uint8Array([1, 2, 3]),
    }));
    const res = await app.request('/bin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  test('204 is sent without a body or content type, even if the handler gives one', async () => {
    const app = new App({ logger: false });
    app.delete('/x', { responses: { 204: {} } }, () => ({ status: 204, body: { ignored: true } }) as never);
    const res = await app.request('/x', { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(res.body).toBeNull();
    expect(await res.text()).toBe('');
  });

  test('an undefined or null body gives an empty response without content type', async () => {
    const app = new App({ logger: false });
    app.get('/u', { responses: { 200: {} } }, () => ({ status: 200 }));
    app.get('/n', { responses: { 200: {} } }, () => ({ status: 200, body: null }) as never);
    for (const path of ['/u', '/n']) {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBeNull();
      expect(await res.text()).toBe('');
    }
  });
});

describe('responses: ctx.set.headers', () => {
  test('headers set on ctx.set are applied to the response, and handler headers win on conflict', async () => {
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: { body: User } },
        hooks: {
          beforeHandle: (ctx) => {
            ctx.set.headers.set('x-request-id', 'req-1');
            ctx.set.headers.set('x-both', 'from-set');
          },
        },
      },
      (ctx) => {
        ctx.set.headers.set('x-from-handler', 'h');
        return { status: 200, body: { id: 1, name: 'A' }, headers: { 'x-both': 'from-result' } };
      },
    );
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(res.headers.get('x-from-handler')).toBe('h');
    expect(res.headers.get('x-both')).toBe('from-result');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ id: 1, name: 'A' });
  });

  test('headers set on ctx.set are applied to error responses', async () => {
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: {} },
        hooks: { preBody: (ctx) => void ctx.set.headers.set('x-request-id', 'req-2') },
      },
      () => {
        throw new NotFoundError('no such thing');
      },
    );
    const res = await app.request('/x');
    expect(res.headers.get('x-request-id')).toBe('req-2');
    const body = await expectProblem(res, 404);
    expect(body).toEqual({
      type: 'https://charter.dev/errors/not-found',
      title: 'Not Found',
      status: 404,
      detail: 'no such thing',
    });
  });

  test('headers set on ctx.set are applied to validation and unexpected-error responses', async () => {
    const app = new App({ logger: false });
    const hooks = {
      preBody: (ctx: { set: { headers: Headers } }) => void ctx.set.headers.set('x-request-id', 'r'),
    };
    app.get('/v', { request: { query: type({ n: 'number' }) }, responses: { 200: {} }, hooks }, () => ({
      status: 200,
    }));
    app.get('/e', { responses: { 200: {} }, hooks }, () => {
      throw new Error('bug');
    });
    const v = await app.request('/v?n=x');
    expect(v.headers.get('x-request-id')).toBe('r');
    await expectProblem(v, 422);
    const e = await app.request('/e');
    expect(e.headers.get('x-request-id')).toBe('r');
    await expectProblem(e, 500);
  });

  test('headers set on ctx.set are added to a raw Response that does not set them', async () => {
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: {} },
        acknowledgeNoResponseBodySchema: true,
        hooks: { preBody: (ctx) => void ctx.set.headers.set('x-request-id', 'r3') },
      },
      () => new Response('raw', { headers: { 'content-type': 'text/plain' } }),
    );
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('r3');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('raw');
  });
});

describe('responses: raw Response from the handler', () => {
  const raw = (status: number) =>
    new Response(JSON.stringify({ raw: true }), {
      status,
      headers: { 'content-type': 'application/json', 'x-raw': '1' },
    });

  test('a successful raw Response without acknowledgeNoResponseBodySchema gives 500', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: User } } }, () => raw(200));
    const res = await app.request('/x');
    expect(res.headers.get('x-raw')).toBeNull();
    const body = await expectProblem(res, 500);
    expect(String(body.detail)).toContain('acknowledgeNoResponseBodySchema');
  });

  test('a successful raw Response with acknowledgeNoResponseBodySchema is sent unchanged', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: User } }, acknowledgeNoResponseBodySchema: true }, () =>
      raw(200),
    );
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-raw')).toBe('1');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ raw: true });
  });

  test('a declared 4xx raw Response needs no acknowledgement', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: {}, 403: {} } }, () => raw(403));
    const res = await app.request('/x');
    expect(res.status).toBe(403);
    expect(res.headers.get('x-raw')).toBe('1');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ raw: true });
  });

  test('a raw Response with an undeclared status gives 500 even when acknowledged', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: {} }, acknowledgeNoResponseBodySchema: true }, () => raw(202));
    const body = await expectProblem(await app.request('/x'), 500);
    expect(String(body.detail)).toContain('202');
  });
});

describe('responses: HEAD', () => {
  test('cancels the body a GET handler streams, since HEAD never sends it', async () => {
    const app = new App({ logger: false });
    let cancelled = false;
    app.get('/stream', { responses: { 200: {} }, acknowledgeNoResponseBodySchema: true }, () => {
      const body = new ReadableStream({
        pull: (controller) => controller.enqueue(new TextEncoder().encode('tick\n')),
        cancel: () => {
          cancelled = true;
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/plain' } });
    });
    const res = await app.request('/stream', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('');
    await Bun.sleep(0);
    expect(cancelled).toBe(true);
  });

  test('leaves a GET response body as it is', async () => {
    const app = new App({ logger: false });
    app.get('/t', { responses: { 200: {} } }, () => ({ status: 200, body: 'full' }));
    const res = await app.request('/t');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('full');
  });
});
