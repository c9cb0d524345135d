/**
 * `charter/node` end to end, over real sockets on 127.0.0.1. The first suites run in this (Bun) process,
 * so `node:http` there is Bun's implementation; the last suite spawns real Node on the BUILT package
 * (`bun run build` first) and proves the Node-specific guarantees (parser 431, timeouts 408, disconnect,
 * SIGTERM drain) on Node's own node:http.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { App } from '@charter/core';
import type { AppOptions, Logger } from '@charter/core';
import type { RunningServer, ServeOptions } from '@charter/node';
import { serve, toNodeHandler } from '@charter/node';
import { type } from 'arktype';
import { NODE, withNode } from './fixtures/node-process.ts';
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

interface LogCall {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown> | undefined;
}

function capturingLogger(): { logger: Logger; calls: LogCall[] } {
  const calls: LogCall[] = [];
  const at =
    (level: LogCall['level']) =>
    (message: string, fields?: Record<string, unknown>): void => {
      calls.push({ level, message, fields });
    };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, calls };
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
const encoder = new TextEncoder();
const PROBLEM = 'application/problem+json';
const ERRORS = 'https://charter.dev/errors/';

/** The app most tests serve: a contract route plus raw routes that expose what the adapter did. */
function testApp(options: AppOptions = {}) {
  const log = capturingLogger();
  const app = new App({ logger: log.logger, ...options });
  app.get('/hello', { responses: { 200: { body: type({ hi: 'string' }) } } }, () => ({
    status: 200,
    body: { hi: 'there' },
  }));
  const raw = {
    responses: { 200: { body: type('string') } },
    acknowledgeNoResponseBodySchema: true,
  } as const;
  app.put('/echo/:id', raw, (ctx) => {
    const request = ctx.request;
    return Response.json({
      method: request.method,
      url: request.url,
      multi: request.headers.get('x-multi'),
      hasBody: request.body !== null,
    });
  });
  app.get('/cookies', raw, () => {
    const headers = new Headers({ 'content-type': 'text/plain' });
    headers.append('set-cookie', 'a=1; Path=/');
    headers.append('set-cookie', 'b=2; Path=/; HttpOnly');
    return new Response('cookies', { headers });
  });
  return { app, calls: log.calls, raw };
}

