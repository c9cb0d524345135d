import { describe, expect, setSystemTime, test } from 'bun:test';
import { A2A_CARD_PATH } from './constants.ts';
import { type A2aHandler, createA2aHandler } from './handler.ts';
import type { A2aHandlerOptions, A2aMessageContext } from './options.ts';
import { memoryTaskStore } from './task-store.ts';

const CARD = { name: 'echo', description: 'Echoes text', url: 'https://agent.example/a2a', version: '1.0.0' };

type Json = Record<string, any>;

function agent(overrides: Partial<A2aHandlerOptions> = {}): A2aHandler {
  return createA2aHandler({
    card: CARD,
    taskStore: memoryTaskStore(),
    taskOwner: (host) => (host.state?.user as { sub?: string } | undefined)?.sub,
    onMessage: (ctx) => {
      if (ctx.text === 'ask') return { status: 'input-required', message: 'Which one?' };
      if (ctx.text === 'reject') return { status: 'rejected', message: 'No.' };
      if (ctx.text === 'boom') throw new Error('database password is hunter2');
      if (ctx.text === 'direct') return 'plain answer';
      return { status: 'completed', artifacts: [{ parts: `echo: ${ctx.text}`, name: 'echo' }] };
    },
    exposeInternalErrors: false,
    ...overrides,
  });
}

