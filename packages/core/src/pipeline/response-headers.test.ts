import { describe, expect, test } from 'bun:test';
import {
  appendVary,
  isFieldValue,
  mergeVary,
  mutableResponse,
  setResponseHeaders,
  splitList,
} from '../pipeline/response-headers.ts';

/**
 * A response whose headers throw on every write, as undici's do for `fetch()` and
 * `Response.redirect()` results (Fetch §5.4 guard "immutable"). Bun does not enforce the guard.
 */
function immutableResponse(body: string | null, init: ResponseInit = {}): Response {
  const response = new Response(body, init);
  const headers = new Headers(response.headers);
  const refuse = (): never => {
    throw new TypeError('immutable');
  };
  Object.defineProperty(headers, 'set', { value: refuse });
  Object.defineProperty(headers, 'append', { value: refuse });
  Object.defineProperty(headers, 'delete', { value: refuse });
  Object.defineProperty(response, 'headers', { value: headers });
  return response;
}

describe('setResponseHeaders', () => {
  test('sets headers in place when the response headers are mutable', () => {
    const response = new Response('hi', { headers: { 'x-a': '1' } });
    const out = setResponseHeaders(response, [['x-b', '2']]);
    expect(out).toBe(response);
    expect(out.headers.get('x-a')).toBe('1');
    expect(out.headers.get('x-b')).toBe('2');
  });

  test('overwrites an existing header by default and keeps it with overwrite: false', () => {
    const first = setResponseHeaders(new Response(null, { headers: { 'x-a': 'old' } }), { 'x-a': 'new' });
    expect(first.headers.get('x-a')).toBe('new');
    const second = setResponseHeaders(
      new Response(null, { headers: { 'x-a': 'old' } }),
      { 'x-a': 'new' },
      { overwrite: false },
    );
    expect(second.headers.get('x-a')).toBe('old');
  });

  test('copies a response with immutable headers, keeping status, headers and body', async () => {
    const response = immutableResponse('body', { status: 201, statusText: 'Made', headers: { 'x-a': '1' } });
    expect(() => response.headers.set('x-b', '2')).toThrow(TypeError);
    const out = setResponseHeaders(response, new Headers({ 'x-b': '2' }));
    expect(out).not.toBe(response);
    expect(out.status).toBe(201);
    expect(out.statusText).toBe('Made');
    expect(out.headers.get('x-a')).toBe('1');
    expect(out.headers.get('x-b')).toBe('2');
    expect(await out.text()).toBe('body');
  });

  test('does not copy when nothing is set', () => {
    const response = immutableResponse(null, { headers: { 'x-a': '1' } });
    expect(setResponseHeaders(response, [['x-a', '2']], { overwrite: false })).toBe(response);
  });

  test('appends Set-Cookie instead of replacing it', () => {
    const response = new Response(null, { headers: [['set-cookie', 'a=1']] });
    const out = setResponseHeaders(response, [['Set-Cookie', 'b=2']], { overwrite: false });
    expect(out.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });
});

describe('mutableResponse', () => {
  test('returns the response itself when its headers are mutable, a copy otherwise', () => {
    const mutable = new Response('x');
    expect(mutableResponse(mutable)).toBe(mutable);
    const frozen = immutableResponse('x');
    const copy = mutableResponse(frozen);
    expect(copy).not.toBe(frozen);
    copy.headers.set('x-ok', '1');
    expect(copy.headers.get('x-ok')).toBe('1');
  });
});

describe('mergeVary', () => {
  test('adds names without duplicates, comparing case-insensitively', () => {
    expect(mergeVary(null, 'Origin')).toBe('Origin');
    expect(mergeVary('Accept-Encoding', 'Origin')).toBe('Accept-Encoding, Origin');
    expect(mergeVary('accept-encoding, origin', ['Origin', 'Accept'])).toBe(
      'accept-encoding, origin, Accept',
    );
    expect(mergeVary(' a ,, b ', 'c')).toBe('a, b, c');
  });

  test('keeps or becomes * (RFC 9110 §12.5.5)', () => {
    expect(mergeVary('*', 'Origin')).toBe('*');
    expect(mergeVary('Origin', '*')).toBe('*');
  });
});

describe('appendVary', () => {
  test('merges into the existing Vary and leaves an already-listed name alone', () => {
    const response = new Response(null, { headers: { vary: 'Accept-Encoding' } });
    const out = appendVary(response, 'Origin');
    expect(out.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(appendVary(out, 'origin').headers.get('vary')).toBe('Accept-Encoding, Origin');
  });

  test('works on a response with immutable headers', () => {
    const out = appendVary(immutableResponse(null, { headers: { vary: 'Accept' } }), 'Origin');
    expect(out.headers.get('vary')).toBe('Accept, Origin');
  });
});

describe('splitList', () => {
  test('splits on commas, trims and drops empty members', () => {
    expect(splitList(null)).toEqual([]);
    expect(splitList('a, b,,c ')).toEqual(['a', 'b', 'c']);
  });
});

describe('isFieldValue', () => {
  test('accepts visible ASCII with inner spaces', () => {
    expect(isFieldValue("default-src 'none'")).toBe(true);
    expect(isFieldValue('')).toBe(true);
  });

  test('refuses CR, LF, NUL, other controls, non-ASCII and edge whitespace', () => {
    for (const bad of ['a\r\nb', 'a\nb', 'a\0b', 'a\x7fb', 'café', ' a', 'a '])
      expect(isFieldValue(bad)).toBe(false);
  });
});
