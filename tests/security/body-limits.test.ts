/**
 * Oversized bodies against the default app's 1 MiB body limit (bodyLimitBytes), through both adapters
 * over a real socket: on a route that declares a JSON body (`POST /merge`) and on one that reads
 * `ctx.request` itself (`POST /raw`), which the limit covers too.
 *
 * A declared Content-Length over the limit is refused before a byte of the body is read; a chunked body
 * is refused as soon as it grows past the limit. After the 413 the Node adapter closes the connection
 * (the unread rest of the body is never parsed as a request); Bun keeps it open and goes on framing the
 * declared body as body, so what follows on the connection is still never read as a request.
 */
import { describe, expect, test } from 'bun:test';
import {
  canaryHits,
  expectBunParserRefusal,
  expectProblem,
  expectServing,
  HIDDEN,
  json,
  sleep,
} from './fixtures/expect.ts';
import { head, header, RawConnection, type RawResponse, send } from './fixtures/raw-http.ts';
import { ADAPTERS, serveDefaultApp, type Target } from './fixtures/servers.ts';

const servers = serveDefaultApp();

const MiB = 1024 * 1024;
const TOO_LARGE = `The request body exceeds the limit of ${MiB} bytes`;
/**
 * The Bun adapter sets Bun's own `maxRequestBodySize` to max(bodyLimitBytes + 1, 128 MiB), so that the
 * app, not Bun, refuses an oversized body with a problem document; a declared length past this cap is
 * refused by Bun itself.
 */
const BUN_CAP = 128 * MiB;

/** A chunked body of `count` 64 KiB chunks, without the last chunk. */
const chunks = (count: number): string => `10000\r\n${'a'.repeat(0x10000)}\r\n`.repeat(count);

/** Checks what each adapter does with the connection after refusing a body it did not read. */
async function expectConnectionAfterRefusal(target: Target, connection: RawConnection): Promise<void> {
  if (target.adapter === 'node') {
    // The adapter cancelled the body: it closes the connection after the answer (response.ts).
    expect(header(connection.exchange().response as RawResponse, 'connection')).toBe('close');
    await connection.waitClosed(2000);
  } else {
    // Bun frames the rest of the declared body as body: a request written where the body should be is
    // never served (the canary stays at 0), and the connection is not desynchronised.
    connection.write(HIDDEN);
    await sleep(100);
    expect(connection.exchange().responses).toHaveLength(1);
  }
  expect(await canaryHits(target)).toBe(0);
}

for (const adapter of ADAPTERS) {
  describe(`body limits, ${adapter} adapter`, () => {
    test('a body of exactly the limit is read (the good path)', async () => {
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        head('POST', '/raw', [`Content-Length: ${MiB}`, 'Connection: close']) + 'a'.repeat(MiB),
        { timeoutMs: 5000 },
      );
      expect(exchange.response?.status).toBe(200);
      expect(json(exchange.response as RawResponse)).toEqual({ bytes: MiB });
    });

    for (const [route, extra] of [
      ['/merge', ['Content-Type: application/json']],
      ['/raw', []],
    ] as const) {
      for (const declared of [MiB + 1, 2 * MiB, BUN_CAP]) {
        test(`${route}: Content-Length ${declared} is refused 413 before any body byte is sent`, async () => {
          const target = servers.get(adapter);
          const connection = await RawConnection.open(target.port);
          try {
            connection.write(head('POST', route, [...extra, `Content-Length: ${declared}`]));
            // Not one body byte is written: the answer can only come from the declared length.
            await connection.waitResponses(1, 2000);
            expectProblem(connection.exchange().response, 413, 'payload-too-large', TOO_LARGE);
            await expectConnectionAfterRefusal(target, connection);
          } finally {
            connection.destroy();
          }
          await expectServing(target);
        });
      }

      test(`${route}: a chunked body growing past the limit is refused 413 without waiting for its end`, async () => {
        const target = servers.get(adapter);
        const connection = await RawConnection.open(target.port);
        try {
          // 20 chunks of 64 KiB (1.25 MiB) and no last chunk: the refusal cannot wait for the end.
          connection.write(head('POST', route, [...extra, 'Transfer-Encoding: chunked']) + chunks(20));
          await connection.waitResponses(1, 3000);
          expectProblem(connection.exchange().response, 413, 'payload-too-large', TOO_LARGE);
          if (adapter === 'node') await expectConnectionAfterRefusal(target, connection);
          else expect(await canaryHits(target)).toBe(0);
        } finally {
          connection.destroy();
        }
        await expectServing(target);
      });
    }

    test("a Content-Length past 128 MiB: Bun refuses it bare, Node with the app's problem", async () => {
      // Past BUN_CAP Bun answers in native code, before the app: a bare 413 and a closed connection
      // (see expectBunParserRefusal). The body is refused unread either way.
      const target = servers.get(adapter);
      for (const declared of [BUN_CAP + 1, 2 ** 40]) {
        const exchange = await send(target.port, head('POST', '/raw', [`Content-Length: ${declared}`]));
        if (adapter === 'bun') expectBunParserRefusal(exchange, 413);
        else expectProblem(exchange.response, 413, 'payload-too-large', TOO_LARGE);
      }
      expect(await canaryHits(target)).toBe(0);
      await expectServing(target);
    });

    test('a chunked body within the limit is read whole', async () => {
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        `${head('POST', '/raw', ['Transfer-Encoding: chunked', 'Connection: close'])}${chunks(15)}0\r\n\r\n`,
      );
      expect(exchange.response?.status).toBe(200);
      expect(json(exchange.response as RawResponse)).toEqual({ bytes: 15 * 0x10000 });
    });
  });
}
