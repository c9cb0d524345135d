/**
 * The Host field and the request target, through both adapters over a raw socket (RFC 9112 §3.2,
 * RFC 9110 §7.2). A Host that is not `uri-host [":" port]` is a 400 problem before any hook runs;
 * CONNECT is a 501; an HTTP/1.0 request with no Host is served on the listening address. Nothing a
 * client puts in Host may produce a 5xx or an error-level log line: any client can send these at will.
 */
import { describe, expect, test } from 'bun:test';
import { expectNoLeak, expectProblem, expectServing, json } from './fixtures/expect.ts';
import { header, type RawResponse, send } from './fixtures/raw-http.ts';
import { ADAPTERS, serveDefaultApp, type Target } from './fixtures/servers.ts';

const servers = serveDefaultApp();

const request = (host: string, method = 'GET', target = '/health'): string =>
  `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

/** Host values that are not an authority, each with why. Written as latin1 bytes on the wire. */
const INVALID_HOSTS: ReadonlyArray<[string, string]> = [
  ['empty', ''],
  ['userinfo', 'a@b'],
  ['a path', 'x/y'],
  ['a tab inside', 'a\tb'],
  ['a space inside', 'bad host'],
  ['port 99999', 'app.test:99999'],
  ['a six-digit port', 'app.test:123456'],
  ['a port with a trailing dot', '127.0.0.1:3000.'],
  ['bytes outside ASCII', 'h\u00c3\u00a9llo.test'],
  ['an unclosed IP literal', '[::1'],
  ['an IPvFuture literal', '[v1.x]'],
  ['a port and no host', ':80'],
  ['a query', 'app.test?x=1'],
  ['a backslash', 'app.test\\evil'],
];

const VALID_HOSTS = [
  'app.test',
  'app.test:8080',
  '127.0.0.1',
  '[::1]:80',
  'APP.Test',
  'app.test:',
  'a_b.test',
];

function errorLines(target: Target, since: number): unknown[] {
  return target.logs.slice(since).filter((line) => line.level === 'error');
}

for (const adapter of ADAPTERS) {
  describe(`Host header, ${adapter} adapter`, () => {
    for (const [why, host] of INVALID_HOSTS) {
      test(`a Host with ${why}: 400 problem naming Host, no hook, no error log`, async () => {
        const target = servers.get(adapter);
        const before = target.logs.length;
        const exchange = await send(target.port, request(host));
        const problem = expectProblem(exchange.response, 400, 'bad-request', /Host/);
        expect(problem.detail).not.toContain(host.length > 0 ? host : '\u0000');
        // The security headers are on refusals too.
        const response = exchange.response as RawResponse;
        expect(response.headers.some(([name]) => name === 'x-content-type-options')).toBe(true);
        expect(errorLines(target, before)).toEqual([]);
        await expectServing(target);
      });
    }

    for (const host of VALID_HOSTS) {
      test(`a valid Host ${JSON.stringify(host)} is served`, async () => {
        const target = servers.get(adapter);
        const exchange = await send(target.port, request(host));
        expect(exchange.response?.status).toBe(200);
        expect(json(exchange.response as RawResponse)).toEqual({ status: 'pass' });
      });
    }

    test('CONNECT: 501 problem, the connection is never tunnelled', async () => {
      const target = servers.get(adapter);
      const before = target.logs.length;
      const exchange = await send(target.port, request('app.test:443', 'CONNECT', 'app.test:443'));
      const response = exchange.response as RawResponse;
      expect(response.status).toBe(501);
      expect(header(response, 'content-type')).toBe('application/problem+json');
      // 501 has no catalog page: RFC 9457 §4.2.1 about:blank, whose title is the status phrase.
      expect(json(response)).toEqual({
        type: 'about:blank',
        title: 'Not Implemented',
        status: 501,
        detail: 'The CONNECT method is not supported',
      });
      expect(exchange.closed).toBe(true);
      expect(errorLines(target, before)).toEqual([]);
      await expectServing(target);
    });

    test('HTTP/1.0 without Host: served on the listening address (RFC 9112 §3.2 lets 1.0 omit it)', async () => {
      const target = servers.get(adapter);
      const exchange = await send(target.port, 'GET /users/7 HTTP/1.0\r\n\r\n');
      const response = exchange.response as RawResponse;
      expect(response.status).toBe(200);
      expect(json(response)).toEqual({ id: '7' });
      expectNoLeak(response);
    });

    test('1,000 requests with a bad Host: 1,000 × 400, no 5xx, no error-level log line', async () => {
      const target = servers.get(adapter);
      const before = target.logs.length;
      const statuses = new Map<number, number>();
      const hosts = INVALID_HOSTS.map(([, host]) => host);
      for (let batch = 0; batch < 20; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            send(target.port, request(hosts[(batch * 50 + i) % hosts.length]!)),
          ),
        );
        for (const answer of answers) {
          const status = answer.response?.status ?? 0;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }
      expect(Object.fromEntries(statuses)).toEqual({ 400: 1000 });
      expect(errorLines(target, before)).toEqual([]);
      await expectServing(target);
    });
  });
}
