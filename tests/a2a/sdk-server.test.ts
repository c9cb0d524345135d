/**
 * The reference A2A client, `@a2a-js/sdk` 1.3.0 (`ClientFactory` with its JSON-RPC transport), against
 * a Charter agent served on a loopback port: card discovery, direct messages and tasks, multi-turn
 * input-required, GetTask, CancelTask, ListTasks and the typed errors the SDK maps from our codes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import {
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '@a2a-js/sdk/errors';
import { type AgentServer, startAgentServer } from './support.ts';

interface Wire {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly status: number;
}

let agent: AgentServer;
const wire: Wire[] = [];

/** A fetch that authenticates as `token` and records each exchange. */
function authFetch(token: string): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    const response = await fetch(input, { ...init, headers });
    wire.push({ url: String(input), method: init?.method ?? 'GET', headers, status: response.status });
    return response;
  }) as typeof fetch;
}

async function connect(token: string): Promise<Client> {
  const fetchImpl = authFetch(token);
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return new ClientFactory(options).createFromUrl(agent.base);
}

function text(value: string, extra: Record<string, unknown> = {}) {
  return {
    message: {
      messageId: crypto.randomUUID(),
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text' as const, value } }],
      ...extra,
    },
  } as never;
}

function partText(part: { content?: { $case: string; value?: unknown } } | undefined): unknown {
  return part?.content?.$case === 'text' ? part.content.value : undefined;
}

function asTask(result: Message | Task): Task {
  expect('status' in result).toBe(true);
  return result as Task;
}

let alice: Client;
let bob: Client;

beforeAll(async () => {
  agent = await startAgentServer();
  alice = await connect('alice');
  bob = await connect('bob');
});

afterAll(async () => {
  await agent?.server.close(1_000);
});

