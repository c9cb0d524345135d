import { describe, expect, test } from 'bun:test';
import { App, type Hooks, TooManyRequestsError } from '@charter/core';
import { type } from 'arktype';
import { expectJson } from './support/json.ts';
import { expectProblem } from './support/problem.ts';

/** Hooks of every phase that log `<phase>:<name>` and whether a ctx was given where one may be. */
function spy(log: string[], name: string): Hooks {
  return {
    onRequest: () => void log.push(`onRequest:${name}`),
    preBody: () => void log.push(`preBody:${name}`),
    beforeHandle: () => void log.push(`beforeHandle:${name}`),
    afterHandle: () => void log.push(`afterHandle:${name}`),
    onError: (_e, ctx) => void log.push(`onError:${name}:${ctx === undefined ? 'no-ctx' : 'ctx'}`),
    onSend: (_r, ctx) => void log.push(`onSend:${name}:${ctx === undefined ? 'no-ctx' : 'ctx'}`),
    onResponse: (_r, ctx) => void log.push(`onResponse:${name}:${ctx === undefined ? 'no-ctx' : 'ctx'}`),
  };
}

const Ok = type({ ok: 'boolean' });
const okRoute = { responses: { 200: { body: Ok } } };
const ok = () => ({ status: 200 as const, body: { ok: true } });

const expectOk = (res: Response): Promise<void> => expectJson(res, 200, { ok: true });

describe('hook scope: constructor hooks', () => {
  test('run onRequest, onError, onSend and onResponse for an unmatched 404, without a ctx', async () => {
    const log: string[] = [];
    const app = new App({ logger: false, hooks: spy(log, 'ctor') });
    app.get('/x', okRoute, ok);
    await expectProblem(await app.request('/missing'), 404, 'not-found');
    expect(log).toEqual([
      'onRequest:ctor',
      'onError:ctor:no-ctx',
      'onSend:ctor:no-ctx',
      'onResponse:ctor:no-ctx',
    ]);
  });

  test('run onRequest, onError, onSend and onResponse for a wrong-method 405, without a ctx', async () => {
    const log: string[] = [];
    const app = new App({ logger: false, hooks: spy(log, 'ctor') });
    app.get('/x', okRoute, ok);
    const res = await app.request('/x', { method: 'DELETE' });
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    await expectProblem(res, 405, 'method-not-allowed');
    expect(log).toEqual([
      'onRequest:ctor',
      'onError:ctor:no-ctx',
      'onSend:ctor:no-ctx',
      'onResponse:ctor:no-ctx',
    ]);
  });

  test('run for a 400 bad path too', async () => {
    const log: string[] = [];
    const app = new App({ logger: false, hooks: spy(log, 'ctor') });
    await expectProblem(await app.request('/a%2fb'), 400, 'bad-request');
    expect(log).toEqual([
      'onRequest:ctor',
      'onError:ctor:no-ctx',
      'onSend:ctor:no-ctx',
      'onResponse:ctor:no-ctx',
    ]);
  });

  test('run every phase for a matched route, with a ctx', async () => {
    const log: string[] = [];
    const app = new App({ logger: false, hooks: spy(log, 'ctor') });
    app.get('/x', okRoute, ok);
    await expectOk(await app.request('/x'));
    expect(log).toEqual([
      'onRequest:ctor',
      'preBody:ctor',
      'beforeHandle:ctor',
      'afterHandle:ctor',
      'onSend:ctor:ctx',
      'onResponse:ctor:ctx',
    ]);
  });

  test('onSend of a constructor hook can decorate the 404 problem', async () => {
    const app = new App({ logger: false, hooks: { onSend: (res) => void res.headers.set('x-trace', 't1') } });
    const res = await app.request('/missing');
    expect(res.headers.get('x-trace')).toBe('t1');
    await expectProblem(res, 404, 'not-found');
  });
});

