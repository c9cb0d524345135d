import { afterEach, describe, expect, test } from 'bun:test';
import { App, createJsonLogger, type Logger, type PluginInstalledInfo, type Scope } from '@charter/core';
import { type } from 'arktype';
import { createGate } from './support/gate.ts';
import { expectJson } from './support/json.ts';
import { expectProblem } from './support/problem.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const Str = type('string');

async function expectText(res: Response, status: number, text: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(await res.text()).toBe(text);
}

/** Registers GET `path` answering `ctx.state[key]` as JSON (null when absent). */
function stateRoute(scope: Scope, path: string, key: string): void {
  scope.get(path, { responses: { 200: {} } }, (ctx) => ({
    status: 200,
    body: { value: key in ctx.state ? ctx.state[key] : null } as never,
  }));
}

describe('app.decorate', () => {
  test('a decoration is visible in ctx.state of every route', async () => {
    const app = new App({ logger: false });
    expect(app.decorate('db', { name: 'main' })).toBe(app);
    stateRoute(app, '/a', 'db');
    app.group('/g', {}, (g) => stateRoute(g, '/b', 'db'));
    await expectJson(await app.request('/a'), 200, { value: { name: 'main' } });
    await expectJson(await app.request('/g/b'), 200, { value: { name: 'main' } });
  });

  test('a decoration made after the route is registered is visible too', async () => {
    const app = new App({ logger: false });
    stateRoute(app, '/a', 'late');
    app.decorate('late', 1);
    await expectJson(await app.request('/a'), 200, { value: 1 });
  });

  test('decorating the same key twice throws unless override is set', async () => {
    const app = new App({ logger: false });
    app.decorate('cache', 'first');
    expect(() => app.decorate('cache', 'second')).toThrow('"cache" is already decorated');
    stateRoute(app, '/a', 'cache');
    await expectJson(await app.request('/a'), 200, { value: 'first' });
    app.decorate('cache', 'second', { override: true });
    await expectJson(await app.request('/a'), 200, { value: 'second' });
  });

  test('throws for an empty or __proto__ key', () => {
    const app = new App({ logger: false });
    expect(() => app.decorate('', 1)).toThrow(TypeError);
    expect(() => app.decorate('__proto__', 1)).toThrow(TypeError);
  });

  test('writes to ctx.state stay within one request and do not change the decoration', async () => {
    const app = new App({ logger: false });
    app.decorate('shared', 'original');
    app.get('/write', { responses: { 200: {} } }, (ctx) => {
      const before = { shared: ctx.state.shared, mine: ctx.state.mine ?? null };
      ctx.state.shared = 'overwritten';
      ctx.state.mine = 'set';
      return { status: 200, body: before as never };
    });
    await expectJson(await app.request('/write'), 200, { shared: 'original', mine: null });
    await expectJson(await app.request('/write'), 200, { shared: 'original', mine: null });
  });

  test('a decoration made inside a plugin is visible only to that plugin', async () => {
    const app = new App({ logger: false });
    app.decorate('global', 'g');
    app.register((p) => {
      p.decorate('secret', 's');
      stateRoute(p, '/in/secret', 'secret');
      stateRoute(p, '/in/global', 'global');
    });
    app.register((other) => stateRoute(other, '/other/secret', 'secret'));
    stateRoute(app, '/out/secret', 'secret');
    await expectJson(await app.request('/in/secret'), 200, { value: 's' });
    await expectJson(await app.request('/in/global'), 200, { value: 'g' });
    await expectJson(await app.request('/out/secret'), 200, { value: null });
    await expectJson(await app.request('/other/secret'), 200, { value: null });
  });

  test('a plugin may decorate the same key in its own scope as another plugin', async () => {
    const app = new App({ logger: false });
    app.register((a) => {
      a.decorate('name', 'a');
      stateRoute(a, '/a', 'name');
    });
    app.register((b) => {
      b.decorate('name', 'b');
      stateRoute(b, '/b', 'name');
    });
    await expectJson(await app.request('/a'), 200, { value: 'a' });
    await expectJson(await app.request('/b'), 200, { value: 'b' });
  });
});

