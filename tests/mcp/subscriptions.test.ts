/**
 * Resource subscriptions and the session's GET stream (MCP 2025-11-25 "Resources" §Subscriptions,
 * "Transports" §Listening for Messages from the Server): subscribe, announce with
 * `handler.notifyResourceUpdated(uri)`, receive `notifications/resources/updated` on the GET stream,
 * on the instance holding the stream whichever instance was told (two handlers, one store).
 */
import { describe, expect, test } from 'bun:test';
import { memoryMcpSessionStore } from '@charter/mcp';
import {
  brokenStore,
  call,
  changeOneSessionAtOnce,
  checkReplaceIf,
  initialize,
  inSession,
  rpc,
  SseReader,
  sessionHandler,
  statelessHandler,
  WATCHED,
} from './session-support.ts';

async function problem(res: Response, status: number, detail: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(String(((await res.json()) as { detail: unknown }).detail)).toContain(detail);
}

async function ok(res: Response): Promise<Record<string, unknown>> {
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.error).toBeUndefined();
  return body.result as Record<string, unknown>;
}

function openStream(handler: ReturnType<typeof sessionHandler>, id: string): Promise<Response> {
  return call(handler, { method: 'GET', headers: inSession(id, { accept: 'text/event-stream' }) });
}

describe('resources/subscribe and resources/unsubscribe', () => {
  test('subscribe and unsubscribe answer {}; a missing or overlong uri is -32602', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    expect(
      await ok(
        await call(handler, { headers: inSession(id), body: rpc('resources/subscribe', { uri: WATCHED }) }),
      ),
    ).toEqual({});
    expect(
      await ok(
        await call(handler, { headers: inSession(id), body: rpc('resources/unsubscribe', { uri: WATCHED }) }),
      ),
    ).toEqual({});
    for (const params of [{}, { uri: 42 }, { uri: '' }, { uri: `x://${'a'.repeat(8192)}` }]) {
      const res = await call(handler, {
        headers: inSession(id),
        body: rpc('resources/subscribe', params, 'bad'),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { id: string; error: { code: number } };
      expect(body).toMatchObject({ id: 'bad', error: { code: -32602 } });
    }
  });

  test('a session may watch at most 100 resources', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    for (let i = 0; i < 100; i++) {
      await ok(
        await call(handler, {
          headers: inSession(id),
          body: rpc('resources/subscribe', { uri: `x://${i}` }),
        }),
      );
    }
    const res = await call(handler, {
      headers: inSession(id),
      body: rpc('resources/subscribe', { uri: 'x://100' }, 'cap'),
    });
    expect(((await res.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('at most 100'),
    });
  });

  test('without a store the method does not exist (-32601) and the capability is not declared', async () => {
    const handler = statelessHandler();
    const res = await call(handler, { body: rpc('resources/subscribe', { uri: WATCHED }, 'n') });
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });
});

describe('the GET stream', () => {
  test('carries notifications/resources/updated for watched URIs only, then closes on DELETE', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    await ok(
      await call(handler, { headers: inSession(id), body: rpc('resources/subscribe', { uri: WATCHED }) }),
    );
    const res = await openStream(handler, id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const events = new SseReader(res.body);
    await handler.notifyResourceUpdated('notes://not-watched');
    await handler.notifyResourceUpdated(WATCHED);
    expect(await events.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: WATCHED },
    });
    await ok(
      await call(handler, { headers: inSession(id), body: rpc('resources/unsubscribe', { uri: WATCHED }) }),
    );
    await ok(
      await call(handler, {
        headers: inSession(id),
        body: rpc('resources/subscribe', { uri: 'notes://other' }),
      }),
    );
    await handler.notifyResourceUpdated(WATCHED);
    await handler.notifyResourceUpdated('notes://other');
    // The unsubscribed URI's update never arrives: the next event is the other one's.
    expect((await events.next())?.params).toEqual({ uri: 'notes://other' });
    expect((await call(handler, { method: 'DELETE', headers: inSession(id) })).status).toBe(204);
    expect(await events.next()).toBeUndefined();
  });

  test('two instances on one store: subscribed on B, announced on B, delivered on A’s stream', async () => {
    const store = memoryMcpSessionStore();
    const a = sessionHandler({ store });
    const b = sessionHandler({ store });
    const id = await initialize(a);
    const events = new SseReader((await openStream(a, id)).body);
    await ok(await call(b, { headers: inSession(id), body: rpc('resources/subscribe', { uri: WATCHED }) }));
    await b.notifyResourceUpdated(WATCHED);
    expect((await events.next())?.params).toEqual({ uri: WATCHED });
    await events.cancel();
  });

  test('refusals: no session 400, unknown 404, no text/event-stream 406, a second stream 409, 2026-07-28 405', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    await problem(
      await call(handler, { method: 'GET', headers: { accept: 'text/event-stream' } }),
      400,
      'Mcp-Session-Id',
    );
    await problem(await openStream(handler, 'unknown'), 404, 'Unknown');
    await problem(
      await call(handler, { method: 'GET', headers: inSession(id, { accept: 'application/json' }) }),
      406,
      'text/event-stream',
    );
    const first = new SseReader((await openStream(handler, id)).body);
    await problem(await openStream(handler, id), 409, 'already has a GET stream');
    await first.cancel();
    const modern = await call(handler, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' },
    });
    expect(modern.status).toBe(405);
    expect(modern.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS');
  });

  test('a closed stream frees its place: the session can open another', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    const first = new SseReader((await openStream(handler, id)).body);
    await first.cancel();
    const again = await openStream(handler, id);
    expect(again.status).toBe(200);
    await new SseReader(again.body).cancel();
  });

  test('a store that is down: the GET gets 503 and notifyResourceUpdated rejects', async () => {
    const handler = sessionHandler({ store: brokenStore() });
    const res = await openStream(handler, 'any');
    expect(res.headers.get('retry-after')).toBe('1');
    await problem(res, 503, 'unavailable');
    await expect(handler.notifyResourceUpdated(WATCHED)).rejects.toThrow('store down');
  });

  test('notifyResourceUpdated checks its argument; without a store it resolves at once', async () => {
    await expect(sessionHandler().notifyResourceUpdated('' as string)).rejects.toThrow('resource URI');
    await expect(statelessHandler().notifyResourceUpdated(WATCHED)).resolves.toBeUndefined();
  });
});

describe('concurrent changes of one session (compare-and-set, memory store)', () => {
  test('replaceIf writes only over the record as read, and never a gone session', async () => {
    await checkReplaceIf(memoryMcpSessionStore());
  });

  test('60 subscribes and unsubscribes and a setLevel at once on two handlers: the record holds every change', async () => {
    const store = memoryMcpSessionStore();
    await changeOneSessionAtOnce(sessionHandler({ store }), sessionHandler({ store }), store);
  });
});
