import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type } from 'arktype';
import { mutualTls, type MutualTlsOptions, parseClientCertHeader } from './mutual-tls.ts';
import { parseCertificate, type PeerCertificate, setPeerCertificate } from './peer-certificate.ts';
import { App } from '../app/index.ts';
import { HttpError } from '../errors/index.ts';
import { setRequestPeer } from '../pipeline/client-address.ts';
import { hookTraitsOf } from '../types/index.ts';
import { trackedBody } from '../../../../tests/support/tracked-body.ts';

const FIXTURES = join(import.meta.dir, '../../../../tests/fixtures/tls');
const PROBLEM = 'application/problem+json';

function pemToDer(file: string): Uint8Array {
  const pem = readFileSync(join(FIXTURES, file), 'utf8');
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
}

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

let clientDer: Uint8Array;
let client: PeerCertificate; // CN=client-a, O=Charter Tests, verified by the TLS layer
let rogue: PeerCertificate; // CN=client-a from an untrusted CA: the TLS layer says so

beforeAll(async () => {
  clientDer = pemToDer('client.crt');
  client = await parseCertificate(clientDer, { authorized: true });
  rogue = await parseCertificate(pemToDer('rogue-client.crt'), {
    authorized: false,
    authorizationError: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  });
});

const Who = type({ sub: 'string', scheme: 'string', scopes: 'string[]', org: 'string', issuer: 'string' });

/** An app whose routes are guarded by mutualTls(options): GET /whoami and POST /upload. */
function appWith(options: MutualTlsOptions = {}): App {
  const app = new App({ logger: false });
  const hooks = mutualTls(options);
  const who = (ctx: {
    state: {
      user?: { sub?: string; scopes: readonly string[]; claims: object };
      auth?: { scheme: string; credentials: unknown };
    };
  }) => {
    const credentials = ctx.state.auth?.credentials as PeerCertificate;
    return {
      sub: ctx.state.user?.sub ?? '',
      scheme: ctx.state.auth?.scheme ?? '',
      scopes: [...(ctx.state.user?.scopes ?? [])],
      org: credentials.subject.O?.[0] ?? '',
      issuer: credentials.issuer.CN?.[0] ?? '',
    };
  };
  app.get('/whoami', { hooks, responses: { 200: { body: Who } } }, (ctx) => ({
    status: 200 as const,
    body: who(ctx),
  }));
  app.post(
    '/upload',
    { hooks, request: { body: type({ text: 'string' }) }, responses: { 201: { body: Who } } },
    (ctx) => ({ status: 201 as const, body: who(ctx) }),
  );
  return app;
}

/** A request as an adapter hands it over, with the connection's certificate (if any) recorded. */
function fromConnection(
  certificate: PeerCertificate | undefined,
  init: RequestInit = {},
  path = '/whoami',
): Request {
  const request = new Request(`https://api.example${path}`, init);
  if (certificate !== undefined) setPeerCertificate(request, certificate);
  return request;
}

async function expectProblem(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe(PROBLEM);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.type).toBe(`https://charter.dev/errors/${code}`);
  expect(body.status).toBe(status);
  return body;
}

const upload = (certificate: PeerCertificate | undefined, body: BodyInit | ReadableStream) =>
  fromConnection(
    certificate,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit,
    '/upload',
  );

