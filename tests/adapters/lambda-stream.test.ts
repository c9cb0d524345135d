/**
 * charter/lambda, streaming handler: `toLambdaStreamHandler` under a stand-in for the runtime's
 * `awslambda` global that implements its documented contract (a real Writable response stream, the
 * metadata prelude through HttpResponseStream.from). Chunks must reach the stream while the route is
 * still producing, the metadata must carry status, headers and cookies in the event's shape, and a
 * client that goes away must stop the producer.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { App } from 'charter';
import { type LambdaHttpEvent, toLambdaStreamHandler } from 'charter/lambda';
import { gate, lambdaTestApp } from './fixtures/lambda/app.ts';
import { eventFor } from './fixtures/lambda/events.ts';
import { installFakeAwsLambda, invokeStreaming } from './fixtures/lambda/fake-runtime.ts';

let uninstall: () => void = () => {};
beforeAll(() => {
  uninstall = installFakeAwsLambda().uninstall;
});
afterAll(() => uninstall());

const event = (path: string, kind: 'function-url' | 'api-gateway-v1' = 'function-url', init?: RequestInit) =>
  eventFor(new Request(`https://fn.example.com${path}`, init), kind) as Promise<LambdaHttpEvent>;

async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  text: { value: string },
  needle: string,
) {
  const decoder = new TextDecoder();
  while (!text.value.includes(needle)) {
    const { done, value } = await reader.read();
    if (done)
      throw new Error(`the stream ended before ${JSON.stringify(needle)}: ${JSON.stringify(text.value)}`);
    text.value += decoder.decode(value, { stream: true });
  }
}

describe('toLambdaStreamHandler', () => {
  test('an SSE route streams: the first event arrives while the second does not exist yet', async () => {
    const streams = gate();
    const handler = toLambdaStreamHandler(lambdaTestApp({}, streams));
    const call = invokeStreaming(handler, await event('/sse'));
    const response = await call.response;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toStartWith('text/event-stream');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const text = { value: '' };
    await readUntil(reader, text, 'data: one\n\n');
    expect(text.value).not.toContain('two');
    const writesBefore = call.writes.length;
    expect(writesBefore).toBeGreaterThanOrEqual(1);
    streams.open();
    await readUntil(reader, text, 'data: two\n\n');
    expect(call.writes.length).toBeGreaterThan(writesBefore); // a separate write for the second event
    expect((await reader.read()).done).toBe(true);
    await call.done;
    // An opening comment (":") goes first, so buffering proxies pass the stream on at once.
    expect(text.value).toBe(':\n\nevent: first\nid: 1\ndata: one\n\nevent: second\nid: 2\ndata: two\n\n');
    expect(streams.cleaned).toBe(true);
  });

  test('an NDJSON route streams line by line', async () => {
    const streams = gate();
    const handler = toLambdaStreamHandler(lambdaTestApp({}, streams));
    const call = invokeStreaming(handler, await event('/ndjson'));
    const response = await call.response;
    expect(response.headers.get('content-type')).toStartWith('application/x-ndjson');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const text = { value: '' };
    await readUntil(reader, text, '{"n":1}\n');
    expect(text.value).toBe('{"n":1}\n');
    streams.open();
    await readUntil(reader, text, '{"n":2}\n');
    await call.done;
    expect(text.value).toBe('{"n":1}\n{"n":2}\n');
  });

  test('metadata: status, headers and cookies (Function URL); multiValueHeaders (REST API)', async () => {
    const handler = toLambdaStreamHandler(lambdaTestApp());
    const url = invokeStreaming(handler, await event('/cookies'));
    await url.done;
    const metadata = url.metadata();
    expect(metadata?.statusCode).toBe(200);
    expect(metadata?.cookies).toEqual([
      'session=abc; Path=/; HttpOnly; Secure',
      'theme=dark; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT',
    ]);
    expect(metadata?.headers['content-type']).toBe('application/json');
    expect(metadata?.headers['set-cookie']).toBeUndefined();
    expect(await (await url.response).json()).toEqual({ ok: true });

    const rest = invokeStreaming(handler, await event('/cookies', 'api-gateway-v1'));
    await rest.done;
    expect(rest.metadata()?.multiValueHeaders?.['set-cookie']).toHaveLength(2);
    expect(rest.metadata()?.headers).toEqual({});
  });

  test('binary bodies go out as bytes, problems as problem documents, HEAD without a body', async () => {
    const handler = toLambdaStreamHandler(lambdaTestApp());
    const image = await invokeStreaming(handler, await event('/image')).response;
    expect([...new Uint8Array(await image.arrayBuffer())]).toEqual([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff,
    ]);
    const missing = invokeStreaming(handler, await event('/missing'));
    const problem = await missing.response;
    expect(problem.status).toBe(404);
    expect(problem.headers.get('content-type')).toBe('application/problem+json');
    expect(((await problem.json()) as { type: string }).type).toBe('https://charter.dev/errors/not-found');
    const head = invokeStreaming(handler, await event('/image', 'function-url', { method: 'HEAD' }));
    await head.done;
    expect(head.writes).toEqual([]);
    expect(head.metadata()?.headers['content-type']).toBe('image/png');
  });

  test('a client that goes away stops the stream and its producer', async () => {
    const streams = gate();
    const handler = toLambdaStreamHandler(lambdaTestApp({}, streams));
    const call = invokeStreaming(handler, await event('/sse'));
    const response = await call.response;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await readUntil(reader, { value: '' }, 'data: one');
    const writes = call.writes.length;
    call.disconnect();
    await call.done; // the handler returns without waiting for the producer
    expect(streams.cleaned).toBe(false); // still parked on the gate
    // Once the generator can run again, the cancelled body makes it return: its finally runs and the
    // second event is never written.
    streams.open();
    for (let i = 0; i < 50 && !streams.cleaned; i++) await Bun.sleep(10);
    expect(streams.cleaned).toBe(true);
    expect(call.writes.length).toBe(writes);
  });

  test('a client that leaves before the answer is ready gets nothing written, and the invocation ends', async () => {
    const handler = toLambdaStreamHandler(lambdaTestApp());
    const call = invokeStreaming(handler, await event('/slow'));
    await Bun.sleep(50);
    call.disconnect(); // the route waits on ctx.request.signal, which this aborts
    await call.done;
    expect(call.metadata()).toBeUndefined();
    expect(call.writes).toEqual([]);
  });

  test('a body that fails mid-stream ends the stream in error and fails the invocation, logged', async () => {
    const errors: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (message: string) => void errors.push(message),
    };
    const app = new App({ logger, behindProxy: 'none' });
    app.get(
      '/breaks',
      { responses: { 200: { contentType: 'text/plain' } }, acknowledgeNoResponseBodySchema: true },
      () => {
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) throw new Error('the source broke');
            sent = true;
            controller.enqueue(new TextEncoder().encode('part one'));
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      },
    );
    const call = invokeStreaming(toLambdaStreamHandler(app), await event('/breaks'));
    const outcome = call.done.then(
      () => 'completed',
      (error: Error) => error.message,
    );
    const response = await call.response;
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('part one');
    await expect(reader.read()).rejects.toThrow('the source broke');
    expect(await outcome).toBe('the source broke');
    expect(errors).toContain('The response body failed while streaming');
  });

  test('a body over the limit is a 413 problem through the stream too', async () => {
    const handler = toLambdaStreamHandler(lambdaTestApp());
    const init = {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(64 * 1024 + 1),
    };
    const response = await invokeStreaming(handler, await event('/echo', 'function-url', init)).response;
    expect(response.status).toBe(413);
    expect(((await response.json()) as { type: string }).type).toBe(
      'https://charter.dev/errors/payload-too-large',
    );
  });

  test('an event that is not an HTTP event rejects the invocation with the reason', async () => {
    const handler = toLambdaStreamHandler(lambdaTestApp());
    const call = invokeStreaming(handler, { Records: [] } as unknown as LambdaHttpEvent);
    await expect(call.done).rejects.toThrow('The Lambda event is not an HTTP event');
  });

  test('outside the Lambda runtime (no awslambda global) it refuses at creation, saying why', () => {
    uninstall();
    try {
      expect(() => toLambdaStreamHandler(lambdaTestApp())).toThrow(
        'toLambdaStreamHandler: the awslambda global (streamifyResponse, HttpResponseStream.from) is missing',
      );
    } finally {
      uninstall = installFakeAwsLambda().uninstall;
    }
  });

  test('a WebSocket route is refused at creation', () => {
    const app = new App({ logger: false });
    app.ws('/live', { message() {} });
    expect(() => toLambdaStreamHandler(app)).toThrow(
      'toLambdaStreamHandler: the App has WebSocket routes (/live)',
    );
  });
});
