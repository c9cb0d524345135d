import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import LinkHeader from 'http-link-header';
import { parseItem } from 'structured-headers';
import { DOCS_MD_DEPRECATED_AT, DOCS_MD_DEPRECATION, docsMdRoutes } from './docs-md.ts';
import { mdRoutes } from './md-routes.ts';
import { TEST_ORIGIN, testSite } from './test-site.ts';

const content = testSite();
const server = new App({ logger: false });
server.registerRoutes([
  ...mdRoutes({ content, origin: TEST_ORIGIN }),
  ...docsMdRoutes({ content, origin: TEST_ORIGIN }),
]);

/** The deprecation signals every /docs-md answer carries, checked with independent parsers. */
function expectDeprecated(response: Response, successorPath: string): void {
  const deprecation = response.headers.get('deprecation');
  expect(deprecation).toBe(DOCS_MD_DEPRECATION);
  // RFC 9745 §2.1: an RFC 9651 Date item.
  const [date] = parseItem(deprecation!) as unknown as [Date];
  expect(date).toBeInstanceOf(Date);
  expect(date.toISOString()).toBe(`${DOCS_MD_DEPRECATED_AT}T00:00:00.000Z`);
  expect(response.headers.get('sunset')).toBeNull();
  const links = LinkHeader.parse(response.headers.get('link') ?? '');
  expect(links.rel('deprecation').map((l) => l.uri)).toEqual([`${TEST_ORIGIN}/docs/versioning`]);
  expect(links.rel('successor-version').map((l) => l.uri)).toEqual([`${TEST_ORIGIN}${successorPath}`]);
  expect(links.rel('latest-version').map((l) => l.uri)).toEqual([`${TEST_ORIGIN}${successorPath}`]);
}

describe('docsMdRoutes', () => {
  test('DOCS_MD_DEPRECATION is the sf-date of DOCS_MD_DEPRECATED_AT', () => {
    expect(DOCS_MD_DEPRECATED_AT).toBe('2026-06-01');
    expect(DOCS_MD_DEPRECATION).toBe('@1780272000');
  });

  test('serves exactly what /md/docs/{path} serves, marked deprecated with its successor', async () => {
    const legacy = await server.request('/docs-md/jwt');
    const current = await server.request('/md/docs/jwt');
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(legacy.headers.get('vary')).toBe('Accept');
    expect(legacy.headers.get('cache-control')).toBe(current.headers.get('cache-control'));
    expect(legacy.headers.get('etag')).toBe(current.headers.get('etag'));
    expect(await legacy.text()).toBe(await current.text());
    expectDeprecated(legacy, '/md/docs/jwt');
    const links = LinkHeader.parse(legacy.headers.get('link')!);
    expect(links.rel('canonical').map((l) => l.uri)).toEqual([`${TEST_ORIGIN}/docs/jwt`]);
    expect(current.headers.get('deprecation')).toBeNull();
  });

  test('the bare /docs-md serves the docs section page, succeeded by /md/docs', async () => {
    const response = await server.request('/docs-md');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(content.byPath('docs')!.markdown);
    expectDeprecated(response, '/md/docs');
  });

  test('answers a missing page with the Markdown 404 and the same deprecation headers', async () => {
    const response = await server.request('/docs-md/nope');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const body = await response.text();
    expect(body).toContain('` /docs-md/nope `');
    expect(body).toContain(`(${TEST_ORIGIN}/llms.txt)`);
    expectDeprecated(response, '/md/docs/nope');
  });

  test('the bare /docs-md is a Markdown 404 with the deprecation headers when there is no docs page', async () => {
    const bare = new App({ logger: false });
    const onlyHome = { ...content, pages: content.pages.filter((p) => p.section !== 'docs') };
    bare.registerRoutes(docsMdRoutes({ content: onlyHome, origin: TEST_ORIGIN }));
    const response = await bare.request('/docs-md');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expectDeprecated(response, '/md/docs');
  });

  test('keeps the deprecation headers on 304 and on HEAD', async () => {
    const etag = (await server.request('/docs-md/jwt')).headers.get('etag')!;
    const revalidated = await server.request('/docs-md/jwt', { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('content-type')).toBeNull();
    expectDeprecated(revalidated, '/md/docs/jwt');
    const head = await server.request('/docs-md/jwt', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expectDeprecated(head, '/md/docs/jwt');
  });

  test('percent-encodes the requested path inside the Link targets', async () => {
    const response = await server.request('/docs-md/a%3Eb%3B%20rel=%22x%22');
    expect(response.status).toBe(404);
    const link = response.headers.get('link')!;
    expect(link).toContain(`<${TEST_ORIGIN}/md/docs/a%3Eb%3B%20rel%3D%22x%22>; rel="successor-version"`);
    expect(LinkHeader.parse(link).refs.length).toBe(3);
  });

  test('never serves a page outside docs or a wrong page for traversal attempts', async () => {
    for (const path of ['/docs-md/%2e%2e/index', '/docs-md/..%2Findex', '/docs-md/jwt/']) {
      const response = await server.request(path);
      expect([400, 404]).toContain(response.status);
      await response.arrayBuffer();
    }
    // Pages of other sections are not reachable through the docs prefix.
    expect((await server.request('/docs-md/errors/not-found')).status).toBe(404);
    expect((await server.request('/docs-md/index')).status).toBe(404);
  });

  test('declares the routes deprecated, tagged markdown, with 200, 304 and 404 and the Deprecation header', () => {
    for (const route of docsMdRoutes({ content, origin: TEST_ORIGIN })) {
      expect(route.deprecated).toBe(true);
      expect(route.tags).toEqual(['markdown']);
      expect(route.operationId).toBeString();
      expect(route.summary).toBeString();
      expect(Object.keys(route.responses).sort()).toEqual(['200', '304', '404']);
      for (const status of [200, 304, 404]) {
        expect(Object.keys(route.responses[status]!.headers!)).toContain('Deprecation');
        expect(Object.keys(route.responses[status]!.headers!)).not.toContain('Sunset');
      }
    }
  });
});
