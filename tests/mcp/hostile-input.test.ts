/**
 * Hostile input against the tool-server endpoint: broken bodies (JSON, UTF-8, size, media type),
 * messages that are not JSON-RPC requests, odd ids, DNS-rebinding origins, deep nesting, prototype
 * keys, oversized names and URIs, huge batches, handlers that throw, and the redaction of internal
 * errors. Nothing here may crash the handler or print to the console: `onError` is captured.
 */
import { describe, expect, test } from 'bun:test';
import {
  createFixture,
  expectAccepted,
  expectBatch,
  expectIdNullError,
  expectMethodNotFound,
  expectProblem,
  expectRpcError,
  expectRpcResult,
  type Fixture,
  firstText,
  legacyPost,
  modern,
  modernPost,
  rpc,
  SECRET_MESSAGE,
  send,
  TOOL_NAMES,
} from './support.ts';

const fx = createFixture();
const { app } = fx;
const JSON_HEADERS = { 'content-type': 'application/json' };
const PING = JSON.stringify(rpc('ping', undefined, 'ping'));

describe('bodies that are not JSON', () => {
  test('invalid JSON is 400 -32700 with id null', async () => {
    for (const body of ['{', '{"jsonrpc":"2.0",}', "{'jsonrpc':'2.0'}", 'NaN', '[1,]', '{}x', 'undefined']) {
      await expectIdNullError(await legacyPost(app, body), -32700, 'Parse error: The body is not valid JSON');
    }
  });

  test('a parse error never echoes an id, even one readable before the break', async () => {
    await expectIdNullError(
      await legacyPost(app, '{"jsonrpc":"2.0","id":"visible","method":"ping"'),
      -32700,
      'Parse error',
    );
  });

  test('invalid UTF-8 (a stray byte, an overlong form, an encoded surrogate, a cut sequence) is -32700', async () => {
    const wrap = (bytes: number[]) =>
      new Uint8Array([
        ...new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"'),
        ...bytes,
        0x22,
        0x7d,
      ]);
    for (const bytes of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      await expectIdNullError(await legacyPost(app, wrap(bytes)), -32700, 'the body is not valid UTF-8');
    }
  });

  test('a UTF-8 byte-order mark before the JSON is ignored (RFC 8259 §8.1 allows it)', async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(PING)]);
    expect(await expectRpcResult(await legacyPost(app, body), 'ping')).toEqual({});
  });

  test('an empty or whitespace-only body is -32700', async () => {
    for (const body of ['', '   \r\n\t ']) {
      await expectIdNullError(await legacyPost(app, body), -32700, 'the body is empty');
    }
  });

  test('a POST without a body at all is -32700', async () => {
    await expectIdNullError(await send(app, JSON_HEADERS, null), -32700, 'the body is empty');
  });
});

