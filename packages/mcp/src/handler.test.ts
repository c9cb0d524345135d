import { describe, expect, test } from 'bun:test';
import { createMcpHandler, type McpHandler } from './handler.ts';
import type { McpHandlerOptions } from './options.ts';

const URL_ = 'http://localhost/mcp';
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

function handlerOf(options: Partial<McpHandlerOptions> = {}): McpHandler {
  return createMcpHandler({
    serverInfo: { name: 'notes', version: '1.0.0' },
    tools: [
      { name: 'search', description: 'Search', inputSchema: { type: 'object' }, handler: () => 'found' },
      { name: 'add', description: 'Add', inputSchema: { type: 'object' }, handler: () => 'added' },
    ],
    resources: [{ uri: 'docs://guide', name: 'guide', read: () => 'text' }],
    prompts: [{ name: 'summary', description: 'Summarise', get: () => ({ messages: [] }) }],
    onError: () => {},
    ...options,
  });
}

function post(
  handler: McpHandler,
  body: BodyInit = PING,
  headers: Record<string, string> = {},
): Promise<Response> {
  return handler(
    new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }),
  );
}

async function expectProblem(
  response: Response,
  status: number,
  code: string,
): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.type).toBe(`https://charter.dev/errors/${code}`);
  expect(body.status).toBe(status);
  return body;
}

describe('createMcpHandler step 1: Origin', () => {
  test('a request without Origin passes (not from a browser)', async () => {
    const response = await post(handlerOf());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  test('loopback origins pass without being listed', async () => {
    const handler = handlerOf();
    const origins = [
      'http://localhost',
      'http://localhost:6274',
      'https://127.0.0.1:8443',
      'http://127.45.6.7',
      'http://[::1]:3000',
      'http://app.localhost:5173',
    ];
    for (const origin of origins) expect((await post(handler, PING, { origin })).status).toBe(200);
  });

  test('any other origin gets a 403 problem (DNS rebinding defence), before the method is looked at', async () => {
    const handler = handlerOf();
    const origins = [
      'https://evil.example',
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io',
      'http://128.0.0.1',
      'ftp://localhost',
      'http://LOCALHOST',
      'http://localhost/',
      'not an origin',
      'null',
    ];
    for (const origin of origins) {
      const body = await expectProblem(await post(handler, PING, { origin }), 403, 'forbidden');
      expect(body.detail).toBe(
        `The Origin ${JSON.stringify(origin)} is not allowed to call this tool server`,
      );
    }
    for (const method of ['GET', 'OPTIONS', 'DELETE']) {
      const response = await handler(
        new Request(URL_, { method, headers: { origin: 'https://evil.example' } }),
      );
      await expectProblem(response, 403, 'forbidden');
    }
  });

  test('listed origins pass, "null" only when listed, and only exact matches', async () => {
    const handler = handlerOf({ allowedOrigins: ['https://app.example', 'null'] });
    expect((await post(handler, PING, { origin: 'https://app.example' })).status).toBe(200);
    expect((await post(handler, PING, { origin: 'null' })).status).toBe(200);
    for (const origin of [
      'https://app.example.evil.example',
      'http://app.example',
      'https://app.example:8443',
    ]) {
      await expectProblem(await post(handler, PING, { origin }), 403, 'forbidden');
    }
  });

  test('the detail quotes at most 200 characters of the Origin', async () => {
    const origin = `https://${'a'.repeat(300)}.example`;
    const body = await expectProblem(await post(handlerOf(), PING, { origin }), 403, 'forbidden');
    expect(body.detail).toBe(
      `The Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed to call this tool server`,
    );
  });
});

describe('createMcpHandler step 2: HTTP method', () => {
  test('OPTIONS answers 204 with Allow and no body', async () => {
    const response = await handlerOf()(new Request(URL_, { method: 'OPTIONS' }));
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await response.text()).toBe('');
  });

  test('GET answers a 405 problem with Allow and the JSON hint', async () => {
    const response = await handlerOf({ protocolVersions: ['2025-06-18', '2026-07-28'] })(new Request(URL_));
    const body = await expectProblem(response, 405, 'method-not-allowed');
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(body).toEqual({
      type: 'https://charter.dev/errors/method-not-allowed',
      title: 'Method Not Allowed',
      status: 405,
      detail: 'This tool server offers no server-to-client stream: send JSON-RPC requests with POST',
      transport: 'streamable-http',
      protocolVersions: ['2025-06-18', '2026-07-28'],
      hint: 'POST JSON-RPC 2.0 messages to this URL',
    });
  });

  test('other methods answer a 405 problem without the hint', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const response = await handlerOf()(new Request(URL_, { method }));
      const body = await expectProblem(response, 405, 'method-not-allowed');
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(body.detail).toBe(`${method} is not supported here: send JSON-RPC requests with POST`);
      expect(Object.hasOwn(body, 'hint')).toBe(false);
      expect(Object.hasOwn(body, 'tools')).toBe(false);
    }
  });
});

