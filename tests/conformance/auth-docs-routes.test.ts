/**
 * App-wide authentication covers the routes the `openapi` and `docs` options add (issue 19): with
 * `app.use(bearer(...))`, `/openapi.json`, `/openapi.yaml` and `/docs` answer 401 like every route.
 * The authentication guide says so and shows how to publish them: `except([...paths], bearer(...))`.
 * Both are checked here: locked by default, public with the exemption while the API stays locked.
 */
import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { bearer, except } from '@charter/core';

const DOC_PATHS = ['/openapi.json', '/openapi.yaml', '/docs'] as const;
const verify = (token: string) => (token === 'tok_1' ? { sub: 'ada' } : false);

function appWith(useExempt: boolean): App {
  const app = new App({ docs: true, logger: false });
  app.use(useExempt ? except([...DOC_PATHS], bearer({ verify })) : bearer({ verify }));
  app.get('/notes', { responses: { 200: {} } }, () => ({ status: 200 }));
  return app;
}

describe('app.use(bearer(...)) and the documentation routes', () => {
  test('locks /openapi.json, /openapi.yaml and /docs with the API (401 with the Bearer challenge)', async () => {
    const app = appWith(false);
    for (const path of [...DOC_PATHS, '/notes']) {
      const response = await app.request(path);
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
      expect(response.headers.get('www-authenticate')).toStartWith('Bearer realm="api"');
    }
    const authorized = await app.request('/openapi.json', { headers: { authorization: 'Bearer tok_1' } });
    expect(authorized.status).toBe(200);
  });

  test('except([...doc paths], bearer(...)) publishes them; the API still needs a token', async () => {
    const app = appWith(true);
    for (const path of DOC_PATHS) {
      const response = await app.request(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
    expect((await app.request('/openapi.json')).headers.get('content-type')).toStartWith('application/json');
    expect((await app.request('/notes')).status).toBe(401);
    expect((await app.request('/notes', { headers: { authorization: 'Bearer tok_1' } })).status).toBe(200);
    // Another spelling is not exempt: the guard runs, and the router has nothing there anyway.
    expect((await app.request('/OpenAPI.json')).status).not.toBe(200);
  });
});
