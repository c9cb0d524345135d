import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { fetchGuard } from './fetch-guard.ts';
import { SsrfError, type SsrfReason } from './ssrf-error.ts';

interface Echo {
  method: string;
  body: string;
  host: string | null;
  authorization: string | null;
  cookie: string | null;
  proxyAuthorization: string | null;
  contentType: string | null;
  custom: string | null;
}

function echo(request: Request, body: string): Response {
  const h = request.headers;
  const payload: Echo = {
    method: request.method,
    body,
    host: h.get('host'),
    authorization: h.get('authorization'),
    cookie: h.get('cookie'),
    proxyAuthorization: h.get('proxy-authorization'),
    contentType: h.get('content-type'),
    custom: h.get('x-custom'),
  };
  return Response.json(payload);
}

let other: ReturnType<typeof Bun.serve>;
let server: ReturnType<typeof Bun.serve>;
let base: string;
let otherBase: string;

beforeAll(() => {
  other = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      return echo(request, await request.text());
    },
  });
  otherBase = `http://127.0.0.1:${other.port}`;
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url);
      const [, kind, arg] = url.pathname.split('/');
      const redirect = (status: number, location: string) =>
        new Response(null, { status, headers: { location } });
      if (kind === 'chain') {
        const n = Number(arg);
        return n === 0 ? echo(request, await request.text()) : redirect(302, `/chain/${n - 1}`);
      }
      if (kind === 'status') return redirect(Number(arg), '/echo');
      if (kind === 'to') return redirect(307, decodeURIComponent(url.search.slice(1)));
      if (kind === 'cross') return redirect(Number(arg), `${otherBase}/echo`);
      if (kind === 'nolocation') return new Response('moved', { status: 302 });
      return echo(request, await request.text());
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => {
  server.stop(true);
  other.stop(true);
});

async function refusal(promise: Promise<unknown>): Promise<SsrfError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SsrfError) return error;
    throw error;
  }
  throw new Error('expected an SsrfError');
}

async function expectReason(
  promise: Promise<unknown>,
  reason: SsrfReason,
  address?: string,
): Promise<SsrfError> {
  const error = await refusal(promise);
  expect(error.reason).toBe(reason);
  if (address !== undefined) expect(error.address).toBe(address);
  return error;
}

/** A fetch that never touches the network: records each URL and answers 200. */
function recorder() {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), init });
    return new Response('ok');
  };
  return { calls, fetch };
}

describe('fetchGuard options', () => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ allowLocalhost: true }, /unknown option "allowLocalhost"/],
    [{ allowLoopback: 'yes' }, /allowLoopback must be a boolean/],
    [{ maxRedirects: -1 }, /maxRedirects must be a non-negative integer/],
    [{ maxRedirects: 1.5 }, /maxRedirects/],
    [{ allowProtocols: ['https'] }, /allowProtocols\[0\] "https" must be a scheme with its colon/],
    [{ allowProtocols: 'https:' }, /allowProtocols must be an array of strings/],
    [{ allowHosts: ['https://api.example.com'] }, /allowHosts\[0\]/],
    [{ allowHosts: ['api.example.com:443'] }, /allowHosts\[0\]/],
    [{ allowHosts: ['*'] }, /allowHosts\[0\]/],
    [{ allowAddresses: ['10.0.0.0/8', 'ten'] }, /allowAddresses\[1\]: "ten"/],
    [{ denyAddresses: ['10.0.0.1/8'] }, /denyAddresses\[0\].*bits are set/],
    [{ resolve: 'dns' }, /resolve must be a function/],
    [{ fetch: 1 }, /fetch must be a function/],
  ];
  for (const [options, message] of bad) {
    test(`refuses ${JSON.stringify(options)} at creation`, () => {
      expect(() => fetchGuard(options as never)).toThrow(message);
    });
  }
});