describe('createMcpHandler step 3: Content-Type', () => {
  test('accepts application/json with parameters and in any case', async () => {
    const handler = handlerOf();
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON ;charset=UTF-8',
    ]) {
      expect((await post(handler, PING, { 'content-type': type })).status).toBe(200);
    }
  });

  test('refuses any other media type with a 415 problem naming it', async () => {
    const handler = handlerOf();
    for (const type of [
      'text/plain',
      'application/jsonx',
      'application/json-rpc',
      'application/x-www-form-urlencoded',
    ]) {
      const body = await expectProblem(
        await post(handler, PING, { 'content-type': type }),
        415,
        'unsupported-media-type',
      );
      expect(body.detail).toBe(`Content-Type ${JSON.stringify(type)} is not accepted: send application/json`);
    }
  });

  test('refuses a missing Content-Type with a 415 problem', async () => {
    const request = new Request(URL_, {
      method: 'POST',
      body: new Uint8Array(new TextEncoder().encode(PING)),
    });
    request.headers.delete('content-type');
    const body = await expectProblem(await handlerOf()(request), 415, 'unsupported-media-type');
    expect(body.detail).toBe('A JSON-RPC request needs Content-Type: application/json');
  });
});

describe('createMcpHandler step 4: body', () => {
  const padded = (pad: number) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', pad: 'x'.repeat(pad) });

  test('a body at the cap is read; one byte over gets a 413 problem', async () => {
    const base = padded(0).length;
    const handler = handlerOf({ maxBodyBytes: base + 10 });
    const body = padded;
    expect((await post(handler, body(10))).status).toBe(200);
    const problem = await expectProblem(await post(handler, body(11)), 413, 'payload-too-large');
    expect(problem.detail).toBe(`The request body exceeds the limit of ${base + 10} bytes`);
  });

  test('a streamed body without Content-Length is cut off at the cap', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(1000));
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls > 1000) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request(URL_, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectProblem(await handlerOf({ maxBodyBytes: 4096 })(request), 413, 'payload-too-large');
    expect(pulls).toBeLessThan(20);
  });

  test('a declared Content-Length over the cap is refused before reading', async () => {
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls += 1;
          controller.enqueue(new Uint8Array(200));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(URL_, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '200' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectProblem(await handlerOf({ maxBodyBytes: 100 })(request), 413, 'payload-too-large');
    expect(pulls).toBe(0);
  });

  test('the default cap is 262144 bytes', async () => {
    const handler = handlerOf();
    const overhead = padded(0).length;
    expect((await post(handler, padded(262_144 - overhead))).status).toBe(200);
    await expectProblem(await post(handler, padded(262_145 - overhead)), 413, 'payload-too-large');
  });

  test('unreadable JSON answers -32700 with HTTP 400 and a null id', async () => {
    for (const body of ['{"jsonrpc":', '', new Uint8Array([0xff])]) {
      const response = await post(handlerOf(), body);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/json');
      const answer = (await response.json()) as { id: unknown; error: { code: number; message: string } };
      expect(answer.id).toBeNull();
      expect(answer.error.code).toBe(-32700);
      expect(answer.error.message).toStartWith('Parse error: ');
    }
  });
});

describe('createMcpHandler steps 5 and 6: batches and messages', () => {
  test('an array is a batch, answered as an array under 2025-03-26', async () => {
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    const response = await post(handlerOf(), batch);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    const refused = await post(handlerOf(), batch, { 'mcp-protocol-version': '2025-06-18' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  test('a malformed message answers -32600 with HTTP 400', async () => {
    const response = await post(handlerOf(), JSON.stringify({ jsonrpc: '2.0', id: 4 }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32600, message: 'Invalid Request: "method" is missing' },
    });
  });

  test('a notification and a client response get 202 with no body', async () => {
    const handler = handlerOf();
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
    ]) {
      const response = await post(handler, JSON.stringify(message));
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
      expect(response.headers.get('content-type')).toBeNull();
    }
  });

  test('a notifications/* method with an id is -32600, echoing the id', async () => {
    const response = await post(
      handlerOf(),
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'notifications/initialized' }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: {
        code: -32600,
        message: 'Invalid Request: notifications/initialized is a notification and must not carry an id',
      },
    });
  });
});

