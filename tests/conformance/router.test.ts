import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { type } from 'arktype';
import { expectJson } from './support/json.ts';
import { expectProblem } from './support/problem.ts';

const Echo = type({ route: 'string', params: 'Record<string, string>' });

function appWithRoutes(): App {
  const app = new App({ logger: false });
  const echo = (route: string) => (ctx: { params: Record<string, string> }) => ({
    status: 200 as const,
    body: { route, params: { ...ctx.params } },
  });
  app.get('/', { responses: { 200: { body: Echo } } }, echo('root'));
  app.get('/users', { responses: { 200: { body: Echo } } }, echo('users'));
  app.get('/users/me', { responses: { 200: { body: Echo } } }, echo('me'));
  app.get('/users/:id', { responses: { 200: { body: Echo } } }, echo('user'));
  app.get('/users/:id/posts/:postId', { responses: { 200: { body: Echo } } }, echo('post'));
  app.get('/files/*path', { responses: { 200: { body: Echo } } }, echo('files'));
  app.post('/users', { responses: { 201: { body: Echo } } }, (ctx) => ({
    status: 201,
    body: { route: 'create', params: { ...(ctx.params as Record<string, string>) } },
  }));
  app.delete('/users/:id', { responses: { 204: {} } }, () => ({ status: 204 }));
  return app;
}

const expectRoute = (res: Response, route: string, params: Record<string, string>, status = 200) =>
  expectJson(res, status, { route, params });

/** A Request whose `url` is reported verbatim, as an adapter that does not normalise paths would pass it. */
function rawPathRequest(path: string, method = 'GET'): Request {
  const request = new Request('http://charter.local/placeholder', { method });
  Object.defineProperty(request, 'url', { value: `http://charter.local${path}` });
  return request;
}

