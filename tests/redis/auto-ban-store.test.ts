import { describe, expect, test } from 'bun:test';
import { redisAutoBanStore, type RedisLikeClient } from '../../packages/redis/src/index.ts';
import { CLIENT_KINDS, type ClientKind, redisForThisFile } from './support/clients.ts';

const redis = redisForThisFile();
const client = (kind: ClientKind): Promise<RedisLikeClient> => redis.client(kind);

const freshKey = () => `198.51.100.${Math.floor(Math.random() * 250)}-${crypto.randomUUID()}`;
const policy = { windowMs: 60_000, maxStrikes: 3, banMs: 120_000 };

for (const kind of CLIENT_KINDS) {
  describe(`redisAutoBanStore (${kind})`, () => {
    test('counts strikes, bans at maxStrikes once, and reports the ban', async () => {
      const store = redisAutoBanStore({ client: await client(kind) });
      const key = freshKey();
      expect(await store.strike(key, policy)).toEqual({ strikes: 1, bannedUntil: undefined, banned: false });
      expect(await store.strike(key, policy)).toEqual({ strikes: 2, bannedUntil: undefined, banned: false });
      expect(await store.bannedUntil(key)).toBeUndefined();
      const before = Date.now();
      const third = await store.strike(key, policy);
      expect(third.strikes).toBe(3);
      expect(third.banned).toBe(true);
      expect(third.bannedUntil).toBeGreaterThanOrEqual(before + 119_000);
      const until = await store.bannedUntil(key);
      expect(until).toBeGreaterThan(Date.now() + 119_000);
      // Strikes while banned neither count nor start another ban.
      const fourth = await store.strike(key, policy);
      expect(fourth.strikes).toBe(3);
      expect(fourth.banned).toBe(false);
      expect(fourth.bannedUntil).toBeGreaterThan(Date.now() + 119_000);
    });

    test('forgets strikes with the window and lifts bans after banMs', async () => {
      const store = redisAutoBanStore({ client: await client(kind) });
      const key = freshKey();
      const short = { windowMs: 60, maxStrikes: 2, banMs: 80 };
      await store.strike(key, short);
      await Bun.sleep(100);
      expect((await store.strike(key, short)).strikes).toBe(1);
      expect((await store.strike(key, short)).banned).toBe(true);
      expect(await store.bannedUntil(key)).toBeNumber();
      await Bun.sleep(120);
      expect(await store.bannedUntil(key)).toBeUndefined();
      expect((await store.strike(key, short)).strikes).toBe(1);
    });

    test('keeps a client in one hash under charter:ab: that expires with the window, then the ban', async () => {
      const raw = await client(kind);
      const store = redisAutoBanStore({ client: raw });
      const key = freshKey();
      await store.strike(key, policy);
      const hash = `charter:ab:${key}`;
      expect(Number(await raw.send('HGET', [hash, 's']))).toBe(1);
      const windowTtl = Number(await raw.send('PTTL', [hash]));
      expect(windowTtl).toBeGreaterThan(59_000);
      expect(windowTtl).toBeLessThanOrEqual(60_000);
      await store.strike(key, policy);
      await store.strike(key, policy);
      expect(Number(await raw.send('HEXISTS', [hash, 'b']))).toBe(1);
      expect(Number(await raw.send('PTTL', [hash]))).toBeGreaterThan(119_000);
      const custom = redisAutoBanStore({ client: raw, prefix: 'shop:ab:' });
      await custom.strike(key, policy);
      expect(Number(await raw.send('HGET', [`shop:ab:${key}`, 's']))).toBe(1);
      expect(await custom.bannedUntil(key)).toBeUndefined();
    });

    test('reset lifts a ban', async () => {
      const store = redisAutoBanStore({ client: await client(kind) });
      const key = freshKey();
      for (let i = 0; i < 3; i++) await store.strike(key, policy);
      expect(await store.bannedUntil(key)).toBeNumber();
      await store.reset(key);
      expect(await store.bannedUntil(key)).toBeUndefined();
    });

    test('starts exactly one ban under 200 concurrent strikes from two clients', async () => {
      const a = redisAutoBanStore({ client: await client(kind) });
      const b = redisAutoBanStore({ client: await client(kind) });
      const key = freshKey();
      const many = { windowMs: 60_000, maxStrikes: 50, banMs: 60_000 };
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).strike(key, many)),
      );
      expect(results.filter((r) => r.banned)).toHaveLength(1);
      const counted = results.filter((r) => r.bannedUntil === undefined).map((r) => r.strikes);
      expect(counted.sort((x, y) => x - y)).toEqual(Array.from({ length: 49 }, (_, i) => i + 1));
      expect(results.filter((r) => r.bannedUntil !== undefined && !r.banned)).toHaveLength(150);
    });

    test('falls back to EVAL after SCRIPT FLUSH', async () => {
      const raw = await client(kind);
      const sent: string[] = [];
      const spy: RedisLikeClient = {
        send: (command, args) => {
          sent.push(command);
          return raw.send(command, args);
        },
      };
      const store = redisAutoBanStore({ client: spy });
      const key = freshKey();
      await store.strike(key, policy);
      await raw.send('SCRIPT', ['FLUSH']);
      sent.length = 0;
      expect((await store.strike(key, policy)).strikes).toBe(2);
      expect(sent).toEqual(['EVALSHA', 'EVAL']);
      sent.length = 0;
      expect(await store.bannedUntil(key)).toBeUndefined();
      expect(sent).toEqual(['EVALSHA', 'EVAL']);
      sent.length = 0;
      expect((await store.strike(key, policy)).banned).toBe(true);
      expect(sent).toEqual(['EVALSHA']);
    });
  });
}

describe('redisAutoBanStore options', () => {
  test('rejects a missing client and a bad prefix, naming the option', () => {
    const fake: RedisLikeClient = { send: async () => null };
    expect(() => redisAutoBanStore({} as { client: RedisLikeClient })).toThrow(/"client"/);
    expect(() => redisAutoBanStore({ client: fake, prefix: 5 as unknown as string })).toThrow(/"prefix"/);
    expect(redisAutoBanStore({ client: fake }).prefix).toBe('charter:ab:');
  });
});