describe('createMcpHandler response headers', () => {
  const headers = { 'x-served-by': 'notes-mcp', 'access-control-allow-origin': 'https://app.example' };

  /** One response of every kind the handler makes. */
  async function everyKind(handler: McpHandler): Promise<Record<string, Response>> {
    return {
      json: await post(handler),
      jsonError: await post(handler, '{'),
      accepted: await post(handler, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })),
      forbidden: await post(handler, PING, { origin: 'https://evil.example' }),
      getHint: await handler(new Request(URL_)),
      methodNotAllowed: await handler(new Request(URL_, { method: 'PUT' })),
      mediaType: await post(handler, PING, { 'content-type': 'text/plain' }),
      tooLarge: await post(handler, 'x'.repeat(300)),
      options: await handler(new Request(URL_, { method: 'OPTIONS' })),
    };
  }

  test('the configured headers and Cache-Control: no-store are on every kind of response', async () => {
    const responses = await everyKind(handlerOf({ headers, maxBodyBytes: 256 }));
    expect(Object.values(responses).map((response) => response.status)).toEqual([
      200, 400, 202, 403, 405, 405, 415, 413, 204,
    ]);
    for (const [kind, response] of Object.entries(responses)) {
      expect([kind, response.headers.get('cache-control')]).toEqual([kind, 'no-store']);
      expect([kind, response.headers.get('x-served-by')]).toEqual([kind, 'notes-mcp']);
      expect([kind, response.headers.get('access-control-allow-origin')]).toEqual([
        kind,
        'https://app.example',
      ]);
    }
  });

  test('without configured headers only the handler’s own are set', async () => {
    const responses = await everyKind(handlerOf({ maxBodyBytes: 256 }));
    for (const response of Object.values(responses)) {
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-served-by')).toBeNull();
    }
  });

  test('a configured Cache-Control replaces no-store', async () => {
    const response = await post(handlerOf({ headers: { 'Cache-Control': 'private, max-age=0' } }));
    expect(response.headers.get('cache-control')).toBe('private, max-age=0');
  });

  test('no Mcp-Session-Id is ever issued', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    const response = await post(handlerOf(), initialize);
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });
});

describe('createMcpHandler info', () => {
  test('describes the server, its revisions and the names it offers, frozen', () => {
    const handler = handlerOf({ protocolVersions: ['2026-07-28', '2025-11-25'] });
    expect(handler.info).toEqual({
      allowsOrigin: expect.any(Function),
      serverInfo: { name: 'notes', version: '1.0.0' },
      protocolVersions: ['2025-11-25', '2026-07-28'],
      tools: ['search', 'add'],
      resources: ['docs://guide'],
      prompts: ['summary'],
      // 2025-03-26, the one revision with batches, is not served.
      maxBatchSize: 0,
      // No sessions store: stateless.
      sessions: 'stateless',
    });
    expect(handlerOf().info.maxBatchSize).toBe(16);
    expect(handlerOf({ maxBatchSize: 4 }).info.maxBatchSize).toBe(4);
    expect(Object.isFrozen(handler.info)).toBe(true);
    expect(Object.isFrozen(handler.info.tools)).toBe(true);
  });

  test('an empty server has empty lists', () => {
    const handler = createMcpHandler({ serverInfo: { name: 'empty', version: '0' } });
    expect(handler.info.tools).toEqual([]);
    expect(handler.info.resources).toEqual([]);
    expect(handler.info.prompts).toEqual([]);
  });

  test('bad options fail when the handler is created, not on the first request', () => {
    expect(() => createMcpHandler({ serverInfo: { name: 'x', version: '1' }, maxBodyBytes: 0 })).toThrow(
      'createMcpHandler: option "maxBodyBytes" must be a positive integer, got 0',
    );
    expect(() =>
      createMcpHandler({
        serverInfo: { name: 'x', version: '1' },
        tools: [{ name: 'bad name', description: 'd', inputSchema: { type: 'object' }, handler: () => '' }],
      }),
    ).toThrow('createMcpHandler: tools[0] has the name "bad name"');
  });
});
