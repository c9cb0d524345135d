import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { buildContent } from '../content/build.ts';
import { PAGE_CSP } from '../html/document.ts';
import { readQuery, SEARCH_CACHE_CONTROL, searchRoute } from './route.ts';

function file(path: string, title: string, body: string) {
  return { file: path, text: `---\ntitle: ${title}\ndescription: About ${title}.\norder: 1\n---\n\n${body}` };
}

const content = buildContent([
  file('index.md', 'Charter', '# Charter\n\nA framework.\n'),
  file('docs/index.md', 'Guides', '# Guides\n\nEvery guide.\n'),
  file('docs/limits.md', 'Rate limits', '# Rate limits\n\nThe rate limit counts requests per client.\n'),
  file('docs/jwt.md', 'JSON Web Tokens', '# JSON Web Tokens\n\nVerify a token. Not <b>bold</b>.\n'),
  file(
    'docs/hostile.md',
    '<img src=x onerror=alert(1)>',
    '# Hostile\n\nThe word hostile <script>x</script>.\n',
  ),
]);

const app = new App({ logger: false });
app.route(searchRoute({ content }));

async function search(query: string): Promise<{ response: Response; html: string }> {
  const response = await app.request(`/search${query}`);
  return { response, html: await response.text() };
}

describe('GET /search', () => {
  test('lists the pages that match, best first, with marked terms in their snippets', async () => {
    const { response, html } = await search('?q=rate+limit');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(response.headers.get('cache-control')).toBe(SEARCH_CACHE_CONTROL);
    const results = html.slice(html.indexOf('<ol class="search-results">'));
    expect(results.indexOf('href="/docs/limits"')).toBeGreaterThan(0);
    expect(html).toContain('<mark>rate</mark> <mark>limit</mark>');
    expect(html).toContain('1 page for <strong>rate limit</strong>.');
    // The query stays in both boxes for the next search.
    expect(html.match(/name="q"[^>]*value="rate limit"/g)).toHaveLength(2);
  });

  test('escapes the query and the page text everywhere they are shown', async () => {
    const { response, html } = await search(
      `?q=${encodeURIComponent('hostile "><script>alert(1)</script>')}`,
    );
    expect(response.status).toBe(200);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<script>x');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  test('shows the form and examples when there is no query, and says when nothing matches', async () => {
    const empty = await search('');
    expect(empty.response.status).toBe(200);
    expect(empty.html).toContain('<form class="search-form" role="search" action="/search" method="get">');
    expect(empty.html).toContain('href="/search?q=rate%20limit"');
    expect(empty.html).not.toContain('search-results');
    const blank = await search('?q=%20%20');
    expect(blank.html).not.toContain('search-results');
    const none = await search('?q=zeppelin');
    expect(none.response.status).toBe(200);
    expect(none.html).toContain('No page matches <strong>zeppelin</strong>');
  });

  test('refuses a query over 200 characters with a 422 problem naming query.q', async () => {
    const ok = await search(`?q=${'a'.repeat(200)}`);
    expect(ok.response.status).toBe(200);
    const { response, html } = await search(`?q=${'a'.repeat(201)}`);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = JSON.parse(html);
    expect(problem.detail).toBe('query.q: must be at most 200 characters (got 201)');
    expect(problem.issues).toEqual([
      { in: 'query', path: ['q'], message: 'must be at most 200 characters (got 201)' },
    ]);
  });

  test('refuses q given twice with a 422 problem', async () => {
    const { response, html } = await search('?q=a&q=b');
    expect(response.status).toBe(422);
    expect(JSON.parse(html).detail).toBe('query.q: must be given once');
  });
});

describe('readQuery', () => {
  test('trims the query and reads an absent one as empty', () => {
    expect(readQuery('http://x/search?q=%20jwt%20')).toBe('jwt');
    expect(readQuery('http://x/search')).toBe('');
  });
});
