import { describe, expect, test } from 'bun:test';
import { BadRequestError } from '../errors/index.ts';
import {
  type SafeRedirectOptions,
  safeRedirect,
  safeRedirectLocation,
  UnsafeRedirectError,
  type UnsafeRedirectReason,
} from './safe-redirect.ts';

const request = new Request('https://app.example/account/settings?tab=1');

function reasonOf(
  target: string | null | undefined,
  options: SafeRedirectOptions = { request },
): UnsafeRedirectReason {
  try {
    safeRedirectLocation(target, options);
  } catch (error) {
    if (error instanceof UnsafeRedirectError) {
      expect(error.target).toBe(String(target));
      return error.reason;
    }
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(target)} to be refused`);
}

describe('safeRedirect', () => {
  test('answers 303 with the normalised same-origin Location by default', () => {
    const res = safeRedirect('/dashboard?x=1#top', { request });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard?x=1#top');
    expect(res.body).toBeNull();
  });

  test('resolves relative paths against the request URL and normalises dot segments', () => {
    expect(safeRedirectLocation('profile', { request })).toBe('/account/profile');
    expect(safeRedirectLocation('../home', { request })).toBe('/home');
    expect(safeRedirectLocation('/a/./b/../c', { request })).toBe('/a/c');
    expect(safeRedirectLocation('?page=2', { request })).toBe('/account/settings?page=2');
    expect(safeRedirectLocation('/search?q=a b', { request })).toBe('/search?q=a%20b');
  });

  test('resolves relative paths against the root without a request', () => {
    expect(safeRedirectLocation('profile')).toBe('/profile');
    expect(safeRedirectLocation('/x')).toBe('/x');
  });

  for (const status of [301, 302, 303, 307, 308] as const) {
    test(`sends status ${status} when asked`, () => {
      expect(safeRedirect('/x', { status }).status).toBe(status);
    });
  }

  test('refuses any other status', () => {
    expect(() => safeRedirect('/x', { status: 200 as 303 })).toThrow(RangeError);
    expect(() => safeRedirect('/x', { status: 304 as 303 })).toThrow(/301, 302, 303, 307 or 308/);
  });

  test('merges the given headers; Location is always the guard’s', () => {
    const res = safeRedirect('/next', {
      headers: { 'cache-control': 'no-store', location: 'https://evil.test/' },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('location')).toBe('/next');
  });

  test('accepts absolute URLs on its own origin (from origin or request)', () => {
    expect(safeRedirectLocation('https://app.example/x', { request })).toBe('https://app.example/x');
    expect(safeRedirectLocation('HTTPS://APP.EXAMPLE:443/x', { origin: 'https://app.example' })).toBe(
      'https://app.example/x',
    );
    expect(reasonOf('http://app.example/x', { request })).toBe('origin-not-allowed');
    expect(reasonOf('https://app.example/x', {})).toBe('origin-not-allowed');
  });

  test('allowedOrigins admits exactly the listed serialised origins', () => {
    const options = { request, allowedOrigins: ['https://idp.example', 'http://localhost:3000'] };
    expect(safeRedirectLocation('https://idp.example/login?x=1', options)).toBe(
      'https://idp.example/login?x=1',
    );
    expect(safeRedirectLocation('http://localhost:3000/', options)).toBe('http://localhost:3000/');
    for (const target of [
      'https://idp.example:8443/',
      'http://idp.example/',
      'https://sub.idp.example/',
      'https://idp.example.evil.test/',
      'https://idp.example@evil.test/',
      'http://localhost:3001/',
    ]) {
      expect(reasonOf(target, options)).toBe('origin-not-allowed');
    }
  });

  test('allowedPaths admits exactly the listed same-origin paths, any query or fragment', () => {
    const options = { request, allowedPaths: ['/home', '/account'], allowedOrigins: ['https://idp.example'] };
    expect(safeRedirectLocation('/home?from=login#x', options)).toBe('/home?from=login#x');
    expect(safeRedirectLocation('https://app.example/account', options)).toBe('https://app.example/account');
    expect(safeRedirectLocation('/x/../home', options)).toBe('/home');
    expect(safeRedirectLocation('https://idp.example/anything', options)).toBe(
      'https://idp.example/anything',
    );
    for (const target of ['/home/', '/Home', '/homes', '/account/delete', '/']) {
      expect(reasonOf(target, options)).toBe('path-not-allowed');
    }
  });

  test('returns the fallback instead of throwing, whatever the reason', () => {
    const options = { request, fallback: '/home', allowedPaths: ['/next'] };
    expect(safeRedirect('//evil.test', options).headers.get('location')).toBe('/home');
    expect(safeRedirect('javascript:alert(1)', options).headers.get('location')).toBe('/home');
    expect(safeRedirect(null, options).headers.get('location')).toBe('/home');
    expect(safeRedirect('/other', options).headers.get('location')).toBe('/home');
    expect(safeRedirect('/next', options).headers.get('location')).toBe('/next');
  });

  test('validates the fallback itself, allowedPaths aside, and says so with a TypeError', () => {
    expect(() => safeRedirect('/x', { fallback: '//evil.test' })).toThrow(
      'safeRedirect: the fallback "//evil.test" is itself unsafe (protocol-relative)',
    );
    expect(() => safeRedirect('/x', { fallback: 'https://evil.test/' })).toThrow(/origin-not-allowed/);
    expect(() =>
      safeRedirect('/x', { fallback: 'https://idp.example/', allowedOrigins: ['https://idp.example'] }),
    ).not.toThrow();
  });

  test('validates its options', () => {
    expect(() => safeRedirect('/x', { origin: 'https://app.example/' })).toThrow(
      /origin must be a serialised origin/,
    );
    expect(() => safeRedirect('/x', { origin: 'app.example' })).toThrow(/serialised origin/);
    expect(() => safeRedirect('/x', { allowedOrigins: ['https://idp.example/path'] })).toThrow(
      /allowedOrigins\[0\]/,
    );
    expect(() => safeRedirect('/x', { allowedOrigins: ['data:,x'] })).toThrow(/allowedOrigins\[0\]/);
    expect(() => safeRedirect('/x', { allowedPaths: ['home'] })).toThrow(/allowedPaths\[0\]/);
    expect(() => safeRedirect('/x', { allowedPaths: ['/a/../b'] })).toThrow(/allowedPaths\[0\]/);
    expect(() => safeRedirect('/x', { allowedPaths: ['//evil'] })).toThrow(/allowedPaths\[0\]/);
    expect(() => safeRedirect('/x', { request: '/relative' })).toThrow(/request has no absolute URL/);
  });

  test('a refusal is a 400 problem carrying its reason, not the target', () => {
    try {
      safeRedirect('//evil.test/');
      throw new Error('expected a throw');
    } catch (error) {
      expect(error).toBeInstanceOf(UnsafeRedirectError);
      expect(error).toBeInstanceOf(BadRequestError);
      const e = error as UnsafeRedirectError;
      expect([e.status, e.reason, e.target]).toEqual([400, 'protocol-relative', '//evil.test/']);
      expect(e.toProblem()).toMatchObject({ status: 400, reason: 'protocol-relative' });
      expect(JSON.stringify(e.toProblem())).not.toContain('evil');
    }
  });
});

describe('safeRedirect rejection reasons', () => {
  const cases: Array<[string | null | undefined, UnsafeRedirectReason]> = [
    ['', 'empty-target'],
    ['   ', 'empty-target'],
    ['\t\n', 'empty-target'],
    [null, 'empty-target'],
    [undefined, 'empty-target'],
    ['/\t/evil.com', 'invalid-control-characters'],
    ['/\n/evil.com', 'invalid-control-characters'],
    ['/\r\n/evil.com', 'invalid-control-characters'],
    ['java\tscript:alert(1)', 'invalid-control-characters'],
    ['/x\u0000', 'invalid-control-characters'],
    ['/x\u007f', 'invalid-control-characters'],
    ['/x\u0085', 'invalid-control-characters'],
    [' //evil.com', 'invalid-control-characters'],
    ['/home ', 'invalid-control-characters'],
    ['/\u2215\u2215evil.com', 'non-latin1-target'],
    ['https://evil.com\uff0f.app.example', 'non-latin1-target'],
    ['/\u202e', 'non-latin1-target'],
    ['//evil.com', 'protocol-relative'],
    ['//evil.com/path', 'protocol-relative'],
    ['/\\evil.com', 'protocol-relative'],
    ['\\\\evil.com', 'protocol-relative'],
    ['\\/evil.com', 'protocol-relative'],
    ['/.//evil.com', 'protocol-relative'],
    ['/a/..//evil.com', 'protocol-relative'],
    ['/a\\b', 'backslash-path'],
    ['\\evil.com', 'backslash-path'],
    ['https://app.example\\@evil.com/', 'backslash-path'],
    ['https:/\\evil.com', 'backslash-path'],
    ['javascript:alert(1)', 'scheme-not-allowed'],
    ['JaVaScRiPt:alert(1)', 'scheme-not-allowed'],
    ['data:text/html,<script>alert(1)</script>', 'scheme-not-allowed'],
    ['vbscript:msgbox', 'scheme-not-allowed'],
    ['file:///etc/passwd', 'scheme-not-allowed'],
    ['ftp://evil.com/', 'scheme-not-allowed'],
    ['mailto:a@b.c', 'scheme-not-allowed'],
    ['foo:bar', 'scheme-not-allowed'],
    ['https://evil.com/', 'origin-not-allowed'],
    ['http:evil.com', 'origin-not-allowed'],
    ['https:evil.com', 'origin-not-allowed'],
    ['https:/evil.com', 'origin-not-allowed'],
    ['https://app.example@evil.com/', 'origin-not-allowed'],
    ['https://exa mple.com/', 'parse-failed'],
    ['http://[::1/', 'parse-failed'],
    ['https://', 'parse-failed'],
    ['http://a:99999/', 'parse-failed'],
  ];
  for (const [target, reason] of cases) {
    test(`refuses ${JSON.stringify(target)} with ${reason}`, () => {
      expect(reasonOf(target)).toBe(reason);
    });
  }

  test('keeps a backslash in the query or fragment, where no parser reads it as a separator', () => {
    expect(safeRedirectLocation('/search?q=a\\b#c\\d', { request })).toBe('/search?q=a\\b#c\\d');
  });

  test('percent-encodes Latin-1 letters in paths instead of refusing them', () => {
    expect(safeRedirectLocation('/caf\u00e9', { request })).toBe('/caf%C3%A9');
  });

  test('keeps an encoded slash encoded: /%2F%2Fevil.com stays a path', () => {
    expect(safeRedirectLocation('/%2F%2Fevil.com', { request })).toBe('/%2F%2Fevil.com');
  });
});
