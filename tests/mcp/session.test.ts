/**
 * `Mcp-Session-Id` sessions of the legacy Streamable HTTP transport (MCP 2025-03-26 to 2025-11-25
 * "Transports" §Session Management) when the handler has a store, and the unchanged stateless
 * handler without one. In process, straight through the handler.
 */
import { describe, expect, test } from 'bun:test';
import { memoryMcpSessionStore } from '@charter/mcp';
import {
  brokenStore,
  call,
  initialize,
  inSession,
  LEGACY,
  MODERN,
  rpc,
  seen,
  sessionHandler,
  statelessHandler,
} from './session-support.ts';

async function problem(res: Response, status: number, detail: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.status).toBe(status);
  expect(String(body.detail)).toContain(detail);
}

async function result(res: Response, id: string | number): Promise<Record<string, unknown>> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.id).toBe(id);
  expect(body.error).toBeUndefined();
  return body.result as Record<string, unknown>;
}

describe('without a store the handler stays stateless', () => {
  const handler = statelessHandler();

  test('info says stateless; initialize mints no session; later requests need none', async () => {
    expect(handler.info.sessions).toBe('stateless');
    const res = await call(handler, {
      body: rpc('initialize', { protocolVersion: LEGACY, capabilities: {} }, 'i'),
    });
    const init = await result(res, 'i');
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(init.capabilities).toEqual({ tools: {}, resources: {}, logging: {} });
    await result(await call(handler, { body: rpc('ping', {}, 'p') }), 'p');
  });

  test('GET and DELETE answer 405 with Allow: POST, OPTIONS; a session id is ignored', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await call(handler, { method, headers: { 'mcp-session-id': 'whatever' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
    const res = await call(handler, { headers: { 'mcp-session-id': 'unknown' }, body: rpc('ping', {}, 'q') });
    await result(res, 'q');
  });

  test('ctx.sample refuses: no session to send the request on', async () => {
    const res = await call(handler, { body: rpc('tools/call', { name: 'ask_model', arguments: {} }, 's') });
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain('keeps no sessions');
  });
});

describe('with a store: minting, requiring and ending sessions', () => {
  test('info says stateful, OPTIONS lists GET and DELETE, initialize declares resource subscriptions', async () => {
    const handler = sessionHandler();
    expect(handler.info.sessions).toBe('stateful');
    const options = await call(handler, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS');
    const res = await call(handler, {
      body: rpc('initialize', { protocolVersion: LEGACY, capabilities: {} }, 'i'),
    });
    const init = await result(res, 'i');
    expect((init.capabilities as Record<string, unknown>).resources).toEqual({ subscribe: true });
  });

  test('initialize mints a fresh 256-bit id each time', async () => {
    const handler = sessionHandler();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add(await initialize(handler));
    expect(ids.size).toBe(5);
  });

  test('a failed initialize mints nothing', async () => {
    const handler = sessionHandler();
    const res = await call(handler, { body: rpc('initialize', { capabilities: {} }, 'bad') });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32602);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  test('a request of the session is served; the session carries what initialize declared', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler, { sampling: {} });
    const before = seen.length;
    await result(
      await call(handler, {
        headers: inSession(id, { accept: 'application/json' }),
        body: rpc('tools/call', { name: 'inspect' }, 'c'),
      }),
      'c',
    );
    expect(seen[before]?.clientCapabilities).toEqual({ sampling: {} });
    expect(seen[before]?.clientInfo).toEqual({ name: 'test', version: '1' });
    expect(seen[before]?.protocolVersion).toBe(LEGACY);
  });

  test('without the header a request, a notification and a batch get 400', async () => {
    const handler = sessionHandler();
    await initialize(handler);
    await problem(await call(handler, { body: rpc('tools/list', {}, 1) }), 400, 'Mcp-Session-Id');
    await problem(
      await call(handler, { body: { jsonrpc: '2.0', method: 'notifications/initialized' } }),
      400,
      'Mcp-Session-Id',
    );
    await problem(
      await call(handler, { headers: { 'mcp-protocol-version': '2025-03-26' }, body: [rpc('ping', {}, 2)] }),
      400,
      'Mcp-Session-Id',
    );
  });

  test('an unknown, overlong or forged id gets 404', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    for (const bad of ['nope', `${id}x`, 'a'.repeat(500), id.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))]) {
      await problem(
        await call(handler, { headers: inSession(bad), body: rpc('ping') }),
        404,
        'Unknown or expired',
      );
    }
  });

  test('DELETE ends the session (204); it is then 404 everywhere; DELETE needs the header', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    await problem(await call(handler, { method: 'DELETE' }), 400, 'Mcp-Session-Id');
    const ended = await call(handler, { method: 'DELETE', headers: inSession(id) });
    expect(ended.status).toBe(204);
    expect(await ended.text()).toBe('');
    await problem(await call(handler, { headers: inSession(id), body: rpc('ping') }), 404, 'initialize');
    await problem(await call(handler, { method: 'DELETE', headers: inSession(id) }), 404, 'Unknown');
  });

  test('an idle session expires: served before, 404 after idleTtlMs', async () => {
    let now = Date.now();
    const store = memoryMcpSessionStore({ now: () => now });
    const handler = sessionHandler({ sessions: { store, idleTtlMs: 1_000 } });
    // The keeper reads the real clock; the store's clock decides expiry.
    const id = await initialize(handler);
    await call(handler, { headers: inSession(id), body: rpc('ping') }).then((res) =>
      expect(res.status).toBe(200),
    );
    now += 10_000;
    await problem(await call(handler, { headers: inSession(id), body: rpc('ping') }), 404, 'expired');
  });

  test('a session bound to a credential answers 404 to another credential or none', async () => {
    const handler = sessionHandler();
    const alice = { authorization: 'Bearer alice' };
    const id = await initialize(handler, {}, alice);
    await result(await call(handler, { headers: inSession(id, alice), body: rpc('ping', {}, 'a') }), 'a');
    await problem(
      await call(handler, { headers: inSession(id, { authorization: 'Bearer mallory' }), body: rpc('ping') }),
      404,
      'Unknown',
    );
    await problem(await call(handler, { headers: inSession(id), body: rpc('ping') }), 404, 'Unknown');
    await problem(await call(handler, { method: 'DELETE', headers: inSession(id) }), 404, 'Unknown');
  });

  test('logging/setLevel is remembered by the session', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    await result(
      await call(handler, { headers: inSession(id), body: rpc('logging/setLevel', { level: 'error' }, 'l') }),
      'l',
    );
    // The tool logs at info: below the session's level, so nothing turns the answer into a stream.
    const res = await call(handler, {
      headers: inSession(id),
      body: rpc('tools/call', { name: 'inspect' }, 't'),
    });
    await result(res, 't');
    const other = await initialize(handler);
    const streamed = await call(handler, {
      headers: inSession(other),
      body: rpc('tools/call', { name: 'inspect' }, 'u'),
    });
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    await streamed.text();
  });

  test('2026-07-28 requests stay stateless: no header needed, a bogus one ignored', async () => {
    const handler = sessionHandler();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    for (const extra of [{}, { 'mcp-session-id': 'bogus' }] as Record<string, string>[]) {
      const res = await call(handler, {
        headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', ...extra },
        body: rpc('tools/list', { _meta: meta }, 'm'),
      });
      const listed = await result(res, 'm');
      expect(listed.resultType).toBe('complete');
      expect(res.headers.get('mcp-session-id')).toBeNull();
    }
    // resources/subscribe does not exist in that era, store or not.
    const res = await call(handler, {
      headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'resources/subscribe' },
      body: rpc('resources/subscribe', { uri: 'notes://today', _meta: meta }, 'x'),
    });
    expect(res.status).toBe(404);
  });
});