const alice = { state: { user: { sub: 'alice' } } } as never;
const bob = { state: { user: { sub: 'bob' } } } as never;

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request('https://agent.example/a2a', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

let nextId = 1;
async function call(a: A2aHandler, method: string, params: unknown, host: never = alice): Promise<Json> {
  const response = await a.handleRpc(post({ jsonrpc: '2.0', id: nextId++, method, params }), host);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as Json;
}

function userMessage(text: string, extra: Json = {}): Json {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

describe('createA2aHandler: card', () => {
  test('serves the A2A 1.0 card with caching, a strong ETag and open CORS', async () => {
    const a = agent({ cardMaxAgeSeconds: 60 });
    const response = await a.handleCard(new Request(`https://agent.example${A2A_CARD_PATH}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const etag = response.headers.get('etag') as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const card = (await response.json()) as Json;
    expect(card.supportedInterfaces).toEqual([
      { url: CARD.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    expect(card.capabilities).toEqual({
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
    });
    expect(card.url).toBeUndefined();
  });

  test('answers 304 to a matching If-None-Match and 200 to a stale one', async () => {
    const a = agent();
    const first = await a.handleCard(new Request('https://agent.example/card'));
    const etag = first.headers.get('etag') as string;
    const hit = await a.handleCard(
      new Request('https://agent.example/card', { headers: { 'if-none-match': `W/${etag}` } }),
    );
    expect(hit.status).toBe(304);
    expect(hit.headers.get('etag')).toBe(etag);
    expect(await hit.text()).toBe('');
    const miss = await a.handleCard(
      new Request('https://agent.example/card', { headers: { 'if-none-match': '"other"' } }),
    );
    expect(miss.status).toBe(200);
  });

  test('refuses other methods on the card with 405 and answers a preflight', async () => {
    const a = agent();
    const refused = await a.handleCard(new Request('https://agent.example/card', { method: 'DELETE' }));
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const preflight = await a.handleCard(new Request('https://agent.example/card', { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('fails closed in a production App when the card url is not https', async () => {
    const a = createA2aHandler({ card: { ...CARD, url: 'http://agent.example/a2a' }, onMessage: () => 'x' });
    const refused = await a.handleCard(new Request('https://agent.example/card'), { production: true });
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as Json).detail).toContain('must use https');
    const rpc = await a.handleRpc(post({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }), { production: true });
    expect(rpc.status).toBe(500);
    const dev = await a.handleCard(new Request('https://agent.example/card'), { production: false });
    expect(dev.status).toBe(200);
  });
});

describe('createA2aHandler: HTTP layer', () => {
  test('refuses a browser Origin that is not allowed with a 403 problem and admits a listed one', async () => {
    const a = agent({ allowedOrigins: ['https://app.example'] });
    const refused = await a.handleRpc(
      post({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }, { origin: 'https://evil.example' }),
      alice,
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const admitted = await a.handleRpc(
      post({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }, { origin: 'https://app.example' }),
      alice,
    );
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(admitted.headers.get('vary')).toBe('Origin');
  });

  test('answers the CORS preflight of an allowed origin', async () => {
    const a = agent({ allowedOrigins: ['https://app.example'] });
    const response = await a.handleRpc(
      new Request('https://agent.example/a2a', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example' },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('A2A-Version');
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  test('refuses GET on the JSON-RPC endpoint with 405', async () => {
    const response = await agent().handleRpc(new Request('https://agent.example/a2a'), alice);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  test('refuses a caller whose owner cannot be resolved with a 401 problem, before reading the body', async () => {
    const response = await agent().handleRpc(post('{not json'), { state: {} } as never);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  test('refuses a body that is not JSON with 415, and accepts application/a2a+json', async () => {
    const a = agent();
    const refused = await a.handleRpc(post('x', { 'content-type': 'text/plain' }), alice);
    expect(refused.status).toBe(415);
    const ok = await a.handleRpc(
      post(
        { jsonrpc: '2.0', id: 1, method: 'ListTasks' },
        { 'content-type': 'application/a2a+json; charset=utf-8' },
      ),
      alice,
    );
    expect(ok.status).toBe(200);
  });

  test('refuses a body over maxBodyBytes with 413', async () => {
    const a = agent({ maxBodyBytes: 100 });
    const response = await a.handleRpc(
      post({ jsonrpc: '2.0', id: 1, method: 'X', params: { pad: 'x'.repeat(200) } }),
      alice,
    );
    expect(response.status).toBe(413);
    const small = await a.handleRpc(post({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }), alice);
    expect(small.status).toBe(200);
  });

  test('answers garbage JSON with -32700 and a null id (HTTP 200)', async () => {
    const response = await agent().handleRpc(post('{"jsonrpc":'), alice);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32700);
  });

  test('refuses batches and malformed requests with -32600; a notification gets 202 unserved', async () => {
    let calls = 0;
    const a = agent({
      onMessage: () => {
        calls++;
        return 'x';
      },
    });
    const batch = (await (
      await a.handleRpc(post([{ jsonrpc: '2.0', id: 1, method: 'ListTasks' }]), alice)
    ).json()) as Json;
    expect(batch.error.code).toBe(-32600);
    const bad = (await (
      await a.handleRpc(post({ jsonrpc: '1.0', id: 7, method: 'ListTasks' }), alice)
    ).json()) as Json;
    expect(bad).toMatchObject({ id: 7, error: { code: -32600 } });
    const note = await a.handleRpc(
      post({ jsonrpc: '2.0', method: 'SendMessage', params: { message: userMessage('hi') } }),
      alice,
    );
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
    expect(calls).toBe(0);
  });

  test('adds the configured headers to every answer', async () => {
    const a = agent({ headers: { 'x-agent': 'echo' } });
    expect((await a.handleCard(new Request('https://agent.example/card'))).headers.get('x-agent')).toBe(
      'echo',
    );
    expect(
      (await a.handleRpc(post({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }), alice)).headers.get('x-agent'),
    ).toBe('echo');
    expect(
      (await a.handleRpc(post('x', { 'content-type': 'text/plain' }), alice)).headers.get('x-agent'),
    ).toBe('echo');
  });
});

describe('createA2aHandler: versions and methods', () => {
  test('answers a request without A2A-Version (0.3) or with another version with -32009', async () => {
    const a = agent();
    for (const headers of [{ 'a2a-version': '' }, { 'a2a-version': '0.3' }, { 'a2a-version': '2.0' }]) {
      const body = (await (
        await a.handleRpc(post({ jsonrpc: '2.0', id: 9, method: 'ListTasks' }, headers), alice)
      ).json()) as Json;
      expect(body.id).toBe(9);
      expect(body.error.code).toBe(-32009);
      expect(body.error.data[0]).toMatchObject({
        reason: 'VERSION_NOT_SUPPORTED',
        domain: 'a2a-protocol.org',
      });
    }
  });

  test('accepts the version as a query parameter', async () => {
    const request = new Request('https://agent.example/a2a?A2A-Version=1.0', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }),
    });
    const body = (await (await agent().handleRpc(request, alice)).json()) as Json;
    expect(body.result.tasks).toEqual([]);
  });

  test('answers 0.3 method names and unknown methods with -32601', async () => {
    const a = agent();
    const legacy = await call(a, 'message/send', { message: userMessage('hi') });
    expect(legacy.error.code).toBe(-32601);
    expect(legacy.error.message).toContain('SendMessage');
    expect((await call(a, 'Nope', {})).error.code).toBe(-32601);
  });

  test('gates streaming and the extended card with -32004 and push notifications with -32003', async () => {
    const a = agent();
    for (const method of ['SendStreamingMessage', 'SubscribeToTask', 'GetExtendedAgentCard']) {
      const body = await call(a, method, {});
      expect(body.error.code).toBe(-32004);
      expect(body.error.data[0].reason).toBe('UNSUPPORTED_OPERATION');
    }
    for (const method of ['CreateTaskPushNotificationConfig', 'ListTaskPushNotificationConfigs']) {
      expect((await call(a, method, {})).error.code).toBe(-32003);
    }
    const withPush = await call(a, 'SendMessage', {
      message: userMessage('hi'),
      configuration: { taskPushNotificationConfig: { url: 'https://hook.example' } },
    });
    expect(withPush.error.code).toBe(-32003);
  });

  test('requires an extension the card marks required (-32008) and passes declared ones to the agent', async () => {
    let seen: readonly string[] = [];
    const a = agent({
      card: { ...CARD, extensions: [{ uri: 'https://ext.example/v1', required: true }] },
      onMessage: (ctx) => {
        seen = ctx.extensions;
        return 'ok';
      },
    });
    expect((await call(a, 'SendMessage', { message: userMessage('hi') })).error.code).toBe(-32008);
    const response = await a.handleRpc(
      post(
        { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: userMessage('hi') } },
        { 'a2a-extensions': 'https://ext.example/v1, other' },
      ),
      alice,
    );
    expect(((await response.json()) as Json).result.message).toBeDefined();
    expect(seen).toEqual(['https://ext.example/v1', 'other']);
  });
});

describe('createA2aHandler: SendMessage', () => {
  test('a string reply is a direct agent message in the same context', async () => {
    const body = await call(agent(), 'SendMessage', {
      message: userMessage('direct', { contextId: 'ctx-1' }),
    });
    expect(body.result.task).toBeUndefined();
    expect(body.result.message).toMatchObject({
      role: 'ROLE_AGENT',
      parts: [{ text: 'plain answer' }],
      contextId: 'ctx-1',
    });
    expect(body.result.message.messageId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a { status } reply makes a stored task with artifacts and an ISO timestamp', async () => {
    const a = agent();
    const body = await call(a, 'SendMessage', { message: userMessage('hello') });
    const task = body.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.status.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(task.artifacts[0]).toMatchObject({ name: 'echo', parts: [{ text: 'echo: hello' }] });
    expect(task.history[0].parts).toEqual([{ text: 'hello' }]);
    const got = await call(a, 'GetTask', { id: task.id });
    expect(got.result.id).toBe(task.id);
  });

  test('multi-turn: input-required, then a follow-up with the taskId completes the task', async () => {
    const a = agent();
    const first = (await call(a, 'SendMessage', { message: userMessage('ask') })).result.task;
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(first.status.message).toMatchObject({
      role: 'ROLE_AGENT',
      parts: [{ text: 'Which one?' }],
      taskId: first.id,
    });
    const second = await call(a, 'SendMessage', { message: userMessage('blue', { taskId: first.id }) });
    const task = second.result.task;
    expect(task.id).toBe(first.id);
    expect(task.contextId).toBe(first.contextId);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.history.map((m: Json) => m.role)).toEqual(['ROLE_USER', 'ROLE_AGENT', 'ROLE_USER']);
  });

  test('the agent sees the task and its history on a follow-up', async () => {
    let seen: A2aMessageContext | undefined;
    const a = agent({
      onMessage: (ctx) => {
        seen = ctx;
        return ctx.task === undefined ? { status: 'input-required', message: 'more' } : 'done';
      },
    });
    const first = (await call(a, 'SendMessage', { message: userMessage('one') })).result.task;
    await call(a, 'SendMessage', {
      message: userMessage('two', { taskId: first.id, contextId: first.contextId }),
    });
    expect(seen?.task?.id).toBe(first.id);
    expect(seen?.task?.history?.map((m) => m.parts)).toEqual([
      [{ text: 'one' }],
      [{ text: 'more' }],
      [{ text: 'two' }],
    ]);
    expect(seen?.contextId).toBe(first.contextId);
    expect(seen?.owner).toBe('alice');
  });

  test('refuses a follow-up to a terminal task (-32004), an unknown one (-32001) and a contradicting contextId (-32602)', async () => {
    const a = agent();
    const done = (await call(a, 'SendMessage', { message: userMessage('x') })).result.task;
    expect(
      (await call(a, 'SendMessage', { message: userMessage('y', { taskId: done.id }) })).error.code,
    ).toBe(-32004);
    expect(
      (await call(a, 'SendMessage', { message: userMessage('y', { taskId: 'missing' }) })).error.code,
    ).toBe(-32001);
    const open = (await call(a, 'SendMessage', { message: userMessage('ask') })).result.task;
    const clash = await call(a, 'SendMessage', {
      message: userMessage('y', { taskId: open.id, contextId: 'other' }),
    });
    expect(clash.error.code).toBe(-32602);
    expect(clash.error.data[0].fieldViolations[0].field).toBe('message.contextId');
  });

  test('another owner cannot see, continue or cancel a task: it looks like -32001', async () => {
    const a = agent();
    const task = (await call(a, 'SendMessage', { message: userMessage('ask') })).result.task;
    expect((await call(a, 'GetTask', { id: task.id }, bob)).error.code).toBe(-32001);
    expect((await call(a, 'CancelTask', { id: task.id }, bob)).error.code).toBe(-32001);
    expect(
      (await call(a, 'SendMessage', { message: userMessage('x', { taskId: task.id }) }, bob)).error.code,
    ).toBe(-32001);
    expect((await call(a, 'ListTasks', {}, bob)).result.totalSize).toBe(0);
    expect((await call(a, 'GetTask', { id: task.id })).result.id).toBe(task.id);
  });

  test('validates the message and names every bad field in a BadRequest', async () => {
    const body = await call(agent(), 'SendMessage', {
      message: { messageId: '', role: 'ROLE_AGENT', parts: [{ kind: 'text', text: 'hi' }, { text: 1 }] },
      configuration: { historyLength: -1 },
    });
    expect(body.error.code).toBe(-32602);
    const fields = body.error.data[0].fieldViolations.map((v: Json) => v.field);
    expect(fields).toEqual([
      'message.messageId',
      'message.role',
      'message.parts[1].text',
      'configuration.historyLength',
    ]);
    expect((await call(agent(), 'SendMessage', {})).error.code).toBe(-32602);
    expect(
      (await call(agent(), 'SendMessage', { message: userMessage('x', { parts: [{ text: 'a', data: 1 }] }) }))
        .error.code,
    ).toBe(-32602);
  });

  test('historyLength 0 omits the history and n keeps the n most recent', async () => {
    const a = agent();
    const none = await call(a, 'SendMessage', {
      message: userMessage('ask'),
      configuration: { historyLength: 0 },
    });
    expect(none.result.task.history).toBeUndefined();
    const one = await call(a, 'GetTask', { id: none.result.task.id, historyLength: 1 });
    expect(one.result.history).toHaveLength(1);
    expect(one.result.history[0].role).toBe('ROLE_AGENT');
  });

  test('maxHistory drops the oldest messages', async () => {
    const a = agent({ maxHistory: 2, onMessage: () => ({ status: 'input-required', message: 'again' }) });
    const task = (await call(a, 'SendMessage', { message: userMessage('m1') })).result.task;
    const after = (await call(a, 'SendMessage', { message: userMessage('m2', { taskId: task.id }) })).result
      .task;
    expect(after.history.map((m: Json) => m.parts[0].text)).toEqual(['m2', 'again']);
  });

  test('a throwing agent gives -32603 with a generic message unless exposure is on', async () => {
    const errors: unknown[] = [];
    const hidden = await call(agent({ onError: (e) => errors.push(e) }), 'SendMessage', {
      message: userMessage('boom'),
    });
    expect(hidden.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(errors).toHaveLength(1);
    const shown = await call(agent({ exposeInternalErrors: true, onError: () => {} }), 'SendMessage', {
      message: userMessage('boom'),
    });
    expect(shown.error.message).toContain('hunter2');
  });

  test('exposure is forced off inside a production App', async () => {
    const a = agent({ exposeInternalErrors: true, onError: () => {} });
    const host = { state: { user: { sub: 'alice' } }, production: true } as never;
    const body = await call(a, 'SendMessage', { message: userMessage('boom') }, host);
    expect(body.error.message).toBe('Internal error');
  });

  test('an invalid reply is -32006 INVALID_AGENT_RESPONSE', async () => {
    const errors: unknown[] = [];
    const a = agent({ onMessage: () => ({ status: 'done' }) as never, onError: (e) => errors.push(e) });
    const body = await call(a, 'SendMessage', { message: userMessage('x') });
    expect(body.error.code).toBe(-32006);
    expect(body.error.data[0].reason).toBe('INVALID_AGENT_RESPONSE');
    expect(String(errors[0])).toContain('reply.status');
  });

  test('without a task store: direct messages work, tasks are returned but not kept, input-required fails', async () => {
    const a = createA2aHandler({
      card: CARD,
      exposeInternalErrors: true,
      onError: () => {},
      onMessage: (ctx) =>
        ctx.text === 'ask' ? { status: 'input-required', message: '?' } : { status: 'completed' },
    });
    const task = (await call(a, 'SendMessage', { message: userMessage('x') })).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await call(a, 'GetTask', { id: task.id })).error.code).toBe(-32001);
    expect((await call(a, 'ListTasks', {})).result).toEqual({
      tasks: [],
      nextPageToken: '',
      pageSize: 50,
      totalSize: 0,
    });
    const ask = await call(a, 'SendMessage', { message: userMessage('ask') });
    expect(ask.error.code).toBe(-32603);
    expect(ask.error.message).toContain('taskStore');
  });

  test('acceptedOutputModes that match nothing the agent writes give -32005', async () => {
    const a = agent({ card: { ...CARD, defaultOutputModes: ['text/plain', 'application/json'] } });
    const refused = await call(a, 'SendMessage', {
      message: userMessage('direct'),
      configuration: { acceptedOutputModes: ['image/png'] },
    });
    expect(refused.error.code).toBe(-32005);
    const ok = await call(a, 'SendMessage', {
      message: userMessage('direct'),
      configuration: { acceptedOutputModes: ['text/*'] },
    });
    expect(ok.result.message).toBeDefined();
  });

  test('returnImmediately answers with a working task and the result lands in the store', async () => {
    let release: (value: string) => void = () => {};
    const a = agent({
      onMessage: () =>
        new Promise<string>((resolve) => {
          release = resolve;
        }),
    });
    const body = await call(a, 'SendMessage', {
      message: userMessage('slow'),
      configuration: { returnImmediately: true },
    });
    expect(body.result.task.status.state).toBe('TASK_STATE_WORKING');
    const busy = await call(a, 'SendMessage', {
      message: userMessage('more', { taskId: body.result.task.id }),
    });
    expect(busy.error.code).toBe(-32004);
    release('finished');
    await Bun.sleep(5);
    const got = (await call(a, 'GetTask', { id: body.result.task.id })).result;
    expect(got.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.artifacts[0].parts).toEqual([{ text: 'finished' }]);
  });

  test('canceling a background task aborts its signal and drops its late reply', async () => {
    let signal: AbortSignal | undefined;
    let release: (value: string) => void = () => {};
    const a = agent({
      onMessage: (ctx) => {
        signal = ctx.signal;
        return new Promise<string>((resolve) => {
          release = resolve;
        });
      },
    });
    const task = (
      await call(a, 'SendMessage', {
        message: userMessage('slow'),
        configuration: { returnImmediately: true },
      })
    ).result.task;
    const canceled = await call(a, 'CancelTask', { id: task.id });
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
    expect(signal?.aborted).toBe(true);
    release('too late');
    await Bun.sleep(5);
    expect((await call(a, 'GetTask', { id: task.id })).result.status.state).toBe('TASK_STATE_CANCELED');
  });
});

describe('createA2aHandler: CancelTask and ListTasks', () => {
  test('CancelTask is idempotent and refuses other terminal states with -32002', async () => {
    const a = agent();
    const open = (await call(a, 'SendMessage', { message: userMessage('ask') })).result.task;
    const first = await call(a, 'CancelTask', { id: open.id });
    expect(first.result.status.state).toBe('TASK_STATE_CANCELED');
    const again = await call(a, 'CancelTask', { id: open.id });
    expect(again.result.status).toEqual(first.result.status);
    const done = (await call(a, 'SendMessage', { message: userMessage('x') })).result.task;
    const refused = await call(a, 'CancelTask', { id: done.id });
    expect(refused.error.code).toBe(-32002);
    expect(refused.error.data[0].reason).toBe('TASK_NOT_CANCELABLE');
    expect((await call(a, 'CancelTask', { id: 'missing' })).error.code).toBe(-32001);
    expect((await call(a, 'CancelTask', {})).error.code).toBe(-32602);
  });

  test('ListTasks pages newest first with nextPageToken "" on the last page and omits artifacts by default', async () => {
    const a = agent();
    const ids: string[] = [];
    // Distinct status timestamps, a minute ago (the store's 1-hour TTL keeps them).
    const base = Date.now() - 60_000;
    try {
      for (let i = 0; i < 5; i++) {
        setSystemTime(new Date(base + i * 1000));
        ids.push((await call(a, 'SendMessage', { message: userMessage(`t${i}`) })).result.task.id);
      }
    } finally {
      setSystemTime();
    }
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = (await call(a, 'ListTasks', { pageSize: 2, pageToken: token })).result;
      expect(page.totalSize).toBe(5);
      expect(page.pageSize).toBe(2);
      for (const task of page.tasks) {
        expect(task.artifacts).toBeUndefined();
        seen.push(task.id);
      }
      token = page.nextPageToken;
      pages++;
    } while (token !== '' && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    const full = (await call(a, 'ListTasks', { includeArtifacts: true, pageSize: 1 })).result;
    expect(full.tasks[0].artifacts).toHaveLength(1);
  });

  test('ListTasks filters by contextId, status and statusTimestampAfter', async () => {
    const a = agent();
    await call(a, 'SendMessage', { message: userMessage('x', { contextId: 'c1' }) });
    await call(a, 'SendMessage', { message: userMessage('ask', { contextId: 'c2' }) });
    expect((await call(a, 'ListTasks', { contextId: 'c1' })).result.totalSize).toBe(1);
    const waiting = (await call(a, 'ListTasks', { status: 'TASK_STATE_INPUT_REQUIRED' })).result;
    expect(waiting.tasks.map((t: Json) => t.contextId)).toEqual(['c2']);
    expect((await call(a, 'ListTasks', { status: 'TASK_STATE_UNSPECIFIED' })).result.totalSize).toBe(2);
    expect(
      (await call(a, 'ListTasks', { statusTimestampAfter: '2999-01-01T00:00:00Z' })).result.totalSize,
    ).toBe(0);
    expect(
      (await call(a, 'ListTasks', { statusTimestampAfter: '2000-01-01T00:00:00Z' })).result.totalSize,
    ).toBe(2);
  });

  test('ListTasks refuses bad params with -32602', async () => {
    const a = agent();
    for (const params of [
      { pageSize: 0 },
      { pageSize: 101 },
      { pageToken: 'not-a-token!' },
      { status: 'done' },
      { statusTimestampAfter: 'yesterday' },
      { includeArtifacts: 'yes' },
    ]) {
      expect((await call(a, 'ListTasks', params)).error.code).toBe(-32602);
    }
    expect((await call(a, 'ListTasks', [])).error.code).toBe(-32602);
  });
});
