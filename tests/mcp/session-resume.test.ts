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

/** A new session subscribed to WATCHED, its GET stream open and the first update (event 1) read from it. */
async function watchingSession() {
  const handler = sessionHandler();
  const id = await initialize(handler);
  await call(handler, { headers: inSession(id), body: rpc('resources/subscribe', { uri: WATCHED }) });
  const stream = new SseReader((await openStream(handler, id)).body);
  await handler.notifyResourceUpdated(WATCHED);
  await stream.next();
  return { handler, id, stream };
}

describe('Last-Event-ID on the GET stream', () => {
  test('messages carry increasing event ids', async () => {
    const { handler, stream: events } = await watchingSession();
    expect(events.lastId).toBe('1');
    await handler.notifyResourceUpdated(WATCHED);
    await events.next();
    expect(events.lastId).toBe('2');
    await events.cancel();
  });

  test('a request sent while the stream was down is replayed after the last id seen, then answered', async () => {
    const { handler, id, stream: first } = await watchingSession();
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
    const { handler, id, stream: first } = await watchingSession();
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

const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'hi' },
  model: 'm',
  stopReason: 'endTurn',
};
const POST_EVENT_ID = /^([A-Za-z0-9_-]{16})\.(\d+)$/;

/** A tools/call of `ask_model` on a POST stream: the reader, after its first event (the sampling request). */
async function askOnPostStream(handler: ReturnType<typeof sessionHandler>, id: string, callId: string) {
  const res = await call(handler, {
    headers: inSession(id),
    body: rpc('tools/call', { name: 'ask_model' }, callId),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events = new SseReader(res.body);
  const request = (await events.next()) as { id: string; method: string };
  expect(request.method).toBe('sampling/createMessage');
  const eventId = events.lastId as string;
  expect(eventId).toMatch(POST_EVENT_ID);
  const key = eventId.split('.')[0] as string;
  // First the priming event (an id, empty data), then the request.
  expect(events.ids).toEqual([`${key}.1`, `${key}.2`]);
  return { events, request, eventId, key };
}

/** A new session whose `ask_model` call `callId` is waiting on its POST stream (see `askOnPostStream`). */
async function askInNewSession(callId: string) {
  const handler = sessionHandler();
  const id = await initialize(handler);
  return { handler, id, ...(await askOnPostStream(handler, id, callId)) };
}

const answer = (handler: ReturnType<typeof sessionHandler>, id: string, requestId: string) =>
  call(handler, { headers: inSession(id), body: { jsonrpc: '2.0', id: requestId, result: SAMPLED } });

describe("Last-Event-ID of a POST's own stream", () => {
  test('dropped before its answer: the tool goes on, a GET with the last id gets the rest of that stream and ends', async () => {
    // The session's GET stream has events of its own, which a POST stream's resume must not carry.
    const { handler, id, stream: getStream } = await watchingSession();
    expect(getStream.lastId).toBe('1');
    const { events, request, eventId, key } = await askOnPostStream(handler, id, 'dropped');
    await events.cancel();
    expect((await answer(handler, id, request.id)).status).toBe(202);
    await Bun.sleep(20);
    const resumed = await openStream(handler, id, eventId);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toContain('text/event-stream');
    const replay = new SseReader(resumed.body);
    expect(await replay.next()).toEqual({
      jsonrpc: '2.0',
      id: 'dropped',
      result: { content: [{ type: 'text', text: 'model said: hi' }] },
    });
    expect(replay.lastId).toBe(`${key}.3`);
    // The response was the stream's last message: it ends.
    expect(await replay.next()).toBeUndefined();
    // Nothing of the POST stream went to the GET stream, which is still open on its own.
    await handler.notifyResourceUpdated(WATCHED);
    expect((await getStream.next())?.method).toBe('notifications/resources/updated');
    expect(getStream.lastId).toBe('2');
    await getStream.cancel();
  });

  test('resumed while the tool still waits: the response arrives live on the resumed stream, once', async () => {
    const { handler, id, events, request, eventId, key } = await askInNewSession('live');
    await events.cancel();
    const replay = new SseReader((await openStream(handler, id, eventId)).body);
    expect((await answer(handler, id, request.id)).status).toBe(202);
    const response = (await replay.next()) as { id: string; result: unknown };
    expect(response.id).toBe('live');
    expect(replay.lastId).toBe(`${key}.3`);
    expect(await replay.next()).toBeUndefined();
  });

  test('one resume of a stream at a time per instance: a second is 409 until the first ends', async () => {
    const { handler, id, events, request, eventId } = await askInNewSession('twice');
    await events.cancel();
    const first = new SseReader((await openStream(handler, id, eventId)).body);
    const second = await openStream(handler, id, eventId);
    expect(second.status).toBe(409);
    expect(second.headers.get('content-type')).toBe('application/problem+json');
    expect(((await second.json()) as { detail: string }).detail).toContain('already being resumed');
    await answer(handler, id, request.id);
    expect(((await first.next()) as { id: string }).id).toBe('twice');
    expect(await first.next()).toBeUndefined();
    // Ended: it may be resumed again (and ends at once after the response).
    const again = new SseReader((await openStream(handler, id, eventId)).body);
    expect(((await again.next()) as { id: string }).id).toBe('twice');
    expect(await again.next()).toBeUndefined();
  });

  test('resumed from before the sampling request: it is sent again, then the response', async () => {
    const { handler, id, events, request, key } = await askInNewSession('again');
    await events.cancel();
    const replay = new SseReader((await openStream(handler, id, `${key}.0`)).body);
    expect(((await replay.next()) as { id: string }).id).toBe(request.id);
    // The priming event is not sent again: the resumed stream has its own first line.
    expect(replay.ids).toEqual([`${key}.2`]);
    await answer(handler, id, request.id);
    expect(((await replay.next()) as { id: string }).id).toBe('again');
    expect(await replay.next()).toBeUndefined();
  });

  test('resumed at its response: nothing to replay, the stream ends at once', async () => {
    const { handler, id, events, request, key } = await askInNewSession('done');
    await answer(handler, id, request.id);
    expect(((await events.next()) as { id: string }).id).toBe('done');
    expect(events.lastId).toBe(`${key}.3`);
    const resumed = await openStream(handler, id, `${key}.3`);
    expect(resumed.status).toBe(200);
    expect(await new SseReader(resumed.body).next()).toBeUndefined();
  });

  test('a stream key this session never had is 400; another session cannot resume it (400), a foreign id 404', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    const other = await initialize(handler);
    const { events, request, eventId } = await askOnPostStream(handler, id, 'mine');
    for (const [session, lastEventId] of [
      [id, 'AAAAAAAAAAAAAAAA.1'],
      [other, eventId],
    ] as const) {
      const res = await openStream(handler, session, lastEventId);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(((await res.json()) as { detail: string }).detail).toContain('Last-Event-ID names no stream');
    }
    const foreign = await openStream(handler, 'x'.repeat(43), eventId);
    expect(foreign.status).toBe(404);
    await answer(handler, id, request.id);
    await events.cancel();
  });

  test('without recorded events (a store with no appendEvent) POST streams carry no ids', async () => {
    const { appendEvent: _a, eventsAfter: _e, ...plain } = memoryMcpSessionStore();
    const handler = sessionHandler({ store: plain });
    const id = await initialize(handler);
    const res = await call(handler, {
      headers: inSession(id),
      body: rpc('tools/call', { name: 'ask_model' }, 'p'),
    });
    const events = new SseReader(res.body);
    const request = (await events.next()) as { id: string };
    expect(events.lastId).toBeUndefined();
    await answer(handler, id, request.id);
    expect(((await events.next()) as { id: string }).id).toBe('p');
    expect(events.lastId).toBeUndefined();
  });

  test('the memory store keeps each POST stream apart from the GET stream, the newest 32 of them, and drops all with the session', async () => {
    const store = memoryMcpSessionStore();
    await store.appendEvent?.('s', '{"get":1}');
    for (let i = 0; i < 34; i++) {
      expect(await store.appendEvent?.('s', `{"post":${i}}`, `stream-${i}`)).toBe('1');
    }
    expect(await store.appendEvent?.('s', '{"post":"again"}', 'stream-33')).toBe('2');
    expect(await store.eventsAfter?.('s', '0')).toEqual([{ id: '1', message: '{"get":1}' }]);
    expect(await store.eventsAfter?.('s', '1', 'stream-33')).toEqual([
      { id: '2', message: '{"post":"again"}' },
    ]);
    // The two oldest POST streams were forgotten.
    expect(await store.eventsAfter?.('s', '0', 'stream-0')).toEqual([]);
    expect(await store.eventsAfter?.('s', '0', 'stream-1')).toEqual([]);
    expect((await store.eventsAfter?.('s', '0', 'stream-2'))?.length).toBe(1);
    await store.delete('s');
    expect(await store.eventsAfter?.('s', '0', 'stream-33')).toEqual([]);
  });
});
