import { describe, expect, test } from 'bun:test';
import { BadRequestError } from '../errors/index.ts';
import { parseQuery, pathnameOf, splitUrl } from './request-parts.ts';

/** The WHATWG reference: what `new URL(...).searchParams` gives for the same query. */
function reference(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(`http://h/p?${search}`).searchParams) {
    if (key === '__proto__') continue;
    const previous = out[key];
    if (previous === undefined) out[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else out[key] = [previous, value];
  }
  return out;
}

/** A small deterministic generator (xorshift), so a failure always reproduces. */
function randomQueries(count: number, seed: number): string[] {
  const alphabet = ['a', 'b', 'é', '=', '&', '%', '2', '0', 'F', '+', '?', ';', '%2', '%e9', '%C3%A9', '&&'];
  let state = seed;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    const length = Math.floor(next() * 12);
    for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
    out.push(text);
  }
  return out;
}

describe('parseQuery', () => {
  test('splits plain pairs, repeats into arrays and keeps names without a value', () => {
    expect(parseQuery('fields=name&tag=a&tag=b&flag')).toEqual({ fields: 'name', tag: ['a', 'b'], flag: '' });
  });

  test('skips empty pairs and keeps everything after the first = in the value', () => {
    expect(parseQuery('&a=1&&b=x=y&')).toEqual({ a: '1', b: 'x=y' });
  });

  test('decodes percent escapes and + as the WHATWG form parser does', () => {
    expect(parseQuery('q=caf%C3%A9+au+lait&pct=100%25&a%20b=%2B')).toEqual({
      q: 'café au lait',
      pct: '100%',
      'a b': '+',
    });
  });

  test('refuses a % that starts no escape, naming the parameter (400)', () => {
    for (const search of ['bad=%zz', 'ok=1&bad=%', 'bad=50%']) {
      expect(() => parseQuery(search)).toThrow(
        'The value of query parameter "bad" is not valid percent-encoded UTF-8 (RFC 3986 §2.1)',
      );
    }
    try {
      parseQuery('bad=%zz');
    } catch (error) {
      expect((error as BadRequestError).status).toBe(400);
    }
  });

  test('refuses escapes that are not UTF-8 rather than turning them into U+FFFD', () => {
    // A lone continuation byte, a truncated sequence, an overlong "/" and an encoded surrogate.
    for (const value of ['%80', '%C3', '%C3%28', '%C0%AF', '%ED%A0%80', '%FF']) {
      expect(() => parseQuery(`name=${value}`)).toThrow('The value of query parameter "name"');
    }
  });

  test('refuses an undecodable name, quoting at most 64 characters of it', () => {
    expect(() => parseQuery('%E9=1')).toThrow(
      'The query parameter name "%E9" is not valid percent-encoded UTF-8',
    );
    const long = `${'x'.repeat(100)}%zz`;
    expect(() => parseQuery(`${long}=1`)).toThrow(
      `The query parameter name "${'x'.repeat(64)}" is not valid`,
    );
  });

  test('keeps a leading ? as part of the first name (the request target was `??x=1`)', () => {
    expect(parseQuery('?x=1')).toEqual({ '?x': '1' });
    expect(parseQuery('?x=%31')).toEqual({ '?x': '1' });
  });

  test('never lets __proto__ reach the prototype', () => {
    const out = parseQuery('__proto__=x&__proto__[polluted]=1&a=1');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out).toEqual({ '__proto__[polluted]': '1', a: '1' });
  });

  test('agrees with URL.searchParams on 5000 generated queries, or refuses what it would alter', () => {
    let refused = 0;
    for (const query of randomQueries(5000, 0x2545f491)) {
      // The URL parser percent-encodes what a request URL could not carry raw; compare on that form.
      const search = new URL(`http://h/p?${query}`).search.slice(1);
      let parsed: unknown;
      try {
        parsed = parseQuery(search);
      } catch (error) {
        // Refused only where the WHATWG parser keeps a stray % or puts U+FFFD in place of bytes.
        expect(error).toBeInstanceOf(BadRequestError);
        expect(
          /%(?![0-9A-Fa-f]{2})/.test(search) || JSON.stringify(reference(search)).includes('\ufffd'),
        ).toBe(true);
        refused++;
        continue;
      }
      expect({ query, parsed }).toEqual({ query, parsed: reference(search) });
    }
    // Both outcomes occur in the sample, so neither branch is vacuous.
    expect(refused).toBeGreaterThan(100);
    expect(refused).toBeLessThan(4900);
  });
});

describe('splitUrl', () => {
  test('separates path and query and drops the fragment', () => {
    expect(splitUrl('http://h:1/a/b?x=1#frag')).toEqual({ pathname: '/a/b', search: 'x=1' });
    expect(splitUrl('http://h/a#f?x')).toEqual({ pathname: '/a', search: '' });
    expect(splitUrl('http://h')).toEqual({ pathname: '/', search: '' });
  });
});

describe('pathnameOf', () => {
  test('cuts the path exactly as splitUrl does', () => {
    for (const url of [
      'http://h/users/42',
      'http://h:3000/users/42?x=1',
      'http://h/users/42#f?x',
      'http://h/users/42?x#f',
      'http://h',
      'http://h?x',
      'https://h/',
      'http://h/a%2Fb/?q=/x',
      '/relative?x',
    ]) {
      expect({ url, pathname: pathnameOf(url) }).toEqual({ url, pathname: splitUrl(url).pathname });
    }
  });
});
