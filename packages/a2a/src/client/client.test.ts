import { describe, expect, test } from 'bun:test';
import { createA2aClient } from './client.ts';
import { A2aClientError } from './errors.ts';

interface Sent {
  url: string;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

/** An in-memory agent at https://agent.example.com: its card, and a JSON-RPC endpoint echoing params. */
function agent(tenant?: string) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const body = init?.body === undefined ? undefined : JSON.parse(String(init.body));
    sent.push({ url, headers: new Headers(init?.headers), body });
    if (url.endsWith('/.well-known/agent-card.json')) {
      return Response.json(
        {
          name: 'a',
          description: 'd',
          version: '1',
          supportedInterfaces: [
            {
              url: 'https://agent.example.com/a2a',
              protocolBinding: 'JSONRPC',
              protocolVersion: '1.0',
              tenant: tenant ?? '',
            },
          ],
          capabilities: {},
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [],
        },
        { headers: { 'cache-control': 'max-age=300' } },
      );
    }
    const params = body?.params as Record<string, unknown>;
    const task = {
      id: String(params.id ?? 't1'),
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING' },
      echo: params,
    };
    const result =
      body?.method === 'ListTasks'
        ? { tasks: [task], nextPageToken: '', pageSize: 50, totalSize: 1 }
        : body?.method === 'SendMessage'
          ? { task }
          : task;
    return Response.json({ jsonrpc: '2.0', id: body?.id, result });
  };
  return { fetch, sent };
}

describe('createA2aClient', () => {
  test('validates its options at creation', () => {
    expect(() => createA2aClient({ url: 'http://agent.example.com' })).toThrow(TypeError);
    expect(() => createA2aClient({ url: 'https://agent.example.com', timeoutMs: -1 })).toThrow(RangeError);
  });

  test('reads the card once, then calls its JSON-RPC endpoint with each method name', async () => {
    const { fetch, sent } = agent();
    const client = createA2aClient({ url: 'https://agent.example.com', fetch });
    await client.sendMessage('hi');
    await client.getTask('t1');
    await client.cancelTask({ id: 't1', metadata: { why: 'done' } });
    await client.listTasks({ pageSize: 10 });
    expect(sent.map((entry) => entry.url)).toEqual([
      'https://agent.example.com/.well-known/agent-card.json',
      'https://agent.example.com/a2a',
      'https://agent.example.com/a2a',
      'https://agent.example.com/a2a',
      'https://agent.example.com/a2a',
    ]);
    expect(sent.slice(1).map((entry) => entry.body?.method)).toEqual([
      'SendMessage',
      'GetTask',
      'CancelTask',
      'ListTasks',
    ]);
    expect(sent[3]?.body?.params).toEqual({ id: 't1', metadata: { why: 'done' } });
    expect(sent[4]?.body?.params).toEqual({ pageSize: 10 });
  });

  test("adds the chosen interface's tenant to every request unless the caller gave one", async () => {
    const { fetch, sent } = agent('acme');
    const client = createA2aClient({ url: 'https://agent.example.com', fetch });
    await client.getTask('t1');
    await client.listTasks({ tenant: 'other' });
    await client.sendMessage('hi');
    expect(sent[1]?.body?.params).toEqual({ id: 't1', tenant: 'acme' });
    expect(sent[2]?.body?.params).toEqual({ tenant: 'other' });
    expect((sent[3]?.body?.params as Record<string, unknown>).tenant).toBe('acme');
  });

  test('sends no tenant when the interface has an empty one', async () => {
    const { fetch, sent } = agent();
    await createA2aClient({ url: 'https://agent.example.com', fetch }).getTask('t1');
    expect(sent[1]?.body?.params).toEqual({ id: 't1' });
  });

  test('calls a headers function before every request, the card request included', async () => {
    const { fetch, sent } = agent();
    let n = 0;
    const client = createA2aClient({
      url: 'https://agent.example.com',
      fetch,
      headers: async () => ({ authorization: `Bearer ${++n}` }),
    });
    await client.getTask('t1');
    await client.getTask('t1');
    expect(sent.map((entry) => entry.headers.get('authorization'))).toEqual([
      'Bearer 1',
      'Bearer 2',
      'Bearer 3',
    ]);
  });

  test('getAgentCard returns the frozen cached card; refresh asks again', async () => {
    const { fetch, sent } = agent();
    const client = createA2aClient({ url: 'https://agent.example.com', fetch });
    const card = await client.getAgentCard();
    expect(Object.isFrozen(card)).toBe(true);
    expect(await client.getAgentCard()).toBe(card);
    await client.getAgentCard({ refresh: true });
    expect(sent).toHaveLength(2);
  });

  test('refuses bad arguments with a TypeError before sending anything', async () => {
    const { fetch, sent } = agent();
    const client = createA2aClient({ url: 'https://agent.example.com', fetch });
    await expect(client.getTask('')).rejects.toThrow(TypeError);
    await expect(client.cancelTask({} as never)).rejects.toThrow(/cancelTask/);
    await expect(client.listTasks([] as never)).rejects.toThrow(/listTasks/);
    await expect(client.sendMessage([] as never)).rejects.toThrow(TypeError);
    expect(sent).toHaveLength(0);
  });

  test('a result of the wrong shape is an invalid-response error', async () => {
    const client = createA2aClient({
      url: 'https://agent.example.com',
      fetch: async (input, init) => {
        const { fetch } = agent();
        if (String(input).endsWith('.json')) return fetch(input, init);
        const body = JSON.parse(String(init?.body));
        return Response.json({ jsonrpc: '2.0', id: body.id, result: { tasks: 'none' } });
      },
    });
    const error = (await client.listTasks().catch((e: unknown) => e)) as A2aClientError;
    expect(error).toBeInstanceOf(A2aClientError);
    expect(error.reason).toBe('invalid-response');
  });
});
