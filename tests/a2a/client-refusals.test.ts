/**
 * The A2A client against servers that misbehave, on real loopback sockets (`Bun.serve`): too slow, too
 * big, the wrong media type, not JSON-RPC, redirecting, a card pointing elsewhere. Every refusal is an
 * `A2aClientError` with code 0 and a reason.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { A2aClientError, createA2aClient } from '../../packages/a2a/src/client/index.ts';

let server: ReturnType<typeof Bun.serve>;
let base: string;
/** The JSON-RPC id of the last request, so handlers can answer it. */
const rpcBodies: Record<string, unknown>[] = [];
const pending = new Set<() => void>();

function card(endpoint: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'odd-agent',
    description: 'Misbehaves on purpose',
    version: '1.0.0',
    supportedInterfaces: [{ url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    ...extra,
  };
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    pending.add(() => clearTimeout(timer));
  });

const okTask = (id: unknown): Response =>
  Response.json({
    jsonrpc: '2.0',
    id,
    result: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } },
  });

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      // Each scenario lives under /<name>/: its card at /<name>/agent-card.json, its endpoint at /<name>/rpc.
      const [, scenario = '', leaf = ''] = url.pathname.split('/');
      if (leaf === 'agent-card.json') {
        if (scenario === 'elsewhere') {
          return Response.json(card(`http://localhost:${server.port}/ok/rpc`));
        }
        if (scenario === 'insecure') return Response.json(card('http://agent.example/rpc'));
        if (scenario === 'private') return Response.json(card('https://10.0.0.1/rpc'));
        if (scenario === 'old-card') {
          return Response.json({
            name: 'x',
            description: 'x',
            version: '1',
            url: `${base}/ok/rpc`,
            skills: [],
          });
        }
        if (scenario === 'grpc-only') {
          const value = card(`${base}/ok/rpc`);
          value.supportedInterfaces = [
            { url: `${base}/ok/rpc`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
          ];
          return Response.json(value);
        }
        if (scenario === 'html-card')
          return new Response('<html></html>', { headers: { 'content-type': 'text/html' } });
        return Response.json(card(`${base}/${scenario}/rpc`));
      }
      if (leaf !== 'rpc' || request.method !== 'POST') return new Response('not found', { status: 404 });
      const body = (await request.json()) as Record<string, unknown>;
      rpcBodies.push(body);
      switch (scenario) {
        case 'ok':
          return okTask(body.id);
        case 'slow-headers':
          await sleep(2000);
          return okTask(body.id);
        case 'slow-body': {
          const stream = new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'));
              await sleep(2000);
              controller.close();
            },
          });
          return new Response(stream, { headers: { 'content-type': 'application/json' } });
        }
        case 'big-declared':
          return new Response(
            JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { pad: 'x'.repeat(5000) } }),
            {
              headers: { 'content-type': 'application/json' },
            },
          );
        case 'big-streamed': {
          let sent = 0;
          const stream = new ReadableStream<Uint8Array>({
            pull(controller) {
              // Endless unless the client stops reading: proves the cap is enforced while streaming.
              sent += 1;
              controller.enqueue(new Uint8Array(1024).fill(0x20));
              if (sent > 100_000) controller.close();
            },
          });
          return new Response(stream, { headers: { 'content-type': 'application/json' } });
        }
        case 'html':
          return new Response('<html>hello</html>', { headers: { 'content-type': 'text/html' } });
        case 'wrong-id':
          return okTask('another-id');
        case 'not-jsonrpc':
          return Response.json({ result: {} });
        case 'bad-json':
          return new Response('{"jsonrpc":', { headers: { 'content-type': 'application/json' } });
        case 'bad-result':
          return Response.json({ jsonrpc: '2.0', id: body.id, result: { task: { id: 't1' }, message: {} } });
        case 'unauthorized':
          return Response.json(
            { type: 'https://charter.dev/errors/unauthorized', title: 'Unauthorized', status: 401 },
            {
              status: 401,
              headers: { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' },
            },
          );
        case 'rpc-error-400':
          return Response.json(
            { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
            { status: 400 },
          );
        case 'redirect':
          return new Response(null, { status: 307, headers: { location: `${base}/ok/rpc` } });
        default:
          return new Response('not found', { status: 404 });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => {
  for (const cancel of pending) cancel();
  server.stop(true);
});

function clientFor(scenario: string, options: Record<string, unknown> = {}) {
  return createA2aClient({ url: `${base}/${scenario}/agent-card.json`, ...options });
}

async function failure(promise: Promise<unknown>): Promise<A2aClientError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof A2aClientError)) throw new Error(`expected an A2aClientError, got ${String(error)}`);
  return error;
}

