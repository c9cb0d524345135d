import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { parseRoutePath } from './path.ts';
import { Router } from './router.ts';
import { matchCanonical, patternsOverlap } from './sole-match.ts';

const overlap = (a: string, b: string) =>
  patternsOverlap(parseRoutePath(a).segments, parseRoutePath(b).segments);

describe('patternsOverlap', () => {
  test('patterns some path matches both ways', () => {
    expect(overlap('/users/:id', '/users/me')).toBe(true);
    expect(overlap('/a/:x/b', '/a/:y/:z')).toBe(true);
    expect(overlap('/a/:x', '/:y/b')).toBe(true);
    expect(overlap('/files/*rest', '/files/:id')).toBe(true);
    expect(overlap('/files/*rest', '/files/a/b/:c')).toBe(true);
    expect(overlap('/*all', '/users/:id')).toBe(true);
    expect(overlap('/a/*x', '/a/b/*y')).toBe(true);
  });

  test('patterns no path matches both ways', () => {
    expect(overlap('/users/:id', '/users/:id/posts')).toBe(false);
    expect(overlap('/users/:id', '/items/:id')).toBe(false);
    expect(overlap('/a/:x/b', '/a/:y/c')).toBe(false);
    // A wildcard takes at least one segment.
    expect(overlap('/files/*rest', '/files')).toBe(false);
    expect(overlap('/files/*rest', '/docs/:id')).toBe(false);
  });
});

describe('matchCanonical', () => {
  const route = parseRoutePath('/items/:id/parts/:part');
  const match = (pathname: string) => matchCanonical(route.segments, route.names, pathname);

  test('a canonical path that matches gives the raw segments', () => {
    expect(match('/items/42/parts/x;y')).toEqual({ id: '42', part: 'x;y' });
  });

  test('anything the router would normalise, refuse or miss is left to it', () => {
    for (const pathname of [
      '/items/4%2F2/parts/1',
      '/items/%41/parts/1',
      '/items/42/parts/1/',
      '/items/42/parts/',
      '/items//parts/1',
      '/items/../parts/1',
      '/items/./parts/1',
      '/items/a b/parts/1',
      '/items/é/parts/1',
      '/items/42/part/1',
      '/items/42/parts',
      '/items/42/parts/1/2',
      '/ITEMS/42/parts/1',
      '/items/42/partsx/1',
    ]) {
      expect({ pathname, params: match(pathname) }).toEqual({ pathname, params: undefined });
    }
  });
});

describe('Router.soleMatcher', () => {
  test('undefined for static, wildcard, unregistered and overlapping patterns', () => {
    const router = new Router<string>();
    router.add('GET', '/users/me', 'me');
    router.add('GET', '/users/:id', 'user');
    router.add('GET', '/files/*rest', 'files');
    router.add('GET', '/items/:id', 'item');
    expect(router.soleMatcher('/users/me')).toBeUndefined();
    expect(router.soleMatcher('/users/:id')).toBeUndefined();
    expect(router.soleMatcher('/files/*rest')).toBeUndefined();
    expect(router.soleMatcher('/other/:id')).toBeUndefined();
    expect(router.soleMatcher('/items/:id')?.('/items/7')).toEqual({ id: '7' });
  });

  test('a pattern added later that overlaps hands every path back to the router', () => {
    const router = new Router<string>();
    router.add('GET', '/items/:id', 'item');
    const match = router.soleMatcher('/items/:id');
    expect(match?.('/items/special')).toEqual({ id: 'special' });
    router.add('POST', '/items/:id/parts', 'parts');
    expect(match?.('/items/special')).toEqual({ id: 'special' });
    router.add('GET', '/items/special', 'special');
    expect(match?.('/items/special')).toBeUndefined();
    expect(match?.('/items/7')).toBeUndefined();
  });

  test('whenever it matches, router.find gives the same route and params', () => {
    const patterns = [
      '/items/:id',
      '/items/:id/parts/:part',
      '/a/:x/b',
      '/a/:y/:z',
      '/u/me',
      '/u/:id/x',
      '/f/*r',
    ];
    const router = new Router<string>();
    for (const p of patterns) router.add('GET', p, p);
    const matchers = patterns.map((p) => [p, router.soleMatcher(p)] as const);
    const segment = fc.constantFrom(
      'items',
      'parts',
      'a',
      'b',
      'u',
      'me',
      'x',
      'f',
      '42',
      '%41',
      '%2F',
      '..',
      '.',
      '',
      'é',
      'a b',
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const pathname = `/${segments.join('/')}`;
        for (const [pattern, match] of matchers) {
          const params = match?.(pathname);
          if (params === undefined) continue;
          expect(router.find('GET', pathname)).toEqual({ kind: 'found', value: pattern, params });
        }
      }),
      { numRuns: 3000 },
    );
    // The overlapping ones never claim a path.
    expect(matchers.filter(([, match]) => match !== undefined).map(([p]) => p)).toEqual([
      '/items/:id',
      '/items/:id/parts/:part',
      '/u/:id/x',
    ]);
  });
});
