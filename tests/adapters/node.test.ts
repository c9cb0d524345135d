/**
 * `charter/node` end to end under real Node 24: every server here runs in a Node 24 child process
 * (fixtures/node-host.ts, on the workspace sources) and is driven from this Bun process over real
 * sockets on 127.0.0.1, so what is proven is Node's own node:http (its parser, timeouts, 100-continue
 * handling, sockets), not Bun's emulation of it. The routes live in the host's `http` app; they report
 * what the adapter did as events and log lines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { HOST_START_TIMEOUT_MS, type HostLine, NodeHost, sharedHost } from './fixtures/node24.ts';
import {
  head,
  header,
  headerLines,
  json,
  RawClient,
  type RawResponse,
  rawRequest,
} from './fixtures/node-raw-client.ts';

// ---------------------------------------------------------------------------------------------------------
// Helpers

const host = sharedHost();
beforeAll(() => host.start(), HOST_START_TIMEOUT_MS);
afterEach(() => host.closeAll());
afterAll(() => host.kill());

/** Serves the host's `http` app with App options and serve() options. */
async function start(app: Record<string, unknown> = {}, serve: Record<string, unknown> = {}) {
  const node = host.get();
  const served = await node.serve('http', app, serve);
  return { node, ...served };
}

/** Rejects when `promise` does not settle within `ms`: a hang fails the test with a reason. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const PROBLEM = 'application/problem+json';
const ERRORS = 'https://charter.dev/errors/';

/** Resolves true when a TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const isDisconnect = (line: HostLine): boolean => line.msg?.startsWith('Client disconnected') === true;

function expectProblem(response: RawResponse, status: number, code: string): Record<string, unknown> {
  expect(response.status).toBe(status);
  expect(header(response, 'content-type')).toBe(PROBLEM);
  const problem = json(response) as Record<string, unknown>;
  expect(problem.type).toBe(ERRORS + code);
  expect(problem.status).toBe(status);
  return problem;
}

// ---------------------------------------------------------------------------------------------------------

describe('charter/node serve (real Node 24)', () => {
  test('the server runs under Node 24, not Bun', async () => {
    const { node, url } = await start();
    expect(node.version).toStartWith('v24.');
    const info = await node.call<{ version: string; bun: string | null }>('info');
    expect(info).toMatchObject({ version: node.version, bun: null });
    // The app itself reports the runtime it answers from.
    const response = await fetch(`${url}/runtime`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ version: node.version, bun: null });
  });

  describe('request and response conversion', () => {
    test('a contract route is served with its status, headers and a Content-Length framed body', async () => {
      const server = await start();
      expect(server.port).toBeGreaterThan(0);
      expect(server.hostname).toBe('127.0.0.1');
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      const response = await fetch(`${server.url}/hello`);
      expect(response.status).toBe(200);
      expect(response.statusText).toBe('OK');
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('content-length')).toBe('14');
      expect(await response.json()).toEqual({ hi: 'there' });
    });

    test('the app sees the method, the URL built from Host and the target, and repeated headers', async () => {
      const server = await start();
      const response = await rawRequest(
        server.port,
        head(
          'PUT',
          '/echo/7?x=1',
          ['X-Multi: a', 'X-Multi: b', 'Content-Length: 0'],
          'api.example.test:8080',
        ),
      );
      expect(response.status).toBe(200);
      expect(json(response)).toEqual({
        method: 'PUT',
        url: 'http://api.example.test:8080/echo/7?x=1',
        multi: 'a, b',
        hasBody: false,
      });
    });

    test('an invalid Host is a 400 problem; an HTTP/1.0 request without Host is served on the listening address', async () => {
      const server = await start();
      // RFC 9112 §3.2: a server MUST answer 400 to a request whose Host field is invalid.
      for (const host of ['evil.test/@x?y=', 'a b', 'example.test:99999']) {
        const response = await rawRequest(server.port, head('PUT', '/echo/7', ['Content-Length: 0'], host));
        const problem = expectProblem(response, 400, 'bad-request');
        expect(String(problem.detail)).toContain('Host');
        expect(header(response, 'connection')).toBe('close');
      }
      // HTTP/1.0 has no Host header at all (RFC 9112 §3.2 requires it of HTTP/1.1 only).
      const old = await rawRequest(server.port, 'PUT /echo/7 HTTP/1.0\r\nContent-Length: 0\r\n\r\n');
      expect(old.status).toBe(200);
      expect((json(old) as { url: string }).url).toBe(`http://127.0.0.1:${server.port}/echo/7`);
    });

    test('a request target that cannot form a URL is answered 400 problem+json', async () => {
      const server = await start();
      const response = await rawRequest(server.port, 'GET http://[bad/x HTTP/1.1\r\nHost: a\r\n\r\n');
      expectProblem(response, 400, 'bad-request');
    });

    test('each Set-Cookie of a response goes out as its own header line', async () => {
      const server = await start();
      const response = await rawRequest(server.port, head('GET', '/cookies'));
      expect(response.status).toBe(200);
      expect(response.headers.filter(([name]) => name === 'set-cookie').map(([, v]) => v)).toEqual([
        'a=1; Path=/',
        'b=2; Path=/; HttpOnly',
      ]);
      expect(response.body).toBe('cookies');
    });

    test('a request body reaches the app while the client is still sending it', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        client.write(
          head('POST', '/upload-stream', ['Transfer-Encoding: chunked', 'Content-Type: text/plain']),
        );
        client.write('5\r\nhello\r\n');
        // Had the adapter buffered the body, the app would see nothing before the last chunk below.
        const first = await server.node.event(server.server, 'first-chunk', 2000);
        expect(first.text).toBe('hello');
        client.write('6\r\n world\r\n0\r\n\r\n');
        const response = await client.response('POST');
        expect(response.status).toBe(200);
        expect(response.body).toBe('hello world');
      } finally {
        client.destroy();
      }
    });

    test('an upload refused before it is fully read closes the connection; a read one keeps it alive', async () => {
      const server = await start({ bodyLimitBytes: 1024 });
      const client = await RawClient.open(server.port);
      try {
        client.write(`${head('POST', '/upload', ['Content-Length: 5', 'Content-Type: text/plain'])}hello`);
        const read = await client.response('POST');
        expect(read.status).toBe(200);
        expect(read.body).toBe('hello');
        expect(header(read, 'connection')).toBe('keep-alive');
        client.text = '';
        // 10 MiB announced, 1 KiB allowed: refused at once, the remainder never read (RFC 9112 §9.6).
        client.write(
          `${head('POST', '/upload', ['Content-Length: 10485760', 'Content-Type: text/plain'])}abc`,
        );
        const refusedUpload = await client.response('POST');
        expectProblem(refusedUpload, 413, 'payload-too-large');
        expect(header(refusedUpload, 'connection')).toBe('close');
        await client.waitClosed(2000);
      } finally {
        client.destroy();
      }
    });

    test('a slow body reader pauses the socket, so the client feels the backpressure', async () => {
      const size = 48 * 1024 * 1024;
      const server = await start({ bodyLimitBytes: 64 * 1024 * 1024 });
      const client = await RawClient.open(server.port);
      try {
        client.write(
          head('POST', '/slow-reader', [`Content-Length: ${size}`, 'Content-Type: application/octet-stream']),
        );
        client.write(new Uint8Array(size));
        await sleep(400);
        // The server stopped reading: most of the body still sits in the client's own buffer.
        expect(client.socket.writableLength).toBeGreaterThan(size / 2);
        await server.node.call('release', { server: server.server, gate: 'slow-reader' });
        const response = await client.response('POST', 10_000);
        expect(response.status).toBe(200);
        expect(response.body).toBe(String(size));
      } finally {
        client.destroy();
      }
    });

    test('a slow client reader makes the writer wait for drain instead of pulling the whole body', async () => {
      const total = 256; // 64 KiB chunks: 16 MiB
      const server = await start();
      const pulls = async (): Promise<number> =>
        (await server.node.call<{ pulls?: number }>('counters', { server: server.server })).pulls ?? 0;
      let received = 0;
      const socket = connect(server.port, '127.0.0.1');
      try {
        const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        socket.on('data', (data: Buffer) => {
          received += data.length;
        });
        socket.pause();
        socket.write(head('GET', '/firehose', ['Connection: close']));
        await sleep(400);
        expect(await pulls()).toBeLessThan(total / 2);
        socket.resume();
        await within(closed, 10_000, 'the whole body arriving');
        expect(await pulls()).toBe(total);
        expect(received).toBeGreaterThan(total * 64 * 1024);
      } finally {
        socket.destroy();
      }
    });

    test('a HEAD response carries no body, and a streamed body is cancelled unread', async () => {
      // The core already answers HEAD without a body; an app.handle that does not (/raw-head) is the
      // adapter's job.
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        // Pipelined on one connection: had a HEAD answer carried body bytes, the next one would be garbled.
        client.write(head('HEAD', '/hello') + head('HEAD', '/raw-head') + head('GET', '/hello'));
        const [first, second, third] = await client.responses(3, ['HEAD', 'HEAD', 'GET']);
        expect(first?.status).toBe(200);
        expect(header(first as RawResponse, 'content-type')).toBe('application/json');
        // RFC 9110 §8.6: the length GET's content has ('{"hi":"there"}'), not 0.
        expect(header(first as RawResponse, 'content-length')).toBe('14');
        expect(second?.status).toBe(200);
        expect(header(second as RawResponse, 'x-streamed')).toBe('yes');
        expect(third?.status).toBe(200);
        expect(third?.body).toBe('{"hi":"there"}');
        expect(client.text.match(/HTTP\/1\.1 /g)).toHaveLength(3);
        expect(client.text).not.toContain('data');
        await server.node.event(server.server, 'head-cancelled', 2000);
      } finally {
        client.destroy();
      }
    });
  });

  describe('whole bodies and direct reads', () => {
    const TEXT = 'héllo ✓ wörld';
    const bytes = (text: string): string => Buffer.from(text).toString('latin1');

    test('text the pipeline built is sent whole: its UTF-8 bytes, their Content-Length, each cookie on its own line', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        // Two on one connection: the first is framed exactly, and the connection stays open.
        client.write(head('GET', '/text') + head('GET', '/text'));
        const responses = await client.responses(2, ['GET', 'GET']);
        expect(responses).toHaveLength(2);
        for (const response of responses) {
          expect(response.status).toBe(200);
          expect(header(response, 'content-type')).toBe('text/plain; charset=utf-8');
          expect(header(response, 'content-length')).toBe(String(Buffer.byteLength(TEXT)));
          expect(header(response, 'transfer-encoding')).toBeUndefined();
          expect(header(response, 'connection')).toBe('keep-alive');
          // The secure defaults are on the response as on any other.
          expect(header(response, 'x-content-type-options')).toBe('nosniff');
          expect(response.headers.filter(([name]) => name === 'set-cookie').map(([, v]) => v)).toEqual([
            'a=1; Path=/',
            'b=2; Path=/; HttpOnly',
          ]);
          expect(response.body).toBe(bytes(TEXT));
        }
      } finally {
        client.destroy();
      }
    });

    test('a response an onSend hook built from the body it read is sent as the hook built it', async () => {
      const server = await start();
      const response = await rawRequest(server.port, head('GET', '/shouted'));
      expect(response.status).toBe(200);
      expect(header(response, 'x-shouted')).toBe('yes');
      expect(header(response, 'content-type')).toBe('text/plain');
      expect(response.body).toBe('{"HI":"THERE"}');
    });

    test('a contract body sent in pieces after the head is read whole, and the connection stays usable', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        const body = JSON.stringify({ text: TEXT });
        const length = Buffer.byteLength(body);
        const raw = Buffer.from(body);
        client.write(head('POST', '/json', [`Content-Length: ${length}`, 'Content-Type: application/json']));
        await sleep(50);
        client.socket.write(raw.subarray(0, 5));
        await sleep(50);
        client.socket.write(raw.subarray(5));
        const first = await client.response('POST');
        expect(first.status).toBe(200);
        expect(first.body).toBe(bytes(body));
        expect(header(first, 'connection')).toBe('keep-alive');
        client.text = '';
        // The next request on the same connection, head and body at once.
        client.write(
          head('POST', '/json', [`Content-Length: ${length}`, 'Content-Type: application/json']) + body,
        );
        const second = await client.response('POST');
        expect(second.status).toBe(200);
        expect(second.body).toBe(bytes(body));
      } finally {
        client.destroy();
      }
    });

    test('bodies that came with their heads, pipelined in one write, are answered in order on one connection', async () => {
      // Each body is in by the time the adapter looks (one tick after the head): the contract parses
      // it, a handler reads it as text or as a stream, bad JSON is a 400, and the connection stays open.
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        const post = (path: string, body: string, type = 'application/json'): string =>
          head('POST', path, [`Content-Length: ${Buffer.byteLength(body)}`, `Content-Type: ${type}`]) + body;
        const contract = JSON.stringify({ text: TEXT });
        client.socket.write(
          Buffer.from(
            post('/json', contract) +
              post('/upload', 'raw ✓', 'text/plain') +
              post('/upload-stream', 'streamed', 'text/plain') +
              post('/json', '{"text":') +
              head('GET', '/hello'),
          ),
        );
        const responses = await client.responses(5, ['POST', 'POST', 'POST', 'POST', 'GET']);
        expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 400, 200]);
        expect(responses[0]?.body).toBe(bytes(contract));
        expect(responses[1]?.body).toBe(bytes('raw ✓'));
        expect(responses[2]?.body).toBe('streamed');
        expectProblem(responses[3] as RawResponse, 400, 'bad-request');
        expect(json(responses[4] as RawResponse)).toEqual({ hi: 'there' });
        for (const response of responses) expect(header(response, 'connection')).toBe('keep-alive');
        expect(server.node.logs(server.server, (l) => l.log === 'error')).toEqual([]);
      } finally {
        client.destroy();
      }
    });

    test('a client that leaves while its contract body is read is logged once as a disconnect', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      client.write(`${head('POST', '/json', ['Content-Length: 100', 'Content-Type: application/json'])}{"te`);
      await sleep(100);
      client.destroy();
      await server.node.waitFor(
        (l) => l.server === server.server && isDisconnect(l),
        3000,
        'the disconnect log',
      );
      await sleep(100);
      expect(server.node.logs(server.server, isDisconnect)).toHaveLength(1);
      expect(server.node.logs(server.server, (l) => l.log === 'error')).toEqual([]);
      // The server is still serving.
      const after = await fetch(`${server.url}/hello`);
      expect(after.status).toBe(200);
    });
  });

  describe('declared body length', () => {
    const LIMIT = 1024;
    const detail = `The request body exceeds the limit of ${LIMIT} bytes`;
    // Past the limit, past 2^53-1 (a JS number's exact range) and up to 2^64-1 (the most Node's parser
    // takes): each is refused from the header alone, long before any timeout.
    const overLimit = [
      String(LIMIT + 1),
      '10485760',
      '9007199254740992', // 2^53
      '9007199254740993', // 2^53 + 1: rounds to 2^53 as a number
      '18446744073709551615', // 2^64 - 1
      '000000000000000000000000001025', // leading zeros do not hide the size
    ];

    for (const path of ['/upload', '/json']) {
      const what = path === '/upload' ? 'a raw read of ctx.request' : 'a contract body';
      test(`a Content-Length over bodyLimitBytes is 413 problem+json at once, whatever its size (${what})`, async () => {
        const server = await start({ bodyLimitBytes: LIMIT });
        for (const length of overLimit) {
          // Headers only: an answer can come from them alone; a server that waited for the body would
          // hold the request until its timeout (30 s), far past this request's 3 s.
          const response = await rawRequest(
            server.port,
            head('POST', path, [`Content-Length: ${length}`, 'Content-Type: application/json']),
            'POST',
          );
          const problem = expectProblem(response, 413, 'payload-too-large');
          expect(problem.detail).toBe(detail);
          // RFC 9112 §9.6: the unread content is not drained; the connection ends with this answer.
          expect(header(response, 'connection')).toBe('close');
        }
        // The good path: exactly the limit is read and answered.
        const text = 'x'.repeat(LIMIT - '{"text":""}'.length);
        const body = JSON.stringify({ text });
        expect(body.length).toBe(LIMIT);
        const ok = await rawRequest(
          server.port,
          head('POST', path, [`Content-Length: ${LIMIT}`, 'Content-Type: application/json']) + body,
          'POST',
        );
        expect(ok.status).toBe(200);
        expect(ok.body).toBe(body);
      });
    }

    test("a Content-Length past 2^64-1 is refused by Node's parser as a 400 problem", async () => {
      const server = await start({ bodyLimitBytes: LIMIT });
      const response = await rawRequest(
        server.port,
        head('POST', '/upload', ['Content-Length: 18446744073709551616', 'Content-Type: text/plain']),
        'POST',
      );
      expectProblem(response, 400, 'bad-request');
      expect(header(response, 'connection')).toBe('close');
    });
  });

  describe('Expect: 100-continue (RFC 9110 §10.1.1)', () => {
    const expectHead = (path: string, length: string, extra: string[] = []): string =>
      head('POST', path, [
        `Content-Length: ${length}`,
        'Content-Type: application/json',
        'Expect: 100-continue',
        ...extra,
      ]);

    test('serve() listens for checkContinue, so Node leaves the 100 to the adapter', async () => {
      const server = await start();
      expect(server.checkContinueListeners).toBe(1);
    });

    for (const length of ['2048', '18446744073709551615']) {
      test(`a declared length over the limit (${length}) is answered 413 without inviting the upload`, async () => {
        const server = await start({ bodyLimitBytes: 1024 });
        const client = await RawClient.open(server.port);
        try {
          client.write(expectHead('/upload', length));
          await client.waitClosed(3000);
          // The first bytes back are the final answer: no 100 Continue before it.
          expect(client.text).toStartWith('HTTP/1.1 413 ');
          expect(client.text).not.toContain('100 Continue');
          const [response, extra] = await client.responses(1, ['POST']);
          expect(extra).toBeUndefined();
          const problem = expectProblem(response as RawResponse, 413, 'payload-too-large');
          expect(problem.detail).toBe('The request body exceeds the limit of 1024 bytes');
          expect(header(response as RawResponse, 'connection')).toBe('close');
        } finally {
          client.destroy();
        }
      });
    }

    test('a request within the limit gets 100 Continue once the app reads, then its answer', async () => {
      const server = await start({ bodyLimitBytes: 1024 });
      for (const path of ['/upload', '/json']) {
        const client = await RawClient.open(server.port);
        try {
          const body = '{"text":"hello"}';
          client.write(expectHead(path, String(body.length)));
          await client.waitFor((c) => c.text.includes('\r\n\r\n'), 3000, 'the 100 Continue');
          // Nothing but the interim response until the content is sent.
          expect(client.text).toBe('HTTP/1.1 100 Continue\r\n\r\n');
          client.write(body);
          const [interim, final] = await client.responses(2, ['POST', 'POST']);
          expect(interim?.status).toBe(100);
          expect(final?.status).toBe(200);
          expect(final?.body).toBe(body);
          expect(header(final as RawResponse, 'connection')).toBe('keep-alive');
          expect(client.text.match(/100 Continue/g)).toHaveLength(1);
        } finally {
          client.destroy();
        }
      }
    });

    test('a request a hook refuses before the body is read gets its 401 alone; an authorised one gets 100', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        client.write(expectHead('/private-upload', '16'));
        await client.waitClosed(3000);
        expect(client.text).toStartWith('HTTP/1.1 401 ');
        expect(client.text).not.toContain('100 Continue');
        const [response] = await client.responses(1, ['POST']);
        expectProblem(response as RawResponse, 401, 'unauthorized');
        // Node ends a connection whose expected content it never invited.
        expect(header(response as RawResponse, 'connection')).toBe('close');
      } finally {
        client.destroy();
      }
      const authorised = await RawClient.open(server.port);
      try {
        authorised.write(expectHead('/private-upload', '16', ['Authorization: Bearer ok']));
        await authorised.waitFor((c) => c.text.includes('\r\n\r\n'), 3000, 'the 100 Continue');
        expect(authorised.text).toBe('HTTP/1.1 100 Continue\r\n\r\n');
        authorised.write('{"text":"hello"}');
        const [interim, final] = await authorised.responses(2, ['POST', 'POST']);
        expect(interim?.status).toBe(100);
        expect(final?.status).toBe(200);
        expect(json(final as RawResponse)).toEqual({ text: 'hello' });
      } finally {
        authorised.destroy();
      }
    });

    test('under toNodeHandler without checkContinue, Node sends the 100 itself and the adapter adds none', async () => {
      const node = host.get();
      const plain = await node.call<{ port: number; checkContinueListeners: number }>('serve', {
        kind: 'http',
        mount: 'handler',
        app: { bodyLimitBytes: 1024 },
      });
      expect(plain.checkContinueListeners).toBe(0);
      const client = await RawClient.open(plain.port);
      try {
        const body = '{"text":"hello"}';
        client.write(expectHead('/upload', String(body.length)));
        await client.waitFor((c) => c.text.includes('\r\n\r\n'), 3000, 'the 100 Continue');
        client.write(body);
        const [interim, final] = await client.responses(2, ['POST', 'POST']);
        expect(interim?.status).toBe(100);
        expect(final?.status).toBe(200);
        expect(final?.body).toBe(body);
        expect(client.text.match(/100 Continue/g)).toHaveLength(1);
      } finally {
        client.destroy();
      }
    });

    test('toNodeHandler also listening for checkContinue refuses without a 100 and invites within the limit', async () => {
      const node = host.get();
      const plain = await node.call<{ port: number; checkContinueListeners: number }>('serve', {
        kind: 'http',
        mount: 'handler',
        checkContinue: true,
        app: { bodyLimitBytes: 1024 },
      });
      expect(plain.checkContinueListeners).toBe(1);
      const refusedClient = await RawClient.open(plain.port);
      try {
        refusedClient.write(expectHead('/upload', '2048'));
        await refusedClient.waitClosed(3000);
        expect(refusedClient.text).toStartWith('HTTP/1.1 413 ');
        expect(refusedClient.text).not.toContain('100 Continue');
        const [response] = await refusedClient.responses(1, ['POST']);
        expectProblem(response as RawResponse, 413, 'payload-too-large');
      } finally {
        refusedClient.destroy();
      }
      const client = await RawClient.open(plain.port);
      try {
        const body = '{"text":"hello"}';
        client.write(expectHead('/upload', String(body.length)));
        await client.waitFor((c) => c.text.includes('\r\n\r\n'), 3000, 'the 100 Continue');
        expect(client.text).toBe('HTTP/1.1 100 Continue\r\n\r\n');
        client.write(body);
        const [interim, final] = await client.responses(2, ['POST', 'POST']);
        expect(interim?.status).toBe(100);
        expect(final?.status).toBe(200);
        expect(final?.body).toBe(body);
      } finally {
        client.destroy();
      }
    });
  });

  describe('header-count guard', () => {
    test('99 header fields pass and 100 are answered 431 problem+json at the default maxHeaderCount', async () => {
      const server = await start();
      const ok = await rawRequest(server.port, head('GET', '/hello', headerLines(98)));
      expect(ok.status).toBe(200);
      const refusedResponse = await rawRequest(server.port, head('GET', '/hello', headerLines(99)));
      const problem = expectProblem(refusedResponse, 431, 'request-header-fields-too-large');
      expect(problem.detail).toBe('The request has more than 99 header fields');
      expect(header(refusedResponse, 'connection')).toBe('close');
    });

    test('repeated header lines count one by one, even though Headers would merge them', async () => {
      const server = await start({ maxHeaderCount: 10 });
      const ok = await rawRequest(server.port, head('GET', '/hello', headerLines(8, 'x-same')));
      expect(ok.status).toBe(200);
      const response = await rawRequest(server.port, head('GET', '/hello', headerLines(9, 'x-same')));
      expectProblem(response, 431, 'request-header-fields-too-large');
    });

    test('maxHeaderCount 0 disables the guard, and serve() keeps Node from dropping the extra lines', async () => {
      const server = await start({ maxHeaderCount: 0 });
      expect(server.maxHeadersCount).toBe(0);
      // 1000 fields, none dropped before the app (Node's default cap would keep 2000 lines only).
      const response = await rawRequest(
        server.port,
        head('PUT', '/count', ['Content-Length: 0', ...headerLines(998)]),
      );
      expect(response.status).toBe(200);
      expect(json(response)).toEqual({ fields: 1000 });
    });

    test('upgrade requests get the same guard, and within it are answered as plain HTTP', async () => {
      const server = await start();
      // No 'upgrade' listener: Node hands upgrade requests to the request handler (RFC 9110 §7.8).
      expect(server.upgradeListeners).toBe(0);
      const upgrade = ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13'];
      const within_ = await rawRequest(server.port, head('GET', '/hello', upgrade));
      expect(within_.status).toBe(200);
      expect(within_.body).toBe('{"hi":"there"}');
      const over = await rawRequest(server.port, head('GET', '/hello', [...upgrade, ...headerLines(97)]));
      expectProblem(over, 431, 'request-header-fields-too-large');
      expect(header(over, 'connection')).toBe('close');
    });

    test("a header section over Node's maxHeaderSize is answered 431 problem+json, not a bare close", async () => {
      const server = await start();
      const ok = await rawRequest(server.port, head('GET', '/hello', [`x-big: ${'a'.repeat(8000)}`]));
      expect(ok.status).toBe(200);
      const client = await RawClient.open(server.port);
      try {
        client.write(head('GET', '/hello', [`x-big: ${'a'.repeat(20_000)}`]));
        const response = await client.response();
        expectProblem(response, 431, 'request-header-fields-too-large');
        expect(header(response, 'connection')).toBe('close');
        expect(header(response, 'date')).toBeDefined();
        await client.waitClosed();
      } finally {
        client.destroy();
      }
      await server.node.waitFor(
        (l) =>
          l.server === server.server && l.fields?.status === 431 && l.fields?.code === 'HPE_HEADER_OVERFLOW',
        2000,
        'the 431 log',
      );
    });
  });

  describe('slow clients', () => {
    const timeouts = { headersTimeoutMs: 300, requestTimeoutMs: 600 };

    test('headers that arrive too slowly are answered 408 problem+json and the connection is closed', async () => {
      const server = await start({}, timeouts);
      expect((await rawRequest(server.port, head('GET', '/hello'))).status).toBe(200);
      const client = await RawClient.open(server.port);
      try {
        client.write('GET /hello HTTP/1.1\r\nHost: example.test\r\n');
        const response = await client.response('GET', 2500);
        const problem = expectProblem(response, 408, 'request-timeout');
        expect(problem.detail).toBe('The request headers were not received in time');
        expect(header(response, 'connection')).toBe('close');
        await client.waitClosed(2000);
      } finally {
        client.destroy();
      }
    });

    test('a body that arrives too slowly is answered 408, not logged as a client disconnect', async () => {
      const server = await start({}, timeouts);
      const fast = await rawRequest(
        server.port,
        `${head('POST', '/upload', ['Content-Length: 2', 'Content-Type: text/plain'])}ok`,
        'POST',
      );
      expect(fast.body).toBe('ok');
      const client = await RawClient.open(server.port);
      try {
        client.write(`${head('POST', '/upload', ['Content-Length: 10', 'Content-Type: text/plain'])}ab`);
        const response = await client.response('POST', 2500);
        const problem = expectProblem(response, 408, 'request-timeout');
        expect(problem.detail).toBe('The request body was not received in time');
        await client.waitClosed(2000);
      } finally {
        client.destroy();
      }
      const aborted = await server.node.event(server.server, 'upload-aborted', 1000);
      expect(aborted.reason).toMatchObject({ status: 408 });
      const timedOut = await server.node.waitFor(
        (l) => l.server === server.server && l.fields?.status === 408 && l.fields?.path === '/upload',
        3000,
        'the 408 log',
      );
      expect(timedOut.fields).toMatchObject({ method: 'POST', status: 408 });
      await sleep(50);
      expect(server.node.logs(server.server, isDisconnect)).toEqual([]);
    });
  });

  describe('client disconnect', () => {
    test('the request signal aborts, the streamed body is cancelled, and the disconnect is logged once', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      client.write(head('GET', '/stream?token=secret'));
      await client.waitFor((c) => c.text.includes('tick'), 2000, 'the first chunk');
      client.destroy();
      const cancelled = await server.node.event(server.server, 'cancelled', 2000);
      expect(cancelled.reason).toBe('AbortError');
      await server.node.event(server.server, 'aborted', 2000);
      await sleep(100);
      const logged = server.node.logs(server.server, isDisconnect);
      expect(logged).toHaveLength(1);
      expect(logged[0]?.log).toBe('info');
      // The query string (a token here) is never logged.
      expect(logged[0]?.fields).toMatchObject({ method: 'GET', path: '/stream', status: 499 });
    });

    test("a client leaving before the handler answers is logged with the app's disconnectStatusCode", async () => {
      const server = await start({ disconnectStatusCode: 460 });
      const client = await RawClient.open(server.port);
      client.write(head('GET', '/wait'));
      await server.node.event(server.server, 'wait-started', 2000);
      client.destroy();
      await server.node.event(server.server, 'wait-aborted', 2000);
      await sleep(100);
      const logged = server.node.logs(server.server, isDisconnect);
      expect(logged).toHaveLength(1);
      expect(logged[0]?.fields).toMatchObject({ method: 'GET', path: '/wait', status: 460 });
    });

    test('a client that reads a streamed body to the end causes no cancel and no disconnect log', async () => {
      const server = await start();
      const response = await fetch(`${server.url}/finite`);
      expect(response.status).toBe(200);
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      expect(await response.text()).toBe('part1;part2;part3;');
      await sleep(50);
      expect(await server.node.call('counters', { server: server.server })).toEqual({});
      expect(server.node.logs(server.server, isDisconnect)).toEqual([]);
    });
  });

  describe('errors', () => {
    test('an exception from app.handle is answered 500 problem+json, logged, and the server keeps serving', async () => {
      const server = await start();
      for (const path of ['/sync', '/async']) {
        const response = await fetch(server.url + path);
        expect(response.status).toBe(500);
        expect(response.headers.get('content-type')).toBe(PROBLEM);
        expect(await response.json()).toMatchObject({ type: `${ERRORS}internal`, status: 500 });
      }
      const threw = (l: HostLine): boolean =>
        l.log === 'error' && l.msg === 'The app threw instead of answering';
      // The logs come over the child's stdout pipe, the replies over TCP: either can arrive first.
      await server.node.waitFor(
        () => server.node.logs(server.server, threw).length >= 2,
        3000,
        'two error logs',
      );
      await sleep(50);
      expect(server.node.logs(server.server, threw)).toHaveLength(2);
      expect((await fetch(`${server.url}/hello`)).status).toBe(200);
    });

    test('a body that fails before its first byte becomes a 500 problem+json', async () => {
      const server = await start({ production: true });
      const response = await fetch(`${server.url}/fails-early`);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe(PROBLEM);
      expect(response.headers.get('x-custom')).toBeNull();
      const problem = (await response.json()) as Record<string, unknown>;
      expect(problem.type).toBe(`${ERRORS}internal`);
      // Production redacts internal detail.
      expect(JSON.stringify(problem)).not.toContain('hunter2');
      const logged = await server.node.waitFor(
        (l) =>
          l.server === server.server &&
          l.log === 'error' &&
          l.msg?.includes('failed while streaming') === true,
        3000,
        'the streaming error log',
      );
      expect(JSON.stringify(logged)).toContain('failed while streaming');
    });

    test('a body that fails mid-stream cuts the connection, is logged once, and is not a disconnect', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        client.write(head('GET', '/fails-late'));
        await client.waitClosed(2000);
        const [response] = await client.responses(1);
        expect(response?.status).toBe(200);
        expect(response?.body).toBe('partial');
        // No terminating zero-length chunk: the client can tell the body is incomplete.
        expect(response?.complete).toBe(false);
      } finally {
        client.destroy();
      }
      await server.node.waitFor(
        (l) => l.server === server.server && l.log === 'error',
        2000,
        'the error log',
      );
      await sleep(50);
      expect(server.node.logs(server.server, (l) => l.log === 'error')).toHaveLength(1);
      expect(server.node.logs(server.server, isDisconnect)).toEqual([]);
      expect((await fetch(`${server.url}/hello`)).status).toBe(200);
    });
  });

  describe('graceful shutdown', () => {
    test('close() lets an in-flight request finish while new connections are refused', async () => {
      const server = await start();
      const slow = fetch(`${server.url}/slow?ms=300`);
      await server.node.event(server.server, 'slow-started', 2000);
      const closing = await server.node.call<{ state: string }>('close', { server: server.server });
      expect(closing.state).toBe('draining');
      expect(await refused(server.port)).toBe(true);
      const response = await slow;
      expect(response.status).toBe(200);
      // RFC 9112 §9.6: a draining server tells the client the connection ends with this response.
      expect(response.headers.get('connection')).toBe('close');
      expect(await response.json()).toEqual({ slept: 300 });
      const closed = await within(
        server.node.call<{ state: string }>('closed', { server: server.server }),
        2000,
        'close() resolving',
      );
      expect(closed.state).toBe('closed');
    });

    test('close() closes idle keep-alive connections at once', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        client.write(head('GET', '/hello'));
        expect((await client.response()).status).toBe(200);
        expect(client.closed).toBe(false);
        await expect(server.node.call('close', { server: server.server, timeoutMs: -1 })).rejects.toThrow(
          'timeoutMs must be a non-negative number',
        );
        expect(await server.node.call('state', { server: server.server })).toEqual({ state: 'serving' });
        await server.node.call('close', { server: server.server, timeoutMs: 5000 });
        // Resolved long before the 5 s timeout: the idle connection did not hold the shutdown.
        const closed = await within(
          server.node.call<{ ms: number }>('closed', { server: server.server }),
          2000,
          'close() resolving',
        );
        expect(closed.ms).toBeLessThan(1000);
        await client.waitClosed(1000);
      } finally {
        client.destroy();
      }
    });

    test('close() force-closes connections still busy when the timeout expires', async () => {
      const server = await start();
      const client = await RawClient.open(server.port);
      try {
        client.write(head('GET', '/hang'));
        await server.node.event(server.server, 'hang-started', 2000);
        await server.node.call('close', { server: server.server, timeoutMs: 200 });
        const closed = await within(
          server.node.call<{ ms: number }>('closed', { server: server.server }),
          2000,
          'close() resolving',
        );
        expect(closed.ms).toBeGreaterThanOrEqual(150);
        await client.waitClosed(1000);
        expect(client.text).toBe('');
      } finally {
        client.destroy();
      }
      expect(
        server.node.logs(
          server.server,
          (l) => l.log === 'warn' && l.msg?.startsWith('Shutdown timeout') === true,
        ),
      ).not.toEqual([]);
      expect(server.node.logs(server.server, isDisconnect)).toEqual([]);
    });

    test('SIGINT/SIGTERM listeners are added by serve() and removed by close(), and none with signals: false', async () => {
      const node = host.get();
      const before = await node.call<{ SIGINT: number; SIGTERM: number }>('listeners');
      for (let i = 0; i < 3; i++) {
        const served = await node.serve('http', {}, { signals: true });
        expect(await node.call('listeners')).toEqual({
          SIGINT: before.SIGINT + 1,
          SIGTERM: before.SIGTERM + 1,
        });
        await node.call('close', { server: served.server });
        await node.call('closed', { server: served.server });
        expect(await node.call('listeners')).toEqual(before);
      }
      await node.serve('http', {}, { signals: false });
      expect(await node.call('listeners')).toEqual(before);
    });

    test(
      'SIGTERM drains an in-flight request, refuses new connections, and exits 0',
      async () => {
        // Its own Node child, since the signal ends the process.
        const own = new NodeHost();
        try {
          await own.call('info');
          const server = await own.serve('http', {}, { signals: true, shutdownTimeoutMs: 3000 });
          const slow = fetch(`${server.url}/slow?ms=400`);
          await own.event(server.server, 'slow-started', 2000);
          own.proc.kill('SIGTERM');
          await own.waitFor((l) => l.msg === 'Shutting down', 2000, 'the shutdown log');
          expect(await refused(server.port)).toBe(true);
          const response = await slow;
          expect(response.status).toBe(200);
          expect(await response.json()).toEqual({ slept: 400 });
          expect(await within(own.exited, 3000, 'the node process exiting')).toBe(0);
        } finally {
          own.kill();
        }
      },
      HOST_START_TIMEOUT_MS,
    );
  });

  describe('toNodeHandler and options', () => {
    test('toNodeHandler mounts the app in an existing http.createServer, header guard included', async () => {
      const node = host.get();
      const { port } = await node.call<{ port: number }>('serve', {
        kind: 'http',
        mount: 'handler',
        app: {},
      });
      const response = await fetch(`http://127.0.0.1:${port}/hello`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ hi: 'there' });
      const echo = await rawRequest(port, head('PUT', '/echo/1', ['Content-Length: 0'], `127.0.0.1:${port}`));
      expect((json(echo) as { url: string }).url).toBe(`http://127.0.0.1:${port}/echo/1`);
      expectProblem(
        await rawRequest(port, head('PUT', '/echo/1', ['Content-Length: 0'], 'bad host')),
        400,
        'bad-request',
      );
      expectProblem(
        await rawRequest(port, head('GET', '/hello', headerLines(99))),
        431,
        'request-header-fields-too-large',
      );
    });

    test('serve() rejects invalid options by name, and a port in use', async () => {
      const node = host.get();
      const tryServe = (serve: object) => node.call('tryServe', { serve: { signals: false, ...serve } });
      await expect(tryServe({ port: -1 })).rejects.toThrow('Invalid serve() option "port"');
      await expect(tryServe({ hostname: '' })).rejects.toThrow('"hostname"');
      await expect(tryServe({ headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).rejects.toThrow(
        '"headersTimeoutMs": must not exceed requestTimeoutMs',
      );
      const first = await start();
      await expect(tryServe({ port: first.port })).rejects.toThrow('EADDRINUSE');
      expect((await fetch(`${first.url}/hello`)).status).toBe(200);
    });
  });
});
