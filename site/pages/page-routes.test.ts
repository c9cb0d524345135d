import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import LinkHeader from 'http-link-header';
import { PAGE_CSP, renderNotFoundDocument, renderPageDocument } from '../html/index.ts';
import { htmlPageRoutes } from './page-routes.ts';
import { TEST_ORIGIN, testSite } from './test-site.ts';

const content = testSite();
const server = new App({ logger: false });
server.registerRoutes(htmlPageRoutes({ content, origin: TEST_ORIGIN }));

const PAGE_CACHE = 'public, max-age=300, stale-while-revalidate=86400';
const markdownOf = (path: string) => content.byPath(path)!.markdown;
const htmlOf = (path: string) => renderPageDocument(content, content.byPath(path)!, { origin: TEST_ORIGIN });

function expectHtmlPage(response: Response, path: string): void {
  const page = content.byPath(path)!;
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
  expect(response.headers.get('vary')).toBe('Accept');
  expect(response.headers.get('cache-control')).toBe(PAGE_CACHE);
  expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  const alternate = LinkHeader.parse(response.headers.get('link') ?? '').rel('alternate');
  expect(alternate).toEqual([
    { uri: `${TEST_ORIGIN}${page.markdownUrl}`, rel: 'alternate', type: 'text/markdown' },
  ]);
}

function expectMarkdownPage(response: Response, path: string): void {
  const page = content.byPath(path)!;
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  expect(response.headers.get('vary')).toBe('Accept');
  expect(response.headers.get('cache-control')).toBe(PAGE_CACHE);
  expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  expect(response.headers.get('link')).toBe(`<${TEST_ORIGIN}${page.url}>; rel="canonical"`);
}

