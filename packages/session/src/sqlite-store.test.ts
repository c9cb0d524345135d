import { Database } from 'bun:sqlite';
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRecord } from './record.ts';
import { type SqliteDatabase, sqliteSessionStore } from './sqlite-store.ts';

const T0 = 1_700_000_000_000;
const dir = mkdtempSync(join(tmpdir(), 'charter-session-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function record(expiresAt: number, data: Record<string, unknown> = { n: 1 }): SessionRecord {
  return { data, createdAt: T0, expiresAt };
}

function count(db: Database, table = 'charter_sessions'): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

describe('sqliteSessionStore', () => {
  test('a file store keeps its sessions across a close and a reopen', async () => {
    const filename = join(dir, 'reopen.db');
    const first = sqliteSessionStore({ filename, now: () => T0 });
    await first.set('id-1', record(T0 + 60_000, { cart: ['book'] }));
    first.close();
    expect(existsSync(filename)).toBe(true);
    const second = sqliteSessionStore({ filename, now: () => T0 });
    expect(await second.get('id-1')).toEqual(record(T0 + 60_000, { cart: ['book'] }));
    second.close();
  });

  test('a file store runs in WAL mode', async () => {
    const filename = join(dir, 'wal.db');
    const store = sqliteSessionStore({ filename, now: () => T0 });
    await store.set('a', record(T0 + 1));
    store.close();
    const db = new Database(filename);
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();
  });

  test('creates its table and index in a given database, under a custom name', async () => {
    const db = new Database(':memory:');
    const store = sqliteSessionStore({ database: db, table: 'app_sessions', now: () => T0 });
    await store.set('a', record(T0 + 1000));
    expect(count(db, 'app_sessions')).toBe(1);
    const index = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'app_sessions'")
      .all();
    expect(index).toContainEqual({ name: 'app_sessions_expires_at' });
    // Closing a store over a given database leaves the database open.
    store.close();
    expect(count(db, 'app_sessions')).toBe(1);
  });

  test('binds ids as parameters: an id full of SQL is just an id', async () => {
    const db = new Database(':memory:');
    const store = sqliteSessionStore({ database: db, now: () => T0 });
    await store.set('a', record(T0 + 1000));
    const hostile = "x' OR '1'='1";
    expect(await store.get(hostile)).toBeUndefined();
    await store.delete(hostile);
    expect(count(db)).toBe(1);
    await store.set(hostile, record(T0 + 1000, { h: true }));
    expect((await store.get(hostile))?.data).toEqual({ h: true });
  });

  test('deletes expired rows on a write once the sweep interval has passed', async () => {
    let at = T0;
    const db = new Database(':memory:');
    const store = sqliteSessionStore({ database: db, now: () => at, sweepIntervalSeconds: 60 });
    await store.set('short', record(T0 + 1000));
    await store.set('long', record(T0 + 600_000));
    at = T0 + 30_000;
    await store.set('other', record(T0 + 600_000));
    expect(count(db)).toBe(3);
    at = T0 + 61_000;
    await store.set('another', record(T0 + 600_000));
    expect(count(db)).toBe(3);
    expect(db.prepare("SELECT id FROM charter_sessions WHERE id = 'short'").get()).toBeNull();
  });

  test('sweep() deletes every expired row and counts them', async () => {
    let at = T0;
    const db = new Database(':memory:');
    const store = sqliteSessionStore({ database: db, now: () => at });
    await store.set('a', record(T0 + 1000));
    await store.set('b', record(T0 + 5000));
    at = T0 + 1000;
    expect(await store.sweep()).toBe(1);
    expect(count(db)).toBe(1);
  });

  test('an expired row found by get is deleted', async () => {
    let at = T0;
    const db = new Database(':memory:');
    const store = sqliteSessionStore({ database: db, now: () => at });
    await store.set('a', record(T0 + 1000));
    at = T0 + 1000;
    expect(await store.get('a')).toBeUndefined();
    expect(count(db)).toBe(0);
  });

  test('a row that is not valid JSON fails with a plain Error, not a 400', async () => {
    const db = new Database(':memory:');
    const store = sqliteSessionStore({ database: db, now: () => T0 });
    await store.set('a', record(T0 + 1000));
    db.prepare("UPDATE charter_sessions SET record = '{not json' WHERE id = 'a'").run();
    const failure = await store.get('a').catch((error: unknown) => error);
    expect((failure as Error).constructor).toBe(Error);
    expect((failure as Error).message).toContain('not valid JSON');
    db.prepare(`UPDATE charter_sessions SET record = '{"__proto__":{"admin":true}}' WHERE id = 'a'`).run();
    expect(((await store.get('a').catch((error: unknown) => error)) as Error).constructor).toBe(Error);
  });

  test('works with any database shaped like prepare(sql).run/get (structural typing)', async () => {
    const seen: string[] = [];
    const bun = new Database(':memory:');
    const wrapped: SqliteDatabase = {
      prepare(sql) {
        seen.push(sql);
        const statement = bun.prepare(sql);
        return {
          run: (...params) => statement.run(...params),
          // node:sqlite answers undefined where bun:sqlite answers null.
          get: (...params) => statement.get(...params) ?? undefined,
        };
      },
    };
    const store = sqliteSessionStore({ database: wrapped, now: () => T0 });
    expect(await store.get('none')).toBeUndefined();
    await store.set('a', record(T0 + 1000));
    expect(await store.get('a')).toEqual(record(T0 + 1000));
    expect(seen.every((sql) => !sql.includes("'a'"))).toBe(true);
  });

  test('a closed store refuses further work', async () => {
    const store = sqliteSessionStore({ filename: ':memory:', now: () => T0 });
    await store.set('a', record(T0 + 1000));
    store.close();
    await expect(store.get('a')).rejects.toThrow('the store is closed');
  });

  test('refuses bad options with an error naming them', () => {
    const db = new Database(':memory:');
    expect(() => sqliteSessionStore({} as never)).toThrow(
      'exactly one of the options "database" and "filename"',
    );
    expect(() => sqliteSessionStore({ database: db, filename: 'x.db' })).toThrow('exactly one');
    expect(() => sqliteSessionStore({ database: {} as never })).toThrow('option "database" must be');
    expect(() => sqliteSessionStore({ filename: '' })).toThrow('option "filename"');
    for (const table of ['', '1abc', 'a b', 'sessions;drop table x', 'a"b', 'x'.repeat(65)]) {
      expect(() => sqliteSessionStore({ database: db, table })).toThrow('option "table"');
    }
    expect(() => sqliteSessionStore({ database: db, sweepIntervalSeconds: Number.NaN })).toThrow(
      '"sweepIntervalSeconds"',
    );
  });
});
