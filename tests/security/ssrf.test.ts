/**
 * SSRF through the default app's webhook tester (`POST /webhooks/test {url}`), which fetches a URL the
 * caller supplies through fetchGuard(), as a "send a test event to your endpoint" feature would. Through
 * both adapters: under Node, the guard runs on the built package with Node's fetch (undici); under Bun,
 * on the sources with Bun's fetch (and its address pinning).
 *
 * The attacker controls a "public" server (127.0.0.2, the one address the app's guard allows) whose
 * redirects point inside: at the cloud metadata address, and at an "internal" server on 127.0.0.1 in
 * every spelling a URL allows. The attacker also controls DNS for `*.test` names (the app's zone
 * resolver). The app maps the guard's SsrfError to a 400 problem with the `reason` as an extension
 * member; the refused address goes to the log only (a DNS answer for an internal name is internal).
 * After every case the internal server must not have received a single request.
 */
import { describe, expect, test } from 'bun:test';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { expectProblem, expectServing, json, sleep } from './fixtures/expect.ts';
import { type RawResponse, send, withBody } from './fixtures/raw-http.ts';
import { ADAPTERS, type LogLine, serveDefaultApp, type Target } from './fixtures/servers.ts';
import { PUBLIC_HOST, serveSsrfTargets } from './fixtures/ssrf-servers.ts';

const servers = serveDefaultApp({
  ssrf: {
    allowAddresses: [PUBLIC_HOST],
    zone: {
      // One public answer and one private: the connection could use either, so both are judged.
      'mixed.test': ['93.184.216.34', '10.0.0.7'],
      'metadata.test': ['169.254.169.254'],
      'dual.test': ['2606:4700:4700::1111', '::1'],
      // The allowed address first, then the internal one (a rebinding-style answer set).
      'rebind.test': [PUBLIC_HOST, '127.0.0.1'],
    },
  },
});
const targets = serveSsrfTargets();

const refusal = (reason: string): string =>
  `The webhook URL was refused by the outbound request guard (${reason})`;

/** Asks the app to fetch `url`; returns its answer. */
async function webhookTest(target: Target, url: string): Promise<RawResponse | undefined> {
  const body = JSON.stringify({ url });
  const exchange = await send(
    target.port,
    withBody('POST', '/webhooks/test', 'application/json', body, ['Connection: close']),
  );
  return exchange.response;
}

/** The app's log line for the latest refusal (the Node child's lines arrive over a pipe: wait a little). */
async function refusalLog(target: Target, since: number): Promise<LogLine> {
  for (let waited = 0; waited < 1000; waited += 10) {
    const line = target.logs.slice(since).find((l) => l.msg === 'Refused a webhook URL');
    if (line !== undefined) return line;
    await sleep(10);
  }
  throw new Error('the app logged no "Refused a webhook URL" line');
}

/** The app refused `url` with `reason` (and, in its log, `address`); the internal server saw nothing. */
async function expectRefused(target: Target, url: string, reason: string, address?: string): Promise<void> {
  const since = target.logs.length;
  const problem = expectProblem(await webhookTest(target, url), 400, 'bad-request', refusal(reason));
  expect(problem.reason).toBe(reason);
  // The address is not part of the answer: only the reason is.
  expect(Object.keys(problem).sort()).toEqual(['detail', 'reason', 'status', 'title', 'type']);
  const log = await refusalLog(target, since);
  expect(log.level).toBe('warn');
  expect(log.fields?.reason).toBe(reason);
  expect(log.fields?.address).toBe(address);
  expect(targets.internalHits).toBe(0);
  await expectServing(target);
}

/** A URL on the attacker's public server that redirects to `to`. */
const redirectTo = (to: string): string => `${targets.publicOrigin}/redirect?to=${encodeURIComponent(to)}`;