describe('router: matching', () => {
  test('matches the root path', async () => {
    await expectRoute(await appWithRoutes().request('/'), 'root', {});
  });

  test('matches a static path', async () => {
    await expectRoute(await appWithRoutes().request('/users'), 'users', {});
  });

  test('prefers a static segment over a parameter', async () => {
    await expectRoute(await appWithRoutes().request('/users/me'), 'me', {});
  });

  test('captures a :name parameter as a string', async () => {
    await expectRoute(await appWithRoutes().request('/users/42'), 'user', { id: '42' });
  });

  test('captures several parameters', async () => {
    await expectRoute(await appWithRoutes().request('/users/a/posts/b'), 'post', { id: 'a', postId: 'b' });
  });

  test('decodes percent-encoded parameter values', async () => {
    await expectRoute(await appWithRoutes().request('/users/J%C3%BCrgen%20K'), 'user', { id: 'Jürgen K' });
  });

  test('a *name wildcard captures the rest of the path, slashes included', async () => {
    await expectRoute(await appWithRoutes().request('/files/a/b/c.txt'), 'files', { path: 'a/b/c.txt' });
    await expectRoute(await appWithRoutes().request('/files/one'), 'files', { path: 'one' });
  });

  test('a wildcard needs at least one segment', async () => {
    await expectProblem(await appWithRoutes().request('/files'), 404, 'not-found');
  });

  test('the query string does not affect matching', async () => {
    await expectRoute(await appWithRoutes().request('/users/7?x=1&y=2'), 'user', { id: '7' });
  });

  test('a trailing slash does not match the route without it', async () => {
    await expectProblem(await appWithRoutes().request('/users/'), 404, 'not-found');
  });

  test('matches method by exact name', async () => {
    await expectRoute(await appWithRoutes().request('/users', { method: 'POST' }), 'create', {}, 201);
  });

  test('serves 1,000 registered routes, each resolving to its own handler', async () => {
    const app = new App({ logger: false });
    for (let i = 0; i < 1000; i++) {
      const path = i % 2 === 0 ? `/r${i}/static` : `/r${i}/:id`;
      app.get(path, { responses: { 200: { body: type({ i: 'number', id: 'string' }) } } }, (ctx) => ({
        status: 200,
        body: { i, id: (ctx.params as Record<string, string>).id ?? '' },
      }));
    }
    expect(app.introspect()).toHaveLength(1000);
    for (let i = 0; i < 1000; i++) {
      const res = await app.request(i % 2 === 0 ? `/r${i}/static` : `/r${i}/v${i}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ i, id: i % 2 === 0 ? '' : `v${i}` });
    }
    await expectProblem(await app.request('/r1000/static'), 404, 'not-found');
  });
});

describe('router: hostile paths', () => {
  test('answers 400 for a ".." segment that reaches the app', async () => {
    const app = appWithRoutes();
    const body = await expectProblem(await app.fetch(rawPathRequest('/users/../users')), 400, 'bad-request');
    expect(String(body.detail)).toContain('dot segment');
  });

  test('answers 400 for a percent-encoded %2e%2e segment that reaches the app', async () => {
    const app = appWithRoutes();
    await expectProblem(await app.fetch(rawPathRequest('/users/%2e%2e')), 400, 'bad-request');
    await expectProblem(await app.fetch(rawPathRequest('/users/%2E%2E/x')), 400, 'bad-request');
    await expectProblem(await app.fetch(rawPathRequest('/files/.%2e/etc')), 400, 'bad-request');
  });

  test('".." and "%2e%2e" in a fetch URL are resolved by the URL parser and never reach a parameter', async () => {
    const app = appWithRoutes();
    await expectRoute(await app.request('/users/x/../me'), 'me', {});
    await expectRoute(await app.request('/users/x/%2e%2e/me'), 'me', {});
    await expectRoute(await app.request('/files/%2e%2e'), 'root', {});
  });

  test('answers 400 for an encoded slash %2f in a segment', async () => {
    const app = appWithRoutes();
    const body = await expectProblem(await app.request('/users/a%2fb'), 400, 'bad-request');
    expect(String(body.detail)).toContain('%2F');
    await expectProblem(await app.request('/files/a%2Fb'), 400, 'bad-request');
    await expectProblem(await app.request('/users/a%5cb'), 400, 'bad-request');
  });

  test('answers 400 for an empty segment "//"', async () => {
    const app = appWithRoutes();
    await expectProblem(await app.request('/users//42'), 400, 'bad-request');
    await expectProblem(await app.request('//users'), 400, 'bad-request');
  });

  test('answers 400 for malformed percent-encoding', async () => {
    await expectProblem(await appWithRoutes().request('/users/%zz'), 400, 'bad-request');
  });

  test('answers 400 for an encoded control character', async () => {
    await expectProblem(await appWithRoutes().request('/users/a%00b'), 400, 'bad-request');
  });
});

describe('router: HEAD', () => {
  test('HEAD is served by the GET route with the same status and headers and no body', async () => {
    const app = new App({ logger: false });
    let calls = 0;
    app.get('/doc/:id', { responses: { 200: { body: type({ id: 'string' }) } } }, (ctx) => {
      calls++;
      return {
        status: 200,
        body: { id: ctx.params.id },
        headers: { etag: '"v1"', 'x-calls': String(calls) },
      };
    });
    const get = await app.request('/doc/5');
    const getBody = await get.text();
    const head = await app.request('/doc/5', { method: 'HEAD' });
    expect(get.status).toBe(200);
    expect(getBody).toBe('{"id":"5"}');
    expect(head.status).toBe(get.status);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('etag')).toBe('"v1"');
    expect(head.headers.get('x-calls')).toBe('2');
    expect(await head.text()).toBe('');
    expect(head.body).toBeNull();
  });

  test('HEAD keeps the GET status for a non-200 answer', async () => {
    const app = new App({ logger: false });
    app.get('/gone', { responses: { 404: { body: type('string') } } }, () => ({ status: 404, body: 'gone' }));
    const res = await app.request('/gone', { method: 'HEAD' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  test('an explicit HEAD route overrides the one derived from GET', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'get' }));
    app.head('/x', { responses: { 204: {} } }, () => ({ status: 204, headers: { 'x-from': 'head' } }));
    const head = await app.request('/x', { method: 'HEAD' });
    expect(head.status).toBe(204);
    expect(head.headers.get('x-from')).toBe('head');
    expect(await head.text()).toBe('');
    const get = await app.request('/x');
    expect(get.status).toBe(200);
    expect(get.headers.get('x-from')).toBeNull();
    expect(await get.text()).toBe('get');
  });

  test('an explicit HEAD registered before GET is kept', async () => {
    const app = new App({ logger: false });
    app.head('/x', { responses: { 204: {} } }, () => ({ status: 204, headers: { 'x-from': 'head' } }));
    app.get('/x', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'get' }));
    const head = await app.request('/x', { method: 'HEAD' });
    expect(head.status).toBe(204);
    expect(head.headers.get('x-from')).toBe('head');
    expect(await head.text()).toBe('');
  });

  test('HEAD of a 404 is a bodiless 404 with the problem headers', async () => {
    const res = await appWithRoutes().request('/nowhere', { method: 'HEAD' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.text()).toBe('');
  });
});

describe('router: 404 and 405', () => {
  test('an unknown path gives a 404 problem document', async () => {
    const res = await appWithRoutes().request('/nowhere');
    const body = await expectProblem(res, 404, 'not-found');
    expect(body.title).toBe('Not Found');
    expect(String(body.detail)).toContain('/nowhere');
  });

  test('a known path with another method gives 405 with Allow listing the methods, GET implying HEAD', async () => {
    const res = await appWithRoutes().request('/users', { method: 'PUT' });
    const body = await expectProblem(res, 405, 'method-not-allowed');
    expect(body.title).toBe('Method Not Allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  test('Allow on a parameter route lists its methods', async () => {
    const res = await appWithRoutes().request('/users/3', { method: 'PATCH' });
    await expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD');
  });

  test('a POST-only path does not allow HEAD', async () => {
    const app = new App({ logger: false });
    app.post('/only', { responses: { 201: {} } }, () => ({ status: 201 }));
    const res = await app.request('/only', { method: 'HEAD' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.text()).toBe('');
    const get = await app.request('/only');
    await expectProblem(get, 405, 'method-not-allowed');
    expect(get.headers.get('allow')).toBe('POST');
  });

  test('an app with no routes answers 404', async () => {
    await expectProblem(await new App({ logger: false }).request('/'), 404, 'not-found');
  });
});