describe('when the store is down', () => {
  test('initialize, a session request and DELETE get 503 with Retry-After, never a session-less success', async () => {
    const handler = sessionHandler({ store: brokenStore() });
    const init = await call(handler, {
      body: rpc('initialize', { protocolVersion: LEGACY, capabilities: {} }),
    });
    expect(init.headers.get('retry-after')).toBe('1');
    expect(init.headers.get('mcp-session-id')).toBeNull();
    await problem(init, 503, 'session store is unavailable');
    const res = await call(handler, { headers: inSession('some-id'), body: rpc('ping') });
    expect(res.headers.get('retry-after')).toBe('1');
    await problem(res, 503, 'session store is unavailable');
    await problem(
      await call(handler, { method: 'DELETE', headers: inSession('some-id') }),
      503,
      'unavailable',
    );
  });
});

describe('options and the memory store', () => {
  test('a sessions option without a store, or with bad durations, fails at startup naming it', () => {
    expect(() => sessionHandler({ sessions: {} as never })).toThrow('option "sessions" needs store');
    expect(() => sessionHandler({ sessions: { store: memoryMcpSessionStore(), idleTtlMs: 0 } })).toThrow(
      'idleTtlMs must be a positive integer',
    );
    expect(() => memoryMcpSessionStore({ maxSessions: -1 })).toThrow('maxSessions');
  });

  test('the memory store refuses a session past maxSessions: the initialize gets 503', async () => {
    const handler = sessionHandler({ store: memoryMcpSessionStore({ maxSessions: 1 }) });
    await initialize(handler);
    const res = await call(handler, {
      body: rpc('initialize', { protocolVersion: LEGACY, capabilities: {} }),
    });
    await problem(res, 503, 'unavailable');
  });
});

describe('through an App (mcpRoutes)', () => {
  test('the routes of a stateful handler serve DELETE 204, the GET stream and OPTIONS with GET and DELETE', async () => {
    const { App } = await import('@charter/core');
    const { mcpRoutes } = await import('@charter/mcp');
    const handler = sessionHandler();
    const app = new App({ logger: false });
    app.registerRoutes(mcpRoutes('/mcp', handler, { public: true }));
    const send = (method: string, headers: Record<string, string>, body?: unknown) =>
      app.request('/mcp', {
        method,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
        body: body === undefined ? null : JSON.stringify(body),
      });
    const init = await send(
      'POST',
      {},
      rpc('initialize', { protocolVersion: LEGACY, capabilities: {} }, 'i'),
    );
    expect(init.status).toBe(200);
    const id = init.headers.get('mcp-session-id') as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await send('OPTIONS', {})).headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS');
    await problem(await send('POST', {}, rpc('ping')), 400, 'Mcp-Session-Id');
    const stream = await send('GET', inSession(id, { accept: 'text/event-stream' }));
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await problem(await send('GET', inSession('nope', { accept: 'text/event-stream' })), 404, 'Unknown');
    const ended = await send('DELETE', inSession(id));
    expect(ended.status).toBe(204);
    await stream.body?.cancel();
    await problem(await send('DELETE', inSession(id)), 404, 'Unknown');
    expect((await send('PUT', {})).status).toBe(405);
  });
});
