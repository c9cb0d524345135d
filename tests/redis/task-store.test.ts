/**
 * redisTaskStore against a real redis-server, through both client adapters: the A2A task store
 * contract (owner scoping, ListTasks order and filters, per-owner eviction, expiry), the
 * compare-and-set, and two A2A handlers sharing the store as two instances would: a task continued
 * on the other instance, and two concurrent follow-ups serialised across instances.
 */
import { describe, expect, test } from 'bun:test';
import { type A2aTask, createA2aHandler } from '../../packages/a2a/src/index.ts';
import { redisTaskStore } from '../../packages/redis/src/index.ts';
import { CLIENT_KINDS, redisForThisFile } from './support/clients.ts';

const redis = redisForThisFile();

function task(id: string, timestamp: string, extra: Partial<A2aTask> = {}): A2aTask {
  return {
    id,
    contextId: 'ctx-1',
    status: { state: 'TASK_STATE_INPUT_REQUIRED', timestamp },
    history: [{ messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
    ...extra,
  };
}

const prefix = () => `t:${crypto.randomUUID()}:`;

for (const kind of CLIENT_KINDS) {
  describe(`redisTaskStore (${kind})`, () => {
    test('get answers the owner its task and nobody else', async () => {
      const store = redisTaskStore({ client: await redis.client(kind), prefix: prefix() });
      const t = task('t1', '2026-01-01T00:00:00.000Z', { metadata: { n: 1 } });
      await store.put('alice', t);
      expect(await store.get('alice', 't1')).toEqual(t);
      expect(await store.get('bob', 't1')).toBeUndefined();
      expect(await store.get('alice', 'nope')).toBeUndefined();
    });

    test("a task is never written over another owner's", async () => {
      const store = redisTaskStore({ client: await redis.client(kind), prefix: prefix() });
      await store.put('alice', task('t1', '2026-01-01T00:00:00.000Z'));
      await expect(store.put('bob', task('t1', '2026-01-01T00:00:01.000Z'))).rejects.toThrow(/another owner/);
      expect((await store.get('alice', 't1'))?.status.timestamp).toBe('2026-01-01T00:00:00.000Z');
    });

    test('list gives the owner its tasks newest first, filtered and paged, with the total', async () => {
      const store = redisTaskStore({ client: await redis.client(kind), prefix: prefix() });
      await store.put('alice', task('a', '2026-01-01T00:00:01.000Z'));
      await store.put('alice', task('b', '2026-01-01T00:00:03.000Z', { contextId: 'ctx-2' }));
      await store.put('alice', task('c', '2026-01-01T00:00:02.000Z'));
      await store.put('bob', task('d', '2026-01-01T00:00:09.000Z'));
      const all = await store.list('alice', { limit: 10 });
      expect(all.tasks.map((t) => t.id)).toEqual(['b', 'c', 'a']);
      expect(all.totalSize).toBe(3);
      const page = await store.list('alice', {
        limit: 1,
        after: { timestamp: '2026-01-01T00:00:03.000Z', id: 'b' },
      });
      expect(page.tasks.map((t) => t.id)).toEqual(['c']);
      expect(page.totalSize).toBe(3);
      expect((await store.list('alice', { limit: 10, contextId: 'ctx-2' })).tasks.map((t) => t.id)).toEqual([
        'b',
      ]);
      expect((await store.list('bob', { limit: 10 })).tasks.map((t) => t.id)).toEqual(['d']);
      // Filters read the fields kept beside the JSON; the page's tasks come back whole.
      await store.put(
        'alice',
        task('e', '2026-01-01T00:00:04.000Z', {
          status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:04.000Z' },
          artifacts: [{ artifactId: 'x', parts: [{ text: 'done' }] }],
        }),
      );
      const completed = await store.list('alice', { limit: 10, state: 'TASK_STATE_COMPLETED' });
      expect(completed.tasks).toEqual([
        task('e', '2026-01-01T00:00:04.000Z', {
          status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:04.000Z' },
          artifacts: [{ artifactId: 'x', parts: [{ text: 'done' }] }],
        }),
      ]);
      const recent = await store.list('alice', {
        limit: 10,
        statusTimestampAfterMs: Date.parse('2026-01-01T00:00:03.000Z'),
      });
      expect(recent.tasks.map((t) => t.id)).toEqual(['e', 'b']);
    });

    test("past maxTasksPerOwner the owner's least recently written task is evicted, not another owner's", async () => {
      const store = redisTaskStore({
        client: await redis.client(kind),
        prefix: prefix(),
        maxTasksPerOwner: 2,
      });
      await store.put('bob', task('b1', '2026-01-01T00:00:00.000Z'));
      await store.put('alice', task('a1', '2026-01-01T00:00:01.000Z'));
      await Bun.sleep(5);
      await store.put('alice', task('a2', '2026-01-01T00:00:02.000Z'));
      await Bun.sleep(5);
      await store.put('alice', task('a3', '2026-01-01T00:00:03.000Z'));
      expect(await store.get('alice', 'a1')).toBeUndefined();
      expect((await store.list('alice', { limit: 10 })).tasks.map((t) => t.id)).toEqual(['a3', 'a2']);
      expect(await store.get('bob', 'b1')).toBeDefined();
    });

    test('a task expires ttlMs after its last write, from get and from list', async () => {
      const client = await redis.client(kind);
      const p = prefix();
      const store = redisTaskStore({ client, prefix: p, ttlMs: 100 });
      await store.put('alice', task('t1', '2026-01-01T00:00:00.000Z'));
      const ttl = Number(await client.send('PTTL', [`${p}task:t1`]));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(100);
      await Bun.sleep(200);
      expect(await store.get('alice', 't1')).toBeUndefined();
      expect((await store.list('alice', { limit: 10 })).totalSize).toBe(0);
    });

    test('replaceIf writes only over the task as read', async () => {
      const store = redisTaskStore({ client: await redis.client(kind), prefix: prefix() });
      await store.put('alice', task('t1', '2026-01-01T00:00:00.000Z'));
      const read = (await store.get('alice', 't1')) as A2aTask;
      const working: A2aTask = {
        ...read,
        status: { state: 'TASK_STATE_WORKING', timestamp: '2026-01-01T00:00:01.000Z' },
      };
      expect(await store.replaceIf('bob', working, read)).toBe(false);
      expect(await store.replaceIf('alice', working, read)).toBe(true);
      // The same read again: someone wrote since, so the second writer loses.
      expect(await store.replaceIf('alice', { ...working, metadata: { late: true } }, read)).toBe(false);
      expect((await store.get('alice', 't1'))?.status.state).toBe('TASK_STATE_WORKING');
      expect(await store.replaceIf('alice', working, task('gone', 'x'))).toBe(false);
    });

    test('a task larger than maxTaskBytes is refused', async () => {
      const store = redisTaskStore({ client: await redis.client(kind), prefix: prefix(), maxTaskBytes: 200 });
      await expect(
        store.put('alice', task('big', '2026-01-01T00:00:00.000Z', { metadata: { pad: 'x'.repeat(300) } })),
      ).rejects.toThrow(RangeError);
    });
  });
}

describe('redisTaskStore options', () => {
  test('refuses bad options, naming them', async () => {
    const client = await redis.client('bun');
    expect(() => redisTaskStore({ client, ttlMs: 0 })).toThrow(/"ttlMs"/);
    expect(() => redisTaskStore({ client, maxTasksPerOwner: 1.5 })).toThrow(/"maxTasksPerOwner"/);
    expect(() => redisTaskStore({ client, maxTaskBytes: -1 })).toThrow(/"maxTaskBytes"/);
    expect(redisTaskStore({ client }).prefix).toBe('charter:a2a:');
  });
});

describe('A2A tasks on two instances sharing Redis', () => {
  const rpc = (id: number, method: string, params: unknown) =>
    new Request('http://agent.local/a2a', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
  const userMessage = (text: string, taskId?: string) => ({
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text }],
    ...(taskId === undefined ? {} : { taskId }),
  });

  async function agents() {
    const p = prefix();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const make = async (kind: (typeof CLIENT_KINDS)[number]) =>
      createA2aHandler({
        card: {
          name: 'pizza',
          description: 'orders',
          url: 'http://agent.local/a2a',
          version: '1',
          skills: [],
        },
        taskStore: redisTaskStore({ client: await redis.client(kind), prefix: p }),
        taskOwner: () => 'alice',
        onMessage: async (ctx) => {
          if (ctx.task === undefined) return { status: 'input-required', message: 'Which size?' };
          if (ctx.text === 'slow') await gate;
          return { status: 'completed', artifacts: [{ parts: `One ${ctx.text} pizza (${kind})` }] };
        },
      });
    return { a: await make('bun'), b: await make('node-redis'), release: () => release() };
  }

  test('a task created on A continues on B', async () => {
    const { a, b } = await agents();
    const created = (await (
      await a.handleRpc(rpc(1, 'SendMessage', { message: userMessage('pizza') }))
    ).json()) as any;
    const id = created.result.task.id as string;
    expect(created.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = (await (
      await b.handleRpc(rpc(2, 'SendMessage', { message: userMessage('large', id) }))
    ).json()) as any;
    expect(done.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.result.task.artifacts[0].parts[0].text).toBe('One large pizza (node-redis)');
    const got = (await (await a.handleRpc(rpc(3, 'GetTask', { id }))).json()) as any;
    expect(got.result.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.result.history).toHaveLength(3);
  });

  test('two follow-ups at once on A and B: one turn runs, the other gets -32004', async () => {
    const { a, b, release } = await agents();
    const created = (await (
      await a.handleRpc(rpc(1, 'SendMessage', { message: userMessage('pizza') }))
    ).json()) as any;
    const id = created.result.task.id as string;
    const onA = a
      .handleRpc(rpc(2, 'SendMessage', { message: userMessage('slow', id) }))
      .then((r) => r.json());
    const onB = b
      .handleRpc(rpc(3, 'SendMessage', { message: userMessage('slow', id) }))
      .then((r) => r.json());
    // The loser answers at once; the winner waits for the gate.
    const first = (await Promise.race([onA, onB])) as any;
    expect(first.error.code).toBe(-32004);
    expect(first.error.message).toContain('TASK_STATE_WORKING');
    release();
    const [ra, rb] = (await Promise.all([onA, onB])) as any[];
    const winners = [ra, rb].filter((r) => r.result !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0].result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = (await (await b.handleRpc(rpc(4, 'GetTask', { id }))).json()) as any;
    // The first message, the agent's question, one follow-up: the loser's message was never stored.
    expect(got.result.history).toHaveLength(3);
  });

  test('a cancel on B is not overwritten by the turn ending on A', async () => {
    const { a, b, release } = await agents();
    const created = (await (
      await a.handleRpc(rpc(1, 'SendMessage', { message: userMessage('pizza') }))
    ).json()) as any;
    const id = created.result.task.id as string;
    const running = a.handleRpc(rpc(2, 'SendMessage', { message: userMessage('slow', id) }));
    // Wait until A's turn is stored as WORKING.
    for (let i = 0; i < 100; i++) {
      const seen = (await (await b.handleRpc(rpc(3, 'GetTask', { id }))).json()) as any;
      if (seen.result.status.state === 'TASK_STATE_WORKING') break;
      await Bun.sleep(10);
    }
    const canceled = (await (await b.handleRpc(rpc(4, 'CancelTask', { id }))).json()) as any;
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
    release();
    const ended = (await (await running).json()) as any;
    expect(ended.result.task.status.state).toBe('TASK_STATE_CANCELED');
    const got = (await (await a.handleRpc(rpc(5, 'GetTask', { id }))).json()) as any;
    expect(got.result.status.state).toBe('TASK_STATE_CANCELED');
  });
});
