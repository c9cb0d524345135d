/**
 * Tool-server sessions on a real redis-server (charter/redis `redisMcpSessionStore`), two handler
 * instances sharing it, one on Bun's client and one on node-redis: a session minted on A is served
 * on B and ended on B; a sampling request sent on A's POST stream is answered through B; a resource
 * subscribed on B and announced on B reaches A's GET stream. Then the outage: Redis paused (answers
 * never come) gives a bounded 503 with Retry-After; Redis killed gives 503 too; restarted, new
 * sessions work again without restarting the instances.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { RedisClient } from 'bun';
import { createClient } from 'redis';
import {
  bunRedisClient,
  bunRedisSubscriber,
  nodeRedisClient,
  nodeRedisSubscriber,
  redisMcpSessionStore,
} from '../../packages/redis/src/index.ts';
import { type RestartableRedis, startRestartableRedis } from '../redis/support/restartable-redis.ts';
import {
  call,
  changeOneSessionAtOnce,
  checkReplaceIf,
  initialize,
  inSession,
  rpc,
  SseReader,
  sessionHandler,
  WATCHED,
} from './session-support.ts';

let server: RestartableRedis;
const closers: (() => void)[] = [];
let prefix: string;

beforeAll(async () => {
  server = await startRestartableRedis();
  prefix = `mcp-test:${crypto.randomUUID()}:`;
});

afterAll(async () => {
  for (const close of closers.splice(0)) close();
  await server?.stop();
});

async function bunStore(timeoutMs = 1000) {
  const raw = new RedisClient(server.url);
  await raw.connect();
  const sub = await raw.duplicate();
  closers.push(() => (raw.close(), sub.close()));
  return redisMcpSessionStore({
    client: bunRedisClient(raw),
    subscriber: bunRedisSubscriber(sub),
    prefix,
    timeoutMs,
  });
}

async function nodeStore(timeoutMs = 1000) {
  const raw = createClient({ url: server.url, socket: { reconnectStrategy: () => 50 } });
  const client = nodeRedisClient(raw);
  await raw.connect();
  const sub = raw.duplicate();
  const subscriber = nodeRedisSubscriber(sub);
  await sub.connect();
  closers.push(() => {
    raw.destroy();
    sub.destroy();
  });
  return redisMcpSessionStore({ client, subscriber, prefix, timeoutMs });
}

const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'via B' },
  model: 'm',
  stopReason: 'endTurn',
};

describe('redisMcpSessionStore: one session across two instances', () => {
  test('minted on A, served on B, a sampling request on A answered through B, ended on B', async () => {
    const a = sessionHandler({ store: await bunStore() });
    const b = sessionHandler({ store: await nodeStore() });
    const id = await initialize(a);
    // The record is a key under the prefix, expiring with the session.
    const probe = new RedisClient(server.url);
    closers.push(() => probe.close());
    const pttl = Number(await probe.send('PTTL', [`${prefix}s:${id}`]));
    expect(pttl).toBeGreaterThan(1_700_000);
    const listed = await call(b, { headers: inSession(id), body: rpc('tools/list', {}, 'l') });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools.length).toBe(4);
    const events = new SseReader(
      (await call(a, { headers: inSession(id), body: rpc('tools/call', { name: 'ask_model' }, 's') })).body,
    );
    const request = (await events.next()) as { id: string; method: string };
    expect(request.method).toBe('sampling/createMessage');
    const reply = await call(b, {
      headers: inSession(id),
      body: { jsonrpc: '2.0', id: request.id, result: SAMPLED },
    });
    expect(reply.status).toBe(202);
    expect(((await events.next()) as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'model said: via B' }],
    });
    expect((await call(b, { method: 'DELETE', headers: inSession(id) })).status).toBe(204);
    expect((await call(a, { headers: inSession(id), body: rpc('ping') })).status).toBe(404);
  });

  test('subscribed on B, announced on B, delivered on the GET stream A holds', async () => {
    const a = sessionHandler({ store: await bunStore() });
    const b = sessionHandler({ store: await nodeStore() });
    const id = await initialize(b);
    const stream = await call(a, { method: 'GET', headers: inSession(id, { accept: 'text/event-stream' }) });
    expect(stream.status).toBe(200);
    const events = new SseReader(stream.body);
    const subscribed = await call(b, {
      headers: inSession(id),
      body: rpc('resources/subscribe', { uri: WATCHED }),
    });
    expect(subscribed.status).toBe(200);
    await b.notifyResourceUpdated(WATCHED);
    expect(await events.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: WATCHED },
    });
    // DELETE on B closes the stream on A.
    expect((await call(b, { method: 'DELETE', headers: inSession(id) })).status).toBe(204);
    expect(await events.next()).toBeUndefined();
  });

  test('a request recorded while no stream was open is replayed on B after Last-Event-ID, answered there', async () => {
    const a = sessionHandler({ store: await bunStore() });
    const b = sessionHandler({ store: await nodeStore() });
    const id = await initialize(a);
    const pending = call(a, {
      headers: inSession(id, { accept: 'application/json' }),
      body: rpc('tools/call', { name: 'list_roots' }, 'r'),
    });
    // Wait until A has recorded the request in the session's event list.
    for (let i = 0; i < 200; i++) {
      const probe = new RedisClient(server.url);
      const length = Number(await probe.send('LLEN', [`${prefix}e:${id}`]));
      probe.close();
      if (length > 0) break;
      await Bun.sleep(10);
    }
    const stream = await call(b, {
      method: 'GET',
      headers: inSession(id, { accept: 'text/event-stream', 'last-event-id': '0' }),
    });
    const events = new SseReader(stream.body);
    const request = (await events.next()) as { id: string; method: string };
    expect(request.method).toBe('roots/list');
    expect(events.lastId).toBe('1');
    await call(b, {
      headers: inSession(id),
      body: { jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: 'file:///r' }] } },
    });
    const res = await pending;
    expect(((await res.json()) as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'file:///r' }],
    });
    expect((await call(b, { method: 'DELETE', headers: inSession(id) })).status).toBe(204);
    const probe = new RedisClient(server.url);
    closers.push(() => probe.close());
    // The session's event list went with it.
    expect(Number(await probe.send('EXISTS', [`${prefix}e:${id}`, `${prefix}n:${id}`]))).toBe(0);
    await events.cancel();
  });

  test("a POST stream dropped on A is resumed on B with its Last-Event-ID; DELETE drops that stream's events", async () => {
    const a = sessionHandler({ store: await bunStore() });
    const b = sessionHandler({ store: await nodeStore() });
    const id = await initialize(a);
    const events = new SseReader(
      (await call(a, { headers: inSession(id), body: rpc('tools/call', { name: 'ask_model' }, 'p') })).body,
    );
    const request = (await events.next()) as { id: string; method: string };
    expect(request.method).toBe('sampling/createMessage');
    const eventId = events.lastId as string;
    expect(eventId).toMatch(/^[A-Za-z0-9_-]{16}\.2$/);
    const key = eventId.split('.')[0] as string;
    await events.cancel();
    // Resumed on B before the answer, answered through B too: the response comes live from A.
    const resumed = await call(b, {
      method: 'GET',
      headers: inSession(id, { accept: 'text/event-stream', 'last-event-id': eventId }),
    });
    expect(resumed.status).toBe(200);
    const replay = new SseReader(resumed.body);
    const reply = await call(b, {
      headers: inSession(id),
      body: { jsonrpc: '2.0', id: request.id, result: SAMPLED },
    });
    expect(reply.status).toBe(202);
    expect(await replay.next()).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      result: { content: [{ type: 'text', text: 'model said: via B' }] },
    });
    expect(replay.lastId).toBe(`${key}.3`);
    expect(await replay.next()).toBeUndefined();
    const probe = new RedisClient(server.url);
    closers.push(() => probe.close());
    const keys = [`${prefix}e:${id}:${key}`, `${prefix}n:${id}:${key}`, `${prefix}p:${id}`];
    expect(Number(await probe.send('EXISTS', keys))).toBe(3);
    expect(Number(await probe.send('PTTL', [keys[0] as string]))).toBeGreaterThan(1_700_000);
    expect((await call(b, { method: 'DELETE', headers: inSession(id) })).status).toBe(204);
    expect(Number(await probe.send('EXISTS', keys))).toBe(0);
  });

  test('replaceIf (compare-and-set) writes only over the record as read, on both clients', async () => {
    await checkReplaceIf(await bunStore());
    await checkReplaceIf(await nodeStore());
  });

  test('60 subscribes and unsubscribes and a setLevel at once on A and B: the record in Redis holds every change', async () => {
    const storeA = await bunStore();
    await changeOneSessionAtOnce(
      sessionHandler({ store: storeA }),
      sessionHandler({ store: await nodeStore() }),
      storeA,
    );
  });

  test('options are checked when the store is made', async () => {
    const raw = new RedisClient(server.url);
    closers.push(() => raw.close());
    const client = bunRedisClient(raw);
    expect(() => redisMcpSessionStore({ client } as never)).toThrow('option "subscriber"');
    expect(() => redisMcpSessionStore({ subscriber: {} } as never)).toThrow('option "client"');
  });
});

describe('when Redis is down', () => {
  test('paused: a session request fails within the deadline with 503 and Retry-After, then recovers', async () => {
    const a = sessionHandler({ store: await bunStore(200) });
    const id = await initialize(a);
    server.pause();
    try {
      const res = await call(a, { headers: inSession(id), body: rpc('ping') });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    } finally {
      server.resume();
    }
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await call(a, { headers: inSession(id), body: rpc('ping') })).status;
      if (status !== 200) await Bun.sleep(50);
    }
    expect(status).toBe(200);
  });

  test('killed: initialize gets 503; restarted, a new session works without restarting the instance', async () => {
    const b = sessionHandler({ store: await nodeStore(300) });
    await server.kill();
    const res = await call(b, {
      body: rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    await server.start();
    let id: string | null = null;
    for (let i = 0; i < 100 && id === null; i++) {
      const again = await call(b, {
        body: rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
      });
      id = again.headers.get('mcp-session-id');
      if (id === null) await Bun.sleep(50);
    }
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await call(b, { headers: inSession(id as string), body: rpc('ping') })).status).toBe(200);
  });
});
