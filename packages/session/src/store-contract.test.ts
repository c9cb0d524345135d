// One behaviour suite for the session store contract, run against every shipped store.
import { Database } from 'bun:sqlite';
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memorySessionStore } from './memory-store.ts';
import type { SessionRecord } from './record.ts';
import { sqliteSessionStore } from './sqlite-store.ts';
import type { SessionStore } from './store.ts';

const T0 = 1_700_000_000_000;
const dir = mkdtempSync(join(tmpdir(), 'charter-session-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Clock {
  now: () => number;
  at: number;
}

type Factory = (clock: Clock) => SessionStore & { close?: () => void };

let files = 0;
const stores: [string, Factory][] = [
  ['memorySessionStore', (clock) => memorySessionStore({ now: clock.now })],
  [
    'sqliteSessionStore({ database }) with bun:sqlite',
    (clock) => sqliteSessionStore({ database: new Database(':memory:'), now: clock.now }),
  ],
  [
    'sqliteSessionStore({ filename })',
    (clock) => sqliteSessionStore({ filename: join(dir, `s${files++}.db`), now: clock.now }),
  ],
];

function clock(): Clock {
  const c: Clock = { at: T0, now: () => c.at };
  return c;
}

function record(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return { data: { cart: [1, 2], name: 'Ada' }, createdAt: T0, expiresAt: T0 + 60_000, ...overrides };
}

for (const [name, make] of stores) {
  describe(`session store contract: ${name}`, () => {
    test('get of an unknown id gives nothing', async () => {
      const store = make(clock());
      expect((await store.get('nope')) ?? undefined).toBeUndefined();
      store.close?.();
    });

    test('set then get gives an equal record, as a copy', async () => {
      const store = make(clock());
      const written = record({ user: { sub: 'u1', scopes: ['a'], claims: { n: 1 } } });
      await store.set('id-1', written);
      const read = await store.get('id-1');
      expect(read).toEqual(written);
      expect(read).not.toBe(written);
      store.close?.();
    });

    test('set replaces an existing record', async () => {
      const store = make(clock());
      await store.set('id-1', record());
      await store.set('id-1', record({ data: { step: 2 } }));
      expect((await store.get('id-1'))?.data).toEqual({ step: 2 });
      store.close?.();
    });

    test('delete removes the record, and deleting an unknown id is not an error', async () => {
      const store = make(clock());
      await store.set('id-1', record());
      await store.delete('id-1');
      expect((await store.get('id-1')) ?? undefined).toBeUndefined();
      await store.delete('never-there');
      store.close?.();
    });

    test('a record is not returned once expiresAt has passed, and is returned just before', async () => {
      const c = clock();
      const store = make(c);
      await store.set('id-1', record({ expiresAt: T0 + 1000 }));
      c.at = T0 + 999;
      expect(await store.get('id-1')).toBeDefined();
      c.at = T0 + 1000;
      expect((await store.get('id-1')) ?? undefined).toBeUndefined();
      // Expired means gone: moving the clock back does not bring it back.
      c.at = T0;
      expect((await store.get('id-1')) ?? undefined).toBeUndefined();
      store.close?.();
    });

    test('touch moves the expiry without changing the data, and get reports the new expiry', async () => {
      const c = clock();
      const store = make(c);
      await store.set('id-1', record({ expiresAt: T0 + 1000 }));
      await store.touch?.('id-1', T0 + 5000);
      c.at = T0 + 2000;
      const read = await store.get('id-1');
      expect(read).toEqual(record({ expiresAt: T0 + 5000 }));
      await store.touch?.('unknown', T0 + 5000);
      expect((await store.get('unknown')) ?? undefined).toBeUndefined();
      store.close?.();
    });

    test('keeps records apart by id', async () => {
      const store = make(clock());
      await store.set('a', record({ data: { who: 'a' } }));
      await store.set('b', record({ data: { who: 'b' } }));
      expect((await store.get('a'))?.data).toEqual({ who: 'a' });
      expect((await store.get('b'))?.data).toEqual({ who: 'b' });
      store.close?.();
    });
  });
}