describe('JSON that is not a JSON-RPC message', () => {
  test('scalars, null and strings are 400 -32600 with id null', async () => {
    for (const body of ['42', '"hello"', 'true', 'null', '-0.5e3']) {
      await expectIdNullError(await legacyPost(app, body), -32600, 'a JSON-RPC message must be an object');
    }
  });

  test('an array of junk is a batch: each item is answered -32600 in place (2025-03-26)', async () => {
    const answers = await expectBatch(await legacyPost(app, '[1, "x", null, [], {}]'));
    expect(answers.map((answer) => [answer.id, (answer.error as { code: number }).code])).toEqual([
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
    ]);
  });

  test('an array of junk under a revision without batches is refused whole', async () => {
    await expectIdNullError(
      await legacyPost(app, '[1, "x"]', { 'mcp-protocol-version': '2025-11-25' }),
      -32600,
      'batches are not allowed',
    );
  });

  test('jsonrpc missing, "1.0" or the number 2 is -32600, echoing a readable id', async () => {
    for (const jsonrpc of [undefined, '1.0', 2, '2.0 ']) {
      await expectRpcError(await legacyPost(app, { jsonrpc, id: 'j', method: 'ping' }), {
        status: 400,
        code: -32600,
        id: 'j',
        message: '"jsonrpc" must be exactly "2.0"',
      });
    }
  });

  test('a method that is missing, empty or not a string is -32600', async () => {
    await expectRpcError(await legacyPost(app, { jsonrpc: '2.0', id: 1 }), {
      status: 400,
      code: -32600,
      id: 1,
      message: '"method" is missing',
    });
    for (const method of ['', 5, null, ['ping'], { name: 'ping' }]) {
      await expectRpcError(await legacyPost(app, { jsonrpc: '2.0', id: 2, method }), {
        status: 400,
        code: -32600,
        id: 2,
        message: '"method" must be a non-empty string',
      });
    }
  });

  test('params that are a scalar are -32600; an array is -32602 (MCP params are objects)', async () => {
    for (const params of ['x', 1, true, null]) {
      await expectRpcError(await legacyPost(app, { jsonrpc: '2.0', id: 3, method: 'ping', params }), {
        status: 400,
        code: -32600,
        id: 3,
        message: '"params" must be an object or an array',
      });
    }
    await expectRpcError(
      await legacyPost(app, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: ['x'] }),
      {
        status: 200,
        code: -32602,
        id: 4,
        message: 'MCP params must be an object',
      },
    );
  });

  test('duplicate keys: the last one counts, and a mirrored header catches the disagreement', async () => {
    const body =
      '{"jsonrpc":"2.0","id":5,"method":"tools/list","method":"tools/call","params":{"name":"list_items"}}';
    await expectRpcError(await legacyPost(app, body, { 'mcp-method': 'tools/list' }), {
      status: 400,
      code: -32020,
      id: 5,
      message: 'Mcp-Method header does not match',
    });
    expect(firstText(await expectRpcResult(await legacyPost(app, body), 5))).toBe('alpha, beta, gamma');
  });
});