describe('fetchGuard: URL checks', () => {
  test('refuses text that is not a URL (invalid-url)', async () => {
    const error = await expectReason(fetchGuard()('not a url'), 'invalid-url');
    expect(error.url).toBe('not a url');
  });

  for (const url of [
    'file:///etc/passwd',
    'ftp://example.com/',
    'data:text/plain,hi',
    'javascript:alert(1)',
  ]) {
    test(`refuses the scheme of ${url} (protocol-not-allowed)`, async () => {
      await expectReason(fetchGuard()(url), 'protocol-not-allowed');
    });
  }

  test('allowProtocols narrows and widens the schemes', async () => {
    await expectReason(fetchGuard({ allowProtocols: ['https:'] })(`${base}/echo`), 'protocol-not-allowed');
    const res = await fetchGuard({ allowProtocols: ['data:'] })('data:text/plain,hi');
    expect(await res.text()).toBe('hi');
  });

  test('refuses credentials in the URL and keeps them out of the error (credentials-in-url)', async () => {
    const error = await expectReason(
      fetchGuard({ allowLoopback: true })('http://admin:hunter2@127.0.0.1/'),
      'credentials-in-url',
    );
    expect(error.url).toBe('http://127.0.0.1/');
    expect(error.message).not.toContain('hunter2');
  });

  test('allowHosts lists exact hosts and *.domain subdomains (host-not-allowed)', async () => {
    const { calls, fetch } = recorder();
    const resolve = () => ['93.184.215.14'];
    const guarded = fetchGuard({
      fetch,
      resolve,
      allowHosts: ['API.example.com', '*.cdn.example', '93.184.215.9'],
    });
    await guarded('https://api.example.com/x');
    await guarded('https://api.example.com./x');
    await guarded('https://a.b.cdn.example/');
    await guarded('https://93.184.215.9/');
    expect(calls.map((call) => new URL(call.url).hostname)).toEqual([
      'api.example.com',
      'api.example.com.',
      'a.b.cdn.example',
      '93.184.215.9',
    ]);
    await expectReason(guarded('https://cdn.example/'), 'host-not-allowed');
    await expectReason(guarded('https://example.com/'), 'host-not-allowed');
    await expectReason(guarded('https://api.example.com.evil.test/'), 'host-not-allowed');
    await expectReason(guarded('https://93.184.215.10/'), 'host-not-allowed');
  });

  test('address checks still apply to allowed hosts', async () => {
    const guarded = fetchGuard({ allowHosts: ['internal.example'], resolve: () => ['10.0.0.7'] });
    await expectReason(guarded('https://internal.example/'), 'address-not-allowed', '10.0.0.7');
  });
});

