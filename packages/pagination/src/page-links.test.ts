import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { encodeCursor } from './cursor.ts';
import { MAX_CURSOR_LENGTH } from './limits.ts';
import { buildPageLinks } from './page-links.ts';

describe('buildPageLinks', () => {
  const url = 'https://api.example/items?q=shoes&limit=10';

  test('adds the next cursor after the other query parameters', () => {
    const page = buildPageLinks({ url, next: 'abc' });
    expect(page.urls).toEqual({ next: 'https://api.example/items?q=shoes&limit=10&cursor=abc' });
    expect(page.links).toEqual([
      { url: 'https://api.example/items?q=shoes&limit=10&cursor=abc', rel: 'next' },
    ]);
    expect(page.linkHeader).toBe('<https://api.example/items?q=shoes&limit=10&cursor=abc>; rel="next"');
  });

  test('gives next, prev and first, in that order', () => {
    const page = buildPageLinks({ url: `${url}&cursor=cur`, next: 'n', prev: 'p', first: true });
    expect(page.urls).toEqual({
      next: 'https://api.example/items?q=shoes&limit=10&cursor=n',
      prev: 'https://api.example/items?q=shoes&limit=10&cursor=p',
      first: 'https://api.example/items?q=shoes&limit=10',
    });
    expect(page.links.map((link) => link.rel)).toEqual(['next', 'prev', 'first']);
    expect(page.linkHeader).toBe(
      '<https://api.example/items?q=shoes&limit=10&cursor=n>; rel="next", ' +
        '<https://api.example/items?q=shoes&limit=10&cursor=p>; rel="prev", ' +
        '<https://api.example/items?q=shoes&limit=10>; rel="first"',
    );
  });

  test('replaces the current cursor where it stood', () => {
    const page = buildPageLinks({ url: 'https://api.example/items?cursor=old&limit=10', next: 'new' });
    expect(page.urls.next).toBe('https://api.example/items?cursor=new&limit=10');
  });

  test('removes every occurrence of the cursor parameter, whatever its spelling', () => {
    const page = buildPageLinks({
      url: 'https://api.example/items?a=1&cursor=x&b=2&cursor=y&%63ursor=z&c=3',
      next: 'n',
      first: true,
    });
    expect(page.urls.next).toBe('https://api.example/items?a=1&cursor=n&b=2&c=3');
    expect(page.urls.first).toBe('https://api.example/items?a=1&b=2&c=3');
  });

  test('keeps other parameters exactly as written, repeated ones and encodings included', () => {
    const page = buildPageLinks({
      url: 'https://api.example/s?tag=a&tag=b&q=a+b%20c&empty&x=%E2%9C%93',
      next: 'n',
    });
    expect(page.urls.next).toBe('https://api.example/s?tag=a&tag=b&q=a+b%20c&empty&x=%E2%9C%93&cursor=n');
  });

  test('does not mistake a parameter that merely starts with the cursor name', () => {
    const page = buildPageLinks({ url: 'https://api.example/s?cursorx=1&xcursor=2', first: true });
    expect(page.urls.first).toBe('https://api.example/s?cursorx=1&xcursor=2');
  });

  test('gives the bare path for first when the cursor was the only parameter', () => {
    expect(buildPageLinks({ url: 'https://api.example/items?cursor=abc', first: true }).urls.first).toBe(
      'https://api.example/items',
    );
  });

  test('drops the fragment and empty pairs', () => {
    expect(buildPageLinks({ url: 'https://api.example/i?a=1&&b=2#top', next: 'n' }).urls.next).toBe(
      'https://api.example/i?a=1&b=2&cursor=n',
    );
  });

  test('drops credentials from the URL', () => {
    expect(buildPageLinks({ url: 'https://user:secret@api.example/i', next: 'n' }).urls.next).toBe(
      'https://api.example/i?cursor=n',
    );
  });

  test('uses a custom cursor parameter name', () => {
    const page = buildPageLinks({
      url: 'https://api.example/i?after=1&cursor=keep',
      next: '2',
      cursorParam: 'after',
    });
    expect(page.urls.next).toBe('https://api.example/i?after=2&cursor=keep');
  });

  test('percent-encodes a cursor that is not base64url, and the parameter name', () => {
    const page = buildPageLinks({
      url: 'https://api.example/i',
      next: 'a b&c=d/é',
      cursorParam: 'page token',
    });
    expect(page.urls.next).toBe('https://api.example/i?page%20token=a%20b%26c%3Dd%2F%C3%A9');
    expect(new URL(page.urls.next as string).searchParams.get('page token')).toBe('a b&c=d/é');
  });

  test('keeps an encodeCursor token unchanged', () => {
    const token = encodeCursor({ after: 'id-99', at: '2024-01-01' });
    expect(new URL(buildPageLinks({ url, next: token }).urls.next as string).searchParams.get('cursor')).toBe(
      token,
    );
  });

  test('accepts a URL object and leaves it unchanged', () => {
    const current = new URL(`${url}&cursor=old`);
    const page = buildPageLinks({ url: current, next: 'n' });
    expect(page.urls.next).toBe('https://api.example/items?q=shoes&limit=10&cursor=n');
    expect(current.href).toBe(`${url}&cursor=old`);
  });

  test('gives no links and no header when there is nothing to link', () => {
    expect(buildPageLinks({ url, next: null, prev: undefined, first: false })).toEqual({
      links: [],
      urls: {},
      linkHeader: undefined,
    });
  });

  test('gives percent-encoded URLs for a request URL with non-ASCII or unsafe characters', () => {
    const page = buildPageLinks({ url: 'https://api.example/ä/x?q=<ü>"', next: 'n' });
    expect(page.urls.next).toBe('https://api.example/%C3%A4/x?q=%3C%C3%BC%3E%22&cursor=n');
    expect(page.linkHeader).toBe(`<${page.urls.next}>; rel="next"`);
  });

  for (const [name, options, message] of [
    ['a relative url', { url: '/items', next: 'n' }, 'url must be an absolute URL'],
    ['a url of another type', { url: 5, next: 'n' }, 'url must be a string or a URL'],
    ['a non-string next', { url, next: 5 }, 'next must be a string, null or undefined'],
    ['an empty prev', { url, prev: '' }, 'prev must not be an empty string'],
    [
      'an oversized next',
      { url, next: 'a'.repeat(MAX_CURSOR_LENGTH + 1) },
      'next is longer than MAX_CURSOR_LENGTH',
    ],
    ['a lone surrogate in next', { url, next: 'a\ud800' }, 'lone surrogate'],
    ['an empty cursorParam', { url, next: 'n', cursorParam: '' }, 'cursorParam must be a non-empty string'],
    ['a non-boolean first', { url, first: 'yes' }, 'first must be a boolean'],
  ] as const) {
    test(`throws a TypeError for ${name}`, () => {
      expect(() => buildPageLinks(options as never)).toThrow(TypeError);
      expect(() => buildPageLinks(options as never)).toThrow(message);
    });
  }

  test('throws a TypeError for options that are not an object', () => {
    expect(() => buildPageLinks(undefined as never)).toThrow('the options must be an object');
  });

  test('accepts a cursor of exactly MAX_CURSOR_LENGTH characters', () => {
    const token = 'a'.repeat(MAX_CURSOR_LENGTH);
    expect(buildPageLinks({ url, next: token }).urls.next?.endsWith(`cursor=${token}`)).toBe(true);
  });
});

