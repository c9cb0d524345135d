/**
 * Path traversal against the default app's `/files/*path` route (a static-file route that checks its
 * wildcard with assertSafeRelativePath) and `/users/:id`, through both adapters over a real socket.
 *
 * Three layers meet a hostile path, and each case says which one answers:
 * - the URL parser: both adapters build a WHATWG URL from the request target, which removes dot
 *   segments (RFC 3986 §5.2.4), `%2e` spellings included (URL Standard, "double-dot URL path segment"),
 *   and reads `\` as `/` in http(s) URLs. `/files/../../etc/passwd` is therefore `/etc/passwd` before
 *   any route sees it: it cannot climb out of `/files/`, and matches nothing (404);
 * - the router: what the URL parser leaves alone (encoded separators, malformed or overlong escapes,
 *   control characters) is refused with 400 before matching;
 * - the route: a second, app-level decode is the route's business; assertSafeRelativePath refuses what
 *   would become `..`, a separator or NUL on it (400).
 */
import { describe, expect, test } from 'bun:test';
import { expectProblem, expectServing, json } from './fixtures/expect.ts';
import { head, type RawResponse, send } from './fixtures/raw-http.ts';
import { ADAPTERS, serveDefaultApp } from './fixtures/servers.ts';

const servers = serveDefaultApp();

const BAD_PATH = 'The request path is not acceptable: ';
const ENCODED_SEPARATOR = `${BAD_PATH}percent-encoded "/" or "\\" (%2F, %5C)`;
const INVALID_UTF8 = `${BAD_PATH}percent-encoded bytes are not valid UTF-8`;
const CONTROL = `${BAD_PATH}control character (raw or percent-encoded)`;
const MALFORMED = `${BAD_PATH}malformed percent-encoding (expected "%" and two hex digits)`;
const UNSAFE_FILE = 'The file path is not a safe relative path: ';

interface Case {
  name: string;
  target: string;
  status: 400 | 404;
  detail: string;
}

const CASES: Case[] = [
  // Removed by the URL parser: what remains is outside /files/ and matches no route.
  {
    name: 'raw ../',
    target: '/files/../../etc/passwd',
    status: 404,
    detail: 'No route matches GET /etc/passwd',
  },
  {
    name: '%2e%2e/',
    target: '/files/%2e%2e/%2e%2e/etc/passwd',
    status: 404,
    detail: 'No route matches GET /etc/passwd',
  },
  {
    name: 'mixed .%2e/',
    target: '/files/.%2e/%2E./etc/passwd',
    status: 404,
    detail: 'No route matches GET /etc/passwd',
  },
  {
    name: 'raw ..\\ backslashes',
    target: '/files/..\\..\\etc\\passwd',
    status: 404,
    detail: 'No route matches GET /etc/passwd',
  },
  // Refused by the router: an encoded separator would let a segment smuggle a `/` past the matcher.
  {
    name: '%2E%2E%2F',
    target: '/files/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    status: 400,
    detail: ENCODED_SEPARATOR,
  },
  { name: '..%2f', target: '/files/..%2f..%2fetc%2fpasswd', status: 400, detail: ENCODED_SEPARATOR },
  {
    name: '..%5c (encoded backslash)',
    target: '/files/..%5c..%5cetc%5cpasswd',
    status: 400,
    detail: ENCODED_SEPARATOR,
  },
  { name: '..%2f in a :param', target: '/users/..%2f..%2fadmin', status: 400, detail: ENCODED_SEPARATOR },
  // Overlong UTF-8 (RFC 3629 §10): %c0%ae is "." and %c0%af is "/" to a lenient decoder.
  {
    name: 'overlong %c0%ae%c0%ae',
    target: '/files/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
    status: 400,
    detail: INVALID_UTF8,
  },
  { name: 'overlong %c0%af', target: '/files/..%c0%af..%c0%afetc', status: 400, detail: INVALID_UTF8 },
  { name: 'NUL %00', target: '/files/passwd%00.png', status: 400, detail: CONTROL },
  { name: 'IIS-style %u002e', target: '/files/%u002e%u002e/etc', status: 400, detail: MALFORMED },
  // Reach the route, whose own check refuses them.
  {
    name: 'double encoding %252e%252e',
    target: '/files/%252e%252e/%252e%252e/etc/passwd',
    status: 400,
    detail: `${UNSAFE_FILE}it contains a percent-encoded dot, separator, colon, NUL or percent sign`,
  },
  {
    name: 'double-encoded separator %252f',
    target: '/files/..%252f..%252fetc',
    status: 400,
    detail: `${UNSAFE_FILE}it contains a percent-encoded dot, separator, colon, NUL or percent sign`,
  },
  {
    // U+FF0E FULLWIDTH FULL STOP: NFKC folds it to ".", which a file system API might do too.
    name: 'fullwidth dots %EF%BC%8E',
    target: '/files/%EF%BC%8E%EF%BC%8E/etc/passwd',
    status: 400,
    detail: `${UNSAFE_FILE}it has a ".." segment`,
  },
];

for (const adapter of ADAPTERS) {
  describe(`path traversal, ${adapter} adapter`, () => {
    test('a plain relative file path reaches the route (the good path)', async () => {
      const exchange = await send(
        servers.get(adapter).port,
        head('GET', '/files/docs/readme.txt', ['Connection: close']),
      );
      expect(exchange.response?.status).toBe(200);
      expect(json(exchange.response as RawResponse)).toEqual({ path: 'docs/readme.txt' });
    });

    for (const c of CASES) {
      test(`${c.name}: ${c.status} problem, the route never sees a ".."`, async () => {
        const target = servers.get(adapter);
        const exchange = await send(target.port, head('GET', c.target, ['Connection: close']));
        expect(exchange.responses).toHaveLength(1);
        expectProblem(exchange.response, c.status, c.status === 400 ? 'bad-request' : 'not-found', c.detail);
        await expectServing(target);
      });
    }

    test('dot segments are resolved before routing, never handed to a route: /files/../users/7 is /users/7', async () => {
      // This is the URL parser's doing (RFC 3986 §5.2.4), in both runtimes: the router's own 400 for a
      // `..` segment cannot fire over a socket, because no `..` survives to it. A proxy that routes on
      // the raw target (`/files/` public, `/users/` private) would disagree with the app here.
      const exchange = await send(
        servers.get(adapter).port,
        head('GET', '/files/../users/7', ['Connection: close']),
      );
      expect(exchange.response?.status).toBe(200);
      expect(json(exchange.response as RawResponse)).toEqual({ id: '7' });
    });
  });
}
