import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { createSearchIndex, MAX_QUERY_LENGTH, MAX_QUERY_WORDS, MAX_SEARCH_LIMIT } from './search.ts';
import { CORPUS_PAGES, makePage } from './test-corpus.ts';
import type { Page } from '../content/types.ts';

const index = createSearchIndex(CORPUS_PAGES);
const paths = (query: string, limit?: number) =>
  index.search(query, limit === undefined ? {} : { limit }).results.map((result) => result.path);

describe('createSearchIndex', () => {
  test('indexes every page', () => {
    expect(index.size).toBe(CORPUS_PAGES.length);
  });

  test('ranks a word in the title above one in a heading, the description, then the body', () => {
    expect(paths('quokka')).toEqual([
      'docs/quokka-title',
      'docs/quokka-heading',
      'docs/quokka-description',
      'docs/quokka-body',
    ]);
  });

  test('results carry the page addresses, title, a rounded score and a snippet, best first', () => {
    const { results, matchedAllTerms } = index.search('rate limit');
    expect(matchedAllTerms).toBe(true);
    expect(results.map((r) => r.path)).toEqual(['docs/rate-limits', 'docs/tool-server']);
    expect(results[0]).toMatchObject({
      path: 'docs/rate-limits',
      url: '/docs/rate-limits',
      markdownUrl: '/docs/rate-limits.md',
      title: 'Rate limits',
    });
    const [first, second] = results;
    expect(first?.score).toBeGreaterThan(second?.score as number);
    for (const result of results) expect(Math.round(result.score * 1e4) / 1e4).toBe(result.score);
    expect(second?.snippet).toContain('**Rate** **limits** apply to the endpoint');
  });

  test('a camelCase identifier matches exactly, and its parts match too', () => {
    const exact = index.search('createMcpHandler').results;
    expect(exact.map((r) => r.path)).toEqual(['docs/tool-server']);
    expect(exact[0]?.snippet).toStartWith('**createMcpHandler** turns a list of tools');
    const parts = index.search('mcp handler').results;
    expect(parts[0]?.path).toBe('docs/tool-server');
    expect(parts[0]?.snippet).toContain('create**McpHandler**');
  });

  test('a compound query word also finds the page that has its parts', () => {
    // "searchDocs" is not in the corpus; `search_docs` is, and has both parts.
    const { results } = index.search('searchDocs');
    expect(results.map((r) => r.path)).toEqual(['docs/tool-server']);
    expect(results[0]?.snippet).toContain('The **search_docs** tool');
  });

  test('the last word matches as a prefix; earlier words do not', () => {
    expect(paths('rateLim')).toEqual(['docs/rate-limits']);
    expect(paths('quok')).toHaveLength(4);
    // Not last, "quok" is only itself: no page has both words, and the any-word fallback finds
    // the one page with "marsupials", not the four quokka pages.
    expect(index.search('quok marsupials')).toMatchObject({ matchedAllTerms: false });
    expect(paths('quok marsupials')).toEqual(['docs/quokka-title']);
    expect(index.search('marsupials quok')).toMatchObject({ matchedAllTerms: true });
    expect(paths('marsupials quok')).toEqual(['docs/quokka-title']);
    // One letter is too short to stand for a prefix.
    expect(paths('q')).toEqual([]);
  });

  test('an exact word outranks a prefix match of the same word', () => {
    const pages = [
      makePage({ path: 'docs/a', title: 'Page A', description: 'x', text: 'tokens everywhere' }),
      makePage({ path: 'docs/b', title: 'Page B', description: 'x', text: 'token everywhere' }),
    ];
    const small = createSearchIndex(pages);
    expect(small.search('token').results.map((r) => r.path)).toEqual(['docs/b', 'docs/a']);
  });

  test('every word is required; when no page has them all, pages with any of them are ranked', () => {
    const all = index.search('quokka diary');
    expect(all).toMatchObject({ matchedAllTerms: true });
    expect(all.results.map((r) => r.path)).toEqual(['docs/quokka-body']);
    const any = index.search('quokka zebra');
    expect(any.matchedAllTerms).toBe(false);
    expect(any.results.map((r) => r.path)).toEqual(paths('quokka'));
  });

  test('common function words are dropped from a query that has other words, and not highlighted', () => {
    const question = index.search('how do I find the quokka');
    // "find" is in no page: the all-words match fails on it alone, not on "how", "do", "I", "the".
    expect(question.matchedAllTerms).toBe(false);
    expect(index.search('where is the quokka').results).toEqual(index.search('quokka').results);
    expect(index.search('where is the quokka').matchedAllTerms).toBe(true);
    const body = index.search('the quokka').results.find((r) => r.path === 'docs/quokka-body');
    expect(body?.snippet).toContain('a **quokka** came close to the path');
    // A query of nothing but function words is searched as it is.
    expect(paths('the').length).toBeGreaterThan(0);
  });

  test('an empty, wordless or unknown query finds nothing', () => {
    for (const query of ['', '   ', '*** ??? 🦘', 'zzzzzz']) {
      expect(index.search(query)).toEqual({ results: [], matchedAllTerms: false });
    }
  });

  test('reads any script, case-insensitively', () => {
    expect(paths('日本語')).toEqual(['docs/unicode']);
    expect(paths('STRAẞE')).toEqual(['docs/unicode']);
    expect(paths('CAFÉ')).toEqual(['docs/unicode']);
    expect(index.search('東京').results[0]?.snippet).toContain('**東京**');
  });

  test('limit caps the results; a limit outside 1..100 is refused', () => {
    expect(paths('quokka', 2)).toEqual(['docs/quokka-title', 'docs/quokka-heading']);
    expect(() => index.search('quokka', { limit: 0 })).toThrow(RangeError);
    expect(() => index.search('quokka', { limit: MAX_SEARCH_LIMIT + 1 })).toThrow(RangeError);
    expect(() => index.search('quokka', { limit: 1.5 })).toThrow(RangeError);
  });

  test('ties are broken by path, so the order is deterministic', () => {
    const twin = (path: string) =>
      makePage({ path, title: 'Same', description: 'same', text: 'identical words' });
    const small = createSearchIndex([twin('docs/c'), twin('docs/a'), twin('docs/b')]);
    const results = small.search('identical').results;
    expect(results.map((r) => r.path)).toEqual(['docs/a', 'docs/b', 'docs/c']);
    expect(new Set(results.map((r) => r.score)).size).toBe(1);
  });

  test('a hostile query is bounded: text past 200 characters and words past 16 are ignored', () => {
    expect(paths(`${'x'.repeat(MAX_QUERY_LENGTH)} quokka`)).toEqual([]);
    expect(paths(`${'x'.repeat(MAX_QUERY_LENGTH - 8)} quokka`)).toHaveLength(4);
    const many = Array.from({ length: MAX_QUERY_WORDS }, (_, i) => `w${i}`).join(' ');
    expect(index.search(`${many} quokka`).results).toEqual([]);
    expect(index.search(`${many.split(' ').slice(1).join(' ')} quokka`).results.length).toBe(4);
    const started = performance.now();
    index.search('a'.repeat(10_000_000));
    index.search(`${'ab '.repeat(100_000)}`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test('an empty index answers every query with nothing', () => {
    expect(createSearchIndex([]).search('anything')).toEqual({ results: [], matchedAllTerms: false });
  });

  test('refuses something that is not an array of pages', () => {
    expect(() => createSearchIndex('pages' as never)).toThrow(TypeError);
  });

  test('property: never throws, scores descend, every result is a page of the corpus', () => {
    const known = new Set(CORPUS_PAGES.map((page) => page.path));
    const vocabulary = [
      'quokka',
      'rate',
      'limit',
      'createMcpHandler',
      'jwt',
      'tokens',
      'café',
      'search_docs',
      'the',
    ];
    const query = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.array(fc.constantFrom(...vocabulary), { maxLength: 20 }).map((words) => words.join(' ')),
      fc
        .array(fc.constantFrom(...vocabulary, '*', '-', '_', '🦘', ' '), { maxLength: 30 })
        .map((w) => w.join('')),
    );
    fc.assert(
      fc.property(query, fc.integer({ min: 1, max: 20 }), (text, limit) => {
        const { results } = index.search(text, { limit });
        expect(results.length).toBeLessThanOrEqual(limit);
        for (let i = 0; i < results.length; i++) {
          const result = results[i] as (typeof results)[number];
          expect(known.has(result.path)).toBe(true);
          expect(result.score).toBeGreaterThan(0);
          if (i > 0) {
            const previous = results[i - 1] as (typeof results)[number];
            expect(
              previous.score > result.score ||
                (previous.score === result.score && previous.path < result.path),
            ).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('createSearchIndex options and complete words', () => {
  const make = (path: string, title: string, text: string): Page =>
    ({
      ...(CORPUS_PAGES[0] as Page),
      path,
      url: `/${path}`,
      markdownUrl: `/${path}.md`,
      title,
      description: title,
      text,
      headings: [],
    }) as Page;

  test('a last word that is itself a word of the index prefers it to longer words it starts', () => {
    const small = createSearchIndex([
      make('docs/a', 'Known limitations', 'limitations limitations of the rate of things'),
      make('docs/b', 'Middleware', 'the rate limit middleware counts requests per window, a limit'),
    ]);
    expect(small.search('rate limit').results.map((result) => result.path)).toEqual(['docs/b', 'docs/a']);
    // A word the index lacks still matches as a prefix, as you type.
    expect(small.search('rate limi').results.map((result) => result.path)).toContain('docs/a');
  });

  test('a page titled with exactly the query words comes before pages that say them more often', () => {
    const small = createSearchIndex([
      make('docs/deploy-a', 'Deploy: Vercel', 'deploy deploy deploy on vercel, deploy it'),
      make('docs/deploy', 'Deploy', 'where to deploy'),
      make('docs/deploy-b', 'Deploy: Deno', 'deploy deploy deploy on deno, deploy it'),
    ]);
    expect(small.search('deploy').results[0]?.path).toBe('docs/deploy');
    expect(small.search('how do I deploy').results[0]?.path).toBe('docs/deploy');
    // Another query: no page is favoured.
    expect(small.search('deploy vercel').results[0]?.path).toBe('docs/deploy-a');
  });

  test("pageWeight scales a page's score, and must be a positive number", () => {
    const pages = [make('docs/a', 'Tokens', 'token token'), make('reference/a', 'Tokens', 'token token')];
    const plain = createSearchIndex(pages).search('token').results;
    expect(plain[0]?.score).toBe(plain[1]?.score);
    const weighted = createSearchIndex(pages, {
      pageWeight: (page) => (page.path.startsWith('reference') ? 0.5 : 1),
    });
    const [first, second] = weighted.search('token').results;
    expect(first?.path).toBe('docs/a');
    expect(second?.score).toBeCloseTo((first?.score ?? 0) / 2, 3);
    expect(() => createSearchIndex(pages, { pageWeight: () => 0 })).toThrow(RangeError);
    expect(() => createSearchIndex(pages, { pageWeight: () => Number.NaN })).toThrow(RangeError);
  });
});
