import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { memoryAutoBanStore, resolveMemoryAutoBanStoreOptions } from './auto-ban-store.ts';

const policy = { windowMs: 1000, maxStrikes: 3, banMs: 5000 };

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('memoryAutoBanStore', () => {
  test('counts strikes and bans at maxStrikes, reporting the ban once', () => {
    const c = clock();
    const store = memoryAutoBanStore({ now: c.now });
    expect(store.strike('a', policy)).toEqual({ strikes: 1, bannedUntil: undefined, banned: false });
    expect(store.strike('a', policy)).toEqual({ strikes: 2, bannedUntil: undefined, banned: false });
    expect(store.bannedUntil('a')).toBeUndefined();
    expect(store.strike('a', policy)).toEqual({ strikes: 3, bannedUntil: c.now() + 5000, banned: true });
    expect(store.bannedUntil('a')).toBe(c.now() + 5000);
    // A strike while banned neither counts nor extends the ban.
    c.advance(1000);
    expect(store.strike('a', policy)).toEqual({ strikes: 3, bannedUntil: c.now() + 4000, banned: false });
    expect(store.bannedUntil('b')).toBeUndefined();
  });

  test('forgets strikes when the window ends', () => {
    const c = clock();
    const store = memoryAutoBanStore({ now: c.now });
    store.strike('a', policy);
    store.strike('a', policy);
    c.advance(1000);
    expect(store.strike('a', policy).strikes).toBe(1);
    expect(store.bannedUntil('a')).toBeUndefined();
  });

  test('lifts a ban when banMs has passed, and on reset', () => {
    const c = clock();
    const store = memoryAutoBanStore({ now: c.now });
    for (let i = 0; i < 3; i++) store.strike('a', policy);
    c.advance(4999);
    expect(store.bannedUntil('a')).toBe(c.now() + 1);
    c.advance(1);
    expect(store.bannedUntil('a')).toBeUndefined();
    expect(store.size).toBe(0);
    for (let i = 0; i < 3; i++) store.strike('b', policy);
    store.reset('b');
    expect(store.bannedUntil('b')).toBeUndefined();
    expect(store.strike('b', policy).strikes).toBe(1);
  });

  test('stays within maxKeys, forgiving strikes before bans', () => {
    const c = clock();
    const store = memoryAutoBanStore({ maxKeys: 3, now: c.now });
    for (let i = 0; i < 3; i++) store.strike('banned', policy);
    store.strike('x', policy);
    store.strike('y', policy);
    store.strike('z', policy);
    expect(store.size).toBe(3);
    expect(store.bannedUntil('banned')).toBe(c.now() + 5000);
    expect(store.strike('z', policy).strikes).toBe(2);
    expect(store.strike('x', policy).strikes).toBe(1);
  });

  test('holds at most maxKeys entries whatever the sequence of strikes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.nat(300)), { maxLength: 200 }),
        (ops) => {
          const c = clock();
          const store = memoryAutoBanStore({ maxKeys: 5, now: c.now });
          for (const [key, wait] of ops) {
            c.advance(wait);
            const before = store.bannedUntil(`k${key}`);
            const result = store.strike(`k${key}`, policy);
            if (before !== undefined) expect(result.banned).toBe(false);
            expect(result.strikes).toBeLessThanOrEqual(policy.maxStrikes);
            expect(store.size).toBeLessThanOrEqual(5);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('rejects invalid options, naming them', () => {
    expect(() => resolveMemoryAutoBanStoreOptions({ maxKeys: 0 })).toThrow(/"maxKeys"/);
    expect(() => resolveMemoryAutoBanStoreOptions({ maxKeys: 1.5 })).toThrow(RangeError);
    expect(() => resolveMemoryAutoBanStoreOptions({ now: 5 as unknown as () => number })).toThrow(/"now"/);
    expect(resolveMemoryAutoBanStoreOptions().maxKeys).toBe(10_000);
  });
});
