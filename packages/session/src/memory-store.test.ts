import { describe, expect, test } from 'bun:test';
import { memorySessionStore } from './memory-store.ts';
import type { SessionRecord } from './record.ts';

const T0 = 1_700_000_000_000;

function record(expiresAt: number, data: Record<string, unknown> = {}): SessionRecord {
  return { data, createdAt: T0, expiresAt };
}

describe('memorySessionStore', () => {
  test('stays within maxEntries by dropping the least recently used session', () => {
    const store = memorySessionStore({ maxEntries: 3, now: () => T0 });
    store.set('a', record(T0 + 10_000));
    store.set('b', record(T0 + 10_000));
    store.set('c', record(T0 + 10_000));
    // Reading "a" makes "b" the least recently used.
    expect(store.get('a')).toBeDefined();
    store.set('d', record(T0 + 10_000));
    expect(store.size).toBe(3);
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toBeDefined();
    expect(store.get('c')).toBeDefined();
    expect(store.get('d')).toBeDefined();
  });

  test('replacing an existing id never evicts another session', () => {
    const store = memorySessionStore({ maxEntries: 2, now: () => T0 });
    store.set('a', record(T0 + 10_000));
    store.set('b', record(T0 + 10_000));
    store.set('a', record(T0 + 20_000, { v: 2 }));
    expect(store.size).toBe(2);
    expect(store.get('b')).toBeDefined();
  });

  test('sweeps expired sessions on a write once the sweep interval has passed', () => {
    let at = T0;
    const store = memorySessionStore({ now: () => at, sweepIntervalSeconds: 60 });
    store.set('short', record(T0 + 1_000));
    store.set('long', record(T0 + 600_000));
    at = T0 + 30_000;
    store.set('other', record(T0 + 600_000));
    expect(store.size).toBe(3);
    at = T0 + 61_000;
    store.set('another', record(T0 + 600_000));
    expect(store.size).toBe(3);
    expect(store.sweep()).toBe(0);
  });

  test('sweep() drops every expired session and counts them', () => {
    let at = T0;
    const store = memorySessionStore({ now: () => at });
    store.set('a', record(T0 + 1_000));
    store.set('b', record(T0 + 2_000));
    store.set('c', record(T0 + 9_000));
    at = T0 + 2_000;
    expect(store.sweep()).toBe(2);
    expect(store.size).toBe(1);
  });

  test('hands out copies: changing a read record changes nothing stored', () => {
    const store = memorySessionStore({ now: () => T0 });
    const written = record(T0 + 1_000, { list: [1] });
    store.set('a', written);
    (written.data.list as number[]).push(2);
    const read = store.get('a') as SessionRecord;
    expect(read.data).toEqual({ list: [1] });
    (read.data.list as number[]).push(3);
    expect(store.get('a')?.data).toEqual({ list: [1] });
  });

  test('refuses a bad option with an error naming it', () => {
    expect(() => memorySessionStore({ maxEntries: 0 })).toThrow('"maxEntries" must be an integer >= 1');
    expect(() => memorySessionStore({ maxEntries: 1.5 })).toThrow(RangeError);
    expect(() => memorySessionStore({ now: 5 as never })).toThrow('"now" must be a function');
    expect(() => memorySessionStore({ sweepIntervalSeconds: -1 })).toThrow('"sweepIntervalSeconds"');
  });
});
