import { describe, expect, test } from 'bun:test';
import { parseQuery, splitUrl } from './request-parts.ts';

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
    expect(parseQuery('q=caf%C3%A9+au+lait&bad=%zz&r=%')).toEqual({ q: 'café au lait', bad: '%zz', r: '%' });
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

  test('agrees with URL.searchParams on 5000 generated queries', () => {
    for (const query of randomQueries(5000, 0x2545f491)) {
      // The URL parser percent-encodes what a request URL could not carry raw; compare on that form.
      const search = new URL(`http://h/p?${query}`).search.slice(1);
      expect({ query, parsed: parseQuery(search) }).toEqual({ query, parsed: reference(search) });
    }
  });
});

describe('splitUrl', () => {
  test('separates path and query and drops the fragment', () => {
    expect(splitUrl('http://h:1/a/b?x=1#frag')).toEqual({ pathname: '/a/b', search: 'x=1' });
    expect(splitUrl('http://h/a#f?x')).toEqual({ pathname: '/a', search: '' });
    expect(splitUrl('http://h')).toEqual({ pathname: '/', search: '' });
  });
});