describe('@a2a-js/sdk client against a2aRoutes', () => {
  test('discovers the card at /.well-known/agent-card.json and speaks A2A-Version 1.0', async () => {
    const card = await alice.getAgentCard();
    expect(card.name).toBe('echo-agent');
    expect(card.supportedInterfaces[0]).toMatchObject({
      url: agent.rpcUrl,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    });
    expect(card.skills[0]?.id).toBe('echo');
    expect(wire.some((w) => w.url === `${agent.base}/.well-known/agent-card.json` && w.status === 200)).toBe(
      true,
    );
    await alice.sendMessage(text('hello'));
    const post = wire.findLast((w) => w.method === 'POST');
    expect(post?.headers.get('a2a-version')).toBe('1.0');
    expect(post?.status).toBe(200);
  });

  test('a string reply arrives as a direct agent message', async () => {
    const result = await alice.sendMessage(text('hello'));
    expect('messageId' in result && !('status' in result)).toBe(true);
    const message = result as Message;
    expect(message.role).toBe(Role.ROLE_AGENT);
    expect(partText(message.parts[0])).toBe('hi there');
    expect(message.contextId).not.toBe('');
  });

  test('a { status } reply arrives as a completed task with its artifact', async () => {
    const task = asTask(await alice.sendMessage(text('ping')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]?.name).toBe('echo');
    expect(partText(task.artifacts[0]?.parts[0])).toBe('echo: ping');
    const again = await alice.getTask({ id: task.id } as never);
    expect(again.id).toBe(task.id);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  test('multi-turn: input-required, then the follow-up with taskId and contextId completes the task', async () => {
    const first = asTask(await alice.sendMessage(text('order pizza')));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(partText(first.status?.message?.parts[0])).toBe('Which size?');
    const second = asTask(
      await alice.sendMessage(text('large', { taskId: first.id, contextId: first.contextId })),
    );
    expect(second.id).toBe(first.id);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(second.artifacts[0]?.name).toBe('order');
    expect(second.history.map((m) => m.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT, Role.ROLE_USER]);
  });

  test('cancelTask cancels an interrupted task, is idempotent, and a completed task is TaskNotCancelable', async () => {
    const open = asTask(await alice.sendMessage(text('order pizza')));
    const canceled = await alice.cancelTask({ id: open.id } as never);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await alice.cancelTask({ id: open.id } as never)).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    const done = asTask(await alice.sendMessage(text('ping')));
    await expect(alice.cancelTask({ id: done.id } as never)).rejects.toBeInstanceOf(TaskNotCancelableError);
  });

  test('a follow-up to a canceled task is UnsupportedOperation', async () => {
    const open = asTask(await alice.sendMessage(text('order pizza')));
    await alice.cancelTask({ id: open.id } as never);
    await expect(alice.sendMessage(text('large', { taskId: open.id }))).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
  });

  test("getTask of an unknown task, or of another caller's task, is TaskNotFound", async () => {
    await expect(alice.getTask({ id: 'no-such-task' } as never)).rejects.toBeInstanceOf(TaskNotFoundError);
    const mine = asTask(await alice.sendMessage(text('ping')));
    await expect(bob.getTask({ id: mine.id } as never)).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(bob.cancelTask({ id: mine.id } as never)).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  test("listTasks returns only the caller's tasks, newest first, paged", async () => {
    const before = await bob.listTasks({ status: TaskState.TASK_STATE_UNSPECIFIED } as never);
    const made: string[] = [];
    for (const word of ['a', 'b', 'c']) {
      made.push(asTask(await bob.sendMessage(text(word))).id);
      await Bun.sleep(2);
    }
    const page = await bob.listTasks({ status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 2 } as never);
    expect(page.totalSize).toBe(before.totalSize + 3);
    expect(page.tasks.map((t) => t.id)).toEqual(made.slice(1).reverse());
    expect(page.nextPageToken).not.toBe('');
    expect(page.tasks[0]?.artifacts).toEqual([]);
    const rest = await bob.listTasks({
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 100,
      pageToken: page.nextPageToken,
    } as never);
    expect(rest.tasks[0]?.id).toBe(made[0]);
    expect(rest.nextPageToken).toBe('');
    const alices = await alice.listTasks({
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 100,
    } as never);
    expect(alices.tasks.some((t) => made.includes(t.id))).toBe(false);
  });

  test('returnImmediately gives a working task that getTask later sees completed', async () => {
    const pending = agent.releases.length;
    const task = asTask(
      await alice.sendMessage({
        ...(text('slow') as object),
        configuration: { returnImmediately: true },
      } as never),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(agent.releases.length).toBe(pending + 1);
    agent.releases[pending]?.('late answer');
    await Bun.sleep(10);
    const done = await alice.getTask({ id: task.id } as never);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(partText(done.artifacts[0]?.parts[0])).toBe('late answer');
  });

  test('the card says streaming is off, so the SDK falls back to SendMessage for a stream', async () => {
    const before = wire.length;
    const events = [];
    for await (const event of alice.sendMessageStream(text('hello'))) events.push(event);
    expect(events).toHaveLength(1);
    const posts = wire.slice(before).filter((w) => w.method === 'POST');
    expect(posts).toHaveLength(1);
  });

  test('the server itself refuses push configs (-32003) and the extended card (-32004) when the client skips its own checks', async () => {
    // The SDK client refuses these locally from the card's capabilities; its transport sends them.
    const v1 = { serviceParameters: { 'A2A-Version': '1.0' } } as never;
    const transport = alice.transport;
    await expect(
      transport.createTaskPushNotificationConfig(
        { taskId: 'x', url: 'https://hook.example/a2a' } as never,
        v1,
      ),
    ).rejects.toBeInstanceOf(PushNotificationNotSupportedError);
    await expect(transport.getExtendedAgentCard({} as never, v1)).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
  });

  test('a request without A2A-Version (read as 0.3) is VersionNotSupported', async () => {
    await expect(alice.transport.getTask({ id: 'x' } as never)).rejects.toBeInstanceOf(
      VersionNotSupportedError,
    );
  });
});
