import { describe, expect, test } from 'bun:test';
import {
  memoryRateLimitStore,
  RATE_LIMIT_KEY_PREFIX,
  resolveMemoryRateLimitStoreOptions,
} from './rate-limit-store.ts';

/** A clock the test moves by hand. */
function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('memoryRateLimitStore', () => {
  test('counts hits of a key within one window and reports when it ends', () => {
    const time = clock();
    const store = memoryRateLimitStore({ now: time.now });
    expect(store.hit('a', 1000)).toEqual({ count: 1, resetAt: 1_001_000 });
    time.advance(400);
    expect(store.hit('a', 1000)).toEqual({ count: 2, resetAt: 1_001_000 });
    expect(store.hit('b', 1000)).toEqual({ count: 1, resetAt: 1_001_400 });
  });

  test('starts a new window once the old one has ended', () => {
    const time = clock();
    const store = memoryRateLimitStore({ now: time.now });
    store.hit('a', 1000);
    store.hit('a', 1000);
    time.advance(999);
    expect(store.hit('a', 1000).count).toBe(3);
    time.advance(1);
    expect(store.hit('a', 1000)).toEqual({ count: 1, resetAt: 1_002_000 });
  });

  test('forgets a key on reset', () => {
    const store = memoryRateLimitStore();
    store.hit('a', 60_000);
    store.hit('a', 60_000);
    store.reset('a');
    expect(store.hit('a', 60_000).count).toBe(1);
  });

  test('sweeps expired windows as time passes, with no timer', () => {
    const time = clock();
    const store = memoryRateLimitStore({ now: time.now });
    for (let i = 0; i < 50; i++) store.hit(`k${i}`, 1000);
    expect(store.size).toBe(50);
    time.advance(1000);
    store.hit('fresh', 1000);
    expect(store.size).toBe(1);
  });

  test('holds at most maxKeys, dropping expired windows first and then the oldest', () => {
    const time = clock();
    const store = memoryRateLimitStore({ maxKeys: 3, now: time.now });
    store.hit('short', 100);
    store.hit('a', 10_000);
    store.hit('b', 10_000);
    time.advance(100);
    // `short` has expired: it goes, and the others stay.
    store.hit('c', 10_000);
    expect(store.size).toBe(3);
    expect(store.hit('a', 10_000).count).toBe(2);
    // Full of live windows: the window started first (`a`, however often it was hit since) is dropped.
    store.hit('d', 10_000);
    expect(store.size).toBe(3);
    expect(store.hit('b', 10_000).count).toBe(2);
    expect(store.hit('a', 10_000).count).toBe(1);
    expect(store.size).toBe(3);
  });

  test('keeps memory bounded under a flood of distinct keys', () => {
    const store = memoryRateLimitStore({ maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) store.hit(`flood-${i}`, 60_000);
    expect(store.size).toBe(100);
  });

  test('documents the key prefix for networked stores', () => {
    expect(RATE_LIMIT_KEY_PREFIX).toBe('charter:rl:');
  });
});

describe('resolveMemoryRateLimitStoreOptions', () => {
  test('fills defaults', () => {
    const resolved = resolveMemoryRateLimitStoreOptions();
    expect(resolved.maxKeys).toBe(10_000);
    expect(resolved.now).toBe(Date.now);
  });

  test('refuses bad options, naming them', () => {
    expect(() => resolveMemoryRateLimitStoreOptions({ maxKeys: 0 })).toThrow(/"maxKeys"/);
    expect(() => resolveMemoryRateLimitStoreOptions({ maxKeys: 2.5 })).toThrow(RangeError);
    expect(() => resolveMemoryRateLimitStoreOptions({ now: 5 as never })).toThrow(/"now"/);
    expect(() => resolveMemoryRateLimitStoreOptions(null as never)).toThrow(TypeError);
  });
});