describe('app.register', () => {
  test('an object plugin gets the prefix, tags, hooks and auth of its options', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    const plugin = {
      name: 'users',
      register(scope: Scope) {
        scope.get('/list', { tags: ['list'], responses: { 200: { body: Str } } }, () => ({
          status: 200,
          body: 'users',
        }));
      },
    };
    expect(
      app.register(plugin, {
        prefix: '/users',
        tags: ['users'],
        hooks: {
          // Stands in for an auth hook: the plugin's declared auth is enforced (route-auth.test.ts).
          preBody: (ctx) => {
            ctx.state.user = { sub: 'u', scopes: ['users:read'], claims: {} };
          },
          beforeHandle: (ctx) => void log.push(ctx.route.path),
        },
        auth: { scheme: 'bearer', scopes: ['users:read'] },
      }),
    ).toBe(app);
    expect(app.introspect()).toEqual([
      {
        method: 'GET',
        path: '/users/list',
        tags: ['users', 'list'],
        hasBody: false,
        hasQuery: false,
        hasParams: false,
        hasHeaders: false,
        responses: [200],
        auth: { scheme: 'bearer', scopes: ['users:read'] },
      },
    ]);
    await expectText(await app.request('/users/list'), 200, 'users');
    expect(log).toEqual(['/users/list']);
  });

  test('a function plugin receives its own scope', async () => {
    const app = new App({ logger: false });
    function billing(scope: Scope) {
      scope.get('/invoices', { responses: { 200: { body: Str } } }, () => ({
        status: 200,
        body: 'invoices',
      }));
    }
    const installed: PluginInstalledInfo[] = [];
    app.onPluginInstalled((info) => installed.push(info));
    app.register(billing, { prefix: '/billing' });
    await expectText(await app.request('/billing/invoices'), 200, 'invoices');
    expect(installed).toEqual([{ name: 'billing', prefix: '/billing', extensions: undefined }]);
  });

  const slowPlugin = {
    name: 'slow',
    async register(scope: Scope) {
      await sleep(20);
      scope.get('/late', { responses: { 200: { body: Str } } }, () => ({ status: 200, body: 'late' }));
    },
  };

  test('an async plugin is installed once ready() resolves', async () => {
    const app = new App({ logger: false });
    const installed: string[] = [];
    app.onPluginInstalled((info) => installed.push(String(info.name)));
    app.register(slowPlugin);
    expect(app.introspect()).toEqual([]);
    expect(installed).toEqual([]);
    expect(await app.ready()).toBe(app);
    expect(app.introspect().map((r) => r.path)).toEqual(['/late']);
    expect(installed).toEqual(['slow']);
    await expectText(await app.request('/late'), 200, 'late');
  });

  test('a request made before an async plugin is installed waits for it', async () => {
    const app = new App({ logger: false });
    app.register(slowPlugin);
    await expectText(await app.request('/late'), 200, 'late');
  });

  test('ready() waits for the plugin even while a request is already waiting for it', async () => {
    const app = new App({ logger: false });
    app.register(slowPlugin);
    const early = app.request('/late');
    await app.ready();
    expect(app.introspect().map((r) => r.path)).toEqual(['/late']);
    await expectText(await early, 200, 'late');
  });

  test('two concurrent ready() calls both wait for the plugin', async () => {
    const app = new App({ logger: false });
    app.register(slowPlugin);
    const first = app.ready();
    await app.ready();
    expect(app.introspect().map((r) => r.path)).toEqual(['/late']);
    await first;
  });

  test('ready() resolves at once with no plugins pending', async () => {
    const app = new App({ logger: false });
    expect(await app.ready()).toBe(app);
  });

  test('ready() rejects when an async plugin fails', async () => {
    const app = new App({ logger: false });
    app.register(async () => {
      throw new Error('plugin failed to connect');
    });
    await expect(app.ready()).rejects.toThrow('plugin failed to connect');
  });

  test('a request waiting on an async plugin that fails gets a 500 problem, not a rejected promise', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: {} } }, () => ({ status: 200 }));
    app.register(async () => {
      throw new Error('plugin failed to connect');
    });
    const res = await app.request('/x').catch((error: unknown) => error);
    expect(res).toBeInstanceOf(Response);
    await expectProblem(res as Response, 500, 'internal');
  });

  test('a plugin whose dependency is not registered before it throws, naming the dependency', () => {
    const app = new App({ logger: false });
    expect(() => app.register({ name: 'orders', dependencies: ['db'], register() {} })).toThrow('"db"');
    app.register({ name: 'db', register() {} });
    expect(() => app.register({ name: 'orders', dependencies: ['db'], register() {} })).not.toThrow();
  });

  test('registering a stateful plugin twice throws', () => {
    const app = new App({ logger: false });
    app.register({ name: 'metrics', stateful: true, register() {} });
    expect(() => app.register({ name: 'metrics', stateful: true, register() {} })).toThrow('metrics');
  });

  test('registering a stateless plugin twice is allowed', async () => {
    const app = new App({ logger: false });
    const plugin = {
      name: 'echo',
      register(scope: Scope) {
        scope.get('/echo', { responses: { 200: { body: Str } } }, () => ({
          status: 200,
          body: scope.prefix,
        }));
      },
    };
    app.register(plugin, { prefix: '/a' });
    app.register(plugin, { prefix: '/b' });
    await expectText(await app.request('/a/echo'), 200, '/a');
    await expectText(await app.request('/b/echo'), 200, '/b');
  });

  test('seed values are decorations visible only to the plugin routes', async () => {
    const app = new App({ logger: false });
    app.register({
      name: 'seeded',
      seed: { tenant: 'acme' },
      register: (s) => stateRoute(s, '/in', 'tenant'),
    });
    stateRoute(app, '/out', 'tenant');
    await expectJson(await app.request('/in'), 200, { value: 'acme' });
    await expectJson(await app.request('/out'), 200, { value: null });
  });

  test('onPluginInstalled receives name, prefix and extensions', () => {
    const app = new App({ logger: false });
    const installed: PluginInstalledInfo[] = [];
    app.onPluginInstalled((info) => installed.push(info));
    app.register({ name: 'mcp', extensions: { tools: 3 }, register() {} }, { prefix: '/mcp' });
    app.register({ register() {} });
    expect(installed).toEqual([
      { name: 'mcp', prefix: '/mcp', extensions: { tools: 3 } },
      { name: undefined, prefix: '', extensions: undefined },
    ]);
  });

  test('nested plugins join their prefixes', async () => {
    const app = new App({ logger: false });
    app.register(
      (outer) => {
        outer.register(
          (inner) => {
            inner.get('/x', { responses: { 200: { body: Str } } }, () => ({ status: 200, body: 'nested' }));
          },
          { prefix: '/inner' },
        );
      },
      { prefix: '/outer' },
    );
    await expectText(await app.request('/outer/inner/x'), 200, 'nested');
  });
});