describe('A2A client refusals', () => {
  test('a well-behaved endpoint answers (baseline for the refusals below)', async () => {
    const task = await clientFor('ok').getTask('t1');
    expect(task.status.state).toBe('TASK_STATE_WORKING');
  });

  test('a server that sends no headers within timeoutMs is a timeout error with code 0', async () => {
    const started = performance.now();
    const error = await failure(clientFor('slow-headers', { timeoutMs: 200 }).getTask('t1'));
    expect(error.code).toBe(0);
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('200 ms');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test('a server that stalls in the middle of the body is a timeout error too', async () => {
    const started = performance.now();
    const error = await failure(clientFor('slow-body', { timeoutMs: 200 }).getTask('t1'));
    expect(error.reason).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  test('a body with a Content-Length above maxResponseBytes is refused with code 0', async () => {
    const error = await failure(clientFor('big-declared', { maxResponseBytes: 1000 }).getTask('t1'));
    expect(error.code).toBe(0);
    expect(error.reason).toBe('too-large');
    expect(error.status).toBe(200);
  });

  test('a streamed body is cut off once it passes maxResponseBytes', async () => {
    const error = await failure(clientFor('big-streamed', { maxResponseBytes: 64 * 1024 }).getTask('t1'));
    expect(error.reason).toBe('too-large');
    expect(error.message).toContain('65536');
  });

  test('an answer that is not JSON is refused with reason content-type', async () => {
    const error = await failure(clientFor('html').getTask('t1'));
    expect(error.code).toBe(0);
    expect(error.reason).toBe('content-type');
    expect(error.message).toContain('text/html');
  });

  test('a card that is not JSON is refused with reason content-type', async () => {
    const error = await failure(clientFor('html-card').getAgentCard());
    expect(error.reason).toBe('content-type');
  });

  test('an answer to another request id, a non-JSON-RPC object or broken JSON is invalid-response', async () => {
    for (const scenario of ['wrong-id', 'not-jsonrpc', 'bad-json']) {
      const error = await failure(clientFor(scenario).getTask('t1'));
      expect(error.code).toBe(0);
      expect(error.reason).toBe('invalid-response');
    }
  });

  test('a SendMessage result with both task and message is invalid-response', async () => {
    const error = await failure(clientFor('bad-result').sendMessage('hi'));
    expect(error.reason).toBe('invalid-response');
    expect(error.message).toContain('exactly one of');
  });

  test('a 401 problem document is an http-status error carrying the problem as data', async () => {
    const error = await failure(clientFor('unauthorized').getTask('t1'));
    expect(error.code).toBe(0);
    expect(error.reason).toBe('http-status');
    expect(error.status).toBe(401);
    expect(error.data).toEqual({
      type: 'https://charter.dev/errors/unauthorized',
      title: 'Unauthorized',
      status: 401,
    });
  });

  test('a JSON-RPC error on a non-2xx answer keeps its code and the HTTP status', async () => {
    const error = await failure(clientFor('rpc-error-400').getTask('t1'));
    expect(error.reason).toBe('rpc');
    expect(error.code).toBe(-32700);
    expect(error.status).toBe(400);
  });

  test('a redirect is not followed', async () => {
    const before = rpcBodies.length;
    const error = await failure(clientFor('redirect').getTask('t1'));
    expect(error.reason).toBe('http-status');
    expect(error.status).toBe(307);
    expect(rpcBodies.length).toBe(before + 1);
  });

  test('a card pointing to another origin is refused unless that origin is in allowedOrigins', async () => {
    const error = await failure(clientFor('elsewhere').getTask('t1'));
    expect(error.reason).toBe('interface-not-allowed');
    expect(error.message).toContain(`http://localhost:${server.port}`);
    const allowed = clientFor('elsewhere', { allowedOrigins: [`http://localhost:${server.port}`] });
    expect((await allowed.getTask('t1')).id).toBe('t1');
  });

  test('a card pointing to plain http on a public host is refused even when its origin is allowed', async () => {
    const error = await failure(
      clientFor('insecure', { allowedOrigins: ['http://agent.example'] }).getTask('t1'),
    );
    expect(error.reason).toBe('interface-not-allowed');
    expect(error.message).toContain('plain http');
  });

  test('an A2A 0.3 card and a card without a JSON-RPC 1.0 interface are invalid-card', async () => {
    const old = await failure(clientFor('old-card').getAgentCard());
    expect(old.reason).toBe('invalid-card');
    expect(old.message).toContain('0.3');
    const grpc = await failure(clientFor('grpc-only').getTask('t1'));
    expect(grpc.reason).toBe('invalid-card');
    expect(grpc.message).toContain('JSONRPC');
  });

  test('a plain-http url to a non-loopback host is refused at creation', () => {
    expect(() => createA2aClient({ url: 'http://agent.example.com' })).toThrow(TypeError);
    expect(() => createA2aClient({ url: 'http://agent.example.com' })).toThrow(/allowInsecureHttp/);
    expect(() => createA2aClient({ url: 'http://agent.example.com', allowInsecureHttp: true })).not.toThrow();
    expect(() => createA2aClient({ url: 'https://agent.example.com' })).not.toThrow();
  });

  test('the default fetch is the outbound guard: a private address is blocked before any connection', async () => {
    const error = await failure(createA2aClient({ url: 'https://10.0.0.1' }).getAgentCard());
    expect(error.code).toBe(0);
    expect(error.reason).toBe('blocked');
    expect((error.cause as Error).name).toBe('SsrfError');
  });

  test('a loopback url opens loopback only: an allowed private interface is still blocked by the guard', async () => {
    const error = await failure(clientFor('private', { allowedOrigins: ['https://10.0.0.1'] }).getTask('t1'));
    expect(error.reason).toBe('blocked');
    expect(error.message).toContain('10.0.0.1');
  });

  test("the caller's signal aborts a call", async () => {
    const controller = new AbortController();
    const call = clientFor('slow-headers').getTask('t1', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await failure(call);
    expect(error.reason).toBe('aborted');
  });
});
