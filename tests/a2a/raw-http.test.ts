/**
 * Bad and edge inputs sent with plain `fetch` to a Charter agent on a loopback port: each refusal is
 * checked for its HTTP status, headers and body (JSON-RPC errors are HTTP 200, transport refusals are
 * RFC 9457 problems).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type AgentServer, startAgentServer } from './support.ts';

let agent: AgentServer;

beforeAll(async () => {
  agent = await startAgentServer();
});

afterAll(async () => {
  await agent?.server.close(1_000);
});

type Json = Record<string, any>;

function rpc(body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(agent.rpcUrl, {
    method: 'POST',
    headers: {
      authorization: 'Bearer alice',
      'content-type': 'application/json',
      'a2a-version': '1.0',
      ...headers,
    },
    body,
  });
}

function request(method: string, params: unknown = {}, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

async function rpcError(response: Response): Promise<Json> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as Json;
  expect(body.jsonrpc).toBe('2.0');
  expect(body.result).toBeUndefined();
  return body;
}

async function problem(response: Response, status: number): Promise<Json> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as Json;
  expect(body.status).toBe(status);
  expect(body.type).toStartWith('https://charter.dev/errors/');
  return body;
}

describe('A2A agent over HTTP: refusals', () => {
  test('a missing A2A-Version is read as 0.3 and answered -32009', async () => {
    const body = await rpcError(await rpc(request('GetTask', { id: 'x' }, 'q1'), { 'a2a-version': '' }));
    expect(body.id).toBe('q1');
    expect(body.error.code).toBe(-32009);
    expect(body.error.data).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'VERSION_NOT_SUPPORTED',
        domain: 'a2a-protocol.org',
        metadata: { requestedVersion: '0.3', supportedVersions: '1.0' },
      },
    ]);
  });

  test('another A2A-Version is answered -32009, the query parameter works instead of the header', async () => {
    expect(
      (await rpcError(await rpc(request('GetTask', { id: 'x' }), { 'a2a-version': '2.0' }))).error.code,
    ).toBe(-32009);
    const viaQuery = await fetch(`${agent.rpcUrl}?A2A-Version=1.0`, {
      method: 'POST',
      headers: { authorization: 'Bearer alice', 'content-type': 'application/json' },
      body: request('ListTasks'),
    });
    expect(((await viaQuery.json()) as Json).result.nextPageToken).toBe('');
  });

  test('0.3 method names are -32601 naming the 1.0 method', async () => {
    const body = await rpcError(await rpc(request('tasks/get', { id: 'x' }, 7)));
    expect(body).toMatchObject({ id: 7, error: { code: -32601 } });
    expect(body.error.message).toContain('GetTask');
  });

  test('garbage JSON is -32700 with a null id', async () => {
    const body = await rpcError(await rpc('{"jsonrpc": "2.0", "id": 1, '));
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32700);
  });

  test('a body over maxBodyBytes is a 413 problem', async () => {
    const huge = request('SendMessage', {
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x'.repeat(10_000) }] },
    });
    await problem(await rpc(huge), 413);
  });

  test('a body that is not JSON is a 415 problem', async () => {
    const body = await problem(await rpc('hello', { 'content-type': 'text/plain' }), 415);
    expect(body.detail).toContain('text/plain');
  });

  test('a browser Origin that is not allowed is a 403 problem; an allowed one gets CORS headers', async () => {
    await problem(await rpc(request('ListTasks'), { origin: 'https://evil.example' }), 403);
    const allowed = await rpc(request('ListTasks'), { origin: 'https://app.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  test('an authenticated caller without an owner is a 401 problem from the agent', async () => {
    const body = await problem(await rpc(request('ListTasks'), { authorization: 'Bearer nobody' }), 401);
    expect(body.detail).toContain('could not be identified');
  });

  test('no credentials at all are refused by the authentication hook before the agent runs', async () => {
    const response = await rpc(request('ListTasks'), { authorization: '' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
  });

  test('a throwing agent is -32603 without its message when exposeInternalErrors is off', async () => {
    const body = await rpcError(
      await rpc(
        request('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'boom' }] } }),
      ),
    );
    expect(body.error).toEqual({ code: -32603, message: 'Internal error' });
  });

  test('streaming methods are -32004 and push-config methods -32003', async () => {
    expect((await rpcError(await rpc(request('SendStreamingMessage')))).error.code).toBe(-32004);
    expect((await rpcError(await rpc(request('SubscribeToTask', { id: 'x' })))).error.code).toBe(-32004);
    expect((await rpcError(await rpc(request('GetTaskPushNotificationConfig')))).error.code).toBe(-32003);
  });
});

describe('A2A agent over HTTP: the card', () => {
  test('is public, cacheable, revalidates with If-None-Match and is readable cross-origin', async () => {
    const url = `${agent.base}/.well-known/agent-card.json`;
    const first = await fetch(url, { headers: { origin: 'https://anyone.example' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(((await first.json()) as Json).supportedInterfaces[0].url).toBe(agent.rpcUrl);
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });
});
