import { describe, expect, test } from 'bun:test';
import {
  memoryIdempotencyStore,
  resolveMemoryIdempotencyStoreOptions,
  type StoredResponse,
} from './idempotency-store.ts';

const response = (size = 3): StoredResponse => ({
  status: 201,
  headers: [['content-type', 'application/json']],
  body: new Uint8Array(size),
});

function clock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('memoryIdempotencyStore', () => {
  test('claims a fresh key, then reports it in flight to the next claim', async () => {
    const store = memoryIdempotencyStore();
    expect(await store.begin('k', 'fp', 1000)).toBeUndefined();
    expect(await store.begin('k', 'fp', 1000)).toMatchObject({ state: 'in-flight', fingerprint: 'fp' });
    expect(await store.begin('k', 'other', 1000)).toMatchObject({ state: 'in-flight', fingerprint: 'fp' });
  });

  test('keeps a completed response until its TTL, then forgets it', async () => {
    const time = clock();
    const store = memoryIdempotencyStore({ now: time.now });
    await store.begin('k', 'fp', 1000);
    await store.complete('k', 'fp', response(), 5000);
    expect(await store.get('k')).toEqual({
      state: 'completed',
      fingerprint: 'fp',
      expiresAt: 6000,
      response: response(),
    });
    time.advance(4999);
    expect(await store.begin('k', 'fp', 1000)).toMatchObject({ state: 'completed' });
    time.advance(1);
    expect(await store.get('k')).toBeUndefined();
    expect(await store.begin('k', 'fp', 1000)).toBeUndefined();
  });

  test('lets an in-flight claim lapse after its lock TTL', async () => {
    const time = clock();
    const store = memoryIdempotencyStore({ now: time.now });
    await store.begin('k', 'fp', 100);
    time.advance(100);
    expect(await store.begin('k', 'fp', 100)).toBeUndefined();
  });

  test('caps any TTL at the store ttlMs', async () => {
    const time = clock();
    const store = memoryIdempotencyStore({ now: time.now, ttlMs: 1000 });
    await store.begin('k', 'fp', 100);
    await store.complete('k', 'fp', response(), 60_000);
    time.advance(1000);
    expect(await store.get('k')).toBeUndefined();
  });

  test('release drops only an in-flight claim with the same fingerprint', async () => {
    const store = memoryIdempotencyStore();
    await store.begin('k', 'fp', 1000);
    await store.release('k', 'other');
    expect(await store.get('k')).toMatchObject({ state: 'in-flight' });
    await store.release('k', 'fp');
    expect(await store.get('k')).toBeUndefined();
    await store.begin('done', 'fp', 1000);
    await store.complete('done', 'fp', response(), 1000);
    await store.release('done', 'fp');
    expect(await store.get('done')).toMatchObject({ state: 'completed' });
  });

  test('evicts the oldest record past maxEntries', async () => {
    const store = memoryIdempotencyStore({ maxEntries: 2 });
    await store.begin('a', 'fp', 1000);
    await store.begin('b', 'fp', 1000);
    await store.begin('c', 'fp', 1000);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBeDefined();
    expect(await store.get('c')).toBeDefined();
  });

  test('evicts the oldest responses past maxBytes, and keeps none bigger than the store', async () => {
    const store = memoryIdempotencyStore({ maxBytes: 10 });
    for (const key of ['a', 'b', 'c']) {
      await store.begin(key, 'fp', 1000);
      await store.complete(key, 'fp', response(4), 1000);
    }
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBeDefined();
    expect(await store.get('c')).toBeDefined();
    await store.begin('huge', 'fp', 1000);
    await store.complete('huge', 'fp', response(11), 1000);
    expect(await store.get('huge')).toBeUndefined();
    expect(await store.get('c')).toBeDefined();
  });

  test('refuses bad options, naming the option', () => {
    expect(resolveMemoryIdempotencyStoreOptions()).toMatchObject({
      maxEntries: 10_000,
      maxBytes: 64 * 1024 * 1024,
      ttlMs: 86_400_000,
    });
    expect(() => resolveMemoryIdempotencyStoreOptions({ maxEntries: 0 })).toThrow(/maxEntries/);
    expect(() => resolveMemoryIdempotencyStoreOptions({ maxBytes: -1 })).toThrow(RangeError);
    expect(() => resolveMemoryIdempotencyStoreOptions({ ttlMs: 1.5 })).toThrow(/ttlMs/);
    expect(() => resolveMemoryIdempotencyStoreOptions({ now: 5 as never })).toThrow(/now/);
  });
});