describe('notifications and ids of odd types', () => {
  test('a notifications/* method with an id is 400 -32600 echoing the id', async () => {
    for (const method of ['notifications/initialized', 'notifications/cancelled', 'notifications/anything']) {
      await expectRpcError(await legacyPost(app, { jsonrpc: '2.0', id: 'n1', method }), {
        status: 400,
        code: -32600,
        id: 'n1',
        message: `${method} is a notification and must not carry an id`,
      });
    }
  });

  test('a modern-looking notification with an id is refused the same way', async () => {
    const body = {
      jsonrpc: '2.0' as const,
      id: 9,
      method: 'notifications/initialized',
      params: { _meta: {} },
    };
    await expectRpcError(await modernPost(app, body), {
      status: 400,
      code: -32600,
      id: 9,
      message: 'must not carry an id',
    });
  });

  test('a request method without an id is a notification: 202, and nothing runs', async () => {
    const before = fx.seen.length;
    await expectAccepted(
      await legacyPost(app, { jsonrpc: '2.0', method: 'tools/call', params: { name: 'inspect' } }),
    );
    await expectAccepted(await legacyPost(app, { jsonrpc: '2.0', method: 'nope/unknown' }));
    expect(fx.seen.length).toBe(before);
  });

  test('a client response is 202 with any usable id, or with id null (an answer to an unreadable request)', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
      { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'no' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    ]) {
      await expectAccepted(await legacyPost(app, body));
    }
  });

  test('a response-shaped message with an unusable id is -32600', async () => {
    await expectIdNullError(
      await legacyPost(app, { jsonrpc: '2.0', id: 1.5, result: {} }),
      -32600,
      '"id" must be a string or an integer',
    );
  });

  test('ids that are null, fractional, boolean, objects, arrays or beyond 2^53 are -32600 with id null', async () => {
    for (const id of ['null', '1.5', 'true', '{}', '[]', '[1]', '9007199254740992', '1e400']) {
      const res = await legacyPost(app, `{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
      await expectIdNullError(res, -32600, '"id" must be a string or an integer');
    }
  });

  test('string and integer ids of every shape are echoed exactly', async () => {
    for (const id of [
      '',
      ' ',
      '0',
      'é🙂',
      '\u0000',
      0,
      -1,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ]) {
      expect(await expectRpcResult(await legacyPost(app, rpc('ping', undefined, id)), id)).toEqual({});
    }
  });

  test('an integer id written with an exponent or a fraction of zero is the integer', async () => {
    for (const [literal, id] of [
      ['1e3', 1000],
      ['2.0', 2],
      ['-0', 0],
    ] as const) {
      await expectRpcResult(await legacyPost(app, `{"jsonrpc":"2.0","id":${literal},"method":"ping"}`), id);
    }
  });

  test('a 100 000-character string id is echoed in full (only the body cap bounds it)', async () => {
    const id = 'i'.repeat(100_000);
    const res = await legacyPost(app, rpc('tools/destroy', undefined, id));
    await expectRpcError(res, { status: 200, code: -32601, id, message: 'Method not found' });
  });
});

describe('body size (maxBodyBytes)', () => {
  const small = createFixture({ handler: { maxBodyBytes: 1000 } });

  /** A ping padded with trailing spaces to exactly `size` bytes. */
  const padded = (size: number) => PING + ' '.repeat(size - PING.length);

  test('a body of exactly maxBodyBytes is accepted, with and without Content-Length', async () => {
    const body = padded(1000);
    expect(new TextEncoder().encode(body).length).toBe(1000);
    await expectRpcResult(await send(small.app, { ...JSON_HEADERS, 'content-length': '1000' }, body), 'ping');
    await expectRpcResult(await send(small.app, JSON_HEADERS, streamOf(body)), 'ping');
  });

  test('one byte more with a Content-Length is 413 before the body is read', async () => {
    const res = await send(small.app, { ...JSON_HEADERS, 'content-length': '1001' }, padded(1001));
    await expectProblem(res, 413, 'payload-too-large', 'exceeds the limit of 1000 bytes');
  });

  test('a chunked stream (no Content-Length) past the limit is 413', async () => {
    const chunks = [
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"',
      'a'.repeat(600),
      'a'.repeat(600),
      '"}}',
    ];
    const res = await send(small.app, JSON_HEADERS, streamOf(...chunks));
    await expectProblem(res, 413, 'payload-too-large', 'exceeds the limit of 1000 bytes');
  });

  test('a declared Content-Length past the limit is 413 even when the body is tiny', async () => {
    const res = await send(small.app, { ...JSON_HEADERS, 'content-length': '999999' }, PING);
    await expectProblem(res, 413, 'payload-too-large');
  });

  test('the default limit is 262144 bytes', async () => {
    await expectRpcResult(await send(app, JSON_HEADERS, streamOf(padded(262_144))), 'ping');
    await expectProblem(
      await send(app, JSON_HEADERS, streamOf(padded(262_145))),
      413,
      'payload-too-large',
      '262144',
    );
  });

  test('the size check comes after the media type: an oversized text/plain body is 415', async () => {
    const res = await send(
      small.app,
      { 'content-type': 'text/plain', 'content-length': '5000' },
      padded(5000),
    );
    await expectProblem(res, 415, 'unsupported-media-type');
  });
});

/** A body as a stream of chunks: no Content-Length, like a chunked upload. */
function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('Content-Type', () => {
  test('missing Content-Type is 415', async () => {
    await expectProblem(
      await send(app, {}, PING),
      415,
      'unsupported-media-type',
      'needs Content-Type: application/json',
    );
  });

  test('anything but application/json is 415, including the types a browser form can send without preflight', async () => {
    for (const type of [
      'text/plain',
      'text/json',
      'application/jsonx',
      'application/json-seq',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/problem+json',
      '',
    ]) {
      await expectProblem(await send(app, { 'content-type': type }, PING), 415, 'unsupported-media-type');
    }
  });

  test('application/json with parameters or in another case is accepted', async () => {
    for (const type of [
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json ;charset=UTF-8',
    ]) {
      expect(await expectRpcResult(await send(app, { 'content-type': type }, PING), 'ping')).toEqual({});
    }
  });
});

describe('unknown methods in both eras', () => {
  test('legacy: HTTP 200 with -32601', async () => {
    await expectMethodNotFound(app, 'legacy', { method: 'admin/shutdown', id: 'u1' });
  });

  test('modern: HTTP 404 with -32601', async () => {
    await expectMethodNotFound(app, 'modern', { method: 'admin/shutdown', id: 'u2' });
  });

  test('a very long unknown method name is cut in the message', async () => {
    const method = `x/${'m'.repeat(5000)}`;
    const error = await expectMethodNotFound(app, 'legacy', {
      method,
      id: 'u3',
      message: 'Method not found',
    });
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('Origin (DNS rebinding): the handler policy', () => {
  const listed = createFixture({ handler: { allowedOrigins: ['https://app.example', 'null'] } });
  const withOrigin = (origin: string, target: Fixture = fx) =>
    send(target.handler, { ...JSON_HEADERS, origin }, PING);

  test('a request without Origin (not a browser) is served', async () => {
    await expectRpcResult(await send(fx.handler, JSON_HEADERS, PING), 'ping');
  });

  test('a foreign Origin is 403 problem', async () => {
    for (const origin of ['https://evil.example', 'http://attacker.test:8080']) {
      await expectProblem(
        await withOrigin(origin),
        403,
        'forbidden',
        'is not allowed to call this tool server',
      );
    }
  });

  test('loopback origins are admitted', async () => {
    for (const origin of [
      'http://localhost:5173',
      'https://localhost',
      'http://app.localhost:3000',
      'http://127.0.0.1:8080',
      'http://127.42.0.1',
      'http://[::1]:3000',
    ]) {
      expect([origin, (await withOrigin(origin)).status]).toEqual([origin, 200]);
    }
  });

  test('loopback look-alikes and non-canonical spellings are refused', async () => {
    for (const origin of [
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example',
      'http://0.0.0.0:3000',
      'http://127.1',
      'http://LOCALHOST:3000',
      'http://localhost:3000/',
      'ftp://localhost',
      'file://',
      'not an origin',
    ]) {
      await expectProblem(await withOrigin(origin), 403, 'forbidden');
    }
  });

  test('"null" (an opaque origin: sandboxed frame, file page) is refused unless listed', async () => {
    await expectProblem(await withOrigin('null'), 403, 'forbidden', '"null"');
    await expectRpcResult(await withOrigin('null', listed), 'ping');
  });

  test('a listed origin is admitted exactly; other spellings of it are not', async () => {
    await expectRpcResult(await withOrigin('https://app.example', listed), 'ping');
    for (const origin of [
      'https://app.example:443',
      'https://app.example/',
      'http://app.example',
      'https://APP.example',
    ]) {
      await expectProblem(await withOrigin(origin, listed), 403, 'forbidden');
    }
  });

  test('the Origin is judged first: before the method, the media type and the body', async () => {
    const evil = { origin: 'https://evil.example' };
    await expectProblem(await send(fx.handler, evil, '{', 'POST'), 403, 'forbidden');
    await expectProblem(await send(fx.handler, evil, null, 'GET'), 403, 'forbidden');
    await expectProblem(await send(fx.handler, evil, null, 'OPTIONS'), 403, 'forbidden');
    await expectProblem(await send(fx.handler, { ...JSON_HEADERS, ...evil }, '{'), 403, 'forbidden');
  });
});

describe('Origin through the App', () => {
  test('a foreign Origin is refused with 403 problem (the App guard answers first)', async () => {
    const res = await send(app, { ...JSON_HEADERS, origin: 'https://evil.example' }, PING);
    await expectProblem(res, 403, 'forbidden', 'https://evil.example');
  });

  test('the app’s own origin passes the App guard but not the handler, which trusts only loopback and listed origins', async () => {
    const res = await send(app, { ...JSON_HEADERS, origin: 'http://charter.local' }, PING);
    await expectProblem(res, 403, 'forbidden', 'is not allowed to call this tool server');
  });

  test('with the App guard off, the handler policy decides: listed and loopback in, others out', async () => {
    const open = createFixture({
      app: { corsCrossOriginGuard: false },
      handler: { allowedOrigins: ['https://app.example'] },
    });
    await expectRpcResult(
      await send(open.app, { ...JSON_HEADERS, origin: 'https://app.example' }, PING),
      'ping',
    );
    await expectRpcResult(
      await send(open.app, { ...JSON_HEADERS, origin: 'http://localhost:5173' }, PING),
      'ping',
    );
    await expectProblem(
      await send(open.app, { ...JSON_HEADERS, origin: 'https://evil.example' }, PING),
      403,
      'forbidden',
      'is not allowed to call this tool server',
    );
  });
});

/** An object nested `levels` deep: 1 is `{}`. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

describe('deep nesting', () => {
  // The body itself is level 1 and params level 2, so arguments nested m levels make a body of m + 2.
  const call = (argumentLevels: number) =>
    legacyPost(app, rpc('tools/call', { name: 'inspect', arguments: nested(argumentLevels) }, 'deep'));

  test('a body nested 64 levels is served', async () => {
    const result = await expectRpcResult(await call(62), 'deep');
    expect(JSON.parse(firstText(result))).toMatchObject({ method: 'tools/call' });
  });

  test('a body nested 65 levels is 400 -32700 and the tool does not run', async () => {
    const before = fx.seen.length;
    await expectIdNullError(await call(63), -32700, 'nested deeper than 64 levels');
    expect(fx.seen.length).toBe(before);
  });

  test('a 100 000-deep array body does not crash: -32700', async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"inspect","arguments":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
    await expectIdNullError(await legacyPost(app, body), -32700, 'nested');
  });

  test('a 100 000-deep object body with a forbidden key at the bottom does not crash: -32700', async () => {
    const big = createFixture({ handler: { maxBodyBytes: 2_000_000 } });
    const body = `${'{"a":'.repeat(100_000)}{"constructor":1}${'}'.repeat(100_000)}`;
    await expectIdNullError(await legacyPost(big.app, body), -32700, 'nested');
  });

  test('deep nesting in a modern request is refused before the ladder', async () => {
    const body = modern('tools/call', { name: 'inspect', arguments: nested(70) }, 'm');
    await expectIdNullError(await modernPost(app, body), -32700, 'nested');
  });
});

describe('prototype keys', () => {
  const raw = (args: string) =>
    `{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"inspect","arguments":${args}}}`;

  test('__proto__, constructor and prototype keys anywhere are -32600, written plainly or escaped', async () => {
    const before = fx.seen.length;
    for (const [args, key] of [
      ['{"__proto__":{"polluted":true}}', '__proto__'],
      ['{"nested":{"__proto__":{"polluted":true}}}', '__proto__'],
      ['{"\\u005f_proto__":{"polluted":true}}', '__proto__'],
      ['{"constructor":{"prototype":{"polluted":true}}}', 'constructor'],
      ['{"list":[{"prototype":1}]}', 'prototype'],
    ] as const) {
      await expectIdNullError(
        await legacyPost(app, raw(args)),
        -32600,
        `Invalid Request: The JSON body contains the forbidden key "${key}"`,
      );
    }
    expect(fx.seen.length).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('the words in values (not keys) are harmless', async () => {
    const result = await expectRpcResult(
      await legacyPost(app, raw('{"text":"__proto__ constructor prototype"}')),
      'p',
    );
    expect(JSON.parse(firstText(result))).toMatchObject({ method: 'tools/call' });
  });
});

describe('oversized names and URIs', () => {
  test('a 10 000-character tool name is -32602 Unknown tool, with the name cut in the message', async () => {
    const name = 't'.repeat(10_000);
    const legacy = await expectRpcError(await legacyPost(app, rpc('tools/call', { name }, 'n')), {
      status: 200,
      code: -32602,
      id: 'n',
      message: 'Unknown tool',
    });
    expect(legacy.message.length).toBeLessThan(200);
    const fromModern = await expectRpcError(await modernPost(app, modern('tools/call', { name }, 'n')), {
      status: 200,
      code: -32602,
      id: 'n',
      message: 'Unknown tool',
    });
    expect(fromModern.message.length).toBeLessThan(200);
  });

  test('a resource URI over 8192 characters is -32602; at 8192 it is merely not found', async () => {
    const uri = (length: number) => `docs://${'u'.repeat(length - 7)}`;
    await expectRpcError(await legacyPost(app, rpc('resources/read', { uri: uri(8193) }, 'r')), {
      status: 200,
      code: -32602,
      id: 'r',
      message: 'params.uri is longer than 8192 characters',
    });
    await expectRpcError(await modernPost(app, modern('resources/read', { uri: uri(8193) }, 'r')), {
      status: 200,
      code: -32602,
      id: 'r',
      message: 'longer than 8192',
    });
    const error = await expectRpcError(
      await legacyPost(app, rpc('resources/read', { uri: uri(8192) }, 'r')),
      {
        status: 200,
        code: -32002,
        id: 'r',
        message: 'Resource not found',
      },
    );
    expect((error.data as { uri: string }).uri.length).toBe(8192);
    expect(error.message.length).toBeLessThan(300);
  });

  test('maxResourceUriLength is honoured', async () => {
    const short = createFixture({ handler: { maxResourceUriLength: 20 } });
    await expectRpcResult(
      await legacyPost(short.app, rpc('resources/read', { uri: 'docs://readme' }, 'r')),
      'r',
    );
    await expectRpcError(
      await legacyPost(short.app, rpc('resources/read', { uri: 'docs://pages/installation' }, 'r')),
      {
        status: 200,
        code: -32602,
        id: 'r',
        message: 'longer than 20 characters',
      },
    );
  });
});

