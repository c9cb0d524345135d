import { describe, expect, test } from 'bun:test';
import {
  assertCookieAttributes,
  type CookieAttributes,
  CookieAttributeError,
  type CookieRule,
  parseCookieHeader,
  readRequestCookie,
  serializeClearCookie,
  serializeCookie,
} from './cookies.ts';

function ruleOf(
  name: string,
  attributes: CookieAttributes,
  isProduction?: boolean,
  scope = 'session cookie',
): CookieRule {
  try {
    assertCookieAttributes({ scope, name, attributes, isProduction });
  } catch (error) {
    expect(error).toBeInstanceOf(CookieAttributeError);
    const failure = error as CookieAttributeError;
    expect(failure.message).toStartWith(`${scope} "`);
    expect(failure.scope).toBe(scope);
    return failure.rule;
  }
  throw new Error('expected a throw');
}

describe('serializeCookie', () => {
  test('applies the defaults: Path=/, Secure, HttpOnly, SameSite=Strict', () => {
    expect(serializeCookie('sid', 'abc')).toBe('sid=abc; Path=/; Secure; HttpOnly; SameSite=Strict');
  });

  test('URI-encodes the value, so separators cannot add attributes', () => {
    expect(serializeCookie('pref', 'a b;c,d"\u00e9')).toStartWith('pref=a%20b%3Bc%2Cd%22%C3%A9;');
    expect(serializeCookie('x', 'v; Domain=evil.test')).toStartWith('x=v%3B%20Domain%3Devil.test;');
  });

  test('writes every attribute when set', () => {
    const expires = new Date(Date.UTC(2030, 0, 2, 3, 4, 5));
    const cookie = serializeCookie('t', '1', {
      sameSite: 'None',
      secure: true,
      httpOnly: false,
      path: '/app',
      domain: 'example.com',
      maxAgeSeconds: 3600.7,
      expires,
      partitioned: true,
    });
    expect(cookie).toBe(
      't=1; Max-Age=3600; Expires=Wed, 02 Jan 2030 03:04:05 GMT; Domain=example.com; Path=/app; Secure; SameSite=None; Partitioned',
    );
  });

  test('omits Max-Age for maxAgeSeconds 0 and rounds a fraction of a second up to 1', () => {
    expect(serializeCookie('a', 'b', { maxAgeSeconds: 0 })).not.toContain('Max-Age');
    expect(serializeCookie('a', 'b', { maxAgeSeconds: 0.2 })).toContain('; Max-Age=1;');
  });

  test('throws a TypeError for a name that is not a token', () => {
    for (const bad of ['', 'a b', 'a=b', 'a;b', 'caf\u00e9', 'a\r\n']) {
      expect(() => serializeCookie(bad, 'v')).toThrow(TypeError);
    }
  });

  test('throws a TypeError for a value with a lone surrogate and a RangeError past 4096 bytes', () => {
    expect(() => serializeCookie('a', '\uD800')).toThrow(TypeError);
    expect(() => serializeCookie('a', 'x'.repeat(4096))).toThrow(RangeError);
    expect(serializeCookie('a', 'x'.repeat(4095)).length).toBeGreaterThan(4096);
  });

  test('refuses attribute combinations a browser would drop', () => {
    expect(() => serializeCookie('__Host-sid', 'v', { path: '/app' })).toThrow(CookieAttributeError);
    expect(() => serializeCookie('a', 'v', { sameSite: 'None', secure: false })).toThrow(
      /SameSite=None requires Secure/,
    );
    expect(() => serializeCookie('a', 'v', { path: '/x;Domain=evil' })).toThrow(CookieAttributeError);
  });
});

describe('serializeClearCookie', () => {
  test('expires the cookie with Max-Age=0 and a past Expires, keeping its scope', () => {
    expect(serializeClearCookie('sid')).toBe(
      'sid=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; Secure; HttpOnly; SameSite=Strict',
    );
    expect(
      serializeClearCookie('t', { path: '/app', domain: 'example.com', maxAgeSeconds: 99, sameSite: 'Lax' }),
    ).toBe(
      't=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Domain=example.com; Path=/app; Secure; HttpOnly; SameSite=Lax',
    );
  });

  test('refuses a bad name or a clearing cookie the browser would ignore', () => {
    expect(() => serializeClearCookie('a b')).toThrow(TypeError);
    expect(() => serializeClearCookie('__Host-sid', { domain: 'example.com' })).toThrow(CookieAttributeError);
  });
});

describe('parseCookieHeader', () => {
  test('maps every name to all its decoded values in order', () => {
    const cookies = parseCookieHeader('a=1; b=x%20y; a=2;c="quoted"; d=');
    expect([...cookies]).toEqual([
      ['a', ['1', '2']],
      ['b', ['x y']],
      ['c', ['quoted']],
      ['d', ['']],
    ]);
  });

  test('keeps a malformed escape raw and skips pairs without a name or "="', () => {
    expect([...parseCookieHeader('bad=%E0%A4%A; =anon; flag; ok=1')]).toEqual([
      ['bad', ['%E0%A4%A']],
      ['ok', ['1']],
    ]);
  });

  test('is empty for a missing header and keeps names like __proto__ as plain keys', () => {
    expect(parseCookieHeader(null).size).toBe(0);
    expect(parseCookieHeader(undefined).size).toBe(0);
    expect(parseCookieHeader('').size).toBe(0);
    expect(parseCookieHeader('__proto__=1').get('__proto__')).toEqual(['1']);
  });
});

