import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import LinkHeader from 'http-link-header';
import { marked } from 'marked';
import { mdRoutes } from './md-routes.ts';
import { TEST_ORIGIN, testSite } from './test-site.ts';

const content = testSite();

function app(): App {
  const instance = new App({ logger: false });
  instance.registerRoutes(mdRoutes({ content, origin: TEST_ORIGIN }));
  return instance;
}

const server = app();

describe('mdRoutes: GET /md/{path}', () => {
  test('serves the page Markdown with its type, caching, Vary, ETag and canonical link', async () => {
    const response = await server.request('/md/docs/jwt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const links = LinkHeader.parse(response.headers.get('link') ?? '');
    expect(links.rel('canonical').map((l) => l.uri)).toEqual([`${TEST_ORIGIN}/docs/jwt`]);
    expect(response.headers.get('deprecation')).toBeNull();
    expect(await response.text()).toBe(content.byPath('docs/jwt')!.markdown);
  });

  test('serves the home page at /md/index and at the bare /md, and a section page at /md/docs', async () => {
    for (const [url, path, canonical] of [
      ['/md/index', 'index', '/'],
      ['/md', 'index', '/'],
      ['/md/docs', 'docs', '/docs'],
      ['/md/errors/not-found', 'errors/not-found', '/errors/not-found'],
    ] as const) {
      const response = await server.request(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(content.byPath(path)!.markdown);
      expect(response.headers.get('link')).toBe(`<${TEST_ORIGIN}${canonical}>; rel="canonical"`);
    }
  });

  test('gives different pages different ETags and the same page the same one', async () => {
    const a = (await server.request('/md/docs/jwt')).headers.get('etag');
    const b = (await server.request('/md/docs/jwk')).headers.get('etag');
    const again = (await server.request('/md/docs/jwt')).headers.get('etag');
    expect(a).not.toBe(b);
    expect(again).toBe(a);
  });

  test('answers a matching If-None-Match with 304 and no content (exact, weak, list, *)', async () => {
    const etag = (await server.request('/md/docs/jwt')).headers.get('etag')!;
    for (const condition of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const response = await server.request('/md/docs/jwt', { headers: { 'if-none-match': condition } });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('content-type')).toBeNull();
      expect(response.headers.get('vary')).toBe('Accept');
      expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
      expect(response.headers.get('link')).toBe(`<${TEST_ORIGIN}/docs/jwt>; rel="canonical"`);
    }
  });

  test('answers 200 when If-None-Match names other tags or is malformed', async () => {
    for (const condition of ['"other"', 'W/"other", "again"', 'garbage', '"unterminated']) {
      const response = await server.request('/md/docs/jwt', { headers: { 'if-none-match': condition } });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(content.byPath('docs/jwt')!.markdown);
    }
  });

  test('answers HEAD like GET, without content', async () => {
    const get = await server.request('/md/docs/jwt');
    const head = await server.request('/md/docs/jwt', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'etag', 'vary', 'cache-control', 'link']) {
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    }
  });
});

