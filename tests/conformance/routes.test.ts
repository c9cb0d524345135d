import { describe, expect, test } from 'bun:test';
import {
  App,
  defineRoute,
  RouteDefinitionError,
  type AnyRouteDefinition,
  type Hooks,
  type IntrospectedRoute,
} from '@charter/core';
import { type } from 'arktype';
import { expectJson } from './support/json.ts';
import { thrown } from './support/thrown.ts';

const newApp = () => new App({ logger: false });
const Item = type({ id: 'string' });

describe('app.route', () => {
  test('registers a route that answers its method and path', async () => {
    const app = newApp();
    const returned = app.route({
      method: 'GET',
      path: '/items/:id',
      responses: { 200: { body: Item } },
      handler: (ctx) => ({ status: 200, body: { id: ctx.params.id } }),
    });
    expect(returned).toBe(app);
    await expectJson(await app.request('/items/7'), 200, { id: '7' });
  });

  test('registers OPTIONS, which has no shorthand', async () => {
    const app = newApp();
    app.route({
      method: 'OPTIONS',
      path: '/x',
      responses: { 204: {} },
      handler: () => ({ status: 204, headers: { allow: 'GET, OPTIONS' } }),
    });
    const res = await app.request('/x', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, OPTIONS');
    expect(await res.text()).toBe('');
  });

  test('throws for a path that does not start with "/"', () => {
    const error = thrown(() =>
      newApp().route({
        method: 'GET',
        path: 'items',
        responses: { 200: {} },
        handler: () => ({ status: 200 }),
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('"items"');
  });

  test('throws for an unknown method', () => {
    const error = thrown(() =>
      newApp().route({
        method: 'TRACE' as 'GET',
        path: '/x',
        responses: { 200: {} },
        handler: () => ({ status: 200 }),
      }),
    );
    expect(error.message).toContain('TRACE');
    expect(error.message).toContain('method');
  });
});

describe('defineRoute and registerRoutes', () => {
  test('defineRoute returns its argument unchanged', () => {
    const def = defineRoute({
      method: 'GET',
      path: '/a',
      responses: { 200: {} },
      handler: () => ({ status: 200 }),
    });
    expect(def.method).toBe('GET');
    expect(def.path).toBe('/a');
    expect(typeof def.handler).toBe('function');
  });

  test('registerRoutes registers every definition in order', async () => {
    const app = newApp();
    const defs = [
      defineRoute({
        method: 'GET',
        path: '/a',
        responses: { 200: { body: type('string') } },
        handler: () => ({ status: 200, body: 'a' }),
      }),
      defineRoute({
        method: 'POST',
        path: '/b',
        request: { body: Item },
        responses: { 201: { body: Item } },
        handler: (ctx) => ({ status: 201, body: ctx.body }),
      }),
    ] as AnyRouteDefinition[];
    expect(app.registerRoutes(defs)).toBe(app);
    expect(app.introspect().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /a', 'POST /b']);
    const a = await app.request('/a');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await a.text()).toBe('a');
    const b = await app.request('/b', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'z' }),
    });
    await expectJson(b, 201, { id: 'z' });
  });

  test('registerRoutes stops at the first bad definition and reports it', () => {
    const app = newApp();
    const defs = [
      { method: 'GET', path: '/ok', responses: { 200: {} }, handler: () => ({ status: 200 }) },
      { method: 'GET', path: '/bad', responses: {}, handler: () => ({ status: 200 }) },
    ] as unknown as AnyRouteDefinition[];
    const error = thrown(() => app.registerRoutes(defs));
    expect(error.message).toContain('/bad');
    expect(app.introspect().map((r) => r.path)).toEqual(['/ok']);
  });
});

describe('method shorthands', () => {
  const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;
  for (const name of methods) {
    test(`app.${name} registers a ${name.toUpperCase()} route`, async () => {
      const app = newApp();
      app[name](
        '/thing/:id',
        { responses: { 200: { body: type({ method: 'string', id: 'string' }) } } },
        (ctx) => ({
          status: 200,
          body: { method: ctx.request.method, id: ctx.params.id },
        }),
      );
      expect(app.introspect()).toEqual([
        {
          method: name.toUpperCase() as IntrospectedRoute['method'],
          path: '/thing/:id',
          hasBody: false,
          hasQuery: false,
          hasParams: false,
          hasHeaders: false,
          responses: [200],
        },
      ]);
      await expectJson(await app.request('/thing/9', { method: name.toUpperCase() }), 200, {
        method: name.toUpperCase(),
        id: '9',
      });
    });
  }

  test('app.head registers a HEAD route answered without a body', async () => {
    const app = newApp();
    app.head('/h', { responses: { 200: {} } }, () => ({ status: 200, headers: { 'x-head': 'yes' } }));
    expect(app.introspect().map((r) => r.method)).toEqual(['HEAD']);
    const res = await app.request('/h', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-head')).toBe('yes');
    expect(await res.text()).toBe('');
  });

  test('shorthands pass every contract field through', () => {
    const app = newApp();
    app.post(
      '/p',
      {
        operationId: 'createP',
        summary: 's',
        description: 'd',
        tags: ['t'],
        deprecated: true,
        request: { body: Item },
        responses: { 201: {} },
        auth: { scheme: 'bearer', scopes: ['write'] },
        meta: { owner: 'team' },
      },
      () => ({ status: 201 }),
    );
    expect(app.introspect()).toEqual([
      {
        method: 'POST',
        path: '/p',
        operationId: 'createP',
        tags: ['t'],
        summary: 's',
        description: 'd',
        deprecated: true,
        hasBody: true,
        hasQuery: false,
        hasParams: false,
        hasHeaders: false,
        responses: [201],
        auth: { scheme: 'bearer', scopes: ['write'] },
        meta: { owner: 'team' },
      },
    ]);
  });
});

describe('app.group', () => {
  test('joins the prefix to each route path', async () => {
    const app = newApp();
    app.group('/api/v1', {}, (g) => {
      g.get('/users', { responses: { 200: { body: type('string') } } }, () => ({
        status: 200,
        body: 'users',
      }));
      g.get('/', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'root' }));
    });
    expect(app.introspect().map((r) => r.path)).toEqual(['/api/v1/users', '/api/v1']);
    const users = await app.request('/api/v1/users');
    expect(users.status).toBe(200);
    expect(users.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await users.text()).toBe('users');
    const root = await app.request('/api/v1');
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await root.text()).toBe('root');
    const unprefixed = await app.request('/users');
    expect(unprefixed.status).toBe(404);
    expect(unprefixed.headers.get('content-type')).toBe('application/problem+json');
    expect((await unprefixed.json()).status).toBe(404);
  });

  test('nested groups join their prefixes', () => {
    const app = newApp();
    app.group('/a', {}, (a) => {
      a.group('/b/', {}, (b) => {
        b.get('/c', { responses: { 200: {} } }, () => ({ status: 200 }));
      });
    });
    expect(app.introspect().map((r) => r.path)).toEqual(['/a/b/c']);
  });

  test('merges group tags before route tags without duplicates', () => {
    const app = newApp();
    app.group('/g', { tags: ['admin', 'shared'] }, (g) => {
      g.get('/x', { tags: ['shared', 'x'], responses: { 200: {} } }, () => ({ status: 200 }));
      g.get('/y', { responses: { 200: {} } }, () => ({ status: 200 }));
    });
    const [x, y] = app.introspect();
    expect(x?.tags).toEqual(['admin', 'shared', 'x']);
    expect(y?.tags).toEqual(['admin', 'shared']);
  });

  test('routes inherit the group auth unless they declare their own', () => {
    const app = newApp();
    app.group('/g', { auth: { scheme: 'bearer', scopes: ['read'] } }, (g) => {
      g.get('/inherits', { responses: { 200: {} } }, () => ({ status: 200 }));
      g.get('/own', { auth: { scheme: 'apiKey' }, responses: { 200: {} } }, () => ({ status: 200 }));
      g.group('/deeper', {}, (d) => d.get('/z', { responses: { 200: {} } }, () => ({ status: 200 })));
    });
    app.get('/outside', { responses: { 200: {} } }, () => ({ status: 200 }));
    const byPath = Object.fromEntries(app.introspect().map((r) => [r.path, r.auth]));
    expect(byPath).toEqual({
      '/g/inherits': { scheme: 'bearer', scopes: ['read'] },
      '/g/own': { scheme: 'apiKey' },
      '/g/deeper/z': { scheme: 'bearer', scopes: ['read'] },
      '/outside': undefined,
    });
  });

  test('group hooks run for the group routes only', async () => {
    const seen: string[] = [];
    const hooks: Hooks = {
      beforeHandle: (ctx) => {
        seen.push(ctx.route.path);
      },
    };
    const app = newApp();
    app.group('/g', { hooks }, (g) => g.get('/in', { responses: { 200: {} } }, () => ({ status: 200 })));
    app.get('/out', { responses: { 200: {} } }, () => ({ status: 200 }));
    expect((await app.request('/g/in')).status).toBe(200);
    expect((await app.request('/out')).status).toBe(200);
    expect(seen).toEqual(['/g/in']);
  });

  test('throws for a prefix that does not start with "/"', () => {
    const error = thrown(() => newApp().group('api', {}, () => {}));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('"api"');
  });
});

