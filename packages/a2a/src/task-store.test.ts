import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { compareTasks, cursorOf, memoryTaskStore } from './task-store.ts';
import type { A2aTask } from './types.ts';

function task(id: string, timestamp: string, extra: Partial<A2aTask> = {}): A2aTask {
  return { id, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED', timestamp }, ...extra };
}

describe('memoryTaskStore', () => {
  test('scopes tasks to their owner', async () => {
    const store = memoryTaskStore();
    await store.put('alice', task('t1', '2026-01-01T00:00:00.000Z'));
    expect((await store.get('alice', 't1'))?.id).toBe('t1');
    expect(await store.get('bob', 't1')).toBeUndefined();
    expect((await store.list('bob', { limit: 10 })).totalSize).toBe(0);
  });

  test('returns copies, so mutating a result does not change the store', async () => {
    const store = memoryTaskStore();
    const original = task('t1', '2026-01-01T00:00:00.000Z');
    await store.put('a', original);
    original.status.state = 'TASK_STATE_FAILED';
    const got = (await store.get('a', 't1')) as A2aTask;
    expect(got.status.state).toBe('TASK_STATE_COMPLETED');
    got.status.state = 'TASK_STATE_FAILED';
    expect((await store.get('a', 't1'))?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  test('at maxTasks, a new task evicts the one written least recently', async () => {
    const store = memoryTaskStore({ maxTasks: 2 });
    await store.put('a', task('t1', '2026-01-01T00:00:01.000Z'));
    await store.put('a', task('t2', '2026-01-01T00:00:02.000Z'));
    await store.put('a', task('t1', '2026-01-01T00:00:03.000Z')); // rewrite: t2 is now the oldest write
    await store.put('a', task('t3', '2026-01-01T00:00:04.000Z'));
    expect(await store.get('a', 't2')).toBeUndefined();
    expect((await store.get('a', 't1'))?.id).toBe('t1');
    expect((await store.get('a', 't3'))?.id).toBe('t3');
  });

  test('at maxBytes, writing evicts the least recently written tasks until the new one fits', async () => {
    const size = (t: A2aTask) => new TextEncoder().encode(JSON.stringify(t)).byteLength;
    const t1 = task('t1', '2026-01-01T00:00:01.000Z', { metadata: { pad: 'x'.repeat(100) } });
    const t2 = task('t2', '2026-01-01T00:00:02.000Z', { metadata: { pad: 'é'.repeat(50) } });
    const t3 = task('t3', '2026-01-01T00:00:03.000Z');
    const store = memoryTaskStore({ maxBytes: size(t1) + size(t2) });
    await store.put('a', t1);
    await store.put('a', t2);
    expect((await store.list('a', { limit: 10 })).totalSize).toBe(2);
    await store.put('a', t3);
    expect(await store.get('a', 't1')).toBeUndefined();
    expect((await store.get('a', 't2'))?.id).toBe('t2');
    expect((await store.get('a', 't3'))?.id).toBe('t3');
  });

  test('a rewrite counts only the new size, and a task over maxBytes is refused', async () => {
    const small = task('t1', '2026-01-01T00:00:01.000Z');
    const limit = new TextEncoder().encode(JSON.stringify(small)).byteLength;
    const store = memoryTaskStore({ maxBytes: limit });
    await store.put('a', small);
    await store.put('a', small); // the same id again: replaces, does not double count
    expect((await store.get('a', 't1'))?.id).toBe('t1');
    const big = task('t2', '2026-01-01T00:00:02.000Z', { metadata: { pad: 'x' } });
    await expect(store.put('a', big)).rejects.toThrow(/over maxBytes/);
    expect((await store.get('a', 't1'))?.id).toBe('t1');
  });

  test('a task not written for ttlMs expires and reads as missing', async () => {
    let now = 1_000;
    const store = memoryTaskStore({ ttlMs: 100, now: () => now });
    await store.put('a', task('t1', '2026-01-01T00:00:00.000Z'));
    now = 1_099;
    expect((await store.get('a', 't1'))?.id).toBe('t1');
    now = 1_100;
    expect(await store.get('a', 't1')).toBeUndefined();
    expect((await store.list('a', { limit: 10 })).totalSize).toBe(0);
  });

  test('lists newest first with filters and an exclusive cursor', async () => {
    const store = memoryTaskStore();
    await store.put('a', task('t1', '2026-01-01T00:00:01.000Z'));
    await store.put('a', task('t2', '2026-01-01T00:00:02.000Z', { contextId: 'other' }));
    await store.put(
      'a',
      task('t3', '2026-01-01T00:00:03.000Z', {
        status: { state: 'TASK_STATE_FAILED', timestamp: '2026-01-01T00:00:03.000Z' },
      }),
    );
    expect((await store.list('a', { limit: 10 })).tasks.map((t) => t.id)).toEqual(['t3', 't2', 't1']);
    expect((await store.list('a', { limit: 10, contextId: 'other' })).tasks.map((t) => t.id)).toEqual(['t2']);
    expect((await store.list('a', { limit: 10, state: 'TASK_STATE_FAILED' })).tasks.map((t) => t.id)).toEqual(
      ['t3'],
    );
    const after = Date.parse('2026-01-01T00:00:02.000Z');
    expect(
      (await store.list('a', { limit: 10, statusTimestampAfterMs: after })).tasks.map((t) => t.id),
    ).toEqual(['t3', 't2']);
    const page = await store.list('a', {
      limit: 1,
      after: { timestamp: '2026-01-01T00:00:03.000Z', id: 't3' },
    });
    expect(page.tasks.map((t) => t.id)).toEqual(['t2']);
    expect(page.totalSize).toBe(3);
  });

  test('refuses bad options', () => {
    expect(() => memoryTaskStore({ maxTasks: 0 })).toThrow(/maxTasks/);
    expect(() => memoryTaskStore({ ttlMs: 1.5 })).toThrow(/ttlMs/);
    expect(() => memoryTaskStore({ maxBytes: 0 })).toThrow(/maxBytes/);
    expect(() => memoryTaskStore({ now: 5 as never })).toThrow(/now/);
  });

  test('paging with the cursor visits every task exactly once, in order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 9 })), { maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        async (specs, limit) => {
          const store = memoryTaskStore();
          const ids = new Set<string>();
          for (const [second, n] of specs) {
            const id = `t${n}-${second}`;
            ids.add(id);
            await store.put('a', task(id, `2026-01-01T00:00:0${second}.000Z`));
          }
          const seen: A2aTask[] = [];
          let after: ReturnType<typeof cursorOf> | undefined;
          for (let guard = 0; guard < 100; guard++) {
            const page = await store.list('a', { limit, after });
            seen.push(...page.tasks);
            if (page.tasks.length < limit) break;
            after = cursorOf(page.tasks.at(-1) as A2aTask);
          }
          expect(seen.map((t) => t.id).sort()).toEqual([...ids].sort());
          for (let i = 1; i < seen.length; i++) {
            expect(compareTasks(cursorOf(seen[i - 1] as A2aTask), cursorOf(seen[i] as A2aTask))).toBeLessThan(
              0,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
