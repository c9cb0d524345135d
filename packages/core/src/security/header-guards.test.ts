import { describe, expect, test } from 'bun:test';
import { BadRequestError } from '../errors/index.ts';
import { badRequestDetail } from './__fixtures__/bad-request.ts';
import {
  assertNoDuplicateSingletonHeaders,
  assertNoReservedInternalHeaders,
  DEFAULT_SINGLETON_HEADERS,
  isHttpToken,
  sanitizeHeaderName,
  sanitizeHeaderValue,
} from './header-guards.ts';

describe('isHttpToken', () => {
  test('accepts tchar strings and refuses empty strings, separators and non-ASCII', () => {
    expect(isHttpToken("X-Request_Id.1!#$%&'*+^`|~")).toBe(true);
    for (const bad of ['', 'a b', 'a:b', 'a;b', 'a"b', 'a(b', 'a/b', 'a\tb', 'é', 'a\u0000']) {
      expect(isHttpToken(bad)).toBe(false);
    }
  });
});

describe('sanitizeHeaderName', () => {
  test('returns a token name lowercased', () => {
    expect(sanitizeHeaderName('X-Trace-ID')).toBe('x-trace-id');
  });

  test('throws a 400 for a name that is not a token', () => {
    for (const bad of ['', 'X Trace', 'X-Trace:', 'X-Trace\r\nSet-Cookie', 'Naïve']) {
      expect(() => sanitizeHeaderName(bad)).toThrow(BadRequestError);
    }
  });
});

describe('sanitizeHeaderValue', () => {
  test('keeps inner whitespace, HTAB and Latin-1 text, trimming the ends', () => {
    expect(sanitizeHeaderValue(' \tattachment; a=1\tb  ')).toBe('attachment; a=1\tb');
    expect(sanitizeHeaderValue('caf\u00e9')).toBe('caf\u00e9');
    expect(sanitizeHeaderValue('')).toBe('');
  });

  test('refuses CR and LF, so a value cannot start a new header (response splitting)', () => {
    const detail = badRequestDetail(() => sanitizeHeaderValue('x\r\nSet-Cookie: sid=evil', 'Location'));
    expect(detail).toContain('"location"');
    expect(detail).toContain('control character');
    expect(detail).not.toContain('evil');
    expect(() => sanitizeHeaderValue('x\ny')).toThrow(BadRequestError);
    expect(() => sanitizeHeaderValue('x\ry')).toThrow(BadRequestError);
  });

  test('refuses NUL, other controls and DEL', () => {
    for (const bad of ['a\u0000', '\u0001', 'a\u001fb', 'a\u007f']) {
      expect(() => sanitizeHeaderValue(bad)).toThrow(/control character/);
    }
  });

  test('refuses characters above U+00FF', () => {
    expect(() => sanitizeHeaderValue('snow \u2603')).toThrow(/outside Latin-1/);
  });
});

describe('assertNoDuplicateSingletonHeaders', () => {
  test('passes distinct headers and repeats of list fields', () => {
    const raw = [
      'Host',
      'a.test',
      'Accept',
      'text/html',
      'accept',
      'application/json',
      'Cookie',
      'a=1',
      'cookie',
      'b=2',
    ];
    expect(() => assertNoDuplicateSingletonHeaders(raw)).not.toThrow();
    expect(() =>
      assertNoDuplicateSingletonHeaders(new Headers({ host: 'a.test', 'content-length': '12' })),
    ).not.toThrow();
  });

  for (const name of DEFAULT_SINGLETON_HEADERS) {
    test(`refuses a second ${name} in Node rawHeaders, any case, without echoing the value`, () => {
      const raw = [name.toUpperCase(), 'secret-one', name, 'secret-two'];
      const detail = badRequestDetail(() => assertNoDuplicateSingletonHeaders(raw));
      expect(detail).toContain(`"${name}"`);
      expect(detail).not.toContain('secret');
    });
  }

  test('refuses a repeat in name/value pairs', () => {
    const pairs: [string, string][] = [
      ['authorization', 'Bearer a'],
      ['authorization', 'Bearer b'],
    ];
    expect(() => assertNoDuplicateSingletonHeaders(pairs)).toThrow(/"authorization"/);
  });

  test('detects Content-Length and Host repeats a Headers object has joined with ", "', () => {
    const joinedLength = new Headers([
      ['content-length', '5'],
      ['content-length', '50'],
    ]);
    expect(joinedLength.get('content-length')).toBe('5, 50');
    expect(() => assertNoDuplicateSingletonHeaders(joinedLength)).toThrow(/"content-length"/);
    const joinedHost = new Headers([
      ['host', 'good.test'],
      ['host', 'evil.test'],
    ]);
    expect(() => assertNoDuplicateSingletonHeaders(joinedHost)).toThrow(/"host"/);
  });

  test('a custom singleton list replaces the default', () => {
    const raw = ['Origin', 'https://a.test', 'Origin', 'https://b.test', 'Host', 'x', 'Host', 'y'];
    expect(() => assertNoDuplicateSingletonHeaders(raw, ['origin'])).toThrow(/"origin"/);
    expect(() => assertNoDuplicateSingletonHeaders(raw.slice(4), ['origin'])).not.toThrow();
  });

  test('throws a TypeError for rawHeaders of odd length', () => {
    expect(() => assertNoDuplicateSingletonHeaders(['Host'])).toThrow(TypeError);
  });
});

describe('assertNoReservedInternalHeaders', () => {
  test('passes ordinary headers', () => {
    expect(() =>
      assertNoReservedInternalHeaders(new Headers({ 'x-request-id': '1', 'x-charter': 'no-dash' })),
    ).not.toThrow();
  });

  test('refuses x-charter-* and x-middleware-subrequest by default, any case', () => {
    expect(() => assertNoReservedInternalHeaders(['X-Charter-Internal', '1'])).toThrow(
      /"x-charter-internal"/,
    );
    const detail = badRequestDetail(() =>
      assertNoReservedInternalHeaders(new Headers({ 'X-Middleware-Subrequest': 'middleware:middleware' })),
    );
    expect(detail).toContain('"x-middleware-subrequest"');
    expect(detail).not.toContain('middleware:middleware');
  });

  test('adds extra exact names and prefixes to the defaults', () => {
    const extra = ['X-Internal-Token', 'x-upstream-*'];
    expect(() => assertNoReservedInternalHeaders([['x-internal-token', 'a']], extra)).toThrow(
      BadRequestError,
    );
    expect(() => assertNoReservedInternalHeaders([['x-upstream-user', 'a']], extra)).toThrow(BadRequestError);
    expect(() => assertNoReservedInternalHeaders([['x-internal-tokens', 'a']], extra)).not.toThrow();
    expect(() => assertNoReservedInternalHeaders([['x-charter-id', 'a']], extra)).toThrow(BadRequestError);
  });
});
