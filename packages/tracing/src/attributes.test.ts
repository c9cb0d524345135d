import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import {
  headerAttributes,
  methodAttributes,
  parseHost,
  redactQueryString,
  spanName,
  urlParts,
} from './attributes.ts';

describe('methodAttributes and spanName', () => {
  test('keep a known method and name the span after it and the route', () => {
    expect(methodAttributes('PATCH')).toEqual({ method: 'PATCH', original: undefined });
    expect(spanName('GET', '/users/:id')).toBe('GET /users/:id');
    expect(spanName('DELETE', undefined)).toBe('DELETE');
  });

  test('turn an unknown or lower-case method into _OTHER with the original, and name the span HTTP', () => {
    expect(methodAttributes('PURGE')).toEqual({ method: '_OTHER', original: 'PURGE' });
    expect(methodAttributes('get')).toEqual({ method: '_OTHER', original: 'get' });
    expect(spanName('PURGE', '/x')).toBe('HTTP /x');
    expect(spanName('PURGE', undefined)).toBe('HTTP');
  });
});

describe('urlParts', () => {
  test('splits scheme, path and query and ignores the fragment', () => {
    expect(urlParts('https://api.example:8443/a/b?x=1&y=2#frag')).toEqual({
      scheme: 'https',
      path: '/a/b',
      query: 'x=1&y=2',
    });
  });

  test('answers / for an empty path and no query for a bare or empty one', () => {
    expect(urlParts('http://h')).toEqual({ scheme: 'http', path: '/', query: undefined });
    expect(urlParts('http://h/p?')).toEqual({ scheme: 'http', path: '/p', query: undefined });
    expect(urlParts('http://h?q=1')).toEqual({ scheme: 'http', path: '/', query: 'q=1' });
  });
});

describe('redactQueryString', () => {
  test('replaces every value and keeps the names', () => {
    expect(redactQueryString('q=cats&token=abc&page=2')).toBe('q=REDACTED&token=REDACTED&page=REDACTED');
  });

  test('replaces a piece without = whole, keeps empty values and empty pieces', () => {
    expect(redactQueryString('s3cr3t&a=&&b=x=y')).toBe('REDACTED&a=&&b=REDACTED');
  });

  test('never lets a value through (property)', () => {
    const word = fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnop0123%+'),
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(word, word), { minLength: 1, maxLength: 8 }), (pairs) => {
        const secretPairs = pairs.map(([name, value]) => [name, `SECRET${value}`] as const);
        const out = redactQueryString(secretPairs.map(([n, v]) => `${n}=${v}`).join('&'));
        expect(out).not.toContain('SECRET');
        expect(out.split('&').map((piece) => piece.split('=')[0])).toEqual(secretPairs.map(([n]) => n));
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseHost', () => {
  test('reads a host name and an explicit port', () => {
    expect(parseHost('API.Example.com:8080', 'http')).toEqual({ address: 'api.example.com', port: 8080 });
  });

  test('uses the scheme default port when none is given or the port is empty', () => {
    expect(parseHost('example.com', 'https')).toEqual({ address: 'example.com', port: 443 });
    expect(parseHost('example.com:', 'http')).toEqual({ address: 'example.com', port: 80 });
    expect(parseHost('example.com', 'ftp')).toEqual({ address: 'example.com', port: undefined });
  });

  test('strips the brackets of an IPv6 literal', () => {
    expect(parseHost('[::1]:3000', 'http')).toEqual({ address: '::1', port: 3000 });
    expect(parseHost('[2001:db8::1]', 'https')).toEqual({ address: '2001:db8::1', port: 443 });
  });

  test('records nothing for a malformed host', () => {
    for (const bad of [
      '',
      'evil host',
      'a/b',
      'h:99999',
      'h:8o',
      '[::1',
      '[]',
      '[zz::1]',
      '[::1]x',
      'user@h',
      ':80',
    ]) {
      expect(parseHost(bad, 'http')).toBeUndefined();
    }
  });
});

describe('headerAttributes', () => {
  test('records only the listed headers that are present, as one-element arrays', () => {
    const headers = new Headers({ 'x-tenant': 'acme', accept: 'text/html' });
    headers.append('x-tenant', 'beta');
    expect(headerAttributes('http.request.header.', ['x-tenant', 'x-missing'], headers)).toEqual({
      'http.request.header.x-tenant': ['acme, beta'],
    });
  });
});