describe('buildPageLinks properties', () => {
  // Names include the cursor parameter itself, so the old cursors must go.
  const name = fc.oneof(
    fc.constant('cursor'),
    fc.string({ unit: fc.constantFrom(...'abcr_-.%+é &=?#'), minLength: 1, maxLength: 6 }),
  );
  const value = fc.string({ unit: fc.constantFrom(...'xyz01 +%&=/é<>"'), maxLength: 6 });
  const query = fc.array(fc.tuple(name, value), { maxLength: 6 });

  test('the links carry the new cursor once and every other parameter in its order', () => {
    fc.assert(
      fc.property(query, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), (pairs, token) => {
        const current = new URL('https://api.example/list');
        for (const [key, val] of pairs) current.searchParams.append(key, val);
        const page = buildPageLinks({ url: current, next: token, first: true });
        const others = pairs.filter(([key]) => key !== 'cursor');
        const next = new URL(page.urls.next as string).searchParams;
        const first = new URL(page.urls.first as string).searchParams;
        expect(next.getAll('cursor')).toEqual([token]);
        expect([...next].filter(([key]) => key !== 'cursor')).toEqual(others);
        expect(first.has('cursor')).toBe(false);
        expect([...first]).toEqual(others);
        return /^[\u0020-\u007e]*$/.test(page.linkHeader as string);
      }),
      { numRuns: 500 },
    );
  });
});
