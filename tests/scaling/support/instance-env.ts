/**
 * What every instance script of tests/scaling starts from: its name (INSTANCE), the Redis it shares
 * (REDIS_URL) through the client REDIS_CLIENT names (`bun` or `node-redis`), a command client and a
 * subscriber on it, the deadline its stores give Redis, and a logger that writes errors to stderr.
 */
import { RedisClient } from 'bun';
import { createClient } from 'redis';
import type { Logger } from '@charter/core';
import {
  bunRedisClient,
  bunRedisSubscriber,
  nodeRedisClient,
  nodeRedisSubscriber,
  type RedisLikeClient,
  type RedisLikeSubscriber,
} from '@charter/redis';

export const name = process.env.INSTANCE ?? 'A';
const url = process.env.REDIS_URL as string;
// What a store waits for Redis at most: every request is answered within about this much.
export const timeoutMs = 500;

async function connect(): Promise<{ client: RedisLikeClient; subscriber: RedisLikeSubscriber }> {
  if (process.env.REDIS_CLIENT === 'node-redis') {
    // No offline queue: while Redis is down a command fails at once rather than running late.
    const raw = createClient({ url, disableOfflineQueue: true });
    const client = nodeRedisClient(raw);
    await raw.connect();
    const sub = raw.duplicate();
    const subscriber = nodeRedisSubscriber(sub);
    await sub.connect();
    return { client, subscriber };
  }
  const raw = new RedisClient(url, { enableOfflineQueue: false });
  await raw.connect();
  const sub = await raw.duplicate();
  return { client: bunRedisClient(raw), subscriber: bunRedisSubscriber(sub) };
}

export const { client, subscriber } = await connect();

// Errors go to stderr as one JSON line each, where the test can read them if it fails.
const log = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
  console.error(JSON.stringify({ level, instance: name, msg, error: String(fields?.error ?? '') }));
export const logger: Logger = { debug() {}, info() {}, warn: log('warn'), error: log('error') };
