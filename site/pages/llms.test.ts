import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { buildContent } from '../content/build.ts';
import { buildLlmsTxt, llmsRoute } from './llms.ts';
import { TEST_ORIGIN, testSite } from './test-site.ts';

const content = testSite();
const server = new App({ logger: false });
server.registerRoutes([llmsRoute({ content, origin: TEST_ORIGIN })]);

/** The `## heading` blocks of an llms.txt document, as heading to lines. */
function sections(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) out.set(line.slice(3), (current = []));
    else if (current !== undefined && line !== '') current.push(line);
  }
  return out;
}

describe('GET /llms.txt', () => {
  test('answers the index as text/plain with an ETag and the page caching', async () => {
    const response = await server.request('/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(await response.text()).toBe(buildLlmsTxt(content, TEST_ORIGIN));
  });

  test('follows the llms.txt layout: H1, summary quote, a paragraph, then H2 link lists', async () => {
    const text = await (await server.request('/llms.txt')).text();
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Charter');
    expect(lines[1]).toBe('');
    expect(lines[2]).toStartWith('> ');
    expect(lines[4]).not.toStartWith('#');
    expect([...sections(text).keys()]).toEqual(['Guides', 'Errors', 'APIs', 'Optional']);
    for (const [, items] of sections(text)) {
      for (const item of items) expect(item).toMatch(/^- \[[^\]]+\]\(https:\/\/docs\.example\/[^)\s]*\): \S/);
    }
  });

  test('lists every page by its absolute .md URL and description, home page first', async () => {
    const text = await (await server.request('/llms.txt')).text();
    const guides = sections(text).get('Guides')!;
    expect(guides[0]).toBe(`- [Charter](${TEST_ORIGIN}/index.md): The home page.`);
    expect(guides).toContain(`- [JSON Web Tokens](${TEST_ORIGIN}/docs/jwt.md): Sign and verify JWTs.`);
    expect(sections(text).get('Errors')).toEqual([
      `- [Errors](${TEST_ORIGIN}/errors.md): Every error type.`,
      `- [Not found](${TEST_ORIGIN}/errors/not-found.md): No route or resource.`,
    ]);
    const listed = [...sections(text).values()].flat().join('\n');
    for (const page of content.pages) expect(listed).toContain(`(${TEST_ORIGIN}${page.markdownUrl})`);
  });

  test('links the APIs and notes the deprecated /docs-md surface under Optional', async () => {
    const text = await (await server.request('/llms.txt')).text();
    const apis = sections(text).get('APIs')!.join('\n');
    for (const path of [
      '/api/v1',
      '/openapi.json',
      '/.well-known/api-catalog',
      '/.well-known/mcp/server-card.json',
    ]) {
      expect(apis).toContain(`(${TEST_ORIGIN}${path})`);
    }
    expect(apis).toContain(`${TEST_ORIGIN}/mcp`);
    const optional = sections(text).get('Optional')!.join('\n');
    expect(optional).toContain(`(${TEST_ORIGIN}/docs-md)`);
    expect(optional).toContain('deprecated since 2026-06-01');
    expect(optional).toContain('/md/docs/<path>');
  });

  test('a new content file appears without code changes', () => {
    const text = buildLlmsTxt(
      buildContent([
        { file: 'index.md', text: '---\ntitle: Home\ndescription: Start.\norder: 0\n---\n# Home\n' },
        { file: 'docs/index.md', text: '---\ntitle: Guides\ndescription: All.\norder: 0\n---\n# Guides\n' },
        {
          file: 'docs/brand-new.md',
          text: '---\ntitle: Brand [new]\ndescription: Fresh.\norder: 1\n---\n# New\n',
        },
      ]),
      TEST_ORIGIN,
    );
    expect(text).toContain(`- [Brand \\[new\\]](${TEST_ORIGIN}/docs/brand-new.md): Fresh.`);
    expect(sections(text).has('Errors')).toBe(false);
  });

  test('answers 304 to a matching If-None-Match and 200 to another, and HEAD without content', async () => {
    const etag = (await server.request('/llms.txt')).headers.get('etag')!;
    const same = await server.request('/llms.txt', { headers: { 'if-none-match': `"x", W/${etag}` } });
    expect(same.status).toBe(304);
    expect(same.headers.get('etag')).toBe(etag);
    expect(await same.text()).toBe('');
    expect((await server.request('/llms.txt', { headers: { 'if-none-match': '"x"' } })).status).toBe(200);
    const head = await server.request('/llms.txt', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });

  test('declares an operationId, a summary, the markdown tag, 200 text/plain and 304', () => {
    const route = llmsRoute({ content, origin: TEST_ORIGIN });
    expect(route.operationId).toBe('getLlmsTxt');
    expect(route.summary).toBeString();
    expect(route.tags).toEqual(['markdown']);
    expect(route.responses[200]!.contentType).toBe('text/plain');
    expect(Object.keys(route.responses).sort()).toEqual(['200', '304']);
  });
});
