/**
 * The A2A client against the reference server: `@a2a-js/sdk` 1.3.0's `DefaultRequestHandler`,
 * `InMemoryTaskStore` and `JsonRpcTransportHandler`, served by `Bun.serve` on 127.0.0.1 (no express:
 * the few lines of `jsonRpcHandler` that build the call context and check `A2A-Version` are redone here).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AgentCard, Message, Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
  UnauthenticatedUser,
  validateVersion,
} from '@a2a-js/sdk/server';
import { A2aClientError, createA2aClient } from '../../packages/a2a/src/client/index.ts';

interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

const seen: Seen[] = [];
let server: ReturnType<typeof Bun.serve>;
let base: string;

function textOf(message: Message): string {
  const content = message.parts[0]?.content;
  return content?.$case === 'text' ? content.value : '';
}

const executor: AgentExecutor = {
  async execute(context, bus) {
    const text = textOf(context.userMessage);
    if (text === 'hello') {
      bus.publish(
        AgentEvent.message(
          Message.fromJSON({
            messageId: crypto.randomUUID(),
            role: 'ROLE_AGENT',
            contextId: context.contextId,
            parts: [{ text: 'hi there' }],
          }),
        ),
      );
    } else if (text === 'need input') {
      bus.publish(
        AgentEvent.task(
          Task.fromJSON({
            id: context.taskId,
            contextId: context.contextId,
            status: {
              state: 'TASK_STATE_INPUT_REQUIRED',
              message: {
                messageId: crypto.randomUUID(),
                role: 'ROLE_AGENT',
                parts: [{ text: 'which one?' }],
              },
            },
          }),
        ),
      );
    } else {
      bus.publish(
        AgentEvent.task(
          Task.fromJSON({
            id: context.taskId,
            contextId: context.contextId,
            status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
            artifacts: [{ artifactId: 'a1', name: 'echo', parts: [{ text: `echo: ${text}` }] }],
          }),
        ),
      );
    }
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: {
          state: 5 /* TASK_STATE_CANCELED */,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
    bus.finished();
  },
};

let handler: DefaultRequestHandler;
let transport: JsonRpcTransportHandler;
let cardJson = '';

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === 'POST' ? await request.text() : '';
      seen.push({ method: request.method, path: url.pathname, headers: request.headers, body });
      if (request.method === 'GET' && url.pathname === '/.well-known/agent-card.json') {
        const etag = `"${Bun.hash(cardJson).toString(16)}"`;
        const headers = { etag, 'cache-control': 'public, max-age=60' };
        if (request.headers.get('if-none-match') === etag)
          return new Response(null, { status: 304, headers });
        return new Response(cardJson, { headers: { ...headers, 'content-type': 'application/json' } });
      }
      if (request.method === 'POST' && url.pathname === '/a2a') {
        const context = new ServerCallContext({
          user: new UnauthenticatedUser(),
          requestedVersion: request.headers.get('a2a-version') || undefined,
        });
        try {
          validateVersion(context.requestedVersion, await handler.getAgentCard(), 'JSONRPC');
        } catch (error) {
          return Response.json({
            jsonrpc: '2.0',
            id: null,
            error: JsonRpcTransportHandler.mapToJSONRPCError(error),
          });
        }
        return Response.json(await transport.handle(body, context));
      }
      return new Response('not found', { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  const card = AgentCard.fromJSON({
    name: 'echo-agent',
    description: 'Echoes what it is told',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${base}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] }],
  });
  cardJson = JSON.stringify(AgentCard.toJSON(card));
  handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  transport = new JsonRpcTransportHandler(handler);
});

afterAll(() => {
  server.stop(true);
});

function rpcCalls(): Seen[] {
  return seen.filter((entry) => entry.path === '/a2a');
}