describe('mutualTls with the connection certificate', () => {
  test('a verified certificate authenticates: state.auth is mtls, sub the subject CN', async () => {
    const res = await appWith().handle(fromConnection(client));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      sub: 'client-a',
      scheme: 'mtls',
      scopes: [],
      org: 'Charter Tests',
      issuer: 'Charter Test CA',
    });
  });

  test('the principal carries the certificate fields as claims, and the record as credentials', async () => {
    const app = new App({ logger: false });
    app.get(
      '/claims',
      { hooks: mutualTls(), responses: { 200: { body: type({ claims: 'object', same: 'boolean' }) } } },
      (ctx) => ({
        status: 200 as const,
        body: { claims: { ...ctx.state.user?.claims }, same: ctx.state.auth?.credentials === client },
      }),
    );
    const res = await app.handle(fromConnection(client, {}, '/claims'));
    const body = (await res.json()) as { claims: Record<string, unknown>; same: boolean };
    expect(body.same).toBe(true);
    expect(body.claims).toEqual({
      subject: { CN: ['client-a'], O: ['Charter Tests'] },
      issuer: { CN: ['Charter Test CA'] },
      subjectAltName: { dns: [], email: [], uri: [], ip: [] },
      serialNumber: client.serialNumber,
      fingerprint256: client.fingerprint256,
      validFrom: client.validFrom.toISOString(),
      validTo: client.validTo.toISOString(),
    });
  });

  test('no certificate gives 401 with the ClientCertificate challenge and a problem document', async () => {
    const res = await appWith().handle(fromConnection(undefined));
    const body = await expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe(
      'ClientCertificate realm="api", error_description="A TLS client certificate is required."',
    );
    expect(body.detail).toBe('A TLS client certificate is required.');
  });

  test('realm and challengeScheme options shape the challenge', async () => {
    const res = await appWith({ realm: 'payments', challengeScheme: 'mTLS' }).handle(
      fromConnection(undefined),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toStartWith('mTLS realm="payments"');
  });

  test('a certificate the TLS layer did not verify gives 401, unless allowUnauthorized', async () => {
    const res = await appWith().handle(fromConnection(rogue));
    const body = await expectProblem(res, 401, 'unauthorized');
    expect(body.detail).toBe('The client certificate is not issued by a trusted certificate authority.');
    expect(res.headers.get('www-authenticate')).toStartWith('ClientCertificate realm="api"');
    const allowed = await appWith({ allowUnauthorized: true }).handle(fromConnection(rogue));
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as { issuer: string }).issuer).toBe('Rogue CA');
  });

  test('an expired or not-yet-valid certificate gives 401; clockSkewSeconds tolerates a small drift', async () => {
    const now = Date.now();
    const expired = { ...client, validTo: new Date(now - 60_000) };
    const early = { ...client, validFrom: new Date(now + 60_000) };
    const expiredRes = await appWith().handle(fromConnection(expired));
    expect((await expectProblem(expiredRes, 401, 'unauthorized')).detail).toBe(
      'The client certificate has expired.',
    );
    const earlyRes = await appWith().handle(fromConnection(early));
    expect((await expectProblem(earlyRes, 401, 'unauthorized')).detail).toBe(
      'The client certificate is not yet valid.',
    );
    expect((await appWith({ clockSkewSeconds: 120 }).handle(fromConnection(expired))).status).toBe(200);
    expect((await appWith({ clockSkewSeconds: 120 }).handle(fromConnection(early))).status).toBe(200);
    expect((await appWith({ clockSkewSeconds: 30 }).handle(fromConnection(expired))).status).toBe(401);
  });

  test('an unauthenticated upload is refused before its body is read', async () => {
    const tracked = trackedBody('{"text":"hello"}');
    const res = await appWith().handle(upload(undefined, tracked.body));
    await expectProblem(res, 401, 'unauthorized');
    expect(tracked.pulled()).toBe(false);
  });

  test('an authenticated upload reaches the handler with its body', async () => {
    const res = await appWith().handle(upload(client, '{"text":"hello"}'));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { sub: string }).sub).toBe('client-a');
  });

  test('declares that it authenticates, for the boot guards', () => {
    expect(hookTraitsOf(mutualTls())?.authenticates).toBe(true);
  });
});

