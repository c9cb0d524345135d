/**
 * `subscriptions/listen` across instances on a real redis-server: two handlers share one
 * `redisMcpSessionStore` prefix, A on Bun's client and B on node-redis. A change announced on one
 * instance reaches the listen streams of both, each once; a URI not opted into reaches neither;
 * closing a stream releases its Redis subscription.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { RedisClient } from 'bun';
import { createMcpHandler, type McpHandler, mcpListenStreamCount } from '@charter/mcp';
import { createClient } from 'redis';
import {
  bunRedisClient,
  bunRedisSubscriber,
  nodeRedisClient,
  nodeRedisSubscriber,
  redisMcpSessionStore,
} from '../../packages/redis/src/index.ts';
import { type RedisServer, startRedisServer } from '../redis/support/redis-server.ts';
import { eventually, expectAcknowledged, expectEventStream, listenBody, updated } from './listen-support.ts';
import { fixtureOptions, modernPost, RESOURCE_URIS } from './support.ts';

const [README, CHANGELOG] = RESOURCE_URIS;
const TEST_TIMEOUT_MS = 20_000;

let server: RedisServer;
let prefix: string;
const closers: (() => void)[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  prefix = `mcp-listen-test:${crypto.randomUUID()}:`;
});

afterAll(async () => {
  for (const close of closers.splice(0)) close();
  await server?.stop();
});

async function bunInstance(): Promise<McpHandler> {
  const raw = new RedisClient(server.url);
  await raw.connect();
  const sub = await raw.duplicate();
  closers.push(() => (raw.close(), sub.close()));
  const store = redisMcpSessionStore({
    client: bunRedisClient(raw),
    subscriber: bunRedisSubscriber(sub),
    prefix,
    timeoutMs: 2_000,
  });
  return createMcpHandler(fixtureOptions([], [], { sessions: { store } }));
}

async function nodeInstance(): Promise<McpHandler> {
  const raw = createClient({ url: server.url });
  await raw.connect();
  const sub = raw.duplicate();
  await sub.connect();
  closers.push(() => {
    raw.destroy();
    sub.destroy();
  });
  const store = redisMcpSessionStore({
    client: nodeRedisClient(raw),
    subscriber: nodeRedisSubscriber(sub),
    prefix,
    timeoutMs: 2_000,
  });
  return createMcpHandler(fixtureOptions([], [], { sessions: { store } }));
}

/** How many subscribers Redis counts on the channel resource announcements travel on. */
async function subscribersOfAnnouncements(): Promise<number> {
  const probe = new RedisClient(server.url);
  try {
    const answer = (await probe.send('PUBSUB', ['NUMSUB', `${prefix}c:resources-updated`])) as unknown[];
    return Number(answer[1]);
  } finally {
    probe.close();
  }
}

describe('subscriptions/listen on two instances sharing a real Redis', () => {
  test(
    'a change announced on B reaches the listen stream on A, and one announced on A reaches B',
    async () => {
      const a = await bunInstance();
      const b = await nodeInstance();
      const onA = expectEventStream(
        await modernPost(a, listenBody({ resourceSubscriptions: [README] }, 'on-a')),
      );
      const onB = expectEventStream(
        await modernPost(b, listenBody({ resourceSubscriptions: [README] }, 'on-b')),
      );
      // Each acknowledgement is sent once its instance listens on Redis.
      await expectAcknowledged(onA, 'on-a');
      await expectAcknowledged(onB, 'on-b');
      await b.notifyResourceUpdated(CHANGELOG);
      await b.notifyResourceUpdated(README);
      // CHANGELOG was opted into by neither: the first message on each is README's, exactly once.
      expect(await onA.message()).toEqual(updated(README, 'on-a'));
      expect(await onB.message()).toEqual(updated(README, 'on-b'));
      await a.notifyResourceUpdated(README);
      expect(await onA.message()).toEqual(updated(README, 'on-a'));
      expect(await onB.message()).toEqual(updated(README, 'on-b'));
      expect(await subscribersOfAnnouncements()).toBe(2);
      await onA.cancel();
      await onB.cancel();
      // Closed streams release their subscription: Redis no longer counts either instance.
      await eventually(() => mcpListenStreamCount(a) === 0 && mcpListenStreamCount(b) === 0);
      const deadline = Date.now() + 10_000;
      while ((await subscribersOfAnnouncements()) !== 0) {
        if (Date.now() > deadline) throw new Error('the Redis subscriptions were not released');
        await Bun.sleep(20);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