describe('hook scope: app.use', () => {
  test('onRequest runs for an unmatched request, but a plain 404 skips its onError, onSend and onResponse', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.use(spy(log, 'use'));
    app.get('/x', okRoute, ok);
    await expectProblem(await app.request('/missing'), 404, 'not-found');
    expect(log).toEqual(['onRequest:use']);
  });

  test('a plain 405 skips its onError, onSend and onResponse', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.use(spy(log, 'use'));
    app.get('/x', okRoute, ok);
    await expectProblem(await app.request('/x', { method: 'POST' }), 405, 'method-not-allowed');
    expect(log).toEqual(['onRequest:use']);
  });

  test('onSend and onResponse run on an unmatched request when an app.use guard returned a Response', async () => {
    const log: string[] = [];
    const app = new App({ logger: false, hooks: spy(log, 'ctor') });
    app.use({
      ...spy(log, 'use'),
      onRequest: () => {
        log.push('onRequest:use');
        return new Response(JSON.stringify({ blocked: true }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const res = await app.request('/missing');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ blocked: true });
    expect(log).toEqual([
      'onRequest:ctor',
      'onRequest:use',
      'onSend:ctor:no-ctx',
      'onSend:use:no-ctx',
      'onResponse:ctor:no-ctx',
      'onResponse:use:no-ctx',
    ]);
  });

  test('onError, onSend and onResponse run on an unmatched request when an app.use guard threw', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.use({
      ...spy(log, 'use'),
      onRequest: () => {
        log.push('onRequest:use');
        throw new TooManyRequestsError({ retryAfterSeconds: 5 });
      },
    });
    const res = await app.request('/missing');
    expect(res.headers.get('retry-after')).toBe('5');
    await expectProblem(res, 429, 'too-many-requests');
    expect(log).toEqual([
      'onRequest:use',
      'onError:use:no-ctx',
      'onSend:use:no-ctx',
      'onResponse:use:no-ctx',
    ]);
  });

  test('runs every phase for every matched route, routes in groups and plugins included', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.use(spy(log, 'use'));
    app.get('/a', okRoute, ok);
    app.group('/g', {}, (g) => g.get('/b', okRoute, ok));
    app.register((p) => void p.get('/c', okRoute, ok), { prefix: '/p' });
    for (const path of ['/a', '/g/b', '/p/c']) {
      log.length = 0;
      await expectOk(await app.request(path));
      expect(log).toEqual([
        'onRequest:use',
        'preBody:use',
        'beforeHandle:use',
        'afterHandle:use',
        'onSend:use:ctx',
        'onResponse:use:ctx',
      ]);
    }
  });

  test('app.use after a route was registered still applies to that route', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.get('/x', okRoute, ok);
    await expectOk(await app.request('/x'));
    expect(log).toEqual([]);
    app.use(spy(log, 'late'));
    await expectOk(await app.request('/x'));
    expect(log).toEqual([
      'onRequest:late',
      'preBody:late',
      'beforeHandle:late',
      'afterHandle:late',
      'onSend:late:ctx',
      'onResponse:late:ctx',
    ]);
  });

  test('an app.use guard returning a Response on a matched route skips the route hooks and handler', async () => {
    const log: string[] = [];
    let handled = false;
    const app = new App({ logger: false });
    app.use({
      onRequest: () => new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } }),
    });
    app.get('/x', { ...okRoute, hooks: spy(log, 'route') }, () => {
      handled = true;
      return ok();
    });
    const res = await app.request('/x');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.text()).toBe('');
    expect(handled).toBe(false);
    expect(log).toEqual([]);
  });
});

describe('hook scope: route and group hooks', () => {
  test('route hooks run only for their route', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.get('/mine', { ...okRoute, hooks: spy(log, 'route') }, ok);
    app.get('/other', okRoute, ok);
    await expectOk(await app.request('/other'));
    await expectProblem(await app.request('/missing'), 404, 'not-found');
    await expectProblem(await app.request('/mine', { method: 'POST' }), 405, 'method-not-allowed');
    expect(log).toEqual([]);
    await expectOk(await app.request('/mine'));
    expect(log).toEqual([
      'onRequest:route',
      'preBody:route',
      'beforeHandle:route',
      'afterHandle:route',
      'onSend:route:ctx',
      'onResponse:route:ctx',
    ]);
  });

  test('route onError runs for errors of its own route', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: {} }, hooks: spy(log, 'route') }, () => {
      throw new Error('boom');
    });
    const res = await app.request('/x');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).detail).toBe('boom');
    expect(log).toEqual([
      'onRequest:route',
      'preBody:route',
      'beforeHandle:route',
      'onError:route:ctx',
      'onSend:route:ctx',
      'onResponse:route:ctx',
    ]);
  });

  test('group hooks run only for routes of that group', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.group('/g', { hooks: spy(log, 'group') }, (g) => g.get('/in', okRoute, ok));
    app.group('/h', {}, (h) => h.get('/in', okRoute, ok));
    app.get('/out', okRoute, ok);
    await expectOk(await app.request('/out'));
    await expectOk(await app.request('/h/in'));
    await expectProblem(await app.request('/g/missing'), 404, 'not-found');
    await expectProblem(await app.request('/g/in', { method: 'PUT' }), 405, 'method-not-allowed');
    expect(log).toEqual([]);
    await expectOk(await app.request('/g/in'));
    expect(log).toHaveLength(6);
  });

  test('use() on a group scopes the hooks to that group', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.group('/g', {}, (g) => {
      g.use(spy(log, 'group-use'));
      g.get('/in', okRoute, ok);
    });
    app.get('/out', okRoute, ok);
    await expectOk(await app.request('/out'));
    await expectProblem(await app.request('/missing'), 404, 'not-found');
    expect(log).toEqual([]);
    await expectOk(await app.request('/g/in'));
    expect(log[0]).toBe('onRequest:group-use');
    expect(log).toHaveLength(6);
  });

  test('hooks of a nested group apply to the inner routes, and outer group hooks run first', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.group('/a', { hooks: { beforeHandle: () => void log.push('outer') } }, (a) => {
      a.get('/x', okRoute, ok);
      a.group('/b', { hooks: { beforeHandle: () => void log.push('inner') } }, (b) =>
        b.get('/y', okRoute, ok),
      );
    });
    await expectOk(await app.request('/a/x'));
    expect(log).toEqual(['outer']);
    log.length = 0;
    await expectOk(await app.request('/a/b/y'));
    expect(log).toEqual(['outer', 'inner']);
  });
});