describe('fetchGuard: addresses', () => {
  const blocked: Array<[string, string]> = [
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://[::1]/', '::1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0.0.0.0/', '0.0.0.0'],
    ['http://[::]/', '::'],
    ['http://10.0.0.1/', '10.0.0.1'],
    ['http://172.16.5.4/', '172.16.5.4'],
    ['http://192.168.0.1/', '192.168.0.1'],
    ['http://100.64.0.1/', '100.64.0.1'],
    ['http://169.254.0.1/', '169.254.0.1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
    ['http://100.100.100.200/', '100.100.100.200'],
    ['http://[fe80::1]/', 'fe80::1'],
    ['http://[fc00::1]/', 'fc00::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[::ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe'],
    ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1'],
    ['http://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe'],
    ['http://[2002:7f00:1::]/', '2002:7f00:1::'],
    ['http://224.0.0.1/', '224.0.0.1'],
    ['http://255.255.255.255/', '255.255.255.255'],
    ['http://240.0.0.1/', '240.0.0.1'],
  ];
  for (const [url, address] of blocked) {
    test(`refuses ${url} (address-not-allowed, ${address})`, async () => {
      const { calls, fetch } = recorder();
      await expectReason(fetchGuard({ fetch })(url), 'address-not-allowed', address);
      expect(calls).toHaveLength(0);
    });
  }

  test('lets public literals through', async () => {
    const { calls, fetch } = recorder();
    await fetchGuard({ fetch })('https://93.184.215.14/x?y=1');
    await fetchGuard({ fetch })('https://[2606:4700::6810:84e5]/');
    expect(calls.map((call) => call.url)).toEqual([
      'https://93.184.215.14/x?y=1',
      'https://[2606:4700::6810:84e5]/',
    ]);
  });

  test('each class flag opens its class only', async () => {
    const { fetch } = recorder();
    await fetchGuard({ fetch, allowPrivate: true })('http://10.1.2.3/');
    await fetchGuard({ fetch, allowPrivate: true })('http://100.64.1.1/');
    await expectReason(fetchGuard({ fetch, allowPrivate: true })('http://127.0.0.1/'), 'address-not-allowed');
    await fetchGuard({ fetch, allowLinkLocal: true })('http://169.254.10.10/');
    await fetchGuard({ fetch, allowLinkLocal: true })('http://[fe80::1]/');
    await expectReason(
      fetchGuard({ fetch, allowLinkLocal: true })('http://10.0.0.1/'),
      'address-not-allowed',
    );
    await fetchGuard({ fetch, allowUniqueLocal: true })('http://[fd12:3456::1]/');
    await fetchGuard({ fetch, allowLoopback: true })('http://[::ffff:127.0.0.1]/');
    await expectReason(fetchGuard({ fetch, allowLoopback: true })('http://0.0.0.0/'), 'address-not-allowed');
  });

  test('metadata addresses stay closed with their class open, unless listed exactly in allowAddresses', async () => {
    const { calls, fetch } = recorder();
    await expectReason(
      fetchGuard({ fetch, allowLinkLocal: true })('http://169.254.169.254/'),
      'address-not-allowed',
    );
    await expectReason(
      fetchGuard({ fetch, allowLinkLocal: true })('http://169.254.170.2/'),
      'address-not-allowed',
    );
    await expectReason(
      fetchGuard({ fetch, allowUniqueLocal: true })('http://[fd00:ec2::254]/'),
      'address-not-allowed',
    );
    await expectReason(
      fetchGuard({ fetch, allowPrivate: true })('http://100.100.100.200/'),
      'address-not-allowed',
    );
    await expectReason(
      fetchGuard({ fetch, allowAddresses: ['169.254.0.0/16'] })('http://169.254.169.254/'),
      'address-not-allowed',
    );
    expect(calls).toHaveLength(0);
    await fetchGuard({ fetch, allowAddresses: ['169.254.169.254'] })('http://169.254.169.254/latest');
    await fetchGuard({ fetch, allowAddresses: ['169.254.169.254/32'] })('http://[::ffff:169.254.169.254]/');
    expect(calls).toHaveLength(2);
  });

  test('allowAddresses opens blocks and single addresses whatever their class', async () => {
    const { calls, fetch } = recorder();
    const guarded = fetchGuard({ fetch, allowAddresses: ['10.20.0.0/16', '::1'] });
    await guarded('http://10.20.3.4/');
    await guarded('http://[::1]/');
    await expectReason(guarded('http://10.21.0.1/'), 'address-not-allowed');
    await expectReason(guarded('http://127.0.0.1/'), 'address-not-allowed');
    expect(calls).toHaveLength(2);
  });

  test('denyAddresses wins over allowAddresses, the class flags, and IPv6 forms embedding the address', async () => {
    const { calls, fetch } = recorder();
    const guarded = fetchGuard({
      fetch,
      allowLoopback: true,
      allowAddresses: ['127.0.0.0/8', '203.0.113.0/24'],
      denyAddresses: ['127.0.0.2', '203.0.113.66'],
    });
    await guarded('http://127.0.0.1/');
    for (const url of [
      'http://127.0.0.2/',
      'http://[::ffff:127.0.0.2]/',
      'http://[64:ff9b::7f00:2]/',
      'http://203.0.113.66/',
    ]) {
      await expectReason(guarded(url), 'address-not-allowed');
    }
    await expectReason(
      fetchGuard({ fetch, denyAddresses: ['8.8.8.0/24'] })('http://8.8.8.8/'),
      'address-not-allowed',
    );
    expect(calls).toHaveLength(1);
  });
});

describe('fetchGuard: DNS', () => {
  test('checks every answer, not only the first', async () => {
    const { calls, fetch } = recorder();
    const guarded = fetchGuard({ fetch, resolve: () => ['93.184.215.14', '10.0.0.1'] });
    await expectReason(guarded('https://mixed.example/'), 'address-not-allowed', '10.0.0.1');
    const v6 = fetchGuard({ fetch, resolve: async () => ['2606:4700::1', '::ffff:169.254.169.254'] });
    await expectReason(v6('https://mixed.example/'), 'address-not-allowed', '::ffff:169.254.169.254');
    expect(calls).toHaveLength(0);
  });

  test('refuses answers that are not addresses', async () => {
    const { fetch } = recorder();
    await expectReason(
      fetchGuard({ fetch, resolve: () => ['example.com'] })('https://a.example/'),
      'address-not-allowed',
    );
  });

  test('lets a name through when all its answers are public, resolving the URL hostname', async () => {
    const { calls, fetch } = recorder();
    const asked: string[] = [];
    const guarded = fetchGuard({
      fetch,
      resolve: async (host) => {
        asked.push(host);
        return ['93.184.215.14', '2606:4700::1'];
      },
    });
    await guarded('https://Bücher.example:8443/a');
    expect(asked).toEqual(['xn--bcher-kva.example']);
    expect(calls[0]?.url).toBe('https://xn--bcher-kva.example:8443/a');
  });

  test('answers dns-resolution-failed when the resolver throws or finds nothing', async () => {
    const { fetch } = recorder();
    const failing = fetchGuard({
      fetch,
      resolve: () => {
        throw new Error('ENOTFOUND');
      },
    });
    const error = await expectReason(failing('https://nowhere.example/'), 'dns-resolution-failed');
    expect((error.cause as Error).message).toBe('ENOTFOUND');
    await expectReason(
      fetchGuard({ fetch, resolve: async () => [] })('https://x.example/'),
      'dns-resolution-failed',
    );
  });

  test('resolves names with the system resolver by default (localhost)', async () => {
    const res = await fetchGuard({ allowLoopback: true })(`http://localhost:${server.port}/echo`);
    expect(res.status).toBe(200);
    await expectReason(
      fetchGuard()(`http://localhost:${server.port}/echo`),
      'address-not-allowed',
      '127.0.0.1',
    );
    await expectReason(fetchGuard()('http://name.invalid/'), 'dns-resolution-failed');
  });

  test('treats localhost names as loopback whatever the resolver says (RFC 6761 §6.3)', async () => {
    const { fetch } = recorder();
    const guarded = fetchGuard({ fetch, resolve: () => ['93.184.215.14'] });
    await expectReason(guarded('http://app.localhost/'), 'address-not-allowed', '127.0.0.1');
    await expectReason(guarded('http://LOCALHOST./'), 'address-not-allowed', '127.0.0.1');
  });

  test('without a resolver, names fail and IP literals still work', async () => {
    const proc = globalThis.process as { getBuiltinModule?: unknown };
    const original = proc.getBuiltinModule;
    proc.getBuiltinModule = () => undefined;
    try {
      const { calls, fetch } = recorder();
      const guarded = fetchGuard({ fetch });
      const error = await expectReason(guarded('https://example.com/'), 'dns-resolution-failed');
      expect(error.message).toContain('no resolver');
      await guarded('https://93.184.215.14/');
      expect(calls).toHaveLength(1);
    } finally {
      proc.getBuiltinModule = original;
    }
  });

  test('pins plain-http names to the checked address, sending the original Host', async () => {
    // `pinned.test` exists in no DNS: the request can only arrive if the guard connected to the checked address.
    const guarded = fetchGuard({ allowLoopback: true, resolve: () => ['127.0.0.1'] });
    const res = await guarded(`http://pinned.test:${server.port}/echo`);
    const body = (await res.json()) as Echo;
    expect(body.host).toBe(`pinned.test:${server.port}`);
    expect(res.url).toBe(`http://pinned.test:${server.port}/echo`);
  });

  test('a pinned request moves to the next checked address when one refuses the connection', async () => {
    const guarded = fetchGuard({ allowLoopback: true, resolve: () => ['::1', '127.0.0.1'] });
    const res = await guarded(`http://pinned.test:${server.port}/echo`);
    expect(res.status).toBe(200);
  });
});

describe('fetchGuard: redirects', () => {
  const guarded = fetchGuard({ allowLoopback: true });

  test('follows up to five redirects, re-validating each', async () => {
    const res = await guarded(`${base}/chain/5`);
    expect(res.status).toBe(200);
    expect(res.redirected).toBe(true);
    expect(res.url).toBe(`${base}/chain/0`);
  });

  test('refuses the sixth redirect (too-many-redirects)', async () => {
    const error = await expectReason(guarded(`${base}/chain/6`), 'too-many-redirects');
    expect(error.url).toBe(`${base}/chain/0`);
  });

  test('maxRedirects sets the limit; 0 refuses every redirect', async () => {
    const two = fetchGuard({ allowLoopback: true, maxRedirects: 2 });
    expect((await two(`${base}/chain/2`)).status).toBe(200);
    await expectReason(two(`${base}/chain/3`), 'too-many-redirects');
    await expectReason(
      fetchGuard({ allowLoopback: true, maxRedirects: 0 })(`${base}/chain/1`),
      'too-many-redirects',
    );
  });

  test('refuses a redirect to a blocked address before connecting', async () => {
    const target = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    await expectReason(guarded(`${base}/to?${target}`), 'address-not-allowed', '169.254.169.254');
    await expectReason(
      fetchGuard({ allowLoopback: true, resolve: () => ['10.0.0.1'] })(
        `${base}/to?${encodeURIComponent('http://internal.example/')}`,
      ),
      'address-not-allowed',
      '10.0.0.1',
    );
  });

  test('refuses a redirect to another scheme, to credentials, or to an unparseable Location', async () => {
    await expectReason(
      guarded(`${base}/to?${encodeURIComponent('file:///etc/passwd')}`),
      'protocol-not-allowed',
    );
    await expectReason(
      guarded(`${base}/to?${encodeURIComponent(`http://u:p@127.0.0.1:${server.port}/`)}`),
      'credentials-in-url',
    );
    await expectReason(guarded(`${base}/to?${encodeURIComponent('http://[::1')}`), 'invalid-url');
  });

  test('303 continues as a GET without body; 307 and 308 keep method and body', async () => {
    const post = { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } };
    const see = (await (await guarded(`${base}/status/303`, post)).json()) as Echo;
    expect([see.method, see.body, see.contentType]).toEqual(['GET', '', null]);
    for (const status of [307, 308]) {
      const kept = (await (await guarded(`${base}/status/${status}`, post)).json()) as Echo;
      expect([kept.method, kept.body, kept.contentType]).toEqual(['POST', 'payload', 'text/plain']);
    }
    const put = (await (await guarded(`${base}/status/303`, { method: 'PUT', body: 'x' })).json()) as Echo;
    expect(put.method).toBe('GET');
  });

  test('301 and 302 turn a POST into a GET (Fetch §4.4) and keep other methods', async () => {
    for (const status of [301, 302]) {
      const post = (await (
        await guarded(`${base}/status/${status}`, { method: 'POST', body: 'x' })
      ).json()) as Echo;
      expect([post.method, post.body]).toEqual(['GET', '']);
      const put = (await (
        await guarded(`${base}/status/${status}`, { method: 'PUT', body: 'x' })
      ).json()) as Echo;
      expect([put.method, put.body]).toEqual(['PUT', 'x']);
    }
  });

  test('refuses to replay a streamed body on 307, and still follows 303 with one', async () => {
    const stream = () => new Blob(['streamed']).stream();
    await expect(guarded(`${base}/status/307`, { method: 'POST', body: stream() })).rejects.toThrow(
      /a stream cannot be replayed/,
    );
    const res = await guarded(`${base}/status/303`, { method: 'POST', body: stream() });
    expect(((await res.json()) as Echo).method).toBe('GET');
    const request = new Request(`${base}/status/307`, { method: 'POST', body: 'in a Request' });
    await expect(guarded(request)).rejects.toThrow(/a stream cannot be replayed/);
  });

  test('drops Authorization, Cookie and Proxy-Authorization on a cross-origin hop only', async () => {
    const headers = {
      authorization: 'Bearer secret',
      cookie: 'sid=1',
      'proxy-authorization': 'Basic x',
      'x-custom': 'kept',
    };
    const same = (await (await guarded(`${base}/status/307`, { headers })).json()) as Echo;
    expect([same.authorization, same.cookie, same.proxyAuthorization, same.custom]).toEqual([
      'Bearer secret',
      'sid=1',
      'Basic x',
      'kept',
    ]);
    const cross = (await (await guarded(`${base}/cross/307`, { headers })).json()) as Echo;
    expect([cross.authorization, cross.cookie, cross.proxyAuthorization, cross.custom]).toEqual([
      null,
      null,
      null,
      'kept',
    ]);
  });

  test('redirect: manual returns the 3xx untouched; redirect: error throws', async () => {
    const res = await guarded(`${base}/chain/1`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/chain/0');
    await expect(guarded(`${base}/chain/1`, { redirect: 'error' })).rejects.toThrow(TypeError);
  });

  test('returns a 3xx without Location as it is', async () => {
    const res = await guarded(`${base}/nolocation`);
    expect(res.status).toBe(302);
    expect(await res.text()).toBe('moved');
  });

  test('hands the underlying fetch redirect: manual and the caller init', async () => {
    const { calls, fetch } = recorder();
    await fetchGuard({ fetch })('https://93.184.215.14/', {
      method: 'put',
      headers: { 'x-a': '1' },
      body: 'b',
    });
    const init = calls[0]?.init;
    expect(init?.redirect).toBe('manual');
    expect(init?.method).toBe('PUT');
    expect(new Headers(init?.headers).get('x-a')).toBe('1');
    expect(init?.body).toBe('b');
  });

  test('accepts a Request and a URL as input', async () => {
    const fromRequest = await guarded(new Request(`${base}/echo`, { method: 'POST', body: 'r' }));
    expect(((await fromRequest.json()) as Echo).body).toBe('r');
    const fromUrl = await guarded(new URL(`${base}/echo`));
    expect(fromUrl.status).toBe(200);
  });
});
