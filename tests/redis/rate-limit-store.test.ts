import { describe, expect, test } from 'bun:test';
import {
  redisAutoBanStore,
  redisRateLimitStore,
  type RedisLikeClient,
} from '../../packages/redis/src/index.ts';
import { CLIENT_KINDS, type ClientKind, redisForThisFile } from './support/clients.ts';

const redis = redisForThisFile();
const client = (kind: ClientKind): Promise<RedisLikeClient> => redis.client(kind);

let keySeq = 0;
const freshKey = () => `policy:client-${++keySeq}-${crypto.randomUUID()}`;

for (const kind of CLIENT_KINDS) {
  describe(`redisRateLimitStore (${kind})`, () => {
    test('counts hits in a window and reports when it ends', async () => {
      const store = redisRateLimitStore({ client: await client(kind) });
      const key = freshKey();
      const before = Date.now();
      const first = await store.hit(key, 60_000);
      expect(first.count).toBe(1);
      expect(first.resetAt).toBeGreaterThanOrEqual(before + 59_000);
      expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
      const second = await store.hit(key, 60_000);
      expect(second.count).toBe(2);
      // Same window: same end, give or take the clock between the two replies.
      expect(Math.abs(second.resetAt - first.resetAt)).toBeLessThan(100);
      expect((await store.hit(freshKey(), 60_000)).count).toBe(1);
    });

    test('starts a new window once the key expired', async () => {
      const store = redisRateLimitStore({ client: await client(kind) });
      const key = freshKey();
      await store.hit(key, 80);
      expect((await store.hit(key, 80)).count).toBe(2);
      await Bun.sleep(120);
      expect((await store.hit(key, 80)).count).toBe(1);
    });

    test('puts keys under charter:rl: with the window as expiry, or under a chosen prefix', async () => {
      const raw = await client(kind);
      const key = freshKey();
      await redisRateLimitStore({ client: raw }).hit(key, 30_000);
      expect(Number(await raw.send('GET', [`charter:rl:${key}`]))).toBe(1);
      const ttl = Number(await raw.send('PTTL', [`charter:rl:${key}`]));
      expect(ttl).toBeGreaterThan(29_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
      const custom = redisRateLimitStore({ client: raw, prefix: 'shop:rl:' });
      expect(custom.prefix).toBe('shop:rl:');
      await custom.hit(key, 30_000);
      await custom.hit(key, 30_000);
      expect(Number(await raw.send('GET', [`shop:rl:${key}`]))).toBe(2);
      expect(Number(await raw.send('GET', [`charter:rl:${key}`]))).toBe(1);
    });

    test('reset forgets a key', async () => {
      const raw = await client(kind);
      const store = redisRateLimitStore({ client: raw });
      const key = freshKey();
      await store.hit(key, 60_000);
      await store.reset(key);
      expect(Number(await raw.send('EXISTS', [`charter:rl:${key}`]))).toBe(0);
      expect((await store.hit(key, 60_000)).count).toBe(1);
    });

    test('counts exactly under 200 concurrent hits from two clients', async () => {
      const a = redisRateLimitStore({ client: await client(kind) });
      const b = redisRateLimitStore({ client: await client(kind) });
      const key = freshKey();
      const hits = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hit(key, 60_000)));
      const counts = hits.map((h) => h.count).sort((x, y) => x - y);
      expect(counts).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    });

    test('falls back to EVAL after SCRIPT FLUSH and keeps counting', async () => {
      const raw = await client(kind);
      const store = redisRateLimitStore({ client: raw });
      const key = freshKey();
      await store.hit(key, 60_000);
      const sent: string[] = [];
      const spy: RedisLikeClient = {
        send: (command, args) => {
          sent.push(command);
          return raw.send(command, args);
        },
      };
      const spied = redisRateLimitStore({ client: spy });
      expect((await spied.hit(key, 60_000)).count).toBe(2);
      expect(sent).toEqual(['EVALSHA']);
      await raw.send('SCRIPT', ['FLUSH']);
      sent.length = 0;
      expect((await spied.hit(key, 60_000)).count).toBe(3);
      expect(sent).toEqual(['EVALSHA', 'EVAL']);
      sent.length = 0;
      expect((await spied.hit(key, 60_000)).count).toBe(4);
      expect(sent).toEqual(['EVALSHA']);
    });

    test('passes on errors other than NOSCRIPT without retrying', async () => {
      const raw = await client(kind);
      const key = freshKey();
      await raw.send('SET', [`charter:rl:${key}`, 'not a number']);
      const store = redisRateLimitStore({ client: raw });
      await expect(store.hit(key, 1000)).rejects.toThrow(/not an integer/);
    });
  });
}

describe('redisRateLimitStore options', () => {
  test('rejects a missing client, a bad prefix, timeout or scriptCacheKey, naming the option', () => {
    const fake: RedisLikeClient = { send: async () => null };
    expect(() => redisRateLimitStore({} as { client: RedisLikeClient })).toThrow(/"client"/);
    expect(() => redisRateLimitStore({ client: fake, prefix: 1 as unknown as string })).toThrow(/"prefix"/);
    expect(() => redisRateLimitStore({ client: fake, timeoutMs: -1 })).toThrow(/"timeoutMs"/);
    expect(() => redisRateLimitStore({ client: fake, scriptCacheKey: '' })).toThrow(/"scriptCacheKey"/);
    expect(redisRateLimitStore({ client: fake }).prefix).toBe('charter:rl:');
  });

  test('refuses a scriptCacheKey that already names another script on the same client', () => {
    const fake: RedisLikeClient = { send: async () => null };
    redisAutoBanStore({ client: fake });
    expect(() => redisRateLimitStore({ client: fake, scriptCacheKey: 'charter:ab:strike' })).toThrow(
      /scriptCacheKey "charter:ab:strike" already names another script/,
    );
    // The same script under the same name is shared, on this client; another client starts afresh.
    redisRateLimitStore({ client: fake, scriptCacheKey: 'mine' });
    expect(() => redisRateLimitStore({ client: fake, scriptCacheKey: 'mine' })).not.toThrow();
    const other: RedisLikeClient = { send: async () => null };
    expect(() => redisRateLimitStore({ client: other, scriptCacheKey: 'charter:ab:strike' })).not.toThrow();
  });
});