describe('pageRoutes: HTML at the canonical URLs', () => {
  test('serves every page as the rendered HTML document', async () => {
    for (const page of content.pages) {
      const response = await server.request(page.url);
      expectHtmlPage(response, page.path);
      expect(await response.text()).toBe(htmlOf(page.path));
    }
  });

  test('serves HTML to a browser Accept field and to a client that accepts neither type', async () => {
    for (const accept of [
      'text/html,application/xhtml+xml,*/*;q=0.8',
      '*/*',
      'application/json',
      'text/markdown;q=0',
    ]) {
      const response = await server.request('/docs/jwt', { headers: { accept } });
      expectHtmlPage(response, 'docs/jwt');
      await response.arrayBuffer();
    }
  });

  test('answers a matching If-None-Match with 304, keeping Vary, Link, CSP and caching', async () => {
    const first = await server.request('/docs/jwt');
    const etag = first.headers.get('etag')!;
    const response = await server.request('/docs/jwt', { headers: { 'if-none-match': `W/${etag}` } });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.headers.get('content-type')).toBeNull();
    for (const name of ['vary', 'link', 'cache-control', 'content-security-policy']) {
      expect(response.headers.get(name)).toBe(first.headers.get(name));
    }
    const stale = await server.request('/docs/jwt', { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
  });

  test('answers HEAD like GET, without content', async () => {
    const get = await server.request('/');
    const head = await server.request('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'etag', 'vary', 'cache-control', 'link', 'content-security-policy']) {
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    }
  });
});

describe('pageRoutes: the Markdown of a page (rule 3)', () => {
  test('serves the Markdown at the canonical URL plus .md', async () => {
    for (const page of content.pages) {
      const response = await server.request(page.markdownUrl);
      expectMarkdownPage(response, page.path);
      expect(await response.text()).toBe(markdownOf(page.path));
    }
  });

  test('serves the Markdown at the canonical URL under Accept: text/markdown, with its own ETag', async () => {
    for (const accept of [
      'text/markdown',
      'text/markdown, text/html;q=0.5',
      'text/*;q=0.1, text/markdown',
      '*/*, text/html;q=0',
    ]) {
      for (const page of content.pages) {
        const response = await server.request(page.url, { headers: { accept } });
        expectMarkdownPage(response, page.path);
        expect(await response.text()).toBe(markdownOf(page.path));
      }
    }
    const html = (await server.request('/docs/jwt')).headers.get('etag');
    const markdown = await server.request('/docs/jwt', { headers: { accept: 'text/markdown' } });
    expect(markdown.headers.get('etag')).not.toBe(html);
    expect(markdown.headers.get('etag')).toBe((await server.request('/docs/jwt.md')).headers.get('etag'));
  });

  test('revalidates each representation against its own tag', async () => {
    const md = (await server.request('/docs/jwt', { headers: { accept: 'text/markdown' } })).headers.get(
      'etag',
    )!;
    const asMarkdown = await server.request('/docs/jwt', {
      headers: { accept: 'text/markdown', 'if-none-match': md },
    });
    expect(asMarkdown.status).toBe(304);
    expect(asMarkdown.headers.get('link')).toBe(`<${TEST_ORIGIN}/docs/jwt>; rel="canonical"`);
    const asHtml = await server.request('/docs/jwt', { headers: { 'if-none-match': md } });
    expect(asHtml.status).toBe(200);
    expect(asHtml.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('pageRoutes: an unknown page', () => {
  test('answers the HTML not-found document to a client that accepts HTML', async () => {
    for (const accept of [undefined, 'text/html', '*/*']) {
      const response = await server.request(
        '/docs/nope',
        accept === undefined ? {} : { headers: { accept } },
      );
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(response.headers.get('vary')).toBe('Accept');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('etag')).toBeNull();
      expect(await response.text()).toBe(
        renderNotFoundDocument(content, { origin: TEST_ORIGIN, path: '/docs/nope' }),
      );
    }
  });

  test('answers the Markdown 404 to .md URLs, Markdown clients and clients that accept neither', async () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['/docs/nope.md', undefined, '/docs/nope.md'],
      ['/errors/nope', 'text/markdown', '/errors/nope'],
      ['/errors/nope', 'application/json', '/errors/nope'],
      ['/docs/index.md', 'text/html', '/docs/index.md'],
    ];
    for (const [url, accept, named] of cases) {
      const response = await server.request(url, accept === undefined ? {} : { headers: { accept } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(response.headers.get('vary')).toBe('Accept');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).not.toBe(PAGE_CSP);
      const body = await response.text();
      expect(body).toStartWith('# Page not found\n');
      expect(body).toContain(`\` ${named} \``);
      expect(body).toContain(`(${TEST_ORIGIN}/llms.txt)`);
    }
  });

  test('never serves a page for traversal attempts, encoded separators, controls or a trailing slash', async () => {
    const attempts = [
      '/docs/%2e%2e/index',
      '/docs/..%2findex.md',
      '/docs%2fjwt',
      '/docs/jwt%2f',
      '/docs/jwt/',
      '/docs/',
      '/docs/jwt%00',
      '/docs/jwt%0a.md',
      '/errors/../docs/../../etc/passwd',
      '/docs/.md',
      `/docs/${'a'.repeat(10_000)}.md`,
    ];
    for (const path of attempts) {
      const response = await server.request(path);
      expect([400, 404]).toContain(response.status);
      await response.arrayBuffer();
    }
  });
});

describe('pageRoutes: declarations', () => {
  test('every route has an operationId, a summary, tags, 200/304/404 and stays out of OpenAPI', () => {
    const routes = htmlPageRoutes({ content, origin: TEST_ORIGIN });
    const ids = routes.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // Each top-level page's path in PascalCase, between `get` and `Page`.
    expect(ids).toEqual(
      expect.arrayContaining(['getDocsPage', 'getDocsPageMarkdown', 'getIndexPage', 'getIndexPageMarkdown']),
    );
    expect(routes.map((route) => route.path).sort()).toEqual([
      '/',
      '/docs',
      '/docs.md',
      '/docs/*path',
      '/errors',
      '/errors.md',
      '/errors/*path',
      '/index.md',
    ]);
    for (const route of routes) {
      expect(route.operationId).toMatch(/^get[A-Z][A-Za-z0-9]*$/);
      expect(route.summary).toBeString();
      expect(route.tags!.length).toBeGreaterThan(0);
      expect(Object.keys(route.responses).sort()).toEqual(['200', '304', '404']);
      expect(route.openapi?.exclude).toBe(true);
    }
  });

  test('registers a section wildcard for docs and errors even when the content has no such pages', () => {
    const home = { ...content, pages: content.pages.filter((page) => page.path === 'index') };
    const paths = htmlPageRoutes({ content: home, origin: TEST_ORIGIN }).map((route) => route.path);
    expect(paths.sort()).toEqual(['/', '/docs/*path', '/errors/*path', '/index.md']);
  });
});

describe('pageRoutes with document templates (the compiled site)', () => {
  // A site whose index has a template: what the route answers must come from it, filled.
  const templated = {
    ...content,
    documentTemplate: (path: string) =>
      path === 'index' ? ['<!doctype html><p>', '/from-template</p>'] : undefined,
  };
  const app = new App({ logger: false });
  app.registerRoutes(htmlPageRoutes({ content: templated, origin: TEST_ORIGIN }));

  test('a page with a template answers the template joined with the origin', async () => {
    const response = await app.request('/', { headers: { accept: 'text/html' } });
    expectHtmlPage(response, 'index');
    expect(await response.text()).toBe(`<!doctype html><p>${TEST_ORIGIN}/from-template</p>`);
  });

  test('a page without one is rendered as in source form', async () => {
    const response = await app.request('/docs/jwt', { headers: { accept: 'text/html' } });
    expectHtmlPage(response, 'docs/jwt');
    expect(await response.text()).toBe(htmlOf('docs/jwt'));
  });
});
