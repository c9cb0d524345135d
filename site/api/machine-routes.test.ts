/**
 * `createSite` registers the home page at once, the other pages and the machine routes
 * (`machine-routes.ts`) with the first request that may need them: these tests pin that the split is
 * invisible from outside.
 */
import { describe, expect, test } from 'bun:test';
import type { App } from '@charter/core';
import { createSite } from '../app.ts';
import { TEST_ORIGIN, testSite } from '../pages/test-site.ts';

const content = testSite();

function site(): App {
  return createSite({
    origin: TEST_ORIGIN,
    content,
    tokenKey: new Uint8Array(32).fill(7),
    logger: false,
    now: () => 1_800_000_000_000,
  });
}

const routeKeys = (app: App) => app.registeredRoutes().map((route) => `${route.method} ${route.path}`);
const hasMachineRoutes = (app: App) => routeKeys(app).includes('POST /mcp');

const preflight = (path: string): [string, RequestInit] => [
  path,
  {
    method: 'OPTIONS',
    headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
  },
];

/** A spread of requests over every surface: pages, Markdown, machine routes, refusals. */
const REQUESTS: [string, RequestInit?][] = [
  ['/'],
  ['/docs/jwt'],
  ['/docs/jwt', { headers: { accept: 'text/markdown' } }],
  ['/docs/jwt.md'],
  ['/docs/nope', { headers: { accept: 'text/html' } }],
  ['/md/docs/jwt'],
  ['/md/docs/jwtt'],
  ['/docs-md/jwt'],
  ['/llms.txt'],
  ['/openapi.json'],
  ['/api/v1'],
  ['/api'],
  ['/.well-known/api-catalog'],
  ['/.well-known/mcp/server-card.json'],
  ['/.well-known/oauth-protected-resource/mcp'],
  ['/nope'],
  ['/nope.md'],
  ['/', { method: 'POST' }],
  ['/docs', { headers: { authorization: 'Bearer nope' } }],
  preflight('/llms.txt'),
  preflight('/api/v1'),
  ['/mcp'],
  [
    '/mcp',
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_docs', arguments: { query: 'keys' } },
      }),
    },
  ],
];

/** Everything of an answer but the fields that depend on the time. */
async function answer(app: App, [path, init]: [string, RequestInit?]) {
  const response = await app.request(path, init);
  const headers = [...response.headers].filter(
    ([name]) => !['date', 'ratelimit', 'ratelimit-reset'].includes(name),
  );
  return {
    request: `${init?.method ?? 'GET'} ${path}`,
    status: response.status,
    headers,
    body: await response.text(),
  };
}