describe('A2A client against the @a2a-js/sdk server', () => {
  test('getAgentCard reads and validates the card from the well-known path', async () => {
    const client = createA2aClient({ url: base });
    const card = await client.getAgentCard();
    expect(card.name).toBe('echo-agent');
    expect(card.supportedInterfaces[0]?.url).toBe(`${base}/a2a`);
    expect(client.cardUrl).toBe(`${base}/.well-known/agent-card.json`);
  });

  test('sendMessage returns a direct message as { message }', async () => {
    const client = createA2aClient({ url: base });
    const answer = await client.sendMessage('hello');
    if (!('message' in answer)) throw new Error('expected a message');
    expect(answer.message.role).toBe('ROLE_AGENT');
    expect(answer.message.parts).toEqual([{ text: 'hi there' }]);
  });

  test('sendMessage returns a task as { task } and sends the protocol headers', async () => {
    const client = createA2aClient({ url: base, extensions: ['https://example.com/ext/v1'] });
    const answer = await client.sendMessage({ text: 'build it', metadata: { from: 'test' } });
    if (!('task' in answer)) throw new Error('expected a task');
    expect(answer.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(answer.task.artifacts?.[0]?.parts).toEqual([{ text: 'echo: build it' }]);
    const last = rpcCalls().at(-1) as Seen;
    expect(last.headers.get('a2a-version')).toBe('1.0');
    expect(last.headers.get('accept')).toBe('application/json');
    expect(last.headers.get('content-type')).toBe('application/json');
    expect(last.headers.get('a2a-extensions')).toBe('https://example.com/ext/v1');
    const sent = JSON.parse(last.body);
    expect(sent.method).toBe('SendMessage');
    expect(sent.params.message.role).toBe('ROLE_USER');
    expect(sent.params.message.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('getTask reads back a task the agent created', async () => {
    const client = createA2aClient({ url: base });
    const answer = await client.sendMessage('remember me');
    if (!('task' in answer)) throw new Error('expected a task');
    const task = await client.getTask(answer.task.id);
    expect(task.id).toBe(answer.task.id);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const short = await client.getTask({ id: answer.task.id, historyLength: 0 });
    expect(short.history ?? []).toEqual([]);
  });

  test('listTasks pages through the tasks', async () => {
    const client = createA2aClient({ url: base });
    await client.sendMessage('one');
    await client.sendMessage('two');
    const page = await client.listTasks({ pageSize: 1 });
    expect(page.tasks).toHaveLength(1);
    expect(page.pageSize).toBe(1);
    expect(page.totalSize).toBeGreaterThanOrEqual(2);
    expect(page.nextPageToken).not.toBe('');
    const next = await client.listTasks({ pageSize: 1, pageToken: page.nextPageToken });
    expect(next.tasks[0]?.id).not.toBe(page.tasks[0]?.id);
  });

  test('cancelTask cancels an interrupted task, idempotently', async () => {
    const client = createA2aClient({ url: base });
    const answer = await client.sendMessage('need input');
    if (!('task' in answer)) throw new Error('expected a task');
    expect(answer.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(answer.task.status.message?.parts).toEqual([{ text: 'which one?' }]);
    const canceled = await client.cancelTask(answer.task.id);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const again = await client.cancelTask({ id: answer.task.id });
    expect(again.status.state).toBe('TASK_STATE_CANCELED');
  });

  test('cancelTask on a completed task is a typed -32002 error', async () => {
    const client = createA2aClient({ url: base });
    const answer = await client.sendMessage('finish now');
    if (!('task' in answer)) throw new Error('expected a task');
    const error = await client.cancelTask(answer.task.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2aClientError);
    expect((error as A2aClientError).code).toBe(-32002);
    expect((error as A2aClientError).reason).toBe('rpc');
  });

  test('an unknown task is a typed -32001 error carrying the ErrorInfo data and the HTTP status', async () => {
    const client = createA2aClient({ url: base });
    const error = (await client.getTask('no-such-task').catch((e: unknown) => e)) as A2aClientError;
    expect(error).toBeInstanceOf(A2aClientError);
    expect(error.code).toBe(-32001);
    expect(error.status).toBe(200);
    expect(error.data).toEqual([
      expect.objectContaining({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'TASK_NOT_FOUND',
        domain: 'a2a-protocol.org',
      }),
    ]);
  });

  test('the card is cached for its max-age and revalidated with If-None-Match when stale', async () => {
    const client = createA2aClient({ url: base, cardMaxAgeMs: 0 });
    const before = seen.filter((entry) => entry.path === '/.well-known/agent-card.json').length;
    const first = await client.getAgentCard();
    const second = await client.getAgentCard();
    const cardRequests = seen.filter((entry) => entry.path === '/.well-known/agent-card.json').slice(before);
    expect(cardRequests).toHaveLength(2);
    expect(cardRequests[0]?.headers.get('if-none-match')).toBeNull();
    expect(cardRequests[1]?.headers.get('if-none-match')).toMatch(/^"[0-9a-f]+"$/);
    expect(second).toBe(first);

    const cached = createA2aClient({ url: base });
    await cached.getAgentCard();
    const mark = seen.length;
    await cached.sendMessage('hello');
    await cached.getAgentCard();
    expect(seen.slice(mark).map((entry) => entry.path)).toEqual(['/a2a']);
  });

  test('propagateTrace: true sends a fresh sampled traceparent on every call', async () => {
    const client = createA2aClient({ url: base, propagateTrace: true });
    await client.sendMessage('hello');
    await client.sendMessage('hello');
    const [a, b] = rpcCalls()
      .slice(-2)
      .map((entry) => entry.headers.get('traceparent'));
    expect(a).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(b).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(a?.slice(3, 35)).not.toBe(b?.slice(3, 35));
  });

  test('every call carries A2A-Version 1.0, which the server requires (a header-less call gets -32009)', async () => {
    const response = await fetch(`${base}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    });
    expect((await response.json()).error.code).toBe(-32009);
    const client = createA2aClient({ url: base });
    const error = (await client.getTask('x').catch((e: unknown) => e)) as A2aClientError;
    expect(error.code).toBe(-32001);
  });
});
