import { describe, expect, test } from 'bun:test';
import { type A2aHandler, createA2aHandler } from '../handler.ts';
import type { A2aHandlerOptions, A2aMessageContext } from '../options.ts';
import type { A2aReply } from '../reply.ts';
import { memoryTaskStore } from '../task-store.ts';

const CARD = { name: 'turns', description: 'Turn taking', url: 'https://agent.example/a2a', version: '1' };
const alice = { state: { user: { sub: 'alice' } } } as never;
type Json = Record<string, any>;

/** An agent that asks first, then parks every later turn until the test releases it. */
function parkingAgent(overrides: Partial<A2aHandlerOptions> = {}) {
  const parked: Array<{ ctx: A2aMessageContext; release: (reply: A2aReply) => void }> = [];
  const errors: unknown[] = [];
  const handler = createA2aHandler({
    card: CARD,
    taskStore: memoryTaskStore(),
    taskOwner: (host) => (host.state?.user as { sub?: string } | undefined)?.sub,
    exposeInternalErrors: false,
    onError: (error) => errors.push(error),
    onMessage: (ctx) => {
      if (ctx.text === 'ask') return { status: 'input-required', message: 'Which one?' };
      return new Promise<A2aReply>((release) => parked.push({ ctx, release }));
    },
    ...overrides,
  });
  return { handler, parked, errors };
}

