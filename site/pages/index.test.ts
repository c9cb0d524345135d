import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { App } from '@charter/app';
import { buildContent } from '../content/build.ts';
import { readContentDir } from '../content/read-dir.ts';
import { SITE_ASSETS, STYLESHEET_URL } from '../html/index.ts';
import { assetRoute } from './assets.ts';
import { MARKDOWN_ROUTE_PATHS, markdownRoutes, pageRoutePaths, pageRoutes } from './index.ts';
import { TEST_ORIGIN, testSite } from './test-site.ts';

const content = testSite();

function site(): App {
  const app = new App({ logger: false, openapi: true });
  app.registerRoutes([
    ...pageRoutes({ content, origin: TEST_ORIGIN }),
    ...markdownRoutes({ content, origin: TEST_ORIGIN }),
  ]);
  return app;
}

const server = site();

describe('pageRoutes and markdownRoutes together', () => {
  test('register without conflicts, every route with a unique operationId, a summary and tags', () => {
    const routes = [
      ...pageRoutes({ content, origin: TEST_ORIGIN }),
      ...markdownRoutes({ content, origin: TEST_ORIGIN }),
    ];
    const ids = routes.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(routes.length);
    for (const route of routes) {
      expect(route.method).toBe('GET');
      expect(route.summary).toBeString();
      expect(route.tags!.every((tag) => tag === 'pages' || tag === 'markdown')).toBe(true);
      expect(route.responses[200]).toBeDefined();
      if (route.path === '/search') {
        // Answers depend on the query: no entity tag, no 404; a bad `q` is a 422 problem.
        expect(route.responses[422]).toBeDefined();
        continue;
      }
      expect(route.responses[304]).toBeDefined();
      // One document each, always there: no 404 to declare.
      if (route.path !== '/llms.txt' && route.path !== '/search/suggestions.json') {
        expect(route.responses[404]).toBeDefined();
      }
    }
  });

  test('the OpenAPI document describes /md, /docs-md (deprecated) and /llms.txt, not the HTML pages or assets', async () => {
    const document = (await (await server.request('/openapi.json')).json()) as {
      paths: Record<
        string,
        { get?: { deprecated?: boolean; operationId?: string; responses: Record<string, unknown> } }
      >;
    };
    const paths = Object.keys(document.paths).sort();
    expect(paths).toEqual(['/docs-md', '/docs-md/{path}', '/llms.txt', '/md', '/md/{path}']);
    expect(document.paths['/docs-md/{path}']!.get!.deprecated).toBe(true);
    expect(document.paths['/docs-md']!.get!.deprecated).toBe(true);
    expect(document.paths['/md/{path}']!.get!.deprecated).toBeUndefined();
    // The route's own answers; the generator adds the framework's (400, 408, 431...) beside them.
    expect(Object.keys(document.paths['/md/{path}']!.get!.responses)).toEqual(
      expect.arrayContaining(['200', '304', '404']),
    );
    const md200 = document.paths['/md/{path}']!.get!.responses['200'] as {
      content: Record<string, unknown>;
      headers: Record<string, unknown>;
    };
    expect(Object.keys(md200.content)).toEqual(['text/markdown']);
    expect(Object.keys(md200.headers).sort()).toEqual(['Cache-Control', 'ETag', 'Link', 'Vary']);
  });

  test('HEAD is derived from GET on every kind of route', async () => {
    for (const path of [
      '/',
      '/docs/jwt',
      '/docs/jwt.md',
      '/md/docs/jwt',
      '/docs-md/jwt',
      '/llms.txt',
      STYLESHEET_URL,
    ]) {
      const get = await server.request(path);
      const head = await server.request(path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    }
  });
});

describe('GET /assets/*name', () => {
  test('serves an asset with its type, its ETag and a year of immutable caching', async () => {
    const asset = SITE_ASSETS.get(STYLESHEET_URL)!;
    const response = await server.request(STYLESHEET_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(asset.contentType);
    expect(response.headers.get('etag')).toBe(asset.etag);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('vary')).toBeNull();
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([...asset.body]);
  });

  test('answers If-None-Match with 304 without a content type', async () => {
    const asset = SITE_ASSETS.get(STYLESHEET_URL)!;
    const response = await server.request(STYLESHEET_URL, { headers: { 'if-none-match': asset.etag } });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(asset.etag);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toBeNull();
    expect(await response.text()).toBe('');
  });

  test('answers an unknown asset with a not_found problem carrying a hint', async () => {
    for (const path of ['/assets/site.00000000.css', '/assets/nope/deeper.js', '/assets/..%2Fsite.css']) {
      const response = await server.request(path);
      expect([400, 404]).toContain(response.status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const problem = (await response.json()) as Record<string, unknown>;
      if (response.status === 404) {
        expect(problem.code).toBe('not_found');
        expect(problem.hint).toBeString();
        expect(problem.type).toBe('https://charter.dev/errors/not-found');
      }
    }
  });

  test('serves exactly the assets it is given', async () => {
    const app = new App({ logger: false });
    const body = new TextEncoder().encode('x');
    app.registerRoutes([
      assetRoute(new Map([['/assets/a.1.txt', { body, contentType: 'text/plain', etag: '"1"' }]])),
    ]);
    expect((await app.request('/assets/a.1.txt')).status).toBe(200);
    expect((await app.request(STYLESHEET_URL)).status).toBe(404);
  });
});

describe('the real content/', () => {
  test('every page answers 200 as HTML and as Markdown in all three ways', async () => {
    const real = buildContent(await readContentDir(join(import.meta.dir, '..', '..', 'content')));
    const app = new App({ logger: false });
    app.registerRoutes([
      ...pageRoutes({ content: real, origin: TEST_ORIGIN }),
      ...markdownRoutes({ content: real, origin: TEST_ORIGIN }),
    ]);
    expect(real.pages.length).toBeGreaterThan(1);
    for (const page of real.pages) {
      const html = await app.request(page.url);
      expect([page.url, html.status, html.headers.get('content-type')]).toEqual([
        page.url,
        200,
        'text/html; charset=utf-8',
      ]);
      await html.arrayBuffer();
      for (const [url, init] of [
        [page.markdownUrl, {}],
        [`/md/${page.path}`, {}],
        [page.url, { headers: { accept: 'text/markdown' } }],
      ] as const) {
        const response = await app.request(url, init);
        expect([url, response.status, response.headers.get('content-type')]).toEqual([
          url,
          200,
          'text/markdown; charset=utf-8',
        ]);
        expect(await response.text()).toBe(page.markdown);
      }
      if (page.section === 'docs') {
        const legacy = await app.request(
          page.path === 'docs' ? '/docs-md' : `/docs-md/${page.path.slice(5)}`,
        );
        expect(legacy.status).toBe(200);
        expect(await legacy.text()).toBe(page.markdown);
      }
    }
    const llms = await (await app.request('/llms.txt')).text();
    for (const page of real.pages) expect(llms).toContain(`(${TEST_ORIGIN}${page.markdownUrl})`);
  });
});

describe('the route paths known before the routes are built (createSite builds them on first use)', () => {
  test.each([
    ['the test site', async () => content],
    [
      'the real content/',
      async () => buildContent(await readContentDir(join(import.meta.dir, '..', '..', 'content'))),
    ],
  ] as const)(
    '%s: pageRoutePaths and MARKDOWN_ROUTE_PATHS list the paths of the routes, in order',
    async (_name, load) => {
      const site = await load();
      const paths = pageRoutePaths(site);
      expect(pageRoutes({ content: site, origin: TEST_ORIGIN }).map((route) => route.path)).toEqual(paths);
      expect(paths).toContain('/');
      expect(paths).toContain('/search');
      expect(markdownRoutes({ content: site, origin: TEST_ORIGIN }).map((route) => route.path)).toEqual([
        ...MARKDOWN_ROUTE_PATHS,
      ]);
    },
  );

  test('with `only`, pageRoutes builds just the routes at those paths, in its order, and they answer', async () => {
    const only = new Set(['/search', '/docs/*path', '/']);
    const routes = pageRoutes({ content, origin: TEST_ORIGIN }, only);
    expect(routes.map((route) => route.path)).toEqual(['/', '/docs/*path', '/search']);
    expect(pageRoutes({ content, origin: TEST_ORIGIN }, new Set())).toEqual([]);
    const app = new App({ logger: false });
    app.registerRoutes(routes);
    const home = await app.request('/');
    expect(home.status).toBe(200);
    expect(await home.text()).toBe(await (await server.request('/')).text());
    expect((await app.request('/docs/jwt')).status).toBe((await server.request('/docs/jwt')).status);
    // Not built, so not routed: the Markdown URL of the home page.
    expect((await app.request('/index.md')).status).toBe(404);
  });
});