describe('app.introspect', () => {
  test('lists a minimal route with only the required members', () => {
    const app = newApp();
    app.get('/min', { responses: { 200: {} } }, () => ({ status: 200 }));
    const [route] = app.introspect();
    expect(route).toEqual({
      method: 'GET',
      path: '/min',
      hasBody: false,
      hasQuery: false,
      hasParams: false,
      hasHeaders: false,
      responses: [200],
    });
    expect(Object.keys(route as object).sort()).toEqual(
      ['hasBody', 'hasHeaders', 'hasParams', 'hasQuery', 'method', 'path', 'responses'].sort(),
    );
  });

  test('lists every RouteDefinition field with the IntrospectedRoute shape', () => {
    const app = newApp();
    const meta = { owner: 'billing', rateLimit: 10 };
    app.route({
      method: 'PUT',
      path: '/orders/:orderId',
      operationId: 'replaceOrder',
      summary: 'Replace an order',
      description: 'Replaces the whole order',
      tags: ['orders'],
      deprecated: false,
      request: {
        params: type({ orderId: 'string' }),
        query: type({ 'dryRun?': 'boolean' }),
        headers: type({ 'if-match': 'string' }),
        body: type({ total: 'number' }),
      },
      responses: { 422: {}, 200: { body: type({ ok: 'boolean' }) }, 404: {}, 201: {} },
      auth: { scheme: 'bearer', scopes: ['orders:write', 'orders:read'], payload: true },
      hooks: {},
      meta,
      examples: [{ response: { status: 200, body: { ok: true } } }],
      callbacks: {},
      handler: () => ({ status: 200, body: { ok: true } }),
    });
    expect(app.introspect()).toEqual([
      {
        method: 'PUT',
        path: '/orders/:orderId',
        operationId: 'replaceOrder',
        tags: ['orders'],
        summary: 'Replace an order',
        description: 'Replaces the whole order',
        deprecated: false,
        hasBody: true,
        hasQuery: true,
        hasParams: true,
        hasHeaders: true,
        responses: [200, 201, 404, 422],
        auth: { scheme: 'bearer', scopes: ['orders:write', 'orders:read'] },
        meta: { owner: 'billing', rateLimit: 10 },
      },
    ]);
  });

  test('lists responses as numbers in ascending order', () => {
    const app = newApp();
    app.get('/s', { responses: { 500: {}, 404: {}, 100: {}, 204: {}, 201: {} } }, () => ({ status: 204 }));
    expect(app.introspect()[0]?.responses).toEqual([100, 201, 204, 404, 500]);
  });

  test('lists routes in registration order with full paths', () => {
    const app = newApp();
    app.get('/b', { responses: { 200: {} } }, () => ({ status: 200 }));
    app.group('/g', { tags: ['g'] }, (g) =>
      g.post('/a', { responses: { 201: {} } }, () => ({ status: 201 })),
    );
    app.delete('/c', { responses: { 204: {} } }, () => ({ status: 204 }));
    expect(app.introspect()).toEqual([
      {
        method: 'GET',
        path: '/b',
        hasBody: false,
        hasQuery: false,
        hasParams: false,
        hasHeaders: false,
        responses: [200],
      },
      {
        method: 'POST',
        path: '/g/a',
        tags: ['g'],
        hasBody: false,
        hasQuery: false,
        hasParams: false,
        hasHeaders: false,
        responses: [201],
      },
      {
        method: 'DELETE',
        path: '/c',
        hasBody: false,
        hasQuery: false,
        hasParams: false,
        hasHeaders: false,
        responses: [204],
      },
    ]);
  });

  test('does not list the HEAD route derived from a GET', () => {
    const app = newApp();
    app.get('/x', { responses: { 200: {} } }, () => ({ status: 200 }));
    expect(app.introspect().map((r) => r.method)).toEqual(['GET']);
  });

  test('returns copies that callers cannot use to change the app', () => {
    const app = newApp();
    app.get('/x', { tags: ['a'], responses: { 200: {} } }, () => ({ status: 200 }));
    const first = app.introspect();
    first[0]?.tags?.push('mutated');
    first[0]?.responses.push(999);
    expect(app.introspect()[0]?.tags).toEqual(['a']);
    expect(app.introspect()[0]?.responses).toEqual([200]);
  });
});