describe('mutualTls authorisation', () => {
  test('allowFingerprints admits a listed certificate, in any hex spelling', async () => {
    const plain = client.fingerprint256.replaceAll(':', '').toLowerCase();
    for (const listed of [client.fingerprint256, plain]) {
      const res = await appWith({ allowFingerprints: ['00'.repeat(32), listed] }).handle(
        fromConnection(client),
      );
      expect(res.status).toBe(200);
    }
  });

  test('allowFingerprints refuses any other verified certificate with 403 and no challenge', async () => {
    const res = await appWith({ allowFingerprints: ['AB'.repeat(32)] }).handle(fromConnection(client));
    const body = await expectProblem(res, 403, 'forbidden');
    expect(body.detail).toBe('This client certificate is not allowed.');
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  test('a pinned certificate still needs a verified chain unless allowUnauthorized', async () => {
    const pinned = { allowFingerprints: [rogue.fingerprint256] };
    expect((await appWith(pinned).handle(fromConnection(rogue))).status).toBe(401);
    expect((await appWith({ ...pinned, allowUnauthorized: true }).handle(fromConnection(rogue))).status).toBe(
      200,
    );
  });

  test('verify returning false gives 403, before the body is read', async () => {
    const tracked = trackedBody('{"text":"hello"}');
    const res = await appWith({ verify: () => false }).handle(upload(client, tracked.body));
    await expectProblem(res, 403, 'forbidden');
    expect(tracked.pulled()).toBe(false);
  });

  test('verify sees the certificate and the context, and may name the principal and its scopes', async () => {
    let seenPath = '';
    const res = await appWith({
      verify: (cert, ctx) => {
        seenPath = new URL(ctx.request.url).pathname;
        return (
          cert.subject.O?.includes('Charter Tests') === true && { sub: 'svc:client-a', scopes: 'notes:read' }
        );
      },
    }).handle(fromConnection(client));
    expect(seenPath).toBe('/whoami');
    expect(await res.json()).toMatchObject({ sub: 'svc:client-a', scopes: ['notes:read'] });
  });

  test('verify returning true keeps the default subject; a throw becomes a 500 that names nothing', async () => {
    const accepted = await appWith({ verify: () => true }).handle(fromConnection(client));
    expect(((await accepted.json()) as { sub: string }).sub).toBe('client-a');
    const broken = await appWith({
      verify: () => {
        throw new Error('database password is hunter2');
      },
    }).handle(fromConnection(client));
    expect(broken.status).toBe(500);
    expect(await broken.text()).not.toContain('hunter2');
  });

  test('subject picks the principal; without a CN the default is the SHA-256 fingerprint', async () => {
    const bySerial = await appWith({ subject: (cert) => `serial:${cert.serialNumber}` }).handle(
      fromConnection(client),
    );
    expect(((await bySerial.json()) as { sub: string }).sub).toBe(`serial:${client.serialNumber}`);
    const noCn = { ...client, subject: { O: ['Charter Tests'] } };
    const res = await appWith().handle(fromConnection(noCn));
    expect(((await res.json()) as { sub: string }).sub).toBe(client.fingerprint256);
  });

  test('a custom certificate source replaces the connection', async () => {
    const app = appWith({
      certificate: (request) => (request.headers.get('x-test') === 'yes' ? client : undefined),
    });
    expect((await app.handle(fromConnection(undefined, { headers: { 'x-test': 'yes' } }))).status).toBe(200);
    expect((await app.handle(fromConnection(client))).status).toBe(401);
  });
});

describe('mutualTls behind a TLS-terminating proxy (RFC 9440)', () => {
  const header = () => `:${base64(clientDer)}:`;

  test('reads the Client-Cert header: same principal and credentials as the connection would give', async () => {
    const app = new App({ logger: false });
    let seen: PeerCertificate | undefined;
    app.get(
      '/c',
      { hooks: mutualTls({ fromProxyHeader: true }), responses: { 200: { body: type({ sub: 'string' }) } } },
      (ctx) => {
        seen = ctx.state.auth?.credentials as PeerCertificate;
        return { status: 200 as const, body: { sub: ctx.state.user?.sub ?? '' } };
      },
    );
    const res = await app.request('/c', { headers: { 'client-cert': header() } });
    expect(await res.json()).toEqual({ sub: 'client-a' });
    expect(seen).toEqual(client);
  });

  test('accepts unpadded base64 and ignores parameters', async () => {
    const app = appWith({ fromProxyHeader: true });
    const unpadded = `:${base64(clientDer).replace(/=+$/, '')}:;x=1`;
    expect((await app.request('/whoami', { headers: { 'client-cert': unpadded } })).status).toBe(200);
  });

  test("without the header gives 401, and the connection certificate (the proxy's own) is ignored", async () => {
    const app = appWith({ fromProxyHeader: true });
    expect((await app.handle(fromConnection(client))).status).toBe(401);
    const res = await app.request('/whoami');
    expect(res.headers.get('www-authenticate')).toStartWith('ClientCertificate realm="api"');
  });

  test('an unreadable Client-Cert gives 401 naming RFC 9440', async () => {
    const app = appWith({ fromProxyHeader: true });
    for (const value of [
      base64(clientDer),
      `:${base64(clientDer)}:, :${base64(clientDer)}:`,
      ':not base64!:',
      ':AAAA:',
    ]) {
      const res = await app.request('/whoami', { headers: { 'client-cert': value } });
      const body = await expectProblem(res, 401, 'unauthorized');
      expect(body.detail).toBe('The Client-Cert header is not a certificate (RFC 9440 §2.2).');
    }
  });

  test('an upload without the header is refused before its body is read', async () => {
    const tracked = trackedBody('{"text":"hello"}');
    const res = await appWith({ fromProxyHeader: true }).handle(upload(undefined, tracked.body));
    await expectProblem(res, 401, 'unauthorized');
    expect(tracked.pulled()).toBe(false);
  });

  test('the header sent twice is refused, like any list', async () => {
    const headers = new Headers();
    headers.append('client-cert', header());
    headers.append('client-cert', header());
    const res = await appWith({ fromProxyHeader: true }).request('/whoami', { headers });
    expect(res.status).toBe(401);
  });

  test('the header is ignored unless fromProxyHeader is set', async () => {
    const res = await appWith().request('/whoami', { headers: { 'client-cert': header() } });
    expect(res.status).toBe(401);
  });

  test('with trustedProxies, the header is believed only from a listed peer', async () => {
    const app = appWith({ fromProxyHeader: true, trustedProxies: ['10.0.0.0/8', '::1'] });
    const via = (peer: string | undefined) => {
      const request = new Request('https://api.example/whoami', { headers: { 'client-cert': header() } });
      if (peer !== undefined) setRequestPeer(request, peer);
      return app.handle(request);
    };
    expect((await via('10.1.2.3')).status).toBe(200);
    expect((await via('::1')).status).toBe(200);
    expect((await via('192.0.2.7')).status).toBe(401);
    expect((await via(undefined)).status).toBe(401);
  });

  test('allowFingerprints and verify apply to header certificates too', async () => {
    const refused = appWith({ fromProxyHeader: true, allowFingerprints: ['CD'.repeat(32)] });
    expect((await refused.request('/whoami', { headers: { 'client-cert': header() } })).status).toBe(403);
  });
});

describe('parseClientCertHeader', () => {
  test('reads an RFC 8941 byte sequence, padded or not, with optional whitespace and parameters', () => {
    expect(parseClientCertHeader(':AQID:')).toEqual(new Uint8Array([1, 2, 3]));
    expect(parseClientCertHeader(' :AQI=: ')).toEqual(new Uint8Array([1, 2]));
    expect(parseClientCertHeader(':AQI:;a=1')).toEqual(new Uint8Array([1, 2]));
  });

  test('refuses other shapes', () => {
    for (const value of [
      '',
      'AQID',
      ':AQID',
      ':AQ ID:',
      ':AQ=D:',
      ':AQID:x',
      ':AQID:, :AQID:',
      '::',
      ':-_8:',
    ]) {
      expect(parseClientCertHeader(value)).toBeUndefined();
    }
  });
});

describe('mutualTls options', () => {
  const cases: Array<[string, MutualTlsOptions, RegExp]> = [
    [
      'an empty allowFingerprints',
      { allowFingerprints: [] },
      /"allowFingerprints" must be a non-empty array/,
    ],
    ['a short fingerprint', { allowFingerprints: ['AB:CD'] }, /"allowFingerprints\[0\]"/],
    ['a non-hex fingerprint', { allowFingerprints: ['ZZ'.repeat(32)] }, /SHA-256 fingerprint/],
    ['a non-function verify', { verify: 'yes' as never }, /"verify" must be a function/],
    ['a non-function subject', { subject: 1 as never }, /"subject"/],
    [
      'a non-boolean allowUnauthorized',
      { allowUnauthorized: 'true' as never },
      /"allowUnauthorized" must be a boolean/,
    ],
    [
      'trustedProxies without fromProxyHeader',
      { trustedProxies: ['10.0.0.0/8'] },
      /needs "fromProxyHeader: true"/,
    ],
    ['an invalid trusted proxy', { fromProxyHeader: true, trustedProxies: ['nope'] }, /trustedProxies/],
    [
      'certificate with fromProxyHeader',
      { fromProxyHeader: true, certificate: () => undefined },
      /exclude each other/,
    ],
    ['a challenge scheme that is not a token', { challengeScheme: 'Client Cert' }, /"challengeScheme"/],
    ['an empty realm', { realm: '' }, /"realm"/],
    ['a negative clockSkewSeconds', { clockSkewSeconds: -1 }, /"clockSkewSeconds"/],
  ];
  for (const [what, options, message] of cases) {
    test(`refuses ${what}`, () => {
      expect(() => mutualTls(options)).toThrow(message);
    });
  }

  test('accepts a full valid set', () => {
    expect(() =>
      mutualTls({
        realm: 'partners',
        challengeScheme: 'ClientCert',
        allowFingerprints: [client.fingerprint256],
        verify: () => true,
        subject: (cert) => cert.serialNumber,
        allowUnauthorized: false,
        fromProxyHeader: true,
        trustedProxies: ['10.0.0.0/8'],
        clockSkewSeconds: 60,
      }),
    ).not.toThrow();
  });

  test('an HttpError thrown by verify is the answer', async () => {
    const res = await appWith({
      verify: () => {
        throw new HttpError({ status: 429, detail: 'Slow down' });
      },
    }).handle(fromConnection(client));
    expect(res.status).toBe(429);
  });
});
