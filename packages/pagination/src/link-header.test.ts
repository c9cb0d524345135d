import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { buildLinkHeader, type LinkEntry } from './link-header.ts';

interface ParsedLink {
  url: string;
  params: Record<string, string>;
}

/**
 * A small reader of RFC 8288 §3 `Link` values for the tests: `<uri>` then `; name=value` parameters
 * (token or quoted-string with `\` escapes), links separated by commas.
 */
function parseLinkHeader(header: string): ParsedLink[] {
  const links: ParsedLink[] = [];
  let i = 0;
  const skipSpace = (): void => {
    while (header[i] === ' ' || header[i] === '\t') i++;
  };
  while (i < header.length) {
    skipSpace();
    if (header[i] !== '<') throw new Error(`expected < at ${i}`);
    const end = header.indexOf('>', i);
    if (end < 0) throw new Error('unterminated <');
    const link: ParsedLink = { url: header.slice(i + 1, end), params: {} };
    i = end + 1;
    skipSpace();
    while (header[i] === ';') {
      i++;
      skipSpace();
      let name = '';
      while (i < header.length && /[!#$%&'*+\-.^_`|~0-9A-Za-z]/.test(header[i] as string))
        name += header[i++];
      skipSpace();
      if (header[i] !== '=') throw new Error(`expected = at ${i}`);
      i++;
      skipSpace();
      let value = '';
      if (header[i] === '"') {
        i++;
        while (i < header.length && header[i] !== '"') {
          if (header[i] === '\\') i++;
          value += header[i++];
        }
        if (header[i] !== '"') throw new Error('unterminated quoted string');
        i++;
      } else {
        while (i < header.length && header[i] !== ';' && header[i] !== ',') value += header[i++];
      }
      link.params[name.toLowerCase()] = value;
      skipSpace();
    }
    links.push(link);
    if (i < header.length) {
      if (header[i] !== ',') throw new Error(`expected , at ${i}`);
      i++;
    }
  }
  return links;
}

/** Reads an RFC 8187 ext-value written as `UTF-8''<pct-encoded>`. */
function decodeExtValue(value: string): string {
  expect(value.startsWith("UTF-8''")).toBe(true);
  return decodeURIComponent(value.slice("UTF-8''".length));
}

function throwsType(entries: readonly LinkEntry[], message: string): void {
  expect(() => buildLinkHeader(entries)).toThrow(TypeError);
  expect(() => buildLinkHeader(entries)).toThrow(message);
}

describe('buildLinkHeader', () => {
  test('writes <url>; rel="..." links joined by a comma and a space', () => {
    expect(
      buildLinkHeader([
        { url: 'https://api.example/items?cursor=abc&limit=5', rel: 'next' },
        { url: 'https://api.example/items?limit=5', rel: 'first' },
      ]),
    ).toBe(
      '<https://api.example/items?cursor=abc&limit=5>; rel="next", <https://api.example/items?limit=5>; rel="first"',
    );
  });

  test('gives an empty string for no links', () => {
    expect(buildLinkHeader([])).toBe('');
  });

  test('accepts a URL object and writes its href', () => {
    expect(buildLinkHeader([{ url: new URL('https://api.example/a b?q=é'), rel: 'next' }])).toBe(
      '<https://api.example/a%20b?q=%C3%A9>; rel="next"',
    );
  });

  test('accepts a relative reference', () => {
    expect(buildLinkHeader([{ url: '/items?cursor=x', rel: 'next' }])).toBe('</items?cursor=x>; rel="next"');
  });

  test('keeps URL characters that cannot end the reference (commas, semicolons, quotes, pipes)', () => {
    const url = 'https://api.example/a;b,c?q="x"|{y}';
    expect(parseLinkHeader(buildLinkHeader([{ url, rel: 'next' }]))).toEqual([
      { url, params: { rel: 'next' } },
    ]);
  });

  test('writes an ASCII title as a quoted string', () => {
    expect(buildLinkHeader([{ url: '/p2', rel: 'next', title: 'Page 2; the next one, really' }])).toBe(
      '</p2>; rel="next"; title="Page 2; the next one, really"',
    );
  });

  test('writes a non-ASCII title as title* in RFC 8187 encoding', () => {
    const header = buildLinkHeader([{ url: '/p2', rel: 'next', title: 'Seite 2 – weiter ✓ 😀' }]);
    expect(header).toBe(
      '</p2>; rel="next"; title*=UTF-8\'\'Seite%202%20%E2%80%93%20weiter%20%E2%9C%93%20%F0%9F%98%80',
    );
    const [link] = parseLinkHeader(header);
    expect(decodeExtValue(link?.params['title*'] as string)).toBe('Seite 2 – weiter ✓ 😀');
  });

  test('leaves RFC 8187 attr-chars unencoded and encodes the rest in title*', () => {
    expect(buildLinkHeader([{ url: '/', rel: 'next', title: "é!#$&+-.^_`|~'*%" }])).toBe(
      '</>; rel="next"; title*=UTF-8\'\'%C3%A9!#$&+-.^_`|~%27%2A%25',
    );
  });

  test('accepts several relation types, registered names and absolute URIs', () => {
    expect(buildLinkHeader([{ url: '/', rel: 'next  https://rels.example/page-v2.x last' }])).toBe(
      '</>; rel="next https://rels.example/page-v2.x last"',
    );
    expect(buildLinkHeader([{ url: '/', rel: 'tag:example.com,2024:pages' }])).toBe(
      '</>; rel="tag:example.com,2024:pages"',
    );
  });

  for (const [name, url, message] of [
    ['a CR LF', 'https://a.example/\r\nSet-Cookie: x=1', 'a control character at position 19'],
    ['a NUL', '/a\u0000', 'a control character'],
    ['a tab', '/a\tb', 'a control character'],
    ['DEL', '/a\u007f', 'a control character'],
    ['a space', '/a b', 'a space at position 3'],
    ['a <', '/a<b', '`<` at position 3'],
    ['a >', '/a>; rel="evil"', '`>` at position 3'],
    ['non-ASCII text', '/é', 'a non-ASCII character'],
    ['a no-break space', '/a\u00a0b', 'a non-ASCII character'],
    ['a line separator', '/a\u2028b', 'a non-ASCII character'],
    ['an empty string', '', 'must not be empty'],
  ] as const) {
    test(`refuses a URL with ${name}`, () => {
      throwsType([{ url, rel: 'next' }], message);
    });
  }

  test('refuses a URL that is neither a string nor a URL, naming the entry', () => {
    throwsType(
      [
        { url: '/ok', rel: 'next' },
        { url: 5 as never, rel: 'prev' },
      ],
      'links[1].url must be a string or a URL',
    );
  });

  for (const [name, rel, message] of [
    ['a quote', 'next" evil="1', 'quote or a backslash'],
    ['a backslash', 'next\\', 'quote or a backslash'],
    ['a CR', 'next\r', 'control character'],
    ['a tab between types', 'next\tprev', 'control character'],
    ['nothing', '', 'must not be empty'],
    ['a leading space', ' next', 'start or end with a space'],
    ['a trailing space', 'next ', 'start or end with a space'],
    ['upper case', 'Next', 'neither a relation name'],
    ['a leading digit', '1st', 'neither a relation name'],
    ['a comma', 'next,prev', 'neither a relation name'],
    ['a semicolon', 'next;x', 'neither a relation name'],
    ['non-ASCII text', 'nächste', 'neither a relation name'],
    ['a URI with angle brackets', 'https://a.example/<x>', 'neither a relation name'],
    ['a bare colon', ':next', 'neither a relation name'],
    ['a scheme and nothing more', 'urn:', 'neither a relation name'],
  ] as const) {
    test(`refuses a rel with ${name}`, () => {
      throwsType([{ url: '/', rel }], message);
    });
  }

  test('refuses a rel that is not a string', () => {
    throwsType([{ url: '/', rel: undefined as never }], 'links[0].rel must be a string');
  });

  for (const [name, title, message] of [
    ['a quote', 'say "hi"', 'quote or a backslash'],
    ['a backslash', 'a\\b', 'quote or a backslash'],
    ['a quote in non-ASCII text', 'é"', 'quote or a backslash'],
    ['a line feed', 'a\nb', 'control character'],
    ['DEL', 'a\u007f', 'control character'],
    ['a lone surrogate', 'a\ud800b', 'lone surrogate'],
    ['a lone low surrogate', '\udc00', 'lone surrogate'],
  ] as const) {
    test(`refuses a title with ${name}`, () => {
      throwsType([{ url: '/', rel: 'next', title }], message);
    });
  }

  test('refuses a title that is not a string', () => {
    throwsType([{ url: '/', rel: 'next', title: 3 as never }], 'links[0].title must be a string');
  });

  test('refuses a list that is not an array, and entries that are not objects', () => {
    expect(() => buildLinkHeader('next' as never)).toThrow('the links must be an array');
    expect(() => buildLinkHeader([null as never])).toThrow('links[0] must be an object');
  });
});

describe('buildLinkHeader properties', () => {
  const urlChar = fc.constantFrom(...'abcXYZ019-._~:/?#[]@!$&\'()*+,;=%|{}^`"');
  const urls = fc
    .tuple(
      fc.constantFrom('https://api.example/', '/', 'http://h.example:8080/x?'),
      fc.string({ unit: urlChar }),
    )
    .map(([base, rest]) => base + rest);
  const relName = fc
    .tuple(fc.constantFrom(...'abcz'), fc.string({ unit: fc.constantFrom(...'az09.-'), maxLength: 8 }))
    .map(([head, tail]) => head + tail);
  // Extension relation types: absolute URIs with no quote (the rel value is a quoted string).
  const relUri = fc
    .string({ unit: fc.constantFrom(..."abc019-._~:/?#[]@!$&'()*+,;=%") })
    .map((rest) => `https://rels.example/${rest}`);
  const rels = fc.array(fc.oneof(relName, relUri), { minLength: 1, maxLength: 3 });
  const titles = fc.option(
    fc.string({ unit: 'grapheme' }).filter((t) => !/["\\\u0000-\u001f\u007f]/.test(t)),
    { nil: undefined },
  );
  const entries = fc.array(fc.record({ url: urls, rel: rels.map((r) => r.join(' ')), title: titles }), {
    maxLength: 4,
  });

  test('the header parses back to the same links for safe inputs', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const parsed = parseLinkHeader(buildLinkHeader(list));
        expect(parsed.length).toBe(list.length);
        list.forEach((entry, index) => {
          const link = parsed[index] as ParsedLink;
          expect(link.url).toBe(entry.url);
          expect(link.params.rel).toBe(entry.rel);
          if (entry.title === undefined) {
            expect(link.params.title).toBeUndefined();
            expect(link.params['title*']).toBeUndefined();
          } else if (link.params['title*'] !== undefined) {
            expect(decodeExtValue(link.params['title*'])).toBe(entry.title);
          } else {
            expect(link.params.title).toBe(entry.title);
          }
        });
      }),
      { numRuns: 500 },
    );
  });

  test('the header never holds a control character or a raw non-ASCII character', () => {
    fc.assert(
      fc.property(entries, (list) => /^[\u0020-\u007e]*$/.test(buildLinkHeader(list))),
      { numRuns: 500 },
    );
  });

  test('any other input is either written safely or refused with a TypeError', () => {
    const anyEntry = fc.record({
      url: fc.string(),
      rel: fc.string(),
      title: fc.option(fc.string(), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 3 }), (list) => {
        try {
          const header = buildLinkHeader(list);
          return /^[\u0020-\u007e]*$/.test(header) && parseLinkHeader(header).length === list.length;
        } catch (error) {
          return error instanceof TypeError;
        }
      }),
      { numRuns: 1000 },
    );
  });
});
