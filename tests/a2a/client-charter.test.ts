/**
 * The A2A client against Charter's own agent module (`createA2aHandler` + `a2aRoutes` on an App),
 * in process: the App's `fetch` is the client's `fetch`.
 */
import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { a2aRoutes, createA2aHandler, memoryTaskStore } from '../../packages/a2a/src/index.ts';
import { A2aClientError, createA2aClient } from '../../packages/a2a/src/client/index.ts';

function agentApp(): App {
  const handler = createA2aHandler({
    card: { name: 'charter-agent', description: 'Answers', url: 'http://127.0.0.1/a2a', version: '1.0.0' },
    taskStore: memoryTaskStore(),
    taskOwner: () => 'tester',
    onMessage: ({ message }) => {
      const first = message.parts[0];
      const text = first !== undefined && 'text' in first ? first.text : '';
      if (text === 'direct') return 'a direct answer';
      if (text === 'ask') return { status: 'input-required', message: 'which one?' };
      return { status: 'completed', artifacts: [{ parts: `done: ${text}` }] };
    },
  });
  const app = new App({ logger: false });
  for (const route of a2aRoutes('/a2a', handler, { public: true })) app.route(route);
  return app;
}

function clientOf(app: App) {
  return createA2aClient({
    url: 'http://127.0.0.1',
    fetch: (input, init) => app.fetch(new Request(input, init)),
  });
}

describe('A2A client against the Charter agent module', () => {
  test('reads the card and gets a direct message and a completed task', async () => {
    const client = clientOf(agentApp());
    expect((await client.getAgentCard()).name).toBe('charter-agent');
    const direct = await client.sendMessage('direct');
    expect('message' in direct && direct.message.parts).toEqual([{ text: 'a direct answer' }]);
    const done = await client.sendMessage('work');
    if (!('task' in done)) throw new Error('expected a task');
    expect(done.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await client.getTask(done.task.id)).id).toBe(done.task.id);
    expect((await client.listTasks()).tasks.map((task) => task.id)).toContain(done.task.id);
  });

  test('cancels an input-required task and maps a missing task to -32001', async () => {
    const client = clientOf(agentApp());
    const asked = await client.sendMessage('ask');
    if (!('task' in asked)) throw new Error('expected a task');
    expect(asked.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await client.cancelTask(asked.task.id)).status.state).toBe('TASK_STATE_CANCELED');
    const error = (await client.getTask('missing').catch((e: unknown) => e)) as A2aClientError;
    expect(error).toBeInstanceOf(A2aClientError);
    expect(error.code).toBe(-32001);
  });
});
