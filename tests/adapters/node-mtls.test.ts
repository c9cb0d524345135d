/**
 * Mutual TLS through `charter/node` on real `node:https` servers, with the certificates of
 * tests/fixtures/tls (README there): the adapter records each connection's TLS client certificate and
 * `mutualTls()` authenticates with it in preBody.
 *
 * - Real Node 24 (fixtures/node-host.ts, its `mtls` app under `https.createServer` and `toNodeHandler`):
 *   Node's TLS socket exposes the peer certificate, so this suite proves the whole path: trusted, rogue
 *   and certificate-less clients, uploads refused before their body is sent, keep-alive, and the RFC 9440
 *   proxy header.
 * - Bun's own `node:https` (this process), for users who run the Node adapter on Bun: its request sockets
 *   report `authorized` but have no `getPeerCertificate`, so the adapter cannot see the certificate and
 *   `mutualTls()` fails closed; the proxy header, believed from a trusted peer only, still works.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, createServer, request, type RequestOptions, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { App } from '@charter/core';
import { toNodeHandler } from '@charter/node';
import { type } from 'arktype';
import { mutualTls } from '../../packages/core/src/auth/mutual-tls.ts';
import { parseCertificate, type PeerCertificate } from '../../packages/core/src/auth/peer-certificate.ts';
import { HOST_START_TIMEOUT_MS, NodeHost } from './fixtures/node24.ts';

const ROOT = join(import.meta.dir, '../..');
const TLS = join(ROOT, 'tests/fixtures/tls');
const PROBLEM = 'application/problem+json';

const read = (file: string): string => readFileSync(join(TLS, file), 'utf8');
const ca = read('ca.crt');
const trusted = { cert: read('client.crt'), key: read('client.key') };
const rogue = { cert: read('rogue-client.crt'), key: read('rogue-client.key') };

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The request went over a connection an earlier request opened (keep-alive). */
  reused?: boolean;
}

/** The same report, built here from a record, as it arrives after JSON. */
function report(sub: string, cert: PeerCertificate): unknown {
  return JSON.parse(
    JSON.stringify({ sub, cert: { ...cert, raw: Buffer.from(cert.raw).toString('base64') } }),
  );
}

/** One HTTPS request trusting the test CA, with an optional client certificate; resolves the whole reply. */
function call(port: number, options: RequestOptions & { body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, ca, agent: false, ...options }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          reused: req.reusedSocket,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * POSTs headers announcing a 1 MiB JSON body, then sends nothing: an answer can only come from the headers.
 */
function uploadWithoutBody(port: number, credentials: { cert?: string; key?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        ca,
        ...credentials,
        agent: false,
        path: '/upload',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(1024 * 1024) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          answered = true;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          });
          req.destroy();
        });
      },
    );
    // The server may close the connection after answering: only an error before the answer counts.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.flushHeaders();
  });
}

function expectProblem(reply: Reply, status: number, code: string): Record<string, unknown> {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toBe(PROBLEM);
  const problem = JSON.parse(reply.body) as Record<string, unknown>;
  expect(problem.type).toBe(`https://charter.dev/errors/${code}`);
  expect(problem.status).toBe(status);
  return problem;
}

const UNTRUSTED = 'The client certificate is not issued by a trusted certificate authority.';