describe('huge batches', () => {
  test('5 000 messages are refused whole with 400 -32600, and none of them runs', async () => {
    const big = createFixture({ handler: { maxBodyBytes: 1_000_000 } });
    const batch = Array.from({ length: 5000 }, (_, i) => rpc('tools/call', { name: 'inspect' }, i));
    await expectIdNullError(
      await legacyPost(big.app, batch),
      -32600,
      'a batch may carry at most 16 messages',
    );
    expect(big.seen.length).toBe(0);
  });

  test('a batch of batches is answered -32600 per inner array', async () => {
    const answers = await expectBatch(await legacyPost(app, [[rpc('ping')], [rpc('ping')]]));
    expect(answers).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: a JSON-RPC message must be an object' },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: a JSON-RPC message must be an object' },
      },
    ]);
  });
});

describe('handlers that throw, and redaction', () => {
  const explode = (kind: string, id: string | number = 'x') =>
    rpc('tools/call', { name: 'explode', arguments: { kind } }, id);

  test('bun test runs with NODE_ENV=test, which the default redaction depends on', () => {
    expect(process.env.NODE_ENV).toBe('test');
  });

  test('a throw of a non-Error is -32603 "Tool execution failed" with no detail, and reaches onError', async () => {
    for (const kind of ['string', 'object']) {
      const before = fx.errors.length;
      const error = await expectRpcError(await legacyPost(app, explode(kind)), {
        status: 200,
        code: -32603,
        id: 'x',
        message: 'Tool execution failed',
      });
      expect(error.message).toBe('Tool execution failed');
      expect(error.data).toBeUndefined();
      expect(fx.errors.slice(before)).toEqual([
        {
          error: kind === 'string' ? `a bare string: ${SECRET_MESSAGE}` : { message: SECRET_MESSAGE },
          method: 'tools/call',
          name: 'explode',
        },
      ]);
    }
  });

  test('NODE_ENV=test and no App: the bare handler shows the message', async () => {
    const error = await expectRpcError(await legacyPost(fx.handler, explode('error')), {
      status: 200,
      code: -32603,
      id: 'x',
      message: `Tool execution failed: ${SECRET_MESSAGE}`,
    });
    expect(error.data).toBeUndefined();
  });

  test('an App whose env is test shows it too; exposeInternalErrors: false hides it', async () => {
    await expectRpcError(await legacyPost(app, explode('error')), {
      status: 200,
      code: -32603,
      id: 'x',
      message: `Tool execution failed: ${SECRET_MESSAGE}`,
    });
    const closed = createFixture({ handler: { exposeInternalErrors: false } });
    for (const target of [closed.app, closed.handler]) {
      const error = await expectRpcError(await legacyPost(target, explode('error')), {
        status: 200,
        code: -32603,
        id: 'x',
        message: 'Tool execution failed',
      });
      expect(error.message).not.toContain(SECRET_MESSAGE);
    }
  });

  test("an App with env 'production' redacts the message in both eras; onError still sees the error", async () => {
    const prod = createFixture({ app: { env: 'production' } });
    const legacy = await expectRpcError(await legacyPost(prod.app, explode('error', 1)), {
      status: 200,
      code: -32603,
      id: 1,
      message: 'Tool execution failed',
    });
    expect(legacy.message).toBe('Tool execution failed');
    const fromModern = await expectRpcError(
      await modernPost(prod.app, modern('tools/call', { name: 'explode', arguments: { kind: 'error' } }, 2)),
      { status: 200, code: -32603, id: 2, message: 'Tool execution failed' },
    );
    expect(fromModern.message).toBe('Tool execution failed');
    expect(prod.errors.map((entry) => (entry.error as Error).message)).toEqual([
      SECRET_MESSAGE,
      SECRET_MESSAGE,
    ]);
  });

  test("an App with env 'production' and exposeInternalErrors: true shows the message", async () => {
    const prod = createFixture({ app: { env: 'production' }, handler: { exposeInternalErrors: true } });
    await expectRpcError(await legacyPost(prod.app, explode('error')), {
      status: 200,
      code: -32603,
      id: 'x',
      message: `Tool execution failed: ${SECRET_MESSAGE}`,
    });
  });

  test('a throwing resource, prompt or completer is -32603 "Internal error", redacted in production', async () => {
    const boom = () => {
      throw new Error(SECRET_MESSAGE);
    };
    const handler = {
      resources: [{ uri: 'docs://boom', name: 'boom', read: boom }],
      prompts: [
        { name: 'boom', description: 'Throws', arguments: [{ name: 'a', complete: boom }], get: boom },
      ],
    };
    const calls = [
      rpc('resources/read', { uri: 'docs://boom' }, 'r'),
      rpc('prompts/get', { name: 'boom' }, 'r'),
      rpc(
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'boom' }, argument: { name: 'a', value: '' } },
        'r',
      ),
    ];
    const dev = createFixture({ handler });
    const prod = createFixture({ handler, app: { env: 'production' } });
    for (const body of calls) {
      await expectRpcError(await legacyPost(dev.app, body), {
        status: 200,
        code: -32603,
        id: 'r',
        message: `Internal error: ${SECRET_MESSAGE}`,
      });
      const hidden = await expectRpcError(await legacyPost(prod.app, body), {
        status: 200,
        code: -32603,
        id: 'r',
        message: 'Internal error',
      });
      expect(hidden.message).toBe('Internal error');
    }
    expect(prod.errors.map((entry) => [entry.method, entry.name])).toEqual([
      ['resources/read', 'docs://boom'],
      ['prompts/get', 'boom'],
      ['completion/complete', undefined],
    ]);
  });

  test('a tool whose result breaks its own outputSchema is a server failure (-32603), not the client’s', async () => {
    const broken = createFixture({
      handler: {
        tools: [
          {
            name: 'liar',
            description: 'Returns the wrong shape',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
            handler: () => ({ structuredContent: { n: 'not a number' } }),
          },
        ],
        exposeInternalErrors: false,
      },
    });
    await expectRpcError(await legacyPost(broken.app, rpc('tools/call', { name: 'liar' }, 'l')), {
      status: 200,
      code: -32603,
      id: 'l',
      message: 'Tool execution failed',
    });
    expect(broken.errors.length).toBe(1);
  });

  test('after every failure above the server still answers normally', async () => {
    const result = await expectRpcResult(await modernPost(app, modern('tools/list', {}, 'after')), 'after');
    expect((result.tools as { name: string }[]).map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    expect(result.resultType).toBe('complete');
  });
});
