/**
 * Resuming the session's GET stream with `Last-Event-ID` (MCP 2025-11-25 "Transports"
 * §Resumability and Redelivery): every message of the stream carries an event id; a message sent
 * while no stream was open (a server-to-client request) is recorded, and a client that reconnects
 * with the last id it saw gets what came after, and only that.
 */
import { describe, expect, test } from 'bun:test';
import { memoryMcpSessionStore } from '@charter/mcp';
import { call, initialize, inSession, rpc, SseReader, sessionHandler, WATCHED } from './session-support.ts';

function openStream(handler: ReturnType<typeof sessionHandler>, id: string, lastEventId?: string) {
  return call(handler, {
    method: 'GET',
    headers: inSession(id, {
      accept: 'text/event-stream',
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    }),
  });
}

describe('Last-Event-ID on the GET stream', () => {
  test('messages carry increasing event ids', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    await call(handler, { headers: inSession(id), body: rpc('resources/subscribe', { uri: WATCHED }) });
    const events = new SseReader((await openStream(handler, id)).body);
    await handler.notifyResourceUpdated(WATCHED);
    await events.next();
    expect(events.lastId).toBe('1');
    await handler.notifyResourceUpdated(WATCHED);
    await events.next();
    expect(events.lastId).toBe('2');
    await events.cancel();
  });

  test('a request sent while the stream was down is replayed after the last id seen, then answered', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    await call(handler, { headers: inSession(id), body: rpc('resources/subscribe', { uri: WATCHED }) });
    const first = new SseReader((await openStream(handler, id)).body);
    await handler.notifyResourceUpdated(WATCHED);
    await first.next();
    const seen = first.lastId as string;
    await first.cancel();
    // No stream open: the roots/list request is recorded (event 2) and waits for the client.
    const pending = call(handler, {
      headers: inSession(id, { accept: 'application/json' }),
      body: rpc('tools/call', { name: 'list_roots' }, 'r'),
    });
    await Bun.sleep(20);
    const resumed = await openStream(handler, id, seen);
    expect(resumed.status).toBe(200);
    const events = new SseReader(resumed.body);
    const request = (await events.next()) as { id: string; method: string };
    expect(request.method).toBe('roots/list');
    expect(events.lastId).toBe('2');
    await call(handler, {
      headers: inSession(id),
      body: { jsonrpc: '2.0', id: request.id, result: { roots: [] } },
    });
    expect((await pending).status).toBe(200);
    // Live messages go on from there.
    await handler.notifyResourceUpdated(WATCHED);
    expect((await events.next())?.method).toBe('notifications/resources/updated');
    expect(events.lastId).toBe('3');
    await events.cancel();
  });

  test('a Last-Event-ID at the newest event replays nothing; a malformed one is ignored', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    await call(handler, { headers: inSession(id), body: rpc('resources/subscribe', { uri: WATCHED }) });
    const first = new SseReader((await openStream(handler, id)).body);
    await handler.notifyResourceUpdated(WATCHED);
    await first.next();
    await first.cancel();
    for (const lastEventId of ['1', 'not-a-number']) {
      const events = new SseReader((await openStream(handler, id, lastEventId)).body);
      await handler.notifyResourceUpdated(WATCHED);
      // The first message is the new one, not a replay of event 1.
      await events.next();
      expect(Number(events.lastId)).toBeGreaterThan(1);
      await events.cancel();
    }
  });

  test('the memory store keeps the last 100 events of a session and forgets them with it', async () => {
    const store = memoryMcpSessionStore();
    for (let i = 0; i < 105; i++) await store.appendEvent?.('s', `{"n":${i}}`);
    const kept = (await store.eventsAfter?.('s', '0')) ?? [];
    expect(kept.length).toBe(100);
    expect(kept[0]).toEqual({ id: '6', message: '{"n":5}' });
    expect(((await store.eventsAfter?.('s', '104')) ?? []).map((e) => e.id)).toEqual(['105']);
    await store.delete('s');
    expect(await store.eventsAfter?.('s', '0')).toEqual([]);
  });
});