let nextId = 1;
async function call(a: A2aHandler, method: string, params: unknown): Promise<Json> {
  const request = new Request('https://agent.example/a2a', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const response = await a.handleRpc(request, alice);
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

function userMessage(text: string, extra: Json = {}): Json {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

async function askedTask(a: A2aHandler): Promise<Json> {
  const task = (await call(a, 'SendMessage', { message: userMessage('ask') })).result.task;
  expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  return task;
}

describe('sendMessage: one agent turn at a time', () => {
  test('two racing follow-ups to an input-required task: one runs, the other gets -32004 and nothing is lost', async () => {
    const { handler, parked } = parkingAgent();
    const task = await askedTask(handler);
    const first = call(handler, 'SendMessage', { message: userMessage('one', { taskId: task.id }) });
    const second = call(handler, 'SendMessage', { message: userMessage('two', { taskId: task.id }) });
    const refused = await second;
    expect(refused.error.code).toBe(-32004);
    expect(refused.error.data[0]).toMatchObject({
      reason: 'UNSUPPORTED_OPERATION',
      metadata: { taskId: task.id, state: 'TASK_STATE_WORKING' },
    });
    expect(parked).toHaveLength(1);
    // While the turn runs the stored task says WORKING and already holds the client's answer.
    const during = (await call(handler, 'GetTask', { id: task.id })).result;
    expect(during.status.state).toBe('TASK_STATE_WORKING');
    expect(during.history.map((m: Json) => m.parts[0].text)).toEqual(['ask', 'Which one?', 'one']);
    parked[0]?.release({ status: 'completed', artifacts: [{ parts: 'done' }] });
    const done = (await first).result.task;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.history.map((m: Json) => m.parts[0].text)).toEqual(['ask', 'Which one?', 'one']);
  });

  test('the agent of a follow-up sees the task as it waited: its question and the new answer', async () => {
    const { handler, parked } = parkingAgent();
    const task = await askedTask(handler);
    const pending = call(handler, 'SendMessage', { message: userMessage('blue', { taskId: task.id }) });
    await Bun.sleep(1);
    const seen = parked[0]?.ctx.task;
    expect(seen?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(seen?.status.message?.parts).toEqual([{ text: 'Which one?' }]);
    expect(seen?.history?.at(-1)?.parts).toEqual([{ text: 'blue' }]);
    parked[0]?.release('ok');
    expect((await pending).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  test('after a turn ends the task accepts the next follow-up again', async () => {
    const { handler, parked } = parkingAgent();
    const task = await askedTask(handler);
    const one = call(handler, 'SendMessage', { message: userMessage('one', { taskId: task.id }) });
    await Bun.sleep(1);
    parked[0]?.release({ status: 'input-required', message: 'And?' });
    expect((await one).result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const two = call(handler, 'SendMessage', { message: userMessage('two', { taskId: task.id }) });
    await Bun.sleep(1);
    expect(parked).toHaveLength(2);
    parked[1]?.release('fine');
    expect((await two).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  test('CancelTask during a blocking follow-up aborts the agent, and the canceled task is the answer', async () => {
    const { handler, parked } = parkingAgent();
    const task = await askedTask(handler);
    const pending = call(handler, 'SendMessage', { message: userMessage('one', { taskId: task.id }) });
    await Bun.sleep(1);
    const canceled = await call(handler, 'CancelTask', { id: task.id });
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
    expect(parked[0]?.ctx.signal.aborted).toBe(true);
    const answer = await pending;
    expect(answer.result.task.status.state).toBe('TASK_STATE_CANCELED');
    parked[0]?.release('too late'); // a late reply changes nothing
    await Bun.sleep(1);
    expect((await call(handler, 'GetTask', { id: task.id })).result.status.state).toBe('TASK_STATE_CANCELED');
  });

  test('a blocking follow-up whose agent throws fails the task and answers -32603 (redacted)', async () => {
    const { handler, errors } = parkingAgent({
      onMessage: (ctx) => {
        if (ctx.text === 'ask') return { status: 'input-required', message: '?' };
        throw new Error('secret detail');
      },
    });
    const task = await askedTask(handler);
    const body = await call(handler, 'SendMessage', { message: userMessage('x', { taskId: task.id }) });
    expect(body.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(errors).toHaveLength(1);
    const stored = (await call(handler, 'GetTask', { id: task.id })).result;
    expect(stored.status.state).toBe('TASK_STATE_FAILED');
    expect(stored.status.message.parts).toEqual([{ text: 'Internal error' }]);
  });
});

describe('sendMessage: agentTimeoutMs', () => {
  test('a background agent that never answers is abandoned: its signal aborts and the task fails', async () => {
    const { handler, parked } = parkingAgent({ agentTimeoutMs: 20 });
    const task = (
      await call(handler, 'SendMessage', {
        message: userMessage('hang'),
        configuration: { returnImmediately: true },
      })
    ).result.task;
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    await Bun.sleep(60);
    expect(parked[0]?.ctx.signal.aborted).toBe(true);
    expect(parked[0]?.ctx.signal.reason).toBeInstanceOf(Error);
    const failed = (await call(handler, 'GetTask', { id: task.id })).result;
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.status.message.parts[0].text).toBe('Internal error: The agent did not answer within 20 ms');
    // A late reply is dropped: the failure stands.
    parked[0]?.release('late');
    await Bun.sleep(1);
    expect((await call(handler, 'GetTask', { id: task.id })).result.status.state).toBe('TASK_STATE_FAILED');
  });

  test('a blocking call that outlives the timeout answers -32603 saying so', async () => {
    const { handler } = parkingAgent({ agentTimeoutMs: 20 });
    const body = await call(handler, 'SendMessage', { message: userMessage('hang') });
    expect(body.error).toEqual({
      code: -32603,
      message: 'Internal error: The agent did not answer within 20 ms',
    });
  });

  test('an agent that answers in time is not affected, and 0 disables the timeout', async () => {
    const quick = parkingAgent({ agentTimeoutMs: 1000 });
    const pending = call(quick.handler, 'SendMessage', { message: userMessage('x') });
    await Bun.sleep(5);
    quick.parked[0]?.release('in time');
    expect((await pending).result.message.parts).toEqual([{ text: 'in time' }]);
    const off = parkingAgent({ agentTimeoutMs: 0 });
    const waiting = call(off.handler, 'SendMessage', { message: userMessage('x') });
    await Bun.sleep(30);
    expect(off.parked[0]?.ctx.signal.aborted).toBe(false);
    off.parked[0]?.release('eventually');
    expect((await waiting).result.message.parts).toEqual([{ text: 'eventually' }]);
  });
});

describe('sendMessage: hostile agents', () => {
  test('a thrown non-Error (even one that cannot be printed) is -32603, never a crash', async () => {
    for (const thrown of [Object.create(null), Symbol('s'), 42, undefined]) {
      const { handler, errors } = parkingAgent({
        exposeInternalErrors: true,
        onMessage: () => {
          throw thrown;
        },
      });
      const body = await call(handler, 'SendMessage', { message: userMessage('x') });
      expect(body.error.code).toBe(-32603);
      expect(body.error.message.startsWith('Internal error: ')).toBe(true);
      expect(errors).toHaveLength(1);
    }
  });

  test('an onError observer that throws does not change the answer', async () => {
    const { handler } = parkingAgent({
      onError: () => {
        throw new Error('logger down');
      },
      onMessage: () => {
        throw new Error('boom');
      },
    });
    const body = await call(handler, 'SendMessage', { message: userMessage('x') });
    expect(body.error).toEqual({ code: -32603, message: 'Internal error' });
  });

  test('a reply with a BigInt is -32006 and nothing unserialisable reaches the store', async () => {
    const { handler } = parkingAgent({
      onMessage: () => ({ status: 'completed', artifacts: [{ parts: [{ data: { n: 1n } as never }] }] }),
    });
    const body = await call(handler, 'SendMessage', { message: userMessage('x') });
    expect(body.error.code).toBe(-32006);
    expect((await call(handler, 'ListTasks', {})).result.totalSize).toBe(0);
  });
});
