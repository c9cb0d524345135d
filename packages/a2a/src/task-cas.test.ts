// The optional compare-and-set of A2aTaskStore, and the handler's use of it: two handlers sharing one
// store stand for two instances (each has its own in-process claims).
import { describe, expect, test } from 'bun:test';
import { createA2aHandler } from './handler.ts';
import { memoryTaskStore } from './task-store.ts';
import type { A2aTask } from './types.ts';

function task(id: string, timestamp: string): A2aTask {
  return { id, contextId: 'c', status: { state: 'TASK_STATE_INPUT_REQUIRED', timestamp } };
}

describe('memoryTaskStore.replaceIf', () => {
  test('writes only over the task as read, of the same owner', async () => {
    const store = memoryTaskStore();
    await store.put('alice', task('t1', '2026-01-01T00:00:00.000Z'));
    const read = (await store.get('alice', 't1')) as A2aTask;
    const next: A2aTask = {
      ...read,
      status: { state: 'TASK_STATE_WORKING', timestamp: '2026-01-01T00:00:01.000Z' },
    };
    expect(await store.replaceIf?.('bob', next, read)).toBe(false);
    expect(await store.replaceIf?.('alice', next, read)).toBe(true);
    expect(await store.replaceIf?.('alice', { ...next, metadata: { again: true } }, read)).toBe(false);
    expect((await store.get('alice', 't1'))?.status.state).toBe('TASK_STATE_WORKING');
    expect(await store.replaceIf?.('alice', task('gone', 'x'), task('gone', 'x'))).toBe(false);
  });
});

describe('one turn per task across handlers sharing a store', () => {
  const rpc = (id: number, method: string, params: unknown) =>
    new Request('http://agent.local/a2a', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
  const message = (text: string, taskId?: string) => ({
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text }],
    ...(taskId === undefined ? {} : { taskId }),
  });

  function pair() {
    const taskStore = memoryTaskStore();
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const make = () =>
      createA2aHandler({
        card: { name: 'x', description: 'x', url: 'http://agent.local/a2a', version: '1', skills: [] },
        taskStore,
        taskOwner: () => 'alice',
        onMessage: async (ctx) => {
          if (ctx.task === undefined) return { status: 'input-required', message: 'Size?' };
          await gate;
          return { status: 'completed', artifacts: [{ parts: ctx.text }] };
        },
      });
    return { a: make(), b: make(), open: () => open() };
  }

  test('two follow-ups on two handlers: the second gets -32004 and leaves no trace', async () => {
    const { a, b, open } = pair();
    const created = (await (
      await a.handleRpc(rpc(1, 'SendMessage', { message: message('hi') }))
    ).json()) as any;
    const id = created.result.task.id as string;
    const first = a.handleRpc(rpc(2, 'SendMessage', { message: message('large', id) })).then((r) => r.json());
    const second = (await (
      await b.handleRpc(rpc(3, 'SendMessage', { message: message('small', id) }))
    ).json()) as any;
    expect(second.error.code).toBe(-32004);
    open();
    const done = (await first) as any;
    expect(done.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.result.task.artifacts[0].parts[0].text).toBe('large');
    expect(done.result.task.history).toHaveLength(3);
  });

  test('a cancel on one handler is kept when the turn ends on the other', async () => {
    const { a, b, open } = pair();
    const created = (await (
      await a.handleRpc(rpc(1, 'SendMessage', { message: message('hi') }))
    ).json()) as any;
    const id = created.result.task.id as string;
    const running = a
      .handleRpc(rpc(2, 'SendMessage', { message: message('large', id) }))
      .then((r) => r.json());
    await Bun.sleep(10);
    const canceled = (await (await b.handleRpc(rpc(3, 'CancelTask', { id }))).json()) as any;
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
    open();
    expect(((await running) as any).result.task.status.state).toBe('TASK_STATE_CANCELED');
    const got = (await (await a.handleRpc(rpc(4, 'GetTask', { id }))).json()) as any;
    expect(got.result.status.state).toBe('TASK_STATE_CANCELED');
    expect(got.result.artifacts).toBeUndefined();
  });
});
