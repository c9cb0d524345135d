import { describe, expect, test } from 'bun:test';
import { resolveBaseUrl, resolveClientOptions } from './options.ts';

describe('resolveBaseUrl', () => {
  test('keeps the origin and path prefix, without trailing slashes', () => {
    expect(resolveBaseUrl('https://API.example.com')).toBe('https://api.example.com');
    expect(resolveBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
    expect(resolveBaseUrl('http://localhost:3000/api/v1//')).toBe('http://localhost:3000/api/v1');
    expect(resolveBaseUrl(new URL('https://x.example:8443/p'))).toBe('https://x.example:8443/p');
  });

  test('refuses what is not an absolute http(s) URL without query, fragment or credentials', () => {
    for (const [value, why] of [
      ['example.com', 'not a URL'],
      ['ws://example.com', 'the scheme is ws'],
      ['https://example.com?x', 'it has a query or a fragment'],
      ['https://example.com#', 'it has a query or a fragment'],
      ['https://u@example.com', 'it carries credentials'],
      [null, 'not a string'],
    ] as const) {
      expect(() => resolveBaseUrl(value)).toThrow(
        `Client option baseUrl must be an absolute http(s) URL: ${why}`,
      );
    }
  });
});

describe('resolveClientOptions', () => {
  test('fills the defaults', () => {
    const resolved = resolveClientOptions({ baseUrl: 'https://a.example' });
    expect(resolved.validateResponses).toBe(false);
    expect([...resolved.headers]).toEqual([]);
    expect(typeof resolved.fetch).toBe('function');
  });

  test('accepts headers as a record, a Headers or pairs, and refuses non-string values', () => {
    expect(
      resolveClientOptions({
        baseUrl: 'https://a.example',
        headers: { 'X-A': '1', skip: undefined },
      }).headers.get('x-a'),
    ).toBe('1');
    expect(
      resolveClientOptions({ baseUrl: 'https://a.example', headers: new Headers({ b: '2' }) }).headers.get(
        'b',
      ),
    ).toBe('2');
    expect(
      resolveClientOptions({ baseUrl: 'https://a.example', headers: [['c', '3']] }).headers.get('c'),
    ).toBe('3');
    expect(() => resolveClientOptions({ baseUrl: 'https://a.example', headers: [['c']] as never })).toThrow(
      '[name, value] pair',
    );
    expect(() => resolveClientOptions({ baseUrl: 'https://a.example', headers: 'x' as never })).toThrow(
      'headers must be an object',
    );
    expect(() =>
      resolveClientOptions({ baseUrl: 'https://a.example', headers: { 'bad name': 'v' } }),
    ).toThrow('not a valid field');
  });

  test('refuses options that are not an object', () => {
    expect(() => resolveClientOptions(undefined as never)).toThrow(
      'options must be an object with a baseUrl',
    );
  });
});
