import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { marked } from 'marked';
import { editDistance } from '../content/edit-distance.ts';
import { closestPages, linkLine, markdownCodeSpan, markdownNotFound } from './not-found.ts';
import { TEST_ORIGIN, testSite } from './test-site.ts';

const content = testSite();

describe('editDistance', () => {
  test('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('jwt', 'jwt')).toBe(0);
    expect(editDistance('docs/jwtt', 'docs/jwt')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('closestPages', () => {
  test('ranks by edit distance, then shared prefix, then reading order, at most five', () => {
    const near = closestPages(content, 'docs/jwtt').map((p) => p.path);
    expect(near.length).toBe(5);
    expect(near.slice(0, 3)).toEqual(['docs/jwt', 'docs/jwk', 'docs']);
    // Equal distance and prefix: reading order (jwt has order 1, jwk order 2).
    expect(
      closestPages(content, 'docs/jw')
        .map((p) => p.path)
        .slice(0, 2),
    ).toEqual(['docs/jwt', 'docs/jwk']);
    // Equal distance: the longer shared prefix first, whatever the reading order.
    const two = {
      ...content,
      pages: [
        { ...content.pages[0]!, path: 'zb' },
        { ...content.pages[0]!, path: 'az' },
      ],
    };
    expect(closestPages(two, 'ab').map((p) => p.path)).toEqual(['az', 'zb']);
    expect(closestPages(content, 'DOCS/JWK')[0]!.path).toBe('docs/jwk');
    expect(closestPages(content, 'x', 2).length).toBe(2);
  });

  test('compares only as many characters of a long path as the longest page path has, plus 8', () => {
    const longest = Math.max(...content.pages.map((page) => page.path.length));
    const long = `docs/jwt${'z'.repeat(100_000)}`;
    const near = closestPages(content, long);
    expect(near.length).toBe(5);
    expect(near).toEqual(closestPages(content, long.slice(0, longest + 8)));
  });
});

describe('markdownCodeSpan', () => {
  test('uses a fence longer than any backtick run, padded so edge backticks stay inside', () => {
    expect(markdownCodeSpan('a')).toBe('` a `');
    expect(markdownCodeSpan('a`b')).toBe('`` a`b ``');
    expect(markdownCodeSpan('`a``')).toBe('``` `a`` ```');
  });

  test('replaces control characters and cuts long text', () => {
    expect(markdownCodeSpan('a\nb\u0000c\u0085')).toBe('` a\uFFFDb\uFFFDc\uFFFD `');
    expect(markdownCodeSpan('abcdef', 3)).toBe('` abc… `');
  });

  test('renders any text as exactly one code element holding it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), async (text) => {
        const html = await marked.parseInline(markdownCodeSpan(text), { gfm: true });
        expect(html.startsWith('<code>')).toBe(true);
        expect(html.endsWith('</code>')).toBe(true);
        expect(html.slice(6).includes('<code>')).toBe(false);
        expect(html).not.toContain('<a');
      }),
      { numRuns: 300 },
    );
  });
});

describe('linkLine', () => {
  test('escapes brackets in the title and folds whitespace in the description', () => {
    expect(linkLine('A [b]', 'https://x/y', 'one\n two')).toBe('- [A \\[b\\]](https://x/y): one two');
    expect(linkLine('T', 'https://x', '')).toBe('- [T](https://x)');
  });
});

describe('markdownNotFound', () => {
  test('lists the entry points and the closest pages as absolute /md links', () => {
    const body = markdownNotFound(content, TEST_ORIGIN, {
      requested: '/md/docs/jwk2',
      pagePath: 'docs/jwk2',
    });
    expect(body).toContain('# Page not found');
    expect(body).toContain('` /md/docs/jwk2 `');
    expect(body).toContain(`- [llms.txt](${TEST_ORIGIN}/llms.txt)`);
    expect(body).toContain(`- [Home page](${TEST_ORIGIN}/md/index)`);
    expect(body).toContain(`- [API index](${TEST_ORIGIN}/api/v1)`);
    expect(body).toContain(`- [JSON Web Keys](${TEST_ORIGIN}/md/docs/jwk): Key sets.`);
  });
});