describe('mdRoutes: a missing page', () => {
  test('answers 404 Markdown naming the path, with the entry points and the closest pages', async () => {
    const response = await server.request('/md/docs/jwtt');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('etag')).toBeNull();
    const body = await response.text();
    expect(body.startsWith('# Page not found\n')).toBe(true);
    expect(body).toContain('There is no page at ` /md/docs/jwtt `.');
    expect(body).toContain(`(${TEST_ORIGIN}/llms.txt)`);
    expect(body).toContain(`(${TEST_ORIGIN}/md/index)`);
    expect(body).toContain(`(${TEST_ORIGIN}/api/v1)`);
    const closest = body.slice(body.indexOf('## Closest pages'));
    expect(closest.split('\n').filter((line) => line.startsWith('- ')).length).toBe(5);
    expect(closest).toContain(`- [JSON Web Tokens](${TEST_ORIGIN}/md/docs/jwt): Sign and verify JWTs.`);
    expect(closest.indexOf('/md/docs/jwt)')).toBeLessThan(closest.indexOf('/md/docs/jwk)'));
  });

  test('the bare /md answers 404 Markdown when the content has no home page', async () => {
    const empty = { ...content, pages: [], sections: [], byPath: () => undefined, byUrl: () => undefined };
    const bare = new App({ logger: false });
    bare.registerRoutes(mdRoutes({ content: empty, origin: TEST_ORIGIN }));
    const response = await bare.request('/md');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await response.text()).not.toContain('## Closest pages');
  });

  test('quotes a hostile path inertly: no link, autolink or HTML when the body is rendered', async () => {
    const hostile = [
      '/md/[x](javascript:alert(1))',
      '/md/%3Cscript%3Ealert(1)%3C-script%3E',
      '/md/%3Cimg%20src=x%20onerror=alert(1)%3E',
      '/md/a%60%60b%60',
      '/md/www.evil.example',
      '/md/%3Chttps:/evil.example%3E',
      '/md/x%5D(https:--evil.example)',
    ];
    for (const path of hostile) {
      const response = await server.request(path);
      expect(response.status).toBe(404);
      const body = await response.text();
      const named = body.split('\n')[2]!;
      const html = await marked.parse(named, { gfm: true });
      expect(html).not.toContain('<a');
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<img');
      expect(html).toContain('<code>');
    }
  });

  test('cuts a very long path to 256 characters, in bounded time', async () => {
    const long = 'a'.repeat(20_000);
    const started = performance.now();
    const response = await server.request(`/md/docs/${long}`);
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(body).toContain(`\` /md/docs/${'a'.repeat(256 - '/md/docs/'.length)}… \``);
    expect(body.length).toBeLessThan(2_000);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('mdRoutes: path safety', () => {
  test('traversal, encoded separators, control characters and trailing slashes never serve a page', async () => {
    const attempts = [
      '/md/../etc/passwd',
      '/md/%2e%2e/x',
      '/md/%2E%2E/%2E%2E/etc/passwd',
      '/md/docs/..%2fjwt',
      '/md/docs%2fjwt',
      '/md/docs%5Cjwt',
      '/md/docs/jwt/',
      '/md/',
      '/md/docs/jwt%00',
      '/md/docs%00/jwt',
      '/md/%0d%0aSet-Cookie:x=1',
      '/md/docs/jwt%7f',
      '/md/docs/jwt.md',
      '/md/DOCS/JWT',
      '/md/%ff',
      `/md/${'x/'.repeat(2_000)}y`,
    ];
    for (const path of attempts) {
      const response = await server.request(path);
      expect([400, 404]).toContain(response.status);
      await response.arrayBuffer();
    }
  });

  test('a dot segment resolved by the URL parser reaches the page it names, not another', async () => {
    const response = await server.request('/md/docs/jwk/../jwt');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(content.byPath('docs/jwt')!.markdown);
  });
});

describe('mdRoutes: declarations', () => {
  test('declares operationId, summary, the markdown tag and 200, 304 and 404 with their headers', () => {
    for (const route of mdRoutes({ content, origin: TEST_ORIGIN })) {
      expect(route.operationId).toMatch(/^get[A-Za-z]+$/);
      expect(route.summary).toBeString();
      expect(route.tags).toEqual(['markdown']);
      expect(Object.keys(route.responses).sort()).toEqual(['200', '304', '404']);
      expect(route.responses[200]!.contentType).toBe('text/markdown');
      expect(route.responses[404]!.contentType).toBe('text/markdown');
      expect(Object.keys(route.responses[200]!.headers!).sort()).toEqual([
        'Cache-Control',
        'ETag',
        'Link',
        'Vary',
      ]);
      expect(route.openapi).toBeUndefined();
    }
  });

  test('refuses an origin with a path or trailing slash, naming the option', () => {
    for (const origin of ['https://docs.example/', 'https://docs.example/x', 'docs.example', 'ftp://x']) {
      expect(() => mdRoutes({ content, origin })).toThrow('option "origin"');
    }
    expect(() => mdRoutes({ content: {} as never, origin: TEST_ORIGIN })).toThrow('option "content"');
  });
});