describe('app.shutdown', () => {
  test('runs onShutdown, waits for in-flight requests, then runs onClose', async () => {
    const app = new App({ logger: false, requestTimeoutMs: 0 });
    const log: string[] = [];
    const { opened: gate, open: release } = createGate();
    app.get('/slow', { responses: { 200: { body: Str } } }, async () => {
      log.push('handler:start');
      await gate;
      log.push('handler:end');
      return { status: 200, body: 'finished' };
    });
    app.onShutdown((info) => void log.push(`shutdown:${info.reason}:${info.timeoutMs}`));
    app.onClose(() => void log.push('close:a'));
    app.onClose(async () => {
      await sleep(1);
      log.push('close:b');
    });
    expect(app.state).toBe('serving');
    const inFlight = app.request('/slow');
    await sleep(5);
    expect(app.inFlight).toBe(1);
    const stopping = app.shutdown(1000, 'SIGTERM');
    expect(app.state).toBe('draining');
    await sleep(5);
    expect(log).toEqual(['handler:start', 'shutdown:SIGTERM:1000']);
    release();
    await expectText(await inFlight, 200, 'finished');
    await stopping;
    expect(app.state).toBe('closed');
    expect(app.inFlight).toBe(0);
    expect(log.slice(0, 3)).toEqual(['handler:start', 'shutdown:SIGTERM:1000', 'handler:end']);
    expect(log.slice(3).sort()).toEqual(['close:a', 'close:b']);
  });

  test('requests during and after shutdown get a 503 problem', async () => {
    const app = new App({ logger: false, requestTimeoutMs: 0 });
    const { opened: gate, open: release } = createGate();
    app.get('/slow', { responses: { 200: {} } }, async () => {
      await gate;
      return { status: 200 };
    });
    app.get('/fast', { responses: { 200: { body: Str } } }, () => ({ status: 200, body: 'ok' }));
    const inFlight = app.request('/slow');
    await sleep(5);
    const stopping = app.shutdown(1000);
    const during = await app.request('/fast');
    expect(during.headers.get('retry-after')).toBe('1');
    expect(during.headers.get('connection')).toBe('close');
    const body = await expectProblem(during, 503, 'service-unavailable');
    expect(body.title).toBe('Service Unavailable');
    release();
    expect((await inFlight).status).toBe(200);
    await stopping;
    await expectProblem(await app.request('/fast'), 503, 'service-unavailable');
  });

  test('stops waiting for in-flight requests after timeoutMs', async () => {
    const app = new App({ logger: false, requestTimeoutMs: 0 });
    const { opened: gate, open: release } = createGate();
    app.get('/hang', { responses: { 200: {} } }, async () => {
      await gate;
      return { status: 200 };
    });
    const closed: string[] = [];
    app.onClose(() => void closed.push('closed'));
    const inFlight = app.request('/hang');
    await sleep(5);
    const started = Date.now();
    await app.shutdown(40, 'deploy');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(35);
    expect(elapsed).toBeLessThan(500);
    expect(closed).toEqual(['closed']);
    expect(app.state).toBe('closed');
    release();
    await inFlight;
  });

  test('with nothing in flight, shutdown closes at once and twice returns the same promise', async () => {
    const app = new App({ logger: false });
    const calls: string[] = [];
    app.onShutdown(() => void calls.push('shutdown'));
    app.onClose(() => void calls.push('close'));
    const first = app.shutdown();
    const second = app.shutdown();
    expect(second).toBe(first);
    await first;
    expect(calls).toEqual(['shutdown', 'close']);
  });

  test('a listener that throws does not stop the shutdown', async () => {
    const app = new App({ logger: false });
    const calls: string[] = [];
    app.onShutdown(() => {
      throw new Error('listener broke');
    });
    app.onClose(() => {
      throw new Error('close broke');
    });
    app.onClose(() => void calls.push('close'));
    await app.shutdown(10);
    expect(calls).toEqual(['close']);
    expect(app.state).toBe('closed');
  });

  test('throws for a negative or non-finite timeout', () => {
    const app = new App({ logger: false });
    expect(() => app.shutdown(-1)).toThrow(TypeError);
    expect(() => app.shutdown(Number.NaN)).toThrow(TypeError);
  });
});