describe('readRequestCookie', () => {
  test('returns the decoded value of a cookie present once', () => {
    expect(readRequestCookie('a=1; sid=abc%3D%3D; b=2', 'sid')).toBe('abc==');
    expect(readRequestCookie(' sid = v ', 'sid')).toBe('v');
  });

  test('returns null when the cookie is absent or the header is missing', () => {
    expect(readRequestCookie('a=1', 'sid')).toBeNull();
    expect(readRequestCookie('', 'sid')).toBeNull();
    expect(readRequestCookie(null, 'sid')).toBeNull();
    expect(readRequestCookie(undefined, 'sid')).toBeNull();
  });

  test('returns null when the name appears twice, even with equal values (cookie tossing)', () => {
    expect(readRequestCookie('sid=good; sid=evil', 'sid')).toBeNull();
    expect(readRequestCookie('sid=same; x=1; sid=same', 'sid')).toBeNull();
  });

  test('matches names case-sensitively', () => {
    expect(readRequestCookie('__HOST-sid=evil; __Host-sid=good', '__Host-sid')).toBe('good');
  });

  test('returns a malformed escape raw instead of throwing', () => {
    expect(readRequestCookie('sid=%zz', 'sid')).toBe('%zz');
  });

  test('throws a TypeError for a name that is not a token', () => {
    expect(() => readRequestCookie('a=1', 'a b')).toThrow(TypeError);
  });
});

describe('assertCookieAttributes', () => {
  test('accepts the defaults, in production too', () => {
    expect(() =>
      assertCookieAttributes({
        scope: 'session cookie',
        name: '__Host-sid',
        attributes: {},
        isProduction: true,
      }),
    ).not.toThrow();
  });

  test('refuses a name that is not a token', () => {
    expect(ruleOf('a b', {})).toBe('name');
  });

  test('checks sameSite, path, domain, maxAgeSeconds and expires', () => {
    expect(ruleOf('a', { sameSite: 'strict' as 'Strict' })).toBe('same-site');
    expect(ruleOf('a', { path: 'app' })).toBe('path');
    expect(ruleOf('a', { path: '/a\r\nSet-Cookie: x=y' })).toBe('path');
    expect(ruleOf('a', { path: `/${'x'.repeat(1024)}` })).toBe('path');
    expect(ruleOf('a', { domain: 'evil.test; Secure' })).toBe('domain');
    expect(ruleOf('a', { domain: '' })).toBe('domain');
    expect(ruleOf('a', { maxAgeSeconds: -1 })).toBe('max-age');
    expect(ruleOf('a', { maxAgeSeconds: Number.POSITIVE_INFINITY })).toBe('max-age');
    expect(ruleOf('a', { expires: new Date(Number.NaN) })).toBe('expires');
    expect(() =>
      assertCookieAttributes({ scope: 's', name: 'a', attributes: { domain: '.Example.com', path: '/a/b' } }),
    ).not.toThrow();
  });

  test('enforces the __Host- prefix: Secure, Path=/, no Domain, in any case', () => {
    expect(ruleOf('__Host-sid', { secure: false })).toBe('host-prefix');
    expect(ruleOf('__Host-sid', { path: '/app' })).toBe('host-prefix');
    expect(ruleOf('__Host-sid', { domain: 'example.com' })).toBe('host-prefix');
    expect(ruleOf('__HOST-sid', { domain: 'example.com' })).toBe('host-prefix');
  });

  test('enforces the __Secure- prefix and the __Http- prefixes', () => {
    expect(ruleOf('__Secure-id', { secure: false })).toBe('secure-prefix');
    expect(() =>
      assertCookieAttributes({ scope: 's', name: '__Secure-id', attributes: { path: '/x', domain: 'a.b' } }),
    ).not.toThrow();
    expect(ruleOf('__Http-id', { httpOnly: false })).toBe('http-prefix');
    expect(ruleOf('__Host-Http-id', { httpOnly: false })).toBe('http-prefix');
  });

  test('requires Secure with SameSite=None and with Partitioned', () => {
    expect(ruleOf('a', { sameSite: 'None', secure: false })).toBe('same-site-none-secure');
    expect(ruleOf('a', { partitioned: true, secure: false })).toBe('partitioned-secure');
    expect(() =>
      assertCookieAttributes({ scope: 's', name: 'a', attributes: { sameSite: 'None', partitioned: true } }),
    ).not.toThrow();
  });

  test('in production requires Secure and HttpOnly, except HttpOnly for a CSRF token cookie', () => {
    expect(ruleOf('sid', { secure: false }, true)).toBe('production-secure');
    expect(ruleOf('sid', { httpOnly: false }, true)).toBe('production-http-only');
    const plain = { secure: false, httpOnly: false };
    expect(() =>
      assertCookieAttributes({ scope: 'session cookie', name: 'sid', attributes: plain }),
    ).not.toThrow();
    expect(() =>
      assertCookieAttributes({
        scope: 'CSRF token cookie',
        name: 'csrf',
        attributes: { httpOnly: false },
        isProduction: true,
      }),
    ).not.toThrow();
    expect(ruleOf('csrf', { secure: false }, true, 'csrf cookie')).toBe('production-secure');
  });

  test('names the scope, the cookie and the rule in the message', () => {
    try {
      assertCookieAttributes({ scope: 'session cookie', name: '__Host-sid', attributes: { path: '/x' } });
    } catch (error) {
      expect((error as Error).message).toBe(
        'session cookie "__Host-sid": the __Host- prefix requires Path=/',
      );
      expect((error as CookieAttributeError).cookieName).toBe('__Host-sid');
      expect((error as Error).name).toBe('CookieAttributeError');
      return;
    }
    throw new Error('expected a throw');
  });
});
