/**
 * Mutual TLS behind a TLS-terminating proxy on the Bun adapter: the RFC 9440 `Client-Cert` header is
 * believed only from a connection whose peer address is one of `trustedProxies`. Bun resolves the peer
 * lazily (server.requestIP), so this checks that hooks reach it through the App.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, mutualTls } from '@charter/core';
import { serve } from '@charter/bun';
import { type } from 'arktype';

const TLS = join(import.meta.dir, '..', 'fixtures', 'tls');
const clientPem = readFileSync(join(TLS, 'client.crt'), 'utf8');
const der = Buffer.from(
  clientPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''),
  'base64',
);
/** RFC 9440 §2.1: the DER certificate as a Structured Field byte sequence. */
const clientCertHeader = `:${der.toString('base64')}:`;

function appTrusting(trustedProxies: string[]): App {
  const app = new App({ logger: false, behindProxy: 'loopback' });
  app.get(
    '/who',
    {
      hooks: mutualTls({ fromProxyHeader: true, trustedProxies }),
      responses: { 200: { body: type({ sub: 'string' }) } },
    },
    (ctx) => ({ status: 200 as const, body: { sub: ctx.state.user?.sub ?? '' } }),
  );
  return app;
}

describe('mutualTls from the proxy header on the Bun adapter', () => {
  let trusted: { port: number; close(): Promise<void> | void };
  let untrusted: { port: number; close(): Promise<void> | void };
  beforeAll(async () => {
    trusted = await serve(appTrusting(['127.0.0.1/32', '::1/128']), { port: 0, hostname: '127.0.0.1' });
    untrusted = await serve(appTrusting(['10.0.0.0/8']), { port: 0, hostname: '127.0.0.1' });
  });
  afterAll(async () => {
    await trusted.close();
    await untrusted.close();
  });

  test('a Client-Cert header from a trusted proxy address authenticates the certificate subject', async () => {
    const res = await fetch(`http://127.0.0.1:${trusted.port}/who`, {
      headers: { 'client-cert': clientCertHeader },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: 'client-a' });
  });

  test('the same header from a peer outside trustedProxies is not believed: 401 with a challenge', async () => {
    const res = await fetch(`http://127.0.0.1:${untrusted.port}/who`, {
      headers: { 'client-cert': clientCertHeader },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('www-authenticate')).toStartWith('ClientCertificate');
    const body = (await res.json()) as { status: number };
    expect(body.status).toBe(401);
  });
});