describe('app.request', () => {
  const app = new App({ logger: false });
  app.route({
    method: 'POST',
    path: '/echo',
    responses: { 200: {} },
    handler: async (ctx) => ({
      status: 200,
      body: {
        url: ctx.request.url,
        method: ctx.request.method,
        header: ctx.request.headers.get('x-h'),
        body: await ctx.request.text(),
      } as never,
    }),
  });
  app.get('/echo', { responses: { 200: {} } }, (ctx) => ({
    status: 200,
    body: { url: ctx.request.url, query: ctx.query } as never,
  }));

  test('takes a path, resolved against an in-process origin', async () => {
    await expectJson(await app.request('/echo?a=1'), 200, {
      url: 'http://charter.local/echo?a=1',
      query: { a: '1' },
    });
  });

  test('takes an absolute URL string', async () => {
    await expectJson(await app.request('https://api.example.com/echo'), 200, {
      url: 'https://api.example.com/echo',
      query: {},
    });
  });

  test('takes a URL object', async () => {
    await expectJson(await app.request(new URL('http://example.com/echo?b=2')), 200, {
      url: 'http://example.com/echo?b=2',
      query: { b: '2' },
    });
  });

  test('takes a Request object', async () => {
    const req = new Request('http://example.com/echo', {
      method: 'POST',
      headers: { 'x-h': 'v' },
      body: 'hi',
    });
    await expectJson(await app.request(req), 200, {
      url: 'http://example.com/echo',
      method: 'POST',
      header: 'v',
      body: 'hi',
    });
  });

  test('applies init to a Request object', async () => {
    const req = new Request('http://example.com/echo');
    await expectJson(await app.request(req, { method: 'POST', headers: { 'x-h': 'init' }, body: 'b' }), 200, {
      url: 'http://example.com/echo',
      method: 'POST',
      header: 'init',
      body: 'b',
    });
  });

  test('applies init to a path', async () => {
    await expectJson(
      await app.request('/echo', { method: 'POST', headers: { 'x-h': 'p' }, body: 'x' }),
      200,
      {
        url: 'http://charter.local/echo',
        method: 'POST',
        header: 'p',
        body: 'x',
      },
    );
  });

  test('app.fetch answers the same as app.request', async () => {
    await expectJson(await app.fetch(new Request('http://charter.local/echo?c=3')), 200, {
      url: 'http://charter.local/echo?c=3',
      query: { c: '3' },
    });
  });
});

