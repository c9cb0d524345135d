/**
 * `Expect: 100-continue` on Bun (RFC 9110 §10.1.1), over raw TCP. Bun.serve itself writes
 * `HTTP/1.1 100 Continue` as soon as it has parsed the header section, before it routes the request or
 * calls the fetch handler, and even before its own maxRequestBodySize check; Bun.serve has no option to
 * turn that off, and a fetch handler cannot take back bytes already written. So `charter/bun` cannot
 * answer a refused upload without inviting it first (content/docs/adapters.md, known limitations). The
 * first suite pins that behaviour of Bun itself, so a Bun that changes it fails here and the docs are
 * revisited; the second tests what the adapter does achieve: the refusal is the App's 413 problem, given
 * from the header alone, without waiting for the content the 100 invited.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { type BunServer, serve } from '@charter/bun';
import { type } from 'arktype';
import { head, header, json, RawClient, type RawResponse } from './fixtures/node-raw-client.ts';

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const LIMIT = 1024;
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

const expectHead = (length: string): string =>
  head('POST', '/upload', [
    `Content-Length: ${length}`,
    'Content-Type: application/json',
    'Expect: 100-continue',
  ]);

describe('Bun.serve (Bun 1.4.5) and Expect: 100-continue', () => {
  test('the 100 is on the wire before the fetch handler has answered, whatever it answers', async () => {
    const entered = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch() {
        entered.resolve();
        await release.promise;
        // Refused without reading a byte of the body.
        return new Response('refused', { status: 413 });
      },
    });
    stops.push(() => server.stop(true));
    const client = await RawClient.open(server.port as number);
    try {
      client.write(expectHead('2048'));
      await entered.promise;
      await client.waitFor((c) => c.text.length >= CONTINUE.length, 3000, 'the 100 Continue');
      // The handler has not returned yet, and the client was already invited to send 2 KiB.
      expect(client.text).toBe(CONTINUE);
      release.resolve();
      const [interim, final] = await client.responses(2, ['POST', 'POST']);
      expect(interim?.status).toBe(100);
      expect(final?.status).toBe(413);
      expect(final?.body).toBe('refused');
    } finally {
      client.destroy();
    }
  });

  test("even Bun's own maxRequestBodySize refusal, which never reaches the fetch handler, follows a 100", async () => {
    let called = false;
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      maxRequestBodySize: LIMIT,
      fetch() {
        called = true;
        return new Response('ok');
      },
    });
    stops.push(() => server.stop(true));
    const client = await RawClient.open(server.port as number);
    try {
      client.write(expectHead('2048'));
      await client.waitClosed(3000);
      expect(client.text).toStartWith(`${CONTINUE}HTTP/1.1 413 `);
      expect(called).toBe(false);
    } finally {
      client.destroy();
    }
  });
});

describe('charter/bun and Expect: 100-continue', () => {
  async function start(): Promise<BunServer> {
    const app = new App({ logger: false, bodyLimitBytes: LIMIT });
    app.post(
      '/upload',
      { request: { body: type({ text: 'string' }) }, responses: { 200: { body: type({ text: 'string' }) } } },
      (ctx) => ({ status: 200, body: { text: ctx.body.text } }),
    );
    const server = await serve(app, { port: 0, signals: false });
    stops.push(() => server.close(100));
    return server;
  }

  test("a declared length over bodyLimitBytes gets the App's 413 problem from the header alone, after Bun's 100", async () => {
    const server = await start();
    const client = await RawClient.open(server.port);
    try {
      // The body is never sent: the answer comes from the declared length.
      client.write(expectHead('2048'));
      const [interim, final] = await client.responses(2, ['POST', 'POST']);
      // Bun's 100 comes first (see above): the adapter cannot withhold it.
      expect(interim?.status).toBe(100);
      expect(client.text).toStartWith(CONTINUE);
      expect(final?.status).toBe(413);
      expect(header(final as RawResponse, 'content-type')).toBe('application/problem+json');
      expect(json(final as RawResponse)).toMatchObject({
        type: 'https://charter.dev/errors/payload-too-large',
        status: 413,
        detail: `The request body exceeds the limit of ${LIMIT} bytes`,
      });
    } finally {
      client.destroy();
    }
  });

  test('a request within the limit gets 100 Continue, then its answer once the body is sent', async () => {
    const server = await start();
    const client = await RawClient.open(server.port);
    try {
      const body = '{"text":"hello"}';
      client.write(expectHead(String(body.length)));
      await client.waitFor((c) => c.text.length >= CONTINUE.length, 3000, 'the 100 Continue');
      expect(client.text).toBe(CONTINUE);
      client.write(body);
      const [interim, final] = await client.responses(2, ['POST', 'POST']);
      expect(interim?.status).toBe(100);
      expect(final?.status).toBe(200);
      expect(header(final as RawResponse, 'content-type')).toBe('application/json');
      expect(json(final as RawResponse)).toEqual({ text: 'hello' });
    } finally {
      client.destroy();
    }
  });
});
