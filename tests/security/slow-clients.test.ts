/**
 * Slow clients (slowloris): bodies and header sections that trickle in, through both adapters over a
 * real socket. This file serves the default app with a short request timeout (requestTimeoutMs 500,
 * the app's own timer, which covers the body read) and, for the Node child, short server timeouts
 * (headersTimeoutMs 300, requestTimeoutMs 1000), so that each case takes well under a second.
 *
 * A slow body reaches the app, whose timer answers 408 on both adapters. A slow header section never
 * reaches the app: on Node, server.headersTimeout (counted from the first byte, so trickling does not
 * reset it) makes the adapter answer a 408 problem; Bun has no header timeout of its own and cuts the
 * connection, without an answer, through its idle timeout, which the Bun adapter derives from the app's
 * timeout (ceil(requestTimeoutMs / 1000) + 5 s, so 6 s here; Bun 1.4.5 fires it at about twice that).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { expectProblem, expectServing, json, sleep } from './fixtures/expect.ts';
import { head, header, RawConnection, type RawResponse } from './fixtures/raw-http.ts';
import { ADAPTERS, type Adapter, serveDefaultApp } from './fixtures/servers.ts';

const servers = serveDefaultApp({
  app: { requestTimeoutMs: 500 },
  nodeServe: { headersTimeoutMs: 300, requestTimeoutMs: 1000 },
});

const APP_TIMEOUT = 'The request did not complete within 500 ms';
const HEADERS_TIMEOUT = 'The request headers were not received in time';

/** Writes `head`, then `pieces` one every `intervalMs`, and returns the connection with its answer. */
async function trickle(
  adapter: Adapter,
  firstBytes: string,
  pieces: string[],
  intervalMs: number,
): Promise<RawConnection> {
  const connection = await RawConnection.open(servers.get(adapter).port);
  connection.write(firstBytes);
  for (const piece of pieces) {
    await sleep(intervalMs);
    if (connection.closed) break;
    connection.write(piece);
  }
  return connection;
}

interface Slowloris {
  /** Milliseconds from the first byte sent until Bun closed the connection. */
  closedAfterMs: number;
  /** Every byte Bun sent back. */
  received: string;
}

/** A header section that never ends: a line every second, until the server hangs up (16 s at most). */
async function slowloris(port: number): Promise<Slowloris> {
  const connection = await RawConnection.open(port);
  const started = performance.now();
  connection.write('GET /health HTTP/1.1\r\nHost: app.test\r\n');
  for (let i = 0; i < 16 && !connection.closed; i++) {
    await Promise.race([sleep(1000), connection.waitClosed(1000).catch(() => {})]);
    if (!connection.closed) connection.write(`x-slow-${i}: v\r\n`);
  }
  const closedAfterMs = performance.now() - started;
  connection.destroy();
  return { closedAfterMs, received: connection.text };
}

// Bun takes about 12 s to cut a slowloris connection: it runs in the background while the other cases
// run, and the last test collects it.
let bunSlowloris: Promise<Slowloris> | undefined;
beforeAll(() => {
  bunSlowloris = slowloris(servers.get('bun').port);
});

const BODIES: Array<{ name: string; head: string; body: string[] }> = [
  {
    name: 'a raw body read by the handler',
    head: head('POST', '/raw', ['Content-Length: 10']),
    body: [...'abcdefghij'],
  },
  {
    name: 'a JSON body the route declares',
    head: head('POST', '/merge', ['Content-Type: application/json', 'Content-Length: 10']),
    body: [...'{"a":"bc"}'],
  },
  {
    name: 'a chunked body',
    head: head('POST', '/raw', ['Transfer-Encoding: chunked']),
    body: [...Array.from({ length: 9 }, () => '1\r\na\r\n'), '0\r\n\r\n'],
  },
];

for (const adapter of ADAPTERS) {
  describe(`slow clients, ${adapter} adapter`, () => {
    test('a body that arrives within the timeout is served (the good path)', async () => {
      const connection = await trickle(
        adapter,
        head('POST', '/raw', ['Content-Length: 5', 'Connection: close']),
        [...'abcde'],
        40,
      );
      try {
        await connection.waitResponses(1, 2000);
        expect(connection.exchange().response?.status).toBe(200);
        expect(json(connection.exchange().response as RawResponse)).toEqual({ bytes: 5 });
      } finally {
        connection.destroy();
      }
    });

    for (const c of BODIES) {
      test(`${c.name}, one byte every 150 ms: 408 problem at the app's timeout`, async () => {
        const target = servers.get(adapter);
        // The whole body would take 1.5 s; the answer must come at the 500 ms timeout, mid-body.
        const connection = await trickle(adapter, c.head, c.body, 150);
        try {
          await connection.waitResponses(1, 1000);
          const { response, firstByteMs } = connection.exchange();
          expectProblem(response, 408, 'request-timeout', APP_TIMEOUT);
          expect(firstByteMs).toBeGreaterThanOrEqual(450);
          expect(firstByteMs).toBeLessThan(1200);
          // Node's adapter closes a connection whose body it stopped reading; on Bun the rest of the body
          // was still framed as body (all of it was sent), so the connection is merely idle.
          expect(header(response as RawResponse, 'connection')).toBe(
            adapter === 'node' ? 'close' : undefined,
          );
          if (adapter === 'node') await connection.waitClosed(1000);
        } finally {
          connection.destroy();
        }
        await expectServing(target);
      });
    }

    if (adapter === 'node') {
      test('a header section that stops arriving: 408 problem at headersTimeout, connection closed', async () => {
        const target = servers.get(adapter);
        const connection = await trickle(adapter, 'GET /health HTTP/1.1\r\nHost: app.test\r\n', [], 0);
        try {
          await connection.waitClosed(1500);
          const { response, firstByteMs } = connection.exchange();
          expectProblem(response, 408, 'request-timeout', HEADERS_TIMEOUT);
          expect(header(response as RawResponse, 'connection')).toBe('close');
          expect(firstByteMs).toBeGreaterThanOrEqual(250);
        } finally {
          connection.destroy();
        }
        await expectServing(target);
      });

      test('a header section trickled one line every 100 ms: 408 all the same (the timer does not reset)', async () => {
        const target = servers.get(adapter);
        const lines = Array.from({ length: 15 }, (_, i) => `x-slow-${i}: v\r\n`);
        const connection = await trickle(adapter, 'GET /health HTTP/1.1\r\nHost: app.test\r\n', lines, 100);
        try {
          await connection.waitClosed(1500);
          const { response, firstByteMs } = connection.exchange();
          expectProblem(response, 408, 'request-timeout', HEADERS_TIMEOUT);
          // Well before the 1.5 s the trickle would last.
          expect(firstByteMs).toBeLessThan(1000);
        } finally {
          connection.destroy();
        }
        await expectServing(target);
      });
    }
  });
}

describe('slow clients, bun adapter, header section', () => {
  test('a trickled header section gets no answer, and Bun closes it at its idle timeout', async () => {
    // Bun.serve has no header timeout and no hook to answer one: the adapter cannot write a 408 here.
    // What protects it is Bun's idleTimeout, which a trickle of header lines does not reset.
    const result = await (bunSlowloris as Promise<Slowloris>);
    expect(result.received).toBe('');
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(6000);
    expect(result.closedAfterMs).toBeLessThan(14_000);
    await expectServing(servers.get('bun'));
  }, 20_000);
});