describe('route registration errors', () => {
  const ok = () => ({ status: 200 as const });

  test('throws when an operationId is used twice, naming it', () => {
    const app = newApp();
    app.get('/a', { operationId: 'getThing', responses: { 200: {} } }, ok);
    const error = thrown(() => app.get('/b', { operationId: 'getThing', responses: { 200: {} } }, ok));
    expect(error.message).toContain('getThing');
    expect(app.introspect().map((r) => r.path)).toEqual(['/a']);
  });

  test('throws for a malformed callback, naming the route, the callback and the expression', () => {
    const app = newApp();
    const callbacks = (operation: unknown) =>
      ({ jobDone: { '{$request.body#/url}': operation } }) as unknown as AnyRouteDefinition['callbacks'];
    expect(() =>
      app.post('/jobs', { responses: { 200: {} }, callbacks: callbacks({ method: 'POST' }) }, ok),
    ).toThrow(
      new TypeError(
        'Route POST /jobs callback jobDone: {$request.body#/url}: must declare method and responses ' +
          '(method: one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)',
      ),
    );
    expect(() =>
      app.post(
        '/jobs',
        { responses: { 200: {} }, callbacks: callbacks({ method: 'POST', responses: { 999: {} } }) },
        ok,
      ),
    ).toThrow(
      'Route POST /jobs callback jobDone: {$request.body#/url}: response status "999" must be an integer from 100 to 599',
    );
    expect(app.introspect()).toEqual([]);
    // A well-formed callback registers.
    app.post(
      '/jobs',
      { responses: { 200: {} }, callbacks: callbacks({ method: 'POST', responses: { 204: {} } }) },
      ok,
    );
    expect(app.introspect().map((r) => r.path)).toEqual(['/jobs']);
  });

  test('throws for an operationId reused across groups', () => {
    const app = newApp();
    app.group('/one', {}, (g) => g.get('/a', { operationId: 'dup', responses: { 200: {} } }, ok));
    expect(() =>
      app.group('/two', {}, (g) => g.get('/a', { operationId: 'dup', responses: { 200: {} } }, ok)),
    ).toThrow('dup');
  });

  test('throws for the same method and path registered twice', () => {
    const app = newApp();
    app.get('/a/:id', { responses: { 200: {} } }, ok);
    const error = thrown(() => app.get('/a/:id', { responses: { 200: {} } }, ok));
    expect(error).toBeInstanceOf(RouteDefinitionError);
    expect(error.message).toContain('/a/:id');
  });

  test('throws for the same shape with different parameter names', () => {
    const app = newApp();
    app.get('/a/:id', { responses: { 200: {} } }, ok);
    const error = thrown(() => app.get('/a/:name', { responses: { 200: {} } }, ok));
    expect(error).toBeInstanceOf(RouteDefinitionError);
    expect(error.message).toContain('/a/:name');
  });

  test('allows other methods on the same path', async () => {
    const app = newApp();
    app.get('/a/:id', { responses: { 200: {} } }, ok);
    app.post('/a/:id', { responses: { 201: {} } }, () => ({ status: 201 }));
    expect((await app.request('/a/1', { method: 'POST' })).status).toBe(201);
  });

  test('throws when responses is missing or empty', () => {
    const app = newApp();
    const missing = thrown(() =>
      app.route({ method: 'GET', path: '/a', handler: ok } as unknown as AnyRouteDefinition),
    );
    expect(missing.message).toContain('responses');
    const empty = thrown(() => app.route({ method: 'GET', path: '/a', responses: {}, handler: ok as never }));
    expect(empty.message).toContain('responses');
    expect(app.introspect()).toEqual([]);
  });

  for (const status of [99, 600, 0, 1000]) {
    test(`throws for a response status of ${status}, naming it`, () => {
      const error = thrown(() =>
        newApp().route({ method: 'GET', path: '/a', responses: { [status]: {} }, handler: ok }),
      );
      expect(error.message).toContain(String(status));
    });
  }

  test('accepts response statuses 100 and 599', () => {
    const app = newApp();
    app.get('/a', { responses: { 100: {}, 599: {} } }, () => ({ status: 599 }));
    expect(app.introspect()[0]?.responses).toEqual([100, 599]);
  });

  test('throws when the handler is not a function', () => {
    const error = thrown(() =>
      newApp().route({
        method: 'GET',
        path: '/a',
        responses: { 200: {} },
        handler: 'nope',
      } as unknown as AnyRouteDefinition),
    );
    expect(error.message).toContain('handler');
  });

  test('throws when request.body is not a Standard Schema', () => {
    const app = newApp();
    const error = thrown(() =>
      app.route({
        method: 'POST',
        path: '/a',
        request: { body: { type: 'object' } as never },
        responses: { 200: {} },
        handler: ok,
      }),
    );
    expect(error.message).toContain('request.body');
    expect(error.message).toContain('Standard Schema');
    expect(app.introspect()).toEqual([]);
  });

  for (const part of ['params', 'query', 'headers'] as const) {
    test(`throws when request.${part} is not a Standard Schema`, () => {
      expect(() =>
        newApp().route({
          method: 'GET',
          path: '/a',
          request: { [part]: { id: 'string' } as never },
          responses: { 200: {} },
          handler: ok,
        }),
      ).toThrow(`request.${part}`);
    });
  }

  test('throws when a response body is not a Standard Schema', () => {
    expect(() =>
      newApp().route({
        method: 'GET',
        path: '/a',
        responses: { 200: { body: 'string' as never } },
        handler: ok as never,
      }),
    ).toThrow('responses[200].body');
  });

  test('throws for an unknown hook name on a route', () => {
    expect(() =>
      newApp().get('/a', { hooks: { beforeHandler: () => {} } as never, responses: { 200: {} } }, ok),
    ).toThrow('beforeHandler');
  });

  for (const path of ['/a/:id(\\d+)', '/a//b', '/a/', '/a/../b', '/files/*', '/a/:', '/a/*rest/b']) {
    test(`throws RouteDefinitionError for the path ${path}`, () => {
      const error = thrown(() => newApp().get(path, { responses: { 200: {} } }, ok));
      expect(error).toBeInstanceOf(RouteDefinitionError);
      expect(error.message).toContain(JSON.stringify(path));
    });
  }
});
