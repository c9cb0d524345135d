import { describe, expect, test } from 'bun:test';
import type { RouteLookup } from './router.ts';
import { RouteDefinitionError, Router } from './router.ts';

function router(routes: ReadonlyArray<readonly [string, string]>): Router<string> {
  const r = new Router<string>();
  for (const [method, path] of routes) r.add(method, path, `${method} ${path}`);
  return r;
}

const found = <T>(value: T, params: Record<string, string> = {}): RouteLookup<T> => ({
  kind: 'found',
  value,
  params,
});
const notAllowed = (...allowed: string[]): RouteLookup<never> => ({ kind: 'method-not-allowed', allowed });
const NOT_FOUND: RouteLookup<never> = { kind: 'not-found' };

function expectDefinitionError(fn: () => void, path: string, fragment: string): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RouteDefinitionError);
  const message = (error as Error).message;
  expect(message).toContain(JSON.stringify(path));
  expect(message).toContain(fragment);
}

describe('Router', () => {
  describe('registration', () => {
    test.each([
      ['/', 'GET /'],
      ['/users', 'GET /users'],
      ['/users/:id', 'GET /users/:id'],
      ['/users/:user_id/posts/:Post2', 'GET /users/:user_id/posts/:Post2'],
      ['/files/*path', 'GET /files/*path'],
      ['/a+b/c~d/e.json', 'GET /a+b/c~d/e.json'],
    ])('accepts the valid pattern %s', (path, value) => {
      const r = router([['GET', path]]);
      expect(r.has('GET', path)).toBe(true);
      expect(r.routes()[0]?.value).toBe(value);
    });

    test.each([
      ['users', 'must start with "/"'],
      ['', 'must start with "/"'],
      ['/users/', 'trailing slash'],
      ['/a//b', 'empty path segment'],
      ['/a/./b', 'dot segment'],
      ['/a/..', 'dot segment'],
      ['/a/%2e%2E', 'dot segment'],
      ['/a/%2Fb', 'percent-encoded "/"'],
      ['/a/%5cb', 'percent-encoded "/" or "\\"'],
      ['/a\\b', 'backslash'],
      ['/a\u0000b', 'control character'],
      ['/a\tb', 'control character'],
      ['/a%00b', 'control character'],
      ['/a%7F', 'control character'],
      ['/a%zz', 'malformed percent-encoding'],
      ['/a%e0%a4', 'not valid UTF-8'],
      ['/a/\ud800', 'unpaired UTF-16 surrogate'],
      ['/users/:', 'a parameter needs a name'],
      ['/files/*', 'a bare "*" needs a name'],
      ['/:1id', 'is not a valid name'],
      ['/:id/:id', 'the name "id" is used twice'],
      ['/:path/*path', 'the name "path" is used twice'],
      ['/files/*path/meta', 'must be the last segment'],
      ['/users/:__proto__', '__proto__'],
      ['/a#b', 'fragment'],
    ])('rejects the invalid pattern %j', (path, fragment) => {
      expectDefinitionError(() => new Router().add('GET', path, 1), path, fragment);
    });

    test.each([
      ['/file-:id'],
      ['/users/:id(\\d+)'],
      ['/users/:id?'],
      ['/files/:path+'],
      ['/files/*path?'],
      ['/a(b)'],
      ['/a/{id}'],
      ['/a?'],
      ['/a*b'],
      ['/:id.json'],
    ])('rejects mixed segments and regex syntax such as %j', (path) => {
      expectDefinitionError(() => new Router().add('GET', path, 1), path, 'regex paths are not accepted');
    });

    test.each(['get', 'Get', '', 'GE T', 'GET\n'])('rejects the method %j, naming the path', (method) => {
      expectDefinitionError(() => new Router().add(method, '/x', 1), '/x', 'HTTP method');
    });

    test('rejects the same method and path twice', () => {
      const r = router([['GET', '/users/:id']]);
      expectDefinitionError(() => r.add('GET', '/users/:id', 'again'), '/users/:id', 'Route conflict');
    });

    test('rejects the same method on the same shape with another parameter name', () => {
      const r = router([['GET', '/users/:id']]);
      expectDefinitionError(() => r.add('GET', '/users/:userId', 'x'), '/users/:userId', '"/users/:id"');
    });

    test('rejects another method on the same shape with another parameter name', () => {
      const r = router([['GET', '/users/:id/posts/:postId']]);
      expectDefinitionError(
        () => r.add('DELETE', '/users/:id/posts/:pid', 'x'),
        '/users/:id/posts/:pid',
        'different parameter/wildcard names',
      );
    });

    test('rejects two wildcards with different names at the same node', () => {
      const r = router([['GET', '/files/*path']]);
      expectDefinitionError(() => r.add('PUT', '/files/*rest', 'x'), '/files/*rest', '"/files/*path"');
    });

    test('treats re-encoded and differently cased escapes as the same static route', () => {
      const r = router([['GET', '/café']]);
      expectDefinitionError(() => r.add('GET', '/caf%c3%a9', 'x'), '/caf%c3%a9', 'Route conflict');
      expect(r.has('GET', '/caf%C3%A9')).toBe(true);
    });

    test('allows another method on the same shape with the same names', () => {
      const r = router([
        ['GET', '/users/:id'],
        ['DELETE', '/users/:id'],
      ]);
      expect(r.find('DELETE', '/users/7')).toEqual(found('DELETE /users/:id', { id: '7' }));
    });

    test('allows different parameter names at one position for different shapes', () => {
      const r = router([
        ['GET', '/users/:id'],
        ['GET', '/users/:userId/posts'],
      ]);
      expect(r.find('GET', '/users/3/posts')).toEqual(found('GET /users/:userId/posts', { userId: '3' }));
      expect(r.find('GET', '/users/3')).toEqual(found('GET /users/:id', { id: '3' }));
    });

    test('leaves the router unchanged when a registration throws', () => {
      const r = router([['GET', '/users/:id']]);
      expect(() => r.add('GET', '/users/:other', 'x')).toThrow(RouteDefinitionError);
      expect(r.routes().length).toBe(1);
      expect(r.find('GET', '/users/1')).toEqual(found('GET /users/:id', { id: '1' }));
    });
  });

  describe('introspection', () => {
    test('lists routes in registration order with canonical paths and static flags', () => {
      const r = router([
        ['GET', '/users/:id'],
        ['GET', '/café'],
        ['POST', '/users'],
        ['GET', '/files/*path'],
      ]);
      expect(r.routes()).toEqual([
        { method: 'GET', path: '/users/:id', value: 'GET /users/:id', isStatic: false },
        { method: 'GET', path: '/caf%C3%A9', value: 'GET /café', isStatic: true },
        { method: 'POST', path: '/users', value: 'POST /users', isStatic: true },
        { method: 'GET', path: '/files/*path', value: 'GET /files/*path', isStatic: false },
      ]);
      expect(Object.isFrozen(r.routes())).toBe(true);
    });

    test('reports registered methods per pattern exactly as given', () => {
      const r = router([
        ['GET', '/users/:id'],
        ['GET', '/files/*path'],
      ]);
      expect(r.has('GET', '/users/:id')).toBe(true);
      expect(r.has('HEAD', '/users/:id')).toBe(false);
      expect(r.has('GET', '/users/:userId')).toBe(false);
      expect(r.has('GET', '/users/42')).toBe(false);
      expect(r.has('GET', '/files/*path')).toBe(true);
      expect(r.has('GET', '/files/*rest')).toBe(false);
      expect(r.has('GET', '/users')).toBe(false);
      expect(r.has('GET', 'not a path')).toBe(false);
    });
  });

  describe('lookup', () => {
    test('finds a static route with shared frozen empty params', () => {
      const r = router([['GET', '/health']]);
      const a = r.find('GET', '/health');
      expect(a).toEqual(found('GET /health'));
      expect(r.find('GET', '/health')).toBe(a);
      if (a.kind !== 'found') throw new Error('unreachable');
      expect(Object.isFrozen(a.params)).toBe(true);
      expect(() => {
        a.params.injected = 'x';
      }).toThrow();
    });

    test('finds the root path', () => {
      const r = router([['GET', '/']]);
      expect(r.find('GET', '/')).toEqual(found('GET /'));
      expect(r.find('GET', '/x')).toEqual(NOT_FOUND);
    });

    test('captures parameters', () => {
      const r = router([['GET', '/orgs/:org/repos/:repo/issues/:n']]);
      expect(r.find('GET', '/orgs/acme/repos/web/issues/12')).toEqual(
        found('GET /orgs/:org/repos/:repo/issues/:n', { org: 'acme', repo: 'web', n: '12' }),
      );
    });

    test('captures one or more segments in a wildcard, joined by "/"', () => {
      const r = router([['GET', '/files/*path']]);
      expect(r.find('GET', '/files/a')).toEqual(found('GET /files/*path', { path: 'a' }));
      expect(r.find('GET', '/files/a/b/c.txt')).toEqual(found('GET /files/*path', { path: 'a/b/c.txt' }));
      expect(r.find('GET', '/files')).toEqual(NOT_FOUND);
      expect(r.find('GET', '/files/')).toEqual(NOT_FOUND);
      expect(r.find('GET', '/files/a/')).toEqual(NOT_FOUND);
    });

    test('matches a root wildcard but not the root itself', () => {
      const r = router([['GET', '/*all']]);
      expect(r.find('GET', '/x/y')).toEqual(found('GET /*all', { all: 'x/y' }));
      expect(r.find('GET', '/')).toEqual(NOT_FOUND);
    });

    test('prefers a static segment over a parameter', () => {
      const r = router([
        ['GET', '/users/:id'],
        ['GET', '/users/me'],
      ]);
      expect(r.find('GET', '/users/me')).toEqual(found('GET /users/me'));
      expect(r.find('GET', '/users/mine')).toEqual(found('GET /users/:id', { id: 'mine' }));
    });

    test('prefers a parameter over a wildcard', () => {
      const r = router([
        ['GET', '/a/*rest'],
        ['GET', '/a/:x'],
      ]);
      expect(r.find('GET', '/a/b')).toEqual(found('GET /a/:x', { x: 'b' }));
      expect(r.find('GET', '/a/b/c')).toEqual(found('GET /a/*rest', { rest: 'b/c' }));
    });

    test('backtracks from a static branch to a parameter branch', () => {
      const r = router([
        ['GET', '/a/b/d'],
        ['GET', '/a/:x/c'],
      ]);
      expect(r.find('GET', '/a/b/c')).toEqual(found('GET /a/:x/c', { x: 'b' }));
      expect(r.find('GET', '/a/b/d')).toEqual(found('GET /a/b/d'));
    });

    test('backtracks through parameters to a shallower wildcard and drops stale captures', () => {
      const r = router([
        ['GET', '/a/:x/:y/z'],
        ['GET', '/a/*rest'],
      ]);
      expect(r.find('GET', '/a/1/2/q')).toEqual(found('GET /a/*rest', { rest: '1/2/q' }));
    });

    test('tells apart static segments whose hashes collide', () => {
      // "Aa" and "BB" share a 31-multiplier string hash, the one the trie uses.
      const r = router([
        ['GET', '/Aa/:x'],
        ['GET', '/BB/:x'],
      ]);
      expect(r.find('GET', '/Aa/1')).toEqual(found('GET /Aa/:x', { x: '1' }));
      expect(r.find('GET', '/BB/2')).toEqual(found('GET /BB/:x', { x: '2' }));
      expect(r.find('GET', '/AB/3')).toEqual(NOT_FOUND);
      expect(r.has('GET', '/BB/:x')).toBe(true);
    });

    test('is case-sensitive', () => {
      const r = router([['GET', '/About']]);
      expect(r.find('GET', '/about')).toEqual(NOT_FOUND);
      expect(r.find('get', '/About')).toEqual(notAllowed('GET'));
    });

    test('does not match a trailing slash and never redirects', () => {
      const r = router([
        ['GET', '/users'],
        ['GET', '/users/:id'],
      ]);
      expect(r.find('GET', '/users/')).toEqual(NOT_FOUND);
      expect(r.find('GET', '/users/1/')).toEqual(NOT_FOUND);
    });

    test('returns not-found when nothing matches', () => {
      const r = router([['GET', '/users/:id']]);
      expect(r.find('GET', '/posts/1')).toEqual(NOT_FOUND);
      expect(r.find('GET', '/users/1/extra')).toEqual(NOT_FOUND);
      expect(new Router().find('GET', '/')).toEqual(NOT_FOUND);
    });
  });

  describe('methods', () => {
    test('answers method-not-allowed with sorted, de-duplicated methods', () => {
      const r = router([
        ['PUT', '/users/:id'],
        ['GET', '/users/:id'],
        ['DELETE', '/users/:id'],
      ]);
      expect(r.find('POST', '/users/1')).toEqual(notAllowed('DELETE', 'GET', 'PUT'));
      expect(r.find('HEAD', '/users/1')).toEqual(notAllowed('DELETE', 'GET', 'PUT'));
    });

    test('lists the union of methods over every pattern matching the pathname', () => {
      const r = router([
        ['GET', '/users/me'],
        ['PUT', '/users/:id'],
        ['GET', '/users/:id'],
        ['PATCH', '/users/*rest'],
      ]);
      expect(r.find('POST', '/users/me')).toEqual(notAllowed('GET', 'PATCH', 'PUT'));
      expect(r.find('POST', '/users/x/y')).toEqual(notAllowed('PATCH'));
    });

    test('falls back to a parameter route that has the method when the static route lacks it', () => {
      const r = router([
        ['GET', '/users/me'],
        ['DELETE', '/users/:id'],
      ]);
      expect(r.find('DELETE', '/users/me')).toEqual(found('DELETE /users/:id', { id: 'me' }));
    });

    test('does not derive HEAD from GET', () => {
      const r = router([['GET', '/x']]);
      expect(r.find('HEAD', '/x')).toEqual(notAllowed('GET'));
      r.add('HEAD', '/x', 'HEAD /x');
      expect(r.find('HEAD', '/x')).toEqual(found('HEAD /x'));
      expect(r.find('POST', '/x')).toEqual(notAllowed('GET', 'HEAD'));
    });
  });

  describe('encoding', () => {
    test('matches a non-ASCII static route against its percent-encoded pathname in either hex case', () => {
      const r = router([['GET', '/café/menü']]);
      const hit = found('GET /café/menü');
      expect(r.find('GET', '/caf%C3%A9/men%C3%BC')).toEqual(hit);
      expect(r.find('GET', '/caf%c3%a9/men%c3%bc')).toEqual(hit);
      expect(r.find('GET', '/café/menü')).toEqual(hit);
    });

    test('matches a static route registered with escapes or spaces', () => {
      const r = router([
        ['GET', '/a%20b'],
        ['GET', '/c d'],
      ]);
      expect(r.find('GET', '/a%20b')).toEqual(found('GET /a%20b'));
      expect(r.find('GET', '/c%20d')).toEqual(found('GET /c d'));
    });

    test('treats escaped unreserved characters as the characters themselves (RFC 3986 §6.2.2.2)', () => {
      const r = router([['GET', '/api/v1']]);
      expect(r.find('GET', '/%61pi/v%31')).toEqual(found('GET /api/v1'));
    });

    test('decodes the escapes of exactly the unreserved characters: letters, digits and -._~', () => {
      const unreserved = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
      const escape = (char: string) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
      for (const char of unreserved) {
        const r = router([['GET', `/x${char}y`]]);
        expect([char, r.find('GET', `/x${escape(char)}y`)]).toEqual([char, found(`GET /x${char}y`)]);
      }
      // Sub-delimiters and the rest stay escaped: the escape names another path (RFC 3986 §6.2.2.2).
      for (const char of "!$&'+,;=@") {
        const r = router([['GET', `/x${char}y`]]);
        expect([char, r.find('GET', `/x${escape(char)}y`)]).not.toEqual([char, found(`GET /x${char}y`)]);
      }
    });

    test('decodes a parameter when a static route with escapes lacks the method', () => {
      const r = router([
        ['GET', '/café'],
        ['POST', '/:name'],
      ]);
      expect(r.find('POST', '/caf%C3%A9')).toEqual(found('POST /:name', { name: 'café' }));
    });

    test('decodes parameter and wildcard values as UTF-8', () => {
      const r = router([
        ['GET', '/tags/:tag'],
        ['GET', '/files/*path'],
      ]);
      expect(r.find('GET', '/tags/caf%C3%A9%20%F0%9F%98%80')).toEqual(
        found('GET /tags/:tag', { tag: 'café 😀' }),
      );
      expect(r.find('GET', '/tags/a%2Bb%3Fc%25')).toEqual(found('GET /tags/:tag', { tag: 'a+b?c%' }));
      expect(r.find('GET', '/files/d%C3%A9j%C3%A0/vu%20.txt')).toEqual(
        found('GET /files/*path', { path: 'déjà/vu .txt' }),
      );
    });

    test('keeps the raw value of a parameter without escapes, including a non-dot-segment with dots', () => {
      const r = router([['GET', '/v/:name']]);
      expect(r.find('GET', '/v/...')).toEqual(found('GET /v/:name', { name: '...' }));
      expect(r.find('GET', '/v/.env')).toEqual(found('GET /v/:name', { name: '.env' }));
    });
  });

  describe('bad paths', () => {
    const r = router([
      ['GET', '/files/*path'],
      ['GET', '/users/:id'],
    ]);

    test.each([
      ['', 'must start with "/"'],
      ['users/1', 'must start with "/"'],
      ['*', 'must start with "/"'],
      ['/users//1', 'empty path segment'],
      ['//', 'empty path segment'],
      ['/files/a//b', 'empty path segment'],
      ['/files/./a', 'dot segment'],
      ['/files/../etc/passwd', 'dot segment'],
      ['/files/a/..', 'dot segment'],
      ['/files/a/.', 'dot segment'],
      ['/files/%2e/a', 'dot segment'],
      ['/files/%2E%2E/etc', 'dot segment'],
      ['/files/%2e%2e', 'dot segment'],
      ['/files/.%2e/a', 'dot segment'],
      ['/files/%2E./a', 'dot segment'],
      ['/files/a%2Fb', 'percent-encoded "/"'],
      ['/files/a%2f..%2fb', 'percent-encoded "/"'],
      ['/files/a%5Cb', 'percent-encoded "/" or "\\"'],
      ['/files/a%5c..', 'percent-encoded "/" or "\\"'],
      ['/files/a\\b', 'backslash'],
      ['/files/%zz', 'malformed percent-encoding'],
      ['/files/%4', 'malformed percent-encoding'],
      ['/files/a%', 'malformed percent-encoding'],
      ['/files/%e0%a4', 'not valid UTF-8'],
      ['/files/%C3', 'not valid UTF-8'],
      ['/files/%C3x', 'not valid UTF-8'],
      ['/files/%FF', 'not valid UTF-8'],
      ['/files/%C0%AE', 'not valid UTF-8'],
      ['/files/%E0%80%AE', 'not valid UTF-8'],
      ['/files/%ED%A0%80', 'not valid UTF-8'],
      ['/files/%F4%90%80%80', 'not valid UTF-8'],
      ['/files/%80', 'not valid UTF-8'],
      ['/files/%00', 'control character'],
      ['/files/a%0D%0Ab', 'control character'],
      ['/files/%7f', 'control character'],
      ['/files/%C2%85', 'control character'],
      ['/files/a\u0000b', 'control character'],
      ['/files/a\nb', 'control character'],
      ['/files/a\u0085b', 'control character'],
      ['/files/\udc00', 'unpaired UTF-16 surrogate'],
    ])('rejects %j as bad-path', (pathname, fragment) => {
      const result = r.find('GET', pathname);
      expect(result.kind).toBe('bad-path');
      if (result.kind === 'bad-path') expect(result.reason).toContain(fragment);
    });

    test('rejects bad paths whatever the method and even when no route could match', () => {
      expect(new Router().find('DELETE', '/%2e%2e/x').kind).toBe('bad-path');
    });

    test('accepts well-formed escapes, dots inside segments and 4-byte UTF-8', () => {
      expect(r.find('GET', '/files/a.b/..c/c../%F0%9F%98%80').kind).toBe('found');
      expect(r.find('GET', '/users/%E2%82%AC')).toEqual(found('GET /users/:id', { id: '€' }));
    });
  });

  describe('scale', () => {
    test('registers and resolves 10,000 routes', () => {
      const r = new Router<number>();
      for (let i = 0; i < 2_500; i++) {
        r.add('GET', `/r${i}`, i * 4);
        r.add('GET', `/r${i}/:id`, i * 4 + 1);
        r.add('PUT', `/r${i}/:id/items/:item`, i * 4 + 2);
        r.add('GET', `/r${i}/files/*path`, i * 4 + 3);
      }
      expect(r.routes().length).toBe(10_000);
      for (let i = 0; i < 2_500; i++) {
        expect(r.find('GET', `/r${i}`)).toEqual(found(i * 4));
        expect(r.find('GET', `/r${i}/x${i}`)).toEqual(found(i * 4 + 1, { id: `x${i}` }));
        expect(r.find('PUT', `/r${i}/1/items/2`)).toEqual(found(i * 4 + 2, { id: '1', item: '2' }));
        expect(r.find('GET', `/r${i}/files/a/b`)).toEqual(found(i * 4 + 3, { path: 'a/b' }));
        expect(r.find('GET', `/r${i}/1/items/2`)).toEqual(notAllowed('PUT'));
      }
      expect(r.find('GET', '/r2500')).toEqual(NOT_FOUND);
    });
  });
});