describe('mutual TLS on real Node 24', () => {
  let node: NodeHost | undefined;
  let server = 0;
  let port = 0;
  /** How many upload bodies the app has read so far. */
  const reads = (): number =>
    node?.lines.filter((l) => l.server === server && l.event === 'read').length ?? 0;
  /**
   * Waits until the app has reported `count` reads. The child prints them on its stdout pipe and the
   * reply travels over TCP, so the reply can reach this process before the line does.
   */
  /** A JSON upload `{ text }` from the client with the trusted certificate. */
  const trustedUpload = (text: string): Promise<Reply> =>
    call(port, {
      path: '/upload',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
      ...trusted,
    });
  const readsReach = async (count: number): Promise<number> => {
    await node?.waitFor(() => reads() >= count, 3000, `${count} upload reads`);
    return reads();
  };

  beforeAll(async () => {
    node = new NodeHost();
    const served = await node.serve('mtls');
    server = served.server;
    port = served.port;
  }, HOST_START_TIMEOUT_MS);

  afterAll(() => node?.kill());

  test('the server runs under Node 24, not Bun', async () => {
    expect(node?.version).toStartWith('v24.');
    expect(await node?.call('info')).toMatchObject({ version: node?.version, bun: null });
  });

  test('a client with a certificate from the trusted CA gets 200 and its subject', async () => {
    const reply = await call(port, { path: '/whoami', ...trusted });
    expect(reply.status).toBe(200);
    const reference = new X509Certificate(trusted.cert);
    expect(JSON.parse(reply.body)).toMatchObject({
      sub: 'client-a',
      cert: {
        fingerprint256: reference.fingerprint256,
        authorized: true,
        serialNumber: reference.serialNumber,
        subject: { CN: ['client-a'], O: ['Charter Tests'] },
        issuer: { CN: ['Charter Test CA'] },
      },
    });
  });

  test("the adapter's record is the one the core builds from the certificate's DER (as for the proxy header)", async () => {
    const reply = await call(port, { path: '/whoami', ...trusted });
    const der = new Uint8Array(new X509Certificate(trusted.cert).raw);
    const expected = await parseCertificate(der, { authorized: true });
    expect(JSON.parse(reply.body)).toEqual(report('client-a', expected));
  });

  test('a client certificate from another CA gets 401 with the challenge and a problem document', async () => {
    const reply = await call(port, { path: '/whoami', ...rogue });
    expect(expectProblem(reply, 401, 'unauthorized').detail).toBe(UNTRUSTED);
    expect(reply.headers['www-authenticate']).toBe(
      `ClientCertificate realm="api", error_description="${UNTRUSTED}"`,
    );
  });

  test('a client without a certificate gets 401 with the challenge', async () => {
    const reply = await call(port, { path: '/whoami' });
    expect(expectProblem(reply, 401, 'unauthorized').detail).toBe('A TLS client certificate is required.');
    expect(reply.headers['www-authenticate']).toBe(
      'ClientCertificate realm="api", error_description="A TLS client certificate is required."',
    );
  });

  test('every request of a keep-alive connection is authenticated', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        const reply = await call(port, { path: '/whoami', ...trusted, agent });
        expect(reply.status).toBe(200);
        expect(reply.reused).toBe(i > 0);
        expect((JSON.parse(reply.body) as { sub: string }).sub).toBe('client-a');
      }
    } finally {
      agent.destroy();
    }
  });

  test('a trusted client can upload', async () => {
    const before = reads();
    const reply = await trustedUpload('hello');
    expect(reply.status).toBe(201);
    expect(JSON.parse(reply.body)).toMatchObject({ sub: 'client-a', size: 5 });
    expect(await readsReach(before + 1)).toBe(before + 1);
  });

  for (const [who, credentials, detail] of [
    ['without a certificate', {}, 'A TLS client certificate is required.'],
    ['with a rogue certificate', rogue, UNTRUSTED],
  ] as const) {
    test(`the upload of a client ${who} is refused before its body is sent`, async () => {
      const before = reads();
      const reply = await uploadWithoutBody(port, credentials);
      expect(expectProblem(reply, 401, 'unauthorized').detail).toBe(detail);
      expect(reply.headers['www-authenticate']).toStartWith('ClientCertificate realm="api"');
      // A trusted upload after it is reported in order: had the refused body been read, its line
      // would come first and the count would be one more.
      expect((await trustedUpload('after')).status).toBe(201);
      expect(await readsReach(before + 1)).toBe(before + 1);
    });
  }

  test('a Client-Cert header from a trusted proxy address authenticates; from another address it does not', async () => {
    const der = new X509Certificate(trusted.cert).raw;
    const headers = { 'client-cert': `:${der.toString('base64')}:` };
    const proxied = await call(port, { path: '/proxied', headers });
    expect(proxied.status).toBe(200);
    expect(JSON.parse(proxied.body)).toEqual({ sub: 'client-a' });
    const elsewhere = await call(port, { path: '/elsewhere', headers });
    expectProblem(elsewhere, 401, 'unauthorized');
  });
});

describe("mutual TLS on Bun's node:https", () => {
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    const app = new App({ logger: false });
    const Sub = type({ sub: 'string' });
    const sub = (ctx: { state: { user?: { sub?: string } } }) => ({
      status: 200 as const,
      body: { sub: ctx.state.user?.sub ?? '' },
    });
    app.get('/connection', { hooks: mutualTls(), responses: { 200: { body: Sub } } }, sub);
    app.get(
      '/proxied',
      {
        hooks: mutualTls({ fromProxyHeader: true, trustedProxies: ['127.0.0.1'] }),
        responses: { 200: { body: Sub } },
      },
      sub,
    );
    app.get(
      '/elsewhere',
      {
        hooks: mutualTls({ fromProxyHeader: true, trustedProxies: ['10.0.0.0/8'] }),
        responses: { 200: { body: Sub } },
      },
      sub,
    );
    server = createServer(
      { key: read('server.key'), cert: read('server.crt'), ca, requestCert: true, rejectUnauthorized: false },
      toNodeHandler(app),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('the certificate is not visible to the adapter, so mutualTls refuses even a trusted client (fails closed)', async () => {
    const reply = await call(port, { path: '/connection', ...trusted });
    expect(expectProblem(reply, 401, 'unauthorized').detail).toBe('A TLS client certificate is required.');
  });

  test('a Client-Cert header from a trusted proxy address authenticates; from another address it does not', async () => {
    const der = new X509Certificate(trusted.cert).raw;
    const headers = { 'client-cert': `:${der.toString('base64')}:` };
    const proxied = await call(port, { path: '/proxied', headers });
    expect(proxied.status).toBe(200);
    expect(JSON.parse(proxied.body)).toEqual({ sub: 'client-a' });
    const elsewhere = await call(port, { path: '/elsewhere', headers });
    expectProblem(elsewhere, 401, 'unauthorized');
  });
});