for (const adapter of ADAPTERS) {
  describe(`SSRF through the webhook tester, ${adapter} adapter`, () => {
    test('a public URL, and a redirect between public URLs, are fetched (the good path)', async () => {
      const target = servers.get(adapter);
      for (const url of [`${targets.publicOrigin}/hook`, redirectTo(`${targets.publicOrigin}/hook`)]) {
        const response = await webhookTest(target, url);
        expect(response?.status).toBe(200);
        expect(json(response as RawResponse)).toEqual({ status: 200 });
      }
      expect(targets.internalHits).toBe(0);
    });

    const REDIRECTS: Array<[string, () => string, string]> = [
      [
        'the cloud metadata address 169.254.169.254',
        () => 'http://169.254.169.254/latest/meta-data/iam/',
        '169.254.169.254',
      ],
      [
        'the IPv6 metadata address fd00:ec2::254',
        () => 'http://[fd00:ec2::254]/latest/meta-data/',
        'fd00:ec2::254',
      ],
      [
        'the internal server at 127.0.0.1',
        () => `http://127.0.0.1:${targets.internalPort}/admin`,
        '127.0.0.1',
      ],
      // The URL parser writes IPv4-mapped IPv6 in hex; the guard unmaps it to 127.0.0.1 to judge it.
      [
        'IPv4-mapped IPv6 [::ffff:127.0.0.1]',
        () => `http://[::ffff:127.0.0.1]:${targets.internalPort}/admin`,
        '::ffff:7f00:1',
      ],
      ['IPv6 loopback [::1]', () => `http://[::1]:${targets.internalPort}/admin`, '::1'],
      // Legacy IPv4 spellings: the URL parser turns each into 127.0.0.1 before the guard looks.
      ['decimal 2130706433', () => `http://2130706433:${targets.internalPort}/admin`, '127.0.0.1'],
      ['hex 0x7f.1', () => `http://0x7f.1:${targets.internalPort}/admin`, '127.0.0.1'],
      ['octal 0177.0.0.1', () => `http://0177.0.0.1:${targets.internalPort}/admin`, '127.0.0.1'],
      ['0.0.0.0 (this host, on Linux)', () => `http://0.0.0.0:${targets.internalPort}/admin`, '0.0.0.0'],
      // RFC 6761 §6.3: localhost names are loopback whatever a resolver says.
      ['localhost', () => `http://localhost:${targets.internalPort}/admin`, '127.0.0.1'],
      [
        'a second public hop first, then 127.0.0.1',
        () => redirectTo(`http://127.0.0.1:${targets.internalPort}/admin`),
        '127.0.0.1',
      ],
    ];
    for (const [name, to, address] of REDIRECTS) {
      test(`a redirect to ${name}: refused 400, internal server never hit`, async () => {
        await expectRefused(servers.get(adapter), redirectTo(to()), 'address-not-allowed', address);
      });
    }

    test('a redirect to file:///etc/passwd: refused (protocol-not-allowed)', async () => {
      await expectRefused(servers.get(adapter), redirectTo('file:///etc/passwd'), 'protocol-not-allowed');
    });

    test('a redirect loop: refused after 5 redirects (too-many-redirects)', async () => {
      await expectRefused(servers.get(adapter), `${targets.publicOrigin}/loop`, 'too-many-redirects');
    });

    const DNS: Array<[string, string]> = [
      ['mixed.test', '10.0.0.7'],
      ['metadata.test', '169.254.169.254'],
      ['dual.test', '::1'],
      ['rebind.test', '127.0.0.1'],
    ];
    for (const [name, address] of DNS) {
      test(`DNS: ${name}, one forbidden answer among allowed ones, is refused for that answer`, async () => {
        await expectRefused(
          servers.get(adapter),
          `http://${name}:${targets.internalPort}/`,
          'address-not-allowed',
          address,
        );
      });
    }

    test('DNS: a name with no answers is refused (dns-resolution-failed)', async () => {
      await expectRefused(servers.get(adapter), 'http://nowhere.test/', 'dns-resolution-failed');
    });

    test('localhost spellings never reach the resolver: LOCALHOST., api.localhost', async () => {
      const target = servers.get(adapter);
      for (const host of ['LOCALHOST.', 'api.localhost']) {
        await expectRefused(
          target,
          `http://${host}:${targets.internalPort}/admin`,
          'address-not-allowed',
          '127.0.0.1',
        );
      }
    });

    test("this machine's host name, through the real system resolver, is refused for its address", async () => {
      // /etc/hosts maps the host name to a loopback (Debian: 127.0.1.1) or the container's private
      // address: the guard asks the system resolver (node:dns lookup) and refuses that answer.
      const name = hostname();
      const answers = (await lookup(name, { all: true, verbatim: true })).map((a) => a.address);
      const target = servers.get(adapter);
      const since = target.logs.length;
      const problem = expectProblem(
        await webhookTest(target, `http://${name}:${targets.internalPort}/admin`),
        400,
        'bad-request',
        refusal('address-not-allowed'),
      );
      expect(problem.reason).toBe('address-not-allowed');
      expect(answers).toContain((await refusalLog(target, since)).fields?.address as string);
      expect(targets.internalHits).toBe(0);
      await expectServing(target);
    });

    test('credentials in the URL are refused before any connection (credentials-in-url)', async () => {
      await expectRefused(
        servers.get(adapter),
        `http://user:secret@${PUBLIC_HOST}/hook`,
        'credentials-in-url',
      );
    });
  });
}
