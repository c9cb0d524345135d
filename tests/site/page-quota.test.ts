/**
 * The quota applies where site.md says (issue 23): the machine endpoints share 120 requests a
 * minute; the HTML pages and the search page, read by people who may share one office address,
 * are not counted; a page's Markdown answers (`.md`, `Accept: text/markdown`) are the Markdown
 * surface and are.
 */
import { describe, expect, test } from 'bun:test';
import { siteApp } from './support.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the quota and the HTML pages', () => {
  test('HTML pages, the search page, its suggestions and assets keep answering 200 past the quota, without RateLimit fields', async () => {
    const app = await siteApp({ rateLimit: { max: 2, windowMs: 60_000 } });
    for (let i = 0; i < 5; i++) {
      for (const path of [
        '/',
        '/docs/jwt',
        '/errors/not-found',
        '/search?q=jwt',
        '/search/suggestions.json',
      ]) {
        const response = await app.request(path, { headers: HTML });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toStartWith(
          path.endsWith('.json') ? 'application/json' : 'text/html; charset=utf-8',
        );
        expect(response.headers.get('ratelimit')).toBeNull();
        expect(response.headers.get('ratelimit-remaining')).toBeNull();
      }
    }
    // The pages spent nothing: the machine quota is whole.
    const api = await app.request('/api/v1');
    expect(api.status).toBe(200);
    expect(api.headers.get('ratelimit-remaining')).toBe('1');
  });

  test("a page's Markdown answers are counted: past the quota, 429 while its HTML still answers", async () => {
    const app = await siteApp({ rateLimit: { max: 2, windowMs: 60_000 } });
    const first = await app.request('/docs/jwt.md');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    const second = await app.request('/docs/jwt', { headers: { accept: 'text/markdown' } });
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toStartWith('text/markdown');
    expect(second.headers.get('ratelimit-remaining')).toBe('0');
    const refused = await app.request('/index.md');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(((await refused.json()) as { code: string }).code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const html = await app.request('/docs/jwt', { headers: HTML });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  test('a Markdown answer is counted however its .md is spelled: /docs/jwt%2Emd is jwt.md to the router and the page', async () => {
    const app = await siteApp({ rateLimit: { max: 1, windowMs: 60_000 } });
    const first = await app.request('/docs/jwt%2Emd', { headers: HTML });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(first.headers.get('ratelimit-remaining')).toBe('0');
    const refused = await app.request('/docs/jwt%2emd', { headers: HTML });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    // The HTML page itself is still not counted.
    const html = await app.request('/docs/jwt', { headers: HTML });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('ratelimit')).toBeNull();
  });

  test('the machine endpoints still share the quota with /md', async () => {
    const app = await siteApp({ rateLimit: { max: 1, windowMs: 60_000 } });
    expect((await app.request('/md/index')).status).toBe(200);
    expect((await app.request('/llms.txt')).status).toBe(429);
    expect((await app.request('/', { headers: HTML })).status).toBe(200);
  });
});
