import { describe, expect, test } from 'bun:test';
import { A2aClientError } from './errors.ts';
import { callRpc, type RpcSettings } from './rpc.ts';

const ENDPOINT = new URL('https://agent.example.com/a2a');

interface Captured {
  url?: string;
  init?: RequestInit;
  body?: Record<string, unknown>;
}

/** An agent whose answer is computed from the parsed request. */
function agent(
  answer: (request: Record<string, unknown>) => Response,
  overrides: Partial<RpcSettings> = {},
): { settings: RpcSettings; captured: Captured } {
  const captured: Captured = {};
  const settings: RpcSettings = {
    timeoutMs: 1000,
    maxResponseBytes: 10_000,
    headers: async () =>
      new Headers({ authorization: 'Bearer t', 'a2a-version': '0.3', accept: 'text/html' }),
    extensions: undefined,
    propagateTrace: false,
    fetch: async (input, init) => {
      captured.url = String(input);
      captured.init = init;
      captured.body = JSON.parse(String(init?.body));
      return answer(captured.body as Record<string, unknown>);
    },
    ...overrides,
  };
  return { settings, captured };
}

const result = (value: unknown) => (request: Record<string, unknown>) =>
  Response.json({ jsonrpc: '2.0', id: request.id, result: value });

async function failure(promise: Promise<unknown>): Promise<A2aClientError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof A2aClientError)) throw new Error(`expected an A2aClientError, got ${String(error)}`);
  return error;
}

describe('callRpc', () => {
  test('posts a JSON-RPC 2.0 request with a UUID id and returns the result', async () => {
    const { settings, captured } = agent(result({ ok: true }));
    expect(await callRpc(settings, ENDPOINT, 'GetTask', { id: 't' })).toEqual({ ok: true });
    expect(captured.url).toBe('https://agent.example.com/a2a');
    expect(captured.init?.method).toBe('POST');
    expect(captured.init?.redirect).toBe('manual');
    expect(captured.body?.jsonrpc).toBe('2.0');
    expect(captured.body?.method).toBe('GetTask');
    expect(captured.body?.params).toEqual({ id: 't' });
    expect(captured.body?.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  test('the protocol headers win over user headers, which are otherwise kept', async () => {
    const { settings, captured } = agent(result(null), {
      extensions: 'https://e.example/a, https://e.example/b',
    });
    await callRpc(settings, ENDPOINT, 'GetTask', {});
    const headers = new Headers(captured.init?.headers);
    expect(headers.get('a2a-version')).toBe('1.0');
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('authorization')).toBe('Bearer t');
    expect(headers.get('a2a-extensions')).toBe('https://e.example/a, https://e.example/b');
    expect(headers.get('traceparent')).toBeNull();
  });

  test('sends the trace headers the tracer returns', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const { settings, captured } = agent(result(null), {
      propagateTrace: () => ({ traceparent, tracestate: 'rojo=1' }),
    });
    await callRpc(settings, ENDPOINT, 'GetTask', {});
    const headers = new Headers(captured.init?.headers);
    expect(headers.get('traceparent')).toBe(traceparent);
    expect(headers.get('tracestate')).toBe('rojo=1');
  });

  test('a JSON-RPC error becomes an rpc error with code, message, data and status', async () => {
    const { settings } = agent((request) =>
      Response.json({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32602, message: 'Invalid params', data: [1] },
      }),
    );
    const error = await failure(callRpc(settings, ENDPOINT, 'GetTask', {}));
    expect(error.reason).toBe('rpc');
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Invalid params');
    expect(error.data).toEqual([1]);
    expect(error.status).toBe(200);
  });

  test('an error response with a null id (the server could not read ours) is still the agent error', async () => {
    const { settings } = agent(() =>
      Response.json({ jsonrpc: '2.0', id: null, error: { code: -32009, message: 'v' } }),
    );
    expect((await failure(callRpc(settings, ENDPOINT, 'GetTask', {}))).code).toBe(-32009);
  });

  test('malformed envelopes are invalid-response with code 0', async () => {
    const answers: ((request: Record<string, unknown>) => unknown)[] = [
      (r) => ({ jsonrpc: '1.0', id: r.id, result: 1 }),
      (r) => ({ jsonrpc: '2.0', id: `${r.id}x`, result: 1 }),
      (r) => ({ jsonrpc: '2.0', id: r.id }),
      (r) => ({ jsonrpc: '2.0', id: r.id, result: 1, error: { code: 1, message: 'x' } }),
      (r) => ({ jsonrpc: '2.0', id: r.id, error: { code: 1.5, message: 'x' } }),
      (r) => ({ jsonrpc: '2.0', id: r.id, error: { code: -1 } }),
      (r) => ({ jsonrpc: '2.0', id: null, result: 1 }),
      () => [1],
    ];
    for (const make of answers) {
      const { settings } = agent((request) => Response.json(make(request)));
      const error = await failure(callRpc(settings, ENDPOINT, 'GetTask', {}));
      expect(error.reason).toBe('invalid-response');
      expect(error.code).toBe(0);
    }
  });

  test('a 2xx answer that is not JSON is a content-type error', async () => {
    const { settings } = agent(() => new Response('ok', { headers: { 'content-type': 'text/plain' } }));
    const error = await failure(callRpc(settings, ENDPOINT, 'GetTask', {}));
    expect(error.reason).toBe('content-type');
    expect(error.status).toBe(200);
  });

  test('a non-2xx answer without a JSON-RPC error is an http-status error', async () => {
    const { settings } = agent(
      () => new Response('<h1>bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    const error = await failure(callRpc(settings, ENDPOINT, 'GetTask', {}));
    expect(error.reason).toBe('http-status');
    expect(error.status).toBe(502);
    expect(error.data).toBeUndefined();
  });

  test('a network failure is a network error carrying the cause', async () => {
    const down = agent(result(null), {
      fetch: async () => {
        throw new TypeError('connection refused');
      },
    });
    const network = await failure(callRpc(down.settings, ENDPOINT, 'GetTask', {}));
    expect(network.reason).toBe('network');
    expect(network.message).toContain('connection refused');
  });

  test('a fetch that ignores its signal still times out', async () => {
    const { settings } = agent(result(null), { timeoutMs: 20, fetch: () => new Promise(() => {}) });
    const error = await failure(callRpc(settings, ENDPOINT, 'GetTask', {}));
    expect(error.reason).toBe('timeout');
    expect(error.code).toBe(0);
  });

  test('an already aborted signal fails the call as aborted', async () => {
    const { settings } = agent(result(null));
    const error = await failure(callRpc(settings, ENDPOINT, 'GetTask', {}, AbortSignal.abort()));
    expect(error.reason).toBe('aborted');
  });
});