describe('app.fetch and app.handle', () => {
  function syncAndAsync(): App {
    const app = new App({ logger: false });
    app.get('/sync', { responses: { 200: { body: Str } } }, () => ({ status: 200, body: 'sync' }));
    app.get('/async', { responses: { 200: { body: Str } } }, async () => ({ status: 200, body: 'async' }));
    return app;
  }

  test('app.handle answers a request whose steps are all sync with the Response itself', async () => {
    const out = syncAndAsync().handle(new Request('http://charter.local/sync'));
    expect(out).toBeInstanceOf(Response);
    await expectText(out as Response, 200, 'sync');
  });

  test('app.handle answers with a promise once a step goes async, and for a failing request too', async () => {
    const app = syncAndAsync();
    const out = app.handle(new Request('http://charter.local/async'));
    expect(out).toBeInstanceOf(Promise);
    await expectText(await out, 200, 'async');
    await expectProblem(await app.handle(new Request('http://charter.local/missing')), 404, 'not-found');
  });

  test('app.fetch always answers with a promise, sync routes included', async () => {
    const app = syncAndAsync();
    const out = app.fetch(new Request('http://charter.local/sync'));
    expect(out).toBeInstanceOf(Promise);
    await expectText(await out, 200, 'sync');
  });
});

describe('app.healthcheck', () => {
  test('GET /healthz answers 200 application/health+json with status pass', async () => {
    const app = new App({ logger: false });
    expect(app.healthcheck()).toBe(app);
    const res = await app.request('/healthz');
    expect(res.headers.get('cache-control')).toBe('no-store');
    await expectJson(res, 200, { status: 'pass' }, 'application/health+json');
    expect(app.introspect()[0]).toMatchObject({ method: 'GET', path: '/healthz', operationId: 'getHealth' });
  });

  test('HEAD /healthz answers 200 without a body', async () => {
    const app = new App({ logger: false }).healthcheck();
    const res = await app.request('/healthz', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/health+json');
    expect(await res.text()).toBe('');
  });

  test('the path can be changed', async () => {
    const app = new App({ logger: false }).healthcheck({ path: '/live' });
    await expectJson(await app.request('/live'), 200, { status: 'pass' }, 'application/health+json');
    await expectProblem(await app.request('/healthz'), 404, 'not-found');
  });
});

describe('app.readinesscheck', () => {
  const H = 'application/health+json';

  test('GET /readyz answers 200 pass without checks', async () => {
    const app = new App({ logger: false }).readinesscheck();
    const res = await app.request('/readyz');
    expect(res.headers.get('cache-control')).toBe('no-store');
    await expectJson(res, 200, { status: 'pass' }, H);
  });

  test('answers 200 pass when every check passes', async () => {
    const app = new App({ logger: false }).readinesscheck({
      checks: { db: async () => true, cache: () => undefined },
    });
    await expectJson(
      await app.request('/readyz'),
      200,
      { status: 'pass', checks: { db: [{ status: 'pass' }], cache: [{ status: 'pass' }] } },
      H,
    );
  });

  test('answers 503 with the error message in development when a check throws', async () => {
    const app = new App({ logger: false, production: false }).readinesscheck({
      checks: {
        db: async () => {
          throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
        },
        cache: () => true,
      },
    });
    await expectJson(
      await app.request('/readyz'),
      503,
      {
        status: 'fail',
        checks: {
          db: [{ status: 'fail', output: 'connect ECONNREFUSED 10.0.0.5:5432' }],
          cache: [{ status: 'pass' }],
        },
      },
      H,
    );
  });

  test('hides the error message in production', async () => {
    const app = new App({ logger: false, production: true }).readinesscheck({
      checks: {
        db: () => {
          throw new Error('password authentication failed for user admin');
        },
      },
    });
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe(H);
    const text = await res.text();
    expect(text).not.toContain('password');
    expect(JSON.parse(text)).toEqual({ status: 'fail', checks: { db: [{ status: 'fail' }] } });
  });

  test('answers 503 when a check returns false', async () => {
    const app = new App({ logger: false }).readinesscheck({ checks: { queue: () => false } });
    await expectJson(
      await app.request('/readyz'),
      503,
      { status: 'fail', checks: { queue: [{ status: 'fail' }] } },
      H,
    );
  });

  test('answers 503 when a check takes longer than checkTimeoutMs', async () => {
    const app = new App({ logger: false }).readinesscheck({
      checkTimeoutMs: 20,
      checks: { slow: () => sleep(300).then(() => true) },
    });
    const started = Date.now();
    const res = await app.request('/readyz');
    expect(Date.now() - started).toBeLessThan(250);
    await expectJson(
      res,
      503,
      { status: 'fail', checks: { slow: [{ status: 'fail', output: 'timed out after 20 ms' }] } },
      H,
    );
  });

  test('throws at registration for a check that is not a function', () => {
    expect(() => new App({ logger: false }).readinesscheck({ checks: { db: 'yes' as never } })).toThrow(
      '"db"',
    );
  });

  test('the path can be changed', async () => {
    const app = new App({ logger: false }).readinesscheck({ path: '/ready' });
    await expectJson(await app.request('/ready'), 200, { status: 'pass' }, H);
  });
});

describe('app logger', () => {
  const originalOut = process.stdout.write;
  const originalErr = process.stderr.write;
  afterEach(() => {
    process.stdout.write = originalOut;
    process.stderr.write = originalErr;
  });

  function captureStdio(): string[] {
    const written: string[] = [];
    const capture = ((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    process.stdout.write = capture;
    process.stderr.write = capture;
    return written;
  }

  function failing(logger: ConstructorParameters<typeof App>[0]) {
    const app = new App(logger);
    app.get('/boom', { responses: { 200: {} } }, () => {
      throw new Error('kaboom');
    });
    return app;
  }

  test('createJsonLogger writes one JSON line per unexpected error', async () => {
    const lines: [string, string][] = [];
    const app = failing({ logger: createJsonLogger({ write: (line, level) => lines.push([line, level]) }) });
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).detail).toBe('kaboom');
    expect(lines).toHaveLength(1);
    const [line, level] = lines[0] as [string, string];
    expect(level).toBe('error');
    expect(line.includes('\n')).toBe(false);
    const record = JSON.parse(line);
    expect(record).toMatchObject({
      level: 'error',
      method: 'GET',
      route: '/boom',
      status: 500,
      error: { name: 'Error', message: 'kaboom' },
    });
    expect(typeof record.msg).toBe('string');
    expect(new Date(record.time).toISOString()).toBe(record.time);
    expect(typeof record.error.stack).toBe('string');
  });

  test('expected HttpErrors are not logged as errors', async () => {
    const lines: string[] = [];
    const app = new App({ logger: createJsonLogger({ write: (line) => lines.push(line) }) });
    app.get('/x', { responses: { 200: {} } }, () => ({ status: 200 }));
    const res = await app.request('/missing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).status).toBe(404);
    expect(lines).toEqual([]);
  });

  test('createJsonLogger honours its level', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ level: 'warn', write: (line) => lines.push(line) });
    logger.debug('d');
    logger.info('i');
    logger.warn('w', { n: 1 });
    logger.error('e');
    expect(lines.map((l) => JSON.parse(l)).map((r) => [r.level, r.msg])).toEqual([
      ['warn', 'w'],
      ['error', 'e'],
    ]);
    expect(JSON.parse(lines[0] as string).n).toBe(1);
  });

  test('a custom Logger is used as given', async () => {
    const calls: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (message) => void calls.push(message),
    };
    const app = failing({ logger });
    expect(app.logger).toBe(logger);
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).status).toBe(500);
    expect(calls).toHaveLength(1);
  });

  test('the default logger writes the error as a JSON line to the process streams', async () => {
    const written = captureStdio();
    const res = await failing({}).request('/boom');
    process.stdout.write = originalOut;
    process.stderr.write = originalErr;
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).status).toBe(500);
    expect(written).toHaveLength(1);
    expect(written[0]?.endsWith('\n')).toBe(true);
    expect(JSON.parse(written[0] as string)).toMatchObject({ level: 'error', error: { message: 'kaboom' } });
  });

  test('logger: false writes nothing', async () => {
    const written = captureStdio();
    const res = await failing({ logger: false }).request('/boom');
    process.stdout.write = originalOut;
    process.stderr.write = originalErr;
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).status).toBe(500);
    expect(written).toEqual([]);
  });

  test('logger: { level: "silent" } writes nothing', async () => {
    const written = captureStdio();
    const res = await failing({ logger: { level: 'silent' } }).request('/boom');
    process.stdout.write = originalOut;
    process.stderr.write = originalErr;
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).status).toBe(500);
    expect(written).toEqual([]);
  });
});