describe('hook scope: plugins', () => {
  test("a plugin's use() applies only to that plugin's routes", async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.get('/app', okRoute, ok);
    app.register(
      {
        name: 'scoped',
        register(p) {
          p.use(spy(log, 'plugin'));
          p.get('/inside', okRoute, ok);
        },
      },
      { prefix: '/p' },
    );
    app.register((other) => void other.get('/other', okRoute, ok));
    await expectOk(await app.request('/app'));
    await expectOk(await app.request('/other'));
    await expectProblem(await app.request('/p/missing'), 404, 'not-found');
    expect(log).toEqual([]);
    await expectOk(await app.request('/p/inside'));
    expect(log).toEqual([
      'onRequest:plugin',
      'preBody:plugin',
      'beforeHandle:plugin',
      'afterHandle:plugin',
      'onSend:plugin:ctx',
      'onResponse:plugin:ctx',
    ]);
  });

  test('hooks given in register options apply only to that plugin', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.get('/app', okRoute, ok);
    app.register((p) => void p.get('/inside', okRoute, ok), {
      hooks: { beforeHandle: () => void log.push('opt') },
    });
    await expectOk(await app.request('/app'));
    expect(log).toEqual([]);
    await expectOk(await app.request('/inside'));
    expect(log).toEqual(['opt']);
  });

  test('within a plugin route the order is constructor, app.use, plugin options, plugin use, route', async () => {
    const log: string[] = [];
    const mark = (name: string): Hooks => ({ beforeHandle: () => void log.push(name) });
    const app = new App({ logger: false, hooks: mark('ctor') });
    app.register(
      (p) => {
        p.use(mark('plugin-use'));
        p.get('/x', { ...okRoute, hooks: mark('route') }, ok);
      },
      { hooks: mark('plugin-options') },
    );
    app.use(mark('app-use'));
    await expectOk(await app.request('/x'));
    expect(log).toEqual(['ctor', 'app-use', 'plugin-options', 'plugin-use', 'route']);
  });
});

describe('hook arguments', () => {
  test('onError, onSend and onResponse receive the request itself, also when no route matched', async () => {
    const seen: string[] = [];
    const note = (phase: string) => (_first: unknown, _ctx: unknown, request: Request) =>
      void seen.push(`${phase} ${request.method} ${new URL(request.url).pathname}`);
    const app = new App({
      logger: false,
      hooks: { onError: note('onError'), onSend: note('onSend'), onResponse: note('onResponse') },
    });
    app.get('/ok', okRoute, ok);
    await expectOk(await app.request('/ok'));
    await expectProblem(await app.request('/missing', { method: 'DELETE' }), 404, 'not-found');
    expect(seen).toEqual([
      'onSend GET /ok',
      'onResponse GET /ok',
      'onError DELETE /missing',
      'onSend DELETE /missing',
      'onResponse DELETE /missing',
    ]);
  });

  test('ctx.request read after the body was parsed still has the method, URL and headers', async () => {
    const app = new App({ logger: false });
    const seen: string[] = [];
    app.post(
      '/echo',
      {
        request: { body: type({ n: 'number' }) },
        responses: { 200: { body: type({ n: 'number', method: 'string' }) } },
        hooks: {
          beforeHandle: (ctx) => void seen.push(`beforeHandle ${ctx.request.headers.get('x-tag')}`),
          onSend: (_r, ctx) => void seen.push(`onSend ${ctx?.request.method}`),
        },
      },
      (ctx) => ({ status: 200, body: { n: ctx.body.n, method: ctx.request.method } }),
    );
    const response = await app.request('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tag': 't1' },
      body: '{"n":7}',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ n: 7, method: 'POST' });
    expect(seen).toEqual(['beforeHandle t1', 'onSend POST']);
  });

  test('cookies set through ctx.set and through the result headers are all sent', async () => {
    const app = new App({ logger: false });
    app.get('/cookies', okRoute, (ctx) => {
      ctx.set.headers.append('set-cookie', 'a=1; Path=/');
      ctx.set.headers.append('set-cookie', 'b=2; Path=/');
      return { status: 200, body: { ok: true }, headers: [['set-cookie', 'c=3; Path=/']] };
    });
    app.get('/raw-cookies', { ...okRoute, acknowledgeNoResponseBodySchema: true }, (ctx) => {
      ctx.set.headers.append('set-cookie', 'a=1; Path=/');
      return new Response('{"ok":true}', { headers: { 'set-cookie': 'c=3; Path=/' } });
    });
    const response = await app.request('/cookies');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/', 'c=3; Path=/']);
    await expectOk(response);
    const raw = await app.request('/raw-cookies');
    expect(raw.headers.getSetCookie().sort()).toEqual(['a=1; Path=/', 'c=3; Path=/']);
  });
});