const running: RunningServer[] = [];
const plainServers: Server[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close(500)));
  await Promise.all(
    plainServers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function start(app: App, options: ServeOptions = {}): Promise<RunningServer> {
  const server = await serve(app, { port: 0, signals: false, ...options });
  running.push(server);
  return server;
}

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

const disconnects = (calls: LogCall[]): LogCall[] =>
  calls.filter((c) => c.message.startsWith('Client disconnected'));

function expectProblem(response: RawResponse, status: number, code: string): Record<string, unknown> {
  expect(response.status).toBe(status);
  expect(header(response, 'content-type')).toBe(PROBLEM);
  const problem = json(response) as Record<string, unknown>;
  expect(problem.type).toBe(ERRORS + code);
  expect(problem.status).toBe(status);
  return problem;
}

// ---------------------------------------------------------------------------------------------------------
// In process (Bun's node:http)

describe('charter/node serve', () => {
  describe('request and response conversion', () => {
    test('a contract route is served with its status, headers and a Content-Length framed body', async () => {
      const { app } = testApp();
      const server = await start(app);
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
      const { app } = testApp();
      const server = await start(app);
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

    test('a malformed or missing Host header falls back to the listening address instead of failing', async () => {
      const { app } = testApp();
      const server = await start(app);
      const fallback = `http://127.0.0.1:${server.port}/echo/7`;
      for (const host of ['evil.test/@x?y=', 'a b', 'example.test:99999']) {
        const response = await rawRequest(server.port, head('PUT', '/echo/7', ['Content-Length: 0'], host));
        expect(response.status).toBe(200);
        expect((json(response) as { url: string }).url).toBe(fallback);
      }
      // HTTP/1.0 has no Host header at all (RFC 9112 §3.2 requires it of HTTP/1.1 only).
      const old = await rawRequest(server.port, 'PUT /echo/7 HTTP/1.0\r\nContent-Length: 0\r\n\r\n');
      expect(old.status).toBe(200);
      expect((json(old) as { url: string }).url).toBe(fallback);
    });

    test('a request target that cannot form a URL is answered 400 problem+json', async () => {
      const { app } = testApp();
      const server = await start(app);
      const response = await rawRequest(server.port, 'GET http://[bad/x HTTP/1.1\r\nHost: a\r\n\r\n');
      expectProblem(response, 400, 'bad-request');
    });

    test('each Set-Cookie of a response goes out as its own header line', async () => {
      const { app } = testApp();
      const server = await start(app);
      const response = await rawRequest(server.port, head('GET', '/cookies'));
      expect(response.status).toBe(200);
      expect(response.headers.filter(([name]) => name === 'set-cookie').map(([, v]) => v)).toEqual([
        'a=1; Path=/',
        'b=2; Path=/; HttpOnly',
      ]);
      expect(response.body).toBe('cookies');
    });

    test('a request body reaches the app while the client is still sending it', async () => {
      const { app, raw } = testApp();
      const firstChunk = Promise.withResolvers<string>();
      app.post('/upload', raw, async (ctx) => {
        const reader = (ctx.request.body as ReadableStream<Uint8Array>).getReader();
        let text = '';
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          if (text === '') firstChunk.resolve(new TextDecoder().decode(r.value));
          text += new TextDecoder().decode(r.value);
        }
        return new Response(text);
      });
      const server = await start(app);
      const client = await RawClient.open(server.port);
      try {
        client.write(head('POST', '/upload', ['Transfer-Encoding: chunked', 'Content-Type: text/plain']));
        client.write('5\r\nhello\r\n');
        // Had the adapter buffered the body, the app would see nothing before the last chunk below.
        expect(await within(firstChunk.promise, 2000, 'the first body chunk reaching the app')).toBe('hello');
        client.write('6\r\n world\r\n0\r\n\r\n');
        const response = await client.response();
        expect(response.status).toBe(200);
        expect(response.body).toBe('hello world');
      } finally {
        client.destroy();
      }
    });

    test('an upload refused before it is fully read closes the connection; a read one keeps it alive', async () => {
      const { app, raw } = testApp({ bodyLimitBytes: 1024 });
      app.post('/upload', raw, async (ctx) => new Response(await ctx.request.text()));
      const server = await start(app);
      const client = await RawClient.open(server.port);
      try {
        client.write(`${head('POST', '/upload', ['Content-Length: 5', 'Content-Type: text/plain'])}hello`);
        const read = await client.response('POST');
        expect(read.status).toBe(200);
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
      const { app, raw } = testApp({ bodyLimitBytes: 64 * 1024 * 1024 });
      const release = Promise.withResolvers<void>();
      app.post('/slow-reader', raw, async (ctx) => {
        await release.promise;
        const bytes = (await ctx.request.arrayBuffer()).byteLength;
        return new Response(String(bytes));
      });
      const server = await start(app);
      const client = await RawClient.open(server.port);
      try {
        client.write(
          head('POST', '/slow-reader', [`Content-Length: ${size}`, 'Content-Type: application/octet-stream']),
        );
        client.write(new Uint8Array(size));
        await sleep(400);
        // The server stopped reading: most of the body still sits in the client's own buffer.
        expect(client.socket.writableLength).toBeGreaterThan(size / 2);
        release.resolve();
        const response = await client.response('POST', 10_000);
        expect(response.status).toBe(200);
        expect(response.body).toBe(String(size));
      } finally {
        client.destroy();
      }
    });

    test('a slow client reader makes the writer wait for drain instead of pulling the whole body', async () => {
      const chunk = new Uint8Array(64 * 1024).fill(97);
      const total = 256; // 16 MiB
      let pulls = 0;
      const { app, raw } = testApp();
      app.get('/firehose', raw, () => {
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulls === total) return controller.close();
            pulls++;
            controller.enqueue(chunk);
          },
        });
        return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
      });
      const server = await start(app);
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
        expect(pulls).toBeLessThan(total / 2);
        socket.resume();
        await within(closed, 10_000, 'the whole body arriving');
        expect(pulls).toBe(total);
        expect(received).toBeGreaterThan(total * chunk.length);
      } finally {
        socket.destroy();
      }
    });

    test('a HEAD response carries no body, and a streamed body is cancelled unread', async () => {
      const { app } = testApp();
      const cancelled = Promise.withResolvers<void>();
      // The core already answers HEAD without a body; an app.handle that does not is the adapter's job.
      const original = app.handle;
      (app as { handle: App['handle'] }).handle = (request) => {
        if (new URL(request.url).pathname !== '/raw-head') return original(request);
        const body = new ReadableStream<Uint8Array>({
          pull: (controller) => controller.enqueue(encoder.encode('data')),
          cancel: () => cancelled.resolve(),
        });
        return Promise.resolve(new Response(body, { headers: { 'x-streamed': 'yes' } }));
      };
      const server = await start(app);
      const client = await RawClient.open(server.port);
      try {
        // Pipelined on one connection: had a HEAD answer carried body bytes, the next one would be garbled.
        client.write(head('HEAD', '/hello') + head('HEAD', '/raw-head') + head('GET', '/hello'));
        const [first, second, third] = await client.responses(3, ['HEAD', 'HEAD', 'GET']);
        expect(first?.status).toBe(200);
        expect(header(first as RawResponse, 'content-type')).toBe('application/json');
        expect(second?.status).toBe(200);
        expect(header(second as RawResponse, 'x-streamed')).toBe('yes');
        expect(third?.status).toBe(200);
        expect(third?.body).toBe('{"hi":"there"}');
        expect(client.text.match(/HTTP\/1\.1 /g)).toHaveLength(3);
        expect(client.text).not.toContain('data');
        await within(cancelled.promise, 2000, 'the HEAD stream being cancelled');
      } finally {
        client.destroy();
      }
    });
  });

  describe('header-count guard', () => {
    test('99 header fields pass and 100 are answered 431 problem+json at the default maxHeaderCount', async () => {
      const { app } = testApp();
      const server = await start(app);
      const ok = await rawRequest(server.port, head('GET', '/hello', headerLines(98)));
      expect(ok.status).toBe(200);
      const refusedResponse = await rawRequest(server.port, head('GET', '/hello', headerLines(99)));
      const problem = expectProblem(refusedResponse, 431, 'request-header-fields-too-large');
      expect(problem.detail).toBe('The request has more than 99 header fields');
      expect(header(refusedResponse, 'connection')).toBe('close');
    });

    test('repeated header lines count one by one, even though Headers would merge them', async () => {
      const { app } = testApp({ maxHeaderCount: 10 });
      const server = await start(app);
      const ok = await rawRequest(server.port, head('GET', '/hello', headerLines(8, 'x-same')));
      expect(ok.status).toBe(200);
      const response = await rawRequest(server.port, head('GET', '/hello', headerLines(9, 'x-same')));
      expectProblem(response, 431, 'request-header-fields-too-large');
    });

    test('maxHeaderCount 0 disables the guard, and serve() keeps Node from dropping the extra lines', async () => {
      const { app } = testApp({ maxHeaderCount: 0 });
      const server = await start(app);
      expect(server.server.maxHeadersCount).toBe(0);
      // 150, not more: Bun's node:http refuses more than 198 header fields whatever maxHeadersCount says.
      const response = await rawRequest(server.port, head('GET', '/hello', headerLines(150)));
      expect(response.status).toBe(200);
    });

    test('upgrade requests get the same guard, and within it are answered as plain HTTP', async () => {
      const { app } = testApp();
      const server = await start(app);
      // No 'upgrade' listener: Node hands upgrade requests to the request handler (RFC 9110 §7.8).
      expect(server.server.listenerCount('upgrade')).toBe(0);
      const upgrade = ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13'];
      const within_ = await rawRequest(server.port, head('GET', '/hello', upgrade));
      expect(within_.status).toBe(200);
      expect(within_.body).toBe('{"hi":"there"}');
      const over = await rawRequest(server.port, head('GET', '/hello', [...upgrade, ...headerLines(97)]));
      expectProblem(over, 431, 'request-header-fields-too-large');
      expect(header(over, 'connection')).toBe('close');
    });

    test("a header section over Node's maxHeaderSize is answered 431 problem+json, not a bare close", async () => {
      const { app, calls } = testApp();
      const server = await start(app);
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
      expect(calls.some((c) => c.fields?.status === 431 && c.fields?.code === 'HPE_HEADER_OVERFLOW')).toBe(
        true,
      );
    });
  });

  describe('slow clients', () => {
    const timeouts = { headersTimeoutMs: 300, requestTimeoutMs: 600 };

    test('headers that arrive too slowly are answered 408 problem+json and the connection is closed', async () => {
      const { app } = testApp();
      const server = await start(app, timeouts);
      expect((await rawRequest(server.port, head('GET', '/hello'))).status).toBe(200);
      const client = await RawClient.open(server.port);
      try {
        client.write('GET /hello HTTP/1.1\r\nHost: example.test\r\n');
        const response = await client.response('GET', 2000);
        const problem = expectProblem(response, 408, 'request-timeout');
        expect(problem.detail).toBe('The request headers were not received in time');
        expect(header(response, 'connection')).toBe('close');
        await client.waitClosed(2000);
      } finally {
        client.destroy();
      }
    });

    test('a body that arrives too slowly is answered 408, not logged as a client disconnect', async () => {
      const { app, calls, raw } = testApp();
      const aborted = Promise.withResolvers<unknown>();
      app.post('/upload', raw, async (ctx) => {
        ctx.request.signal.addEventListener('abort', () => aborted.resolve(ctx.request.signal.reason));
        return new Response(await ctx.request.text());
      });
      const server = await start(app, timeouts);
      const fast = await rawRequest(
        server.port,
        head('POST', '/upload', ['Content-Length: 2']) + 'ok',
        'POST',
      );
      expect(fast.body).toBe('ok');
      const client = await RawClient.open(server.port);
      try {
        client.write(`${head('POST', '/upload', ['Content-Length: 10'])}ab`);
        const response = await client.response('POST', 2000);
        const problem = expectProblem(response, 408, 'request-timeout');
        expect(problem.detail).toBe('The request body was not received in time');
        await client.waitClosed(2000);
      } finally {
        client.destroy();
      }
      expect(await within(aborted.promise, 1000, 'the request signal aborting')).toMatchObject({
        status: 408,
      });
      await sleep(50);
      expect(disconnects(calls)).toEqual([]);
      expect(calls.some((c) => c.fields?.status === 408 && c.fields?.path === '/upload')).toBe(true);
    });
  });

  describe('client disconnect', () => {
    test('the request signal aborts, the streamed body is cancelled, and the disconnect is logged once', async () => {
      const { app, calls, raw } = testApp();
      const cancelled = Promise.withResolvers<unknown>();
      const aborted = Promise.withResolvers<void>();
      app.get('/stream', raw, (ctx) => {
        ctx.request.signal.addEventListener('abort', () => aborted.resolve());
        let timer: ReturnType<typeof setInterval> | undefined;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode('tick\n'));
            timer = setInterval(() => controller.enqueue(encoder.encode('tick\n')), 20);
          },
          cancel(reason) {
            clearInterval(timer);
            cancelled.resolve(reason);
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      });
      const server = await start(app);
      const client = await RawClient.open(server.port);
      client.write(head('GET', '/stream?token=secret'));
      await client.waitFor((c) => c.text.includes('tick'), 2000, 'the first chunk');
      client.destroy();
      const reason = await within(cancelled.promise, 2000, "the stream's cancel callback");
      expect((reason as DOMException).name).toBe('AbortError');
      await within(aborted.promise, 2000, 'ctx.request.signal aborting');
      await sleep(100);
      const logged = disconnects(calls);
      expect(logged).toHaveLength(1);
      expect(logged[0]?.level).toBe('info');
      expect(logged[0]?.fields).toMatchObject({ method: 'GET', path: '/stream', status: 499 });
    });

    test("a client leaving before the handler answers is logged with the app's disconnectStatusCode", async () => {
      const { app, calls, raw } = testApp({ disconnectStatusCode: 460 });
      const started = Promise.withResolvers<void>();
      const aborted = Promise.withResolvers<void>();
      app.get('/wait', raw, async (ctx) => {
        started.resolve();
        await new Promise<void>((resolve) => ctx.request.signal.addEventListener('abort', () => resolve()));
        aborted.resolve();
        return new Response('too late');
      });
      const server = await start(app);
      const client = await RawClient.open(server.port);
      client.write(head('GET', '/wait'));
      await within(started.promise, 2000, 'the handler starting');
      client.destroy();
      await within(aborted.promise, 2000, 'ctx.request.signal aborting');
      await sleep(100);
      const logged = disconnects(calls);
      expect(logged).toHaveLength(1);
      expect(logged[0]?.fields).toMatchObject({ method: 'GET', path: '/wait', status: 460 });
    });

    test('a client that reads a streamed body to the end causes no cancel and no disconnect log', async () => {
      const { app, calls, raw } = testApp();
      let cancelled = false;
      app.get('/finite', raw, () => {
        let n = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            await sleep(10);
            if (++n > 3) controller.close();
            else controller.enqueue(encoder.encode(`part${n};`));
          },
          cancel() {
            cancelled = true;
          },
        });
        return new Response(body);
      });
      const server = await start(app);
      const response = await fetch(`${server.url}/finite`);
      expect(response.status).toBe(200);
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      expect(await response.text()).toBe('part1;part2;part3;');
      await sleep(50);
      expect(cancelled).toBe(false);
      expect(disconnects(calls)).toEqual([]);
    });
  });

  describe('errors', () => {
    test('an exception from app.handle is answered 500 problem+json, logged, and the server keeps serving', async () => {
      const { app, calls } = testApp();
      const original = app.handle;
      (app as { handle: App['handle'] }).handle = (request) => {
        if (new URL(request.url).pathname === '/sync') throw new Error('sync boom');
        if (new URL(request.url).pathname === '/async') return Promise.reject(new Error('async boom'));
        return original(request);
      };
      const server = await start(app);
      for (const path of ['/sync', '/async']) {
        const response = await fetch(server.url + path);
        expect(response.status).toBe(500);
        expect(response.headers.get('content-type')).toBe(PROBLEM);
        expect(await response.json()).toMatchObject({ type: `${ERRORS}internal`, status: 500 });
      }
      expect(
        calls.filter((c) => c.level === 'error' && c.message === 'The app threw instead of answering'),
      ).toHaveLength(2);
      expect((await fetch(`${server.url}/hello`)).status).toBe(200);
    });

    test('a body that fails before its first byte becomes a 500 problem+json', async () => {
      const { app, calls, raw } = testApp({ production: true });
      app.get('/fails-early', raw, () => {
        const body = new ReadableStream<Uint8Array>({
          pull: (controller) => controller.error(new Error('database password is hunter2')),
        });
        return new Response(body, { status: 200, headers: { 'x-custom': 'kept?' } });
      });
      const server = await start(app);
      const response = await fetch(`${server.url}/fails-early`);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe(PROBLEM);
      expect(response.headers.get('x-custom')).toBeNull();
      const problem = (await response.json()) as Record<string, unknown>;
      expect(problem.type).toBe(`${ERRORS}internal`);
      // Production redacts internal detail.
      expect(JSON.stringify(problem)).not.toContain('hunter2');
      expect(calls.some((c) => c.level === 'error' && c.message.includes('failed while streaming'))).toBe(
        true,
      );
    });

    test('a body that fails mid-stream cuts the connection, is logged once, and is not a disconnect', async () => {
      const { app, calls, raw } = testApp();
      app.get('/fails-late', raw, () => {
        let pulls = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (++pulls === 1) return controller.enqueue(encoder.encode('partial'));
            await sleep(20);
            controller.error(new Error('the source broke'));
          },
        });
        return new Response(body);
      });
      const server = await start(app);
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
      await sleep(50);
      expect(calls.filter((c) => c.level === 'error')).toHaveLength(1);
      expect(disconnects(calls)).toEqual([]);
      expect((await fetch(`${server.url}/hello`)).status).toBe(200);
    });
  });

  describe('graceful shutdown', () => {
    test('close() lets an in-flight request finish while new connections are refused', async () => {
      const { app, raw } = testApp();
      const started = Promise.withResolvers<void>();
      app.get('/slow', raw, async () => {
        started.resolve();
        await sleep(300);
        return new Response('done');
      });
      const server = await start(app);
      const slow = fetch(`${server.url}/slow`);
      await within(started.promise, 2000, 'the slow handler starting');
      const closing = server.close();
      expect(app.state).toBe('draining');
      expect(await refused(server.port)).toBe(true);
      const response = await slow;
      expect(response.status).toBe(200);
      // RFC 9112 §9.6: a draining server tells the client the connection ends with this response.
      expect(response.headers.get('connection')).toBe('close');
      expect(await response.text()).toBe('done');
      await within(closing, 2000, 'close() resolving');
      expect(app.state).toBe('closed');
    });

    test('close() closes idle keep-alive connections at once', async () => {
      const { app } = testApp();
      const server = await start(app);
      const client = await RawClient.open(server.port);
      try {
        client.write(head('GET', '/hello'));
        expect((await client.response()).status).toBe(200);
        expect(client.closed).toBe(false);
        const startedAt = performance.now();
        await expect(server.close(-1)).rejects.toThrow('timeoutMs must be a non-negative number');
        expect(app.state).toBe('serving');
        await within(server.close(5000), 2000, 'close() resolving');
        expect(performance.now() - startedAt).toBeLessThan(1000);
        await client.waitClosed(1000);
      } finally {
        client.destroy();
      }
    });

    test('close() force-closes connections still busy when the timeout expires', async () => {
      const { app, calls, raw } = testApp();
      const started = Promise.withResolvers<void>();
      app.get('/hang', raw, async (ctx) => {
        started.resolve();
        await new Promise<void>((resolve) => ctx.request.signal.addEventListener('abort', () => resolve()));
        return new Response('never sent');
      });
      const server = await start(app);
      const client = await RawClient.open(server.port);
      try {
        client.write(head('GET', '/hang'));
        await within(started.promise, 2000, 'the handler starting');
        const startedAt = performance.now();
        await within(server.close(200), 2000, 'close() resolving');
        expect(performance.now() - startedAt).toBeGreaterThanOrEqual(150);
        await client.waitClosed(1000);
        expect(client.text).toBe('');
      } finally {
        client.destroy();
      }
      expect(calls.some((c) => c.level === 'warn' && c.message.startsWith('Shutdown timeout'))).toBe(true);
      expect(disconnects(calls)).toEqual([]);
    });

    test('SIGINT/SIGTERM listeners are added by serve() and removed by close(), and none with signals: false', async () => {
      const before = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
      for (let i = 0; i < 3; i++) {
        const server = await serve(testApp().app, { port: 0 });
        expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
        expect(process.listenerCount('SIGINT')).toBe(before.int + 1);
        await server.close();
        expect(process.listenerCount('SIGTERM')).toBe(before.term);
        expect(process.listenerCount('SIGINT')).toBe(before.int);
      }
      await start(testApp().app, { signals: false });
      expect(process.listenerCount('SIGTERM')).toBe(before.term);
    });
  });

  describe('toNodeHandler and options', () => {
    test('toNodeHandler mounts the app in an existing http.createServer, header guard included', async () => {
      const { app } = testApp();
      const server = createServer(toNodeHandler(app));
      plainServers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/hello`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ hi: 'there' });
      const echo = await rawRequest(port, head('PUT', '/echo/1', ['Content-Length: 0'], 'bad host'));
      expect((json(echo) as { url: string }).url).toBe(`http://127.0.0.1:${port}/echo/1`);
      expectProblem(
        await rawRequest(port, head('GET', '/hello', headerLines(99))),
        431,
        'request-header-fields-too-large',
      );
    });

    test('serve() rejects invalid options by name, and a port in use', async () => {
      const { app } = testApp();
      await expect(serve(app, { port: -1 })).rejects.toThrow('Invalid serve() option "port"');
      await expect(serve(app, { hostname: '' })).rejects.toThrow('"hostname"');
      await expect(serve(app, { headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).rejects.toThrow(
        '"headersTimeoutMs": must not exceed requestTimeoutMs',
      );
      const first = await start(app);
      await expect(serve(app, { port: first.port, signals: false })).rejects.toThrow();
      expect((await fetch(`${first.url}/hello`)).status).toBe(200);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Real Node, on the built package

describe('charter/node serve under real Node (built dist)', () => {
  test('node is installed and the package is built', () => {
    expect(NODE).not.toBeNull();
    expect(Bun.file(join(import.meta.dir, '../../packages/charter/dist/node.js')).size).toBeGreaterThan(0);
  });

  const timeouts = { serve: { headersTimeoutMs: 300, requestTimeoutMs: 600, signals: false } };

  test('node serves /hello from charter/node with its status, headers and body', async () => {
    await withNode({}, async (node, port) => {
      const response = await fetch(`http://127.0.0.1:${port}/hello`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('content-length')).toBe('14');
      expect(await response.json()).toEqual({ hi: 'there' });
      const cookies = await rawRequest(port, head('GET', '/cookies'));
      expect(cookies.headers.filter(([n]) => n === 'set-cookie')).toHaveLength(2);
      const upload = await rawRequest(
        port,
        `${head('POST', '/upload', ['Transfer-Encoding: chunked'])}3\r\nabc\r\n0\r\n\r\n`,
        'POST',
      );
      expect(json(upload)).toEqual({ bytes: 3 });
      expect(node.lines.find((l) => l.port !== undefined)?.upgradeListeners).toBe(0);
    });
  });

  test('node answers 431 problem+json for too many header fields, upgrades included', async () => {
    await withNode({}, async (_node, port) => {
      expect((await rawRequest(port, head('GET', '/hello', headerLines(98)))).status).toBe(200);
      expectProblem(
        await rawRequest(port, head('GET', '/hello', headerLines(99))),
        431,
        'request-header-fields-too-large',
      );
      const upgrade = ['Connection: Upgrade', 'Upgrade: websocket'];
      expect((await rawRequest(port, head('GET', '/hello', upgrade))).status).toBe(200);
      const over = await rawRequest(port, head('GET', '/hello', [...upgrade, ...headerLines(98)]));
      expectProblem(over, 431, 'request-header-fields-too-large');
    });
  });

  test('node serves 1000 header fields when maxHeaderCount is 0, none dropped before the app', async () => {
    await withNode({ app: { maxHeaderCount: 0 } }, async (_node, port) => {
      const response = await rawRequest(
        port,
        head('PUT', '/count', ['Content-Length: 0', ...headerLines(998)]),
      );
      expect(response.status).toBe(200);
      expect(json(response)).toEqual({ fields: 1000 });
    });
  });

  test('node answers 431 problem+json through clientError when the header section exceeds maxHeaderSize', async () => {
    await withNode({}, async (node, port) => {
      const response = await rawRequest(port, head('GET', '/hello', [`x-big: ${'a'.repeat(20_000)}`]));
      expectProblem(response, 431, 'request-header-fields-too-large');
      expect(header(response, 'connection')).toBe('close');
      await node.waitFor((l) => l.fields?.code === 'HPE_HEADER_OVERFLOW', 2000, 'the 431 log');
    });
  });

  test('node answers 408 problem+json when headers or a body arrive too slowly', async () => {
    await withNode(timeouts, async (node, port) => {
      expect((await rawRequest(port, head('GET', '/hello'))).status).toBe(200);
      const slowHead = await rawRequest(port, 'GET /hello HTTP/1.1\r\nHost: example.test\r\n', 'GET', 2500);
      expect(expectProblem(slowHead, 408, 'request-timeout').detail).toBe(
        'The request headers were not received in time',
      );
      expect(header(slowHead, 'connection')).toBe('close');
      const slowBody = await rawRequest(
        port,
        `${head('POST', '/upload', ['Content-Length: 10'])}ab`,
        'POST',
        2500,
      );
      expect(expectProblem(slowBody, 408, 'request-timeout').detail).toBe(
        'The request body was not received in time',
      );
      await sleep(50);
      expect(node.logs((l) => l.msg?.startsWith('Client disconnected') === true)).toEqual([]);
    });
  });

  test('node aborts the signal, cancels the stream and logs a client disconnect once', async () => {
    await withNode({}, async (node, port) => {
      const client = await RawClient.open(port);
      client.write(head('GET', '/stream'));
      await client.waitFor((c) => c.text.includes('tick'), 2000, 'the first chunk');
      client.destroy();
      await node.waitFor((l) => l.event === 'cancelled', 2000, 'the stream cancel');
      await node.waitFor((l) => l.event === 'aborted', 2000, 'the signal abort');
      await sleep(100);
      const logged = node.logs((l) => l.msg?.startsWith('Client disconnected') === true);
      expect(logged).toHaveLength(1);
      expect(logged[0]?.fields).toMatchObject({ method: 'GET', path: '/stream', status: 499 });
    });
  });

  test('node cuts the connection of a body that fails mid-stream and keeps serving', async () => {
    await withNode({}, async (node, port) => {
      const client = await RawClient.open(port);
      try {
        client.write(head('GET', '/broken-stream'));
        await client.waitClosed(2000);
        const [response] = await client.responses(1);
        expect(response?.body).toBe('partial');
        expect(response?.complete).toBe(false);
      } finally {
        client.destroy();
      }
      await node.waitFor((l) => l.log === 'error', 2000, 'the error log');
      expect(node.logs((l) => l.msg?.startsWith('Client disconnected') === true)).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${port}/hello`)).status).toBe(200);
    });
  });

  test('node drains an in-flight request on SIGTERM, refuses new connections, and exits 0', async () => {
    await withNode({ serve: { shutdownTimeoutMs: 3000 } }, async (node, port) => {
      const slow = fetch(`http://127.0.0.1:${port}/slow?ms=400`);
      await node.waitFor((l) => l.event === 'slow-started', 2000, 'the slow handler starting');
      node.proc.kill('SIGTERM');
      await node.waitFor((l) => l.msg === 'Shutting down', 2000, 'the shutdown log');
      expect(await refused(port)).toBe(true);
      const response = await slow;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ slept: 400 });
      expect(await within(node.proc.exited, 3000, 'the node process exiting')).toBe(0);
    });
  });
});