describe('the request timeout never holds a process open', () => {
  test('a script whose one request went through an async handler exits once it is answered', async () => {
    // Before, the 30 s timeout timer stayed armed after the answer and kept the process alive.
    const child = Bun.spawn([process.execPath, `${import.meta.dir}/fixtures/exit-after-request.ts`], {
      stdout: 'pipe',
      stderr: 'pipe',
    });
    // Far below the 30 s timeout, far above a slow machine's start: exiting late means the timer held it.
    const killer = setTimeout(() => child.kill(), 15_000);
    const code = await child.exited;
    clearTimeout(killer);
    expect({ code, signal: child.signalCode, stderr: await new Response(child.stderr).text() }).toEqual({
      code: 0,
      signal: null,
      stderr: '',
    });
    expect(JSON.parse(await new Response(child.stdout).text())).toEqual({ status: 200, body: { ok: true } });
  }, 20_000);
});

describe('plugin lifecycle (issue 20)', () => {
  function recordingLogger(): Logger & { errors: string[] } {
    const errors: string[] = [];
    const none = (): void => {};
    return { errors, debug: none, info: none, warn: none, error: (msg) => void errors.push(msg) };
  }

  test('a plugin registers onShutdown and onClose; cleanups run on shutdown in reverse order', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.onClose(() => void log.push('close:app'));
    app.register({
      name: 'pool',
      register(scope) {
        scope.onShutdown(({ reason }) => void log.push(`shutdown:pool:${reason}`));
        scope.onClose(() => void log.push('close:pool'));
      },
    });
    app.register(async (scope) => {
      scope.onClose(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push('close:cache');
      });
    });
    await app.ready();
    expect(log).toEqual([]);
    await app.shutdown(1000, 'test');
    expect(log).toEqual(['shutdown:pool:test', 'close:cache', 'close:pool', 'close:app']);
    expect(app.state).toBe('closed');
  });

  test('a throwing plugin cleanup is logged and the others still run', async () => {
    const logger = recordingLogger();
    const log: string[] = [];
    const app = new App({ logger });
    app.register((scope) => {
      scope.onClose(() => void log.push('first'));
      scope.onClose(() => {
        throw new Error('pool already closed');
      });
    });
    await app.shutdown(1000);
    expect(log).toEqual(['first']);
    expect(logger.errors).toEqual(['An onClose listener threw']);
  });

  test('a throwing onPluginInstalled listener is logged; the plugin is fully registered', async () => {
    const logger = recordingLogger();
    const app = new App({ logger });
    app.onPluginInstalled(() => {
      throw new Error('listener bug');
    });
    expect(() =>
      app.register((scope) => {
        scope.get('/a', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, () => ({
          status: 200,
          body: { ok: true },
        }));
      }),
    ).not.toThrow();
    app.get('/b', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, () => ({
      status: 200,
      body: { ok: true },
    }));
    expect(logger.errors).toEqual(['An onPluginInstalled listener threw']);
    const a = await app.request('/a');
    expect(a.status).toBe(200);
    expect(await a.json()).toEqual({ ok: true });
    expect((await app.request('/b')).status).toBe(200);
  });

  test('an async onPluginInstalled listener that rejects is logged, never an unhandled rejection', async () => {
    const logger = recordingLogger();
    const app = new App({ logger });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      app.onPluginInstalled(async () => {
        throw new Error('async listener bug');
      });
      app.register(() => {});
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(logger.errors).toEqual(['An onPluginInstalled listener failed']);
  });
});