describe('createSite: the machine routes come with the first request that may need them', () => {
  test('at first only the home page is registered', () => {
    const app = site();
    expect(hasMachineRoutes(app)).toBe(false);
    expect(routeKeys(app)).toEqual(['GET /']);
  });

  test.each([
    ['GET /llms.txt', '/llms.txt', undefined],
    ['GET /md/docs/jwt', '/md/docs/jwt', undefined],
    ['HEAD /docs-md/jwt', '/docs-md/jwt', { method: 'HEAD' }],
  ] as const)(
    '%s registers the Markdown surfaces (not the machine routes) and is answered by them',
    async (_name, path, init) => {
      const app = site();
      const response = await app.request(path, init as RequestInit | undefined);
      expect(response.status).toBe(200);
      expect(routeKeys(app)).toContain('GET /llms.txt');
      expect(routeKeys(app)).toContain('GET /md/*path');
      expect(routeKeys(app)).toContain('GET /docs-md/*path');
      expect(hasMachineRoutes(app)).toBe(false);
    },
  );

  test('another method on a Markdown surface is answered 405 with Allow, as when all were registered', async () => {
    const first = site();
    const refused = await first.request('/llms.txt', { method: 'POST' });
    const loaded = site();
    await loaded.request('/api/v1');
    const refusedLater = await loaded.request('/llms.txt', { method: 'POST' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe(refusedLater.headers.get('allow'));
    expect(await refused.text()).toBe(await refusedLater.text());
  });

  test('GET and HEAD of the pages, their Markdown and assets do not load them', async () => {
    const app = site();
    const css = (await (await app.request('/')).text()).match(/href="(\/assets\/site\.[0-9a-f]+\.css)"/)?.[1];
    expect(css).toBeDefined();
    for (const path of [
      '/',
      '/docs',
      '/docs/jwt',
      '/docs/jwt.md',
      '/docs/nope',
      '/md',
      '/md/docs/jwt',
      '/docs-md/jwt',
      '/llms.txt',
      css!,
    ]) {
      expect((await app.request(path)).status).toBeLessThan(500);
      await app.request(path, { method: 'HEAD' });
    }
    expect(hasMachineRoutes(app)).toBe(false);
  });

  test.each([
    ['GET /api/v1', '/api/v1', undefined],
    ['GET of an unknown path', '/nope', undefined],
    ['POST to a page', '/', { method: 'POST' }],
    ['a preflight of a page', ...preflight('/llms.txt')],
  ] as const)('%s loads them, and is answered among them', async (_name, path, init) => {
    const app = site();
    await app.request(path, init as RequestInit | undefined);
    expect(hasMachineRoutes(app)).toBe(true);
  });

  test('then every route is registered, in the order of the routes at start-up plus the machine routes', async () => {
    const app = site();
    const pages = routeKeys(app);
    expect((await app.request('/api/v1')).status).toBe(200);
    const all = routeKeys(app);
    expect(all.slice(0, pages.length)).toEqual(pages);
    for (const key of [
      'GET /api/v1',
      'GET /api',
      'GET /openapi.json',
      'GET /.well-known/api-catalog',
      'POST /oauth/token',
      'POST /mcp',
    ]) {
      expect(all).toContain(key);
    }
  });

  test('answers are the same whether the machine routes were loaded first or last', async () => {
    const early = site();
    await early.request('/nope');
    const late = site();
    const lateAnswers = [];
    for (const request of REQUESTS) lateAnswers.push(await answer(late, request));
    const earlyAnswers = [];
    for (const request of REQUESTS) earlyAnswers.push(await answer(early, request));
    // The early site answered one request more: its quota counters are one ahead.
    const remaining = (a: { headers: [string, string][] }[]) =>
      a.map((x) => ({ ...x, headers: x.headers.filter(([name]) => name !== 'ratelimit-remaining') }));
    expect(remaining(lateAnswers)).toEqual(remaining(earlyAnswers));
    expect(lateAnswers.find((a) => a.request === 'GET /openapi.json')?.status).toBe(200);
  });

  test('the Markdown routes declared at start-up share the HeaderText component in the OpenAPI document', async () => {
    const document = (await (await site().request('/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { headers: Record<string, { schema: unknown }> }> }>
      >;
      components: { schemas: Record<string, unknown> };
    };
    const ok = document.paths['/md/{path}']!.get!.responses['200']!.headers;
    expect(ok.ETag!.schema).toEqual({ $ref: '#/components/schemas/HeaderText' });
    expect(ok['RateLimit-Limit']!.schema).toEqual({ $ref: '#/components/schemas/HeaderInteger' });
    expect(document.paths['/llms.txt']!.get!.responses['200']!.headers.ETag!.schema).toEqual({
      $ref: '#/components/schemas/HeaderText',
    });
  });
});

/** Every page route, in the order `pageRoutes` lists them (the test site's). */
const PAGE_ROUTES = [
  'GET /',
  'GET /index.md',
  'GET /docs',
  'GET /docs.md',
  'GET /errors',
  'GET /errors.md',
  'GET /docs/*path',
  'GET /errors/*path',
  'GET /search',
  'GET /search/suggestions.json',
  'GET /assets/*name',
];

describe('createSite: the pages other than the home page come with their first request', () => {
  /** A site whose every route is registered (an unknown path loads them all), to compare answers with. */
  async function loadedSite(): Promise<App> {
    const app = site();
    await app.request('/nope');
    return app;
  }

  test.each([
    ['GET', '/docs'],
    ['HEAD', '/docs'],
    ['GET', '/errors.md'],
    ['GET', '/search'],
  ])(
    '%s %s registers only the routes of that URL, and is answered as by the whole site',
    async (method, path) => {
      const app = site();
      const response = await answer(app, [path, { method }]);
      expect(routeKeys(app)).toEqual(['GET /', `GET ${path}`]);
      expect(hasMachineRoutes(app)).toBe(false);
      expect(response.status).toBe(200);
      expect(response).toEqual(await answer(await loadedSite(), [path, { method }]));
    },
  );

  test('a query string is not part of the path: GET /docs?x=1 registers only /docs', async () => {
    const app = site();
    const response = await answer(app, ['/docs?x=1']);
    expect(routeKeys(app)).toEqual(['GET /', 'GET /docs']);
    expect(response).toEqual(await answer(await loadedSite(), ['/docs?x=1']));
  });

  test('GET / registers nothing more', async () => {
    const app = site();
    expect((await app.request('/')).status).toBe(200);
    expect((await app.request('/?q=1', { method: 'HEAD' })).status).toBe(200);
    expect(routeKeys(app)).toEqual(['GET /']);
  });

  test.each([
    ['a page under a section', '/docs/jwt', undefined],
    ['an escaped fixed URL', '/%64ocs', undefined],
    ['a trailing slash', '/docs/', undefined],
    ['an asset', '/assets/nope.css', undefined],
    ['another method on a fixed URL', '/docs', { method: 'POST' }],
    ['an OPTIONS of the home page', '/', { method: 'OPTIONS' }],
  ] as const)(
    '%s registers every page route, in the order pageRoutes lists them',
    async (_name, path, init) => {
      const app = site();
      const response = await answer(app, [path, init as RequestInit | undefined]);
      expect(routeKeys(app).slice(0, PAGE_ROUTES.length)).toEqual(PAGE_ROUTES);
      expect(response).toEqual(await answer(await loadedSite(), [path, init as RequestInit | undefined]));
    },
  );

  test('a page registered alone stays where it is when the others come', async () => {
    const app = site();
    await app.request('/errors');
    await app.request('/docs/jwt');
    expect(routeKeys(app).slice(0, PAGE_ROUTES.length)).toEqual([
      'GET /',
      'GET /errors',
      ...PAGE_ROUTES.filter((key) => key !== 'GET /' && key !== 'GET /errors'),
    ]);
    // Then the fixed URLs answer as before, and nothing is registered twice.
    expect((await app.request('/errors')).status).toBe(200);
    expect(new Set(routeKeys(app)).size).toBe(routeKeys(app).length);
  });
});
