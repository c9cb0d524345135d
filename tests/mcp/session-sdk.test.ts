/**
 * Sessions through the official v1 client (`@modelcontextprotocol/sdk` 1.32.2,
 * StreamableHTTPClientTransport, legacy era) over real loopback HTTP (Bun.serve): the transport
 * keeps the minted `Mcp-Session-Id`, answers the server's sampling, elicitation and roots requests,
 * opens the GET stream by itself and receives resource updates on it, and ends the session with
 * DELETE, after which the server answers 404. A POST stream cut after its first event is resumed
 * by the client itself with GET and Last-Event-ID, and the tool's answer arrives there.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { memoryMcpSessionStore } from '@charter/mcp';
import { answeringClient, cutAfterFirstEvent } from './sdk-client-support.ts';
import { sessionHandler, WATCHED } from './session-support.ts';

const store = memoryMcpSessionStore();
const handler = sessionHandler({ store });
let server: ReturnType<typeof Bun.serve> | undefined;
let url: URL;

beforeAll(() => {
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => handler(request) });
  url = new URL(`http://127.0.0.1:${server.port}/mcp`);
});

afterAll(async () => {
  await server?.stop(true);
});

async function connect(
  options: ConstructorParameters<typeof StreamableHTTPClientTransport>[1] = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = answeringClient('session-test', 'Grace', 'file:///work');
  const transport = new StreamableHTTPClientTransport(url, options);
  await client.connect(transport);
  return { client, transport };
}

function text(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] as { text: string }).text;
}

describe('the v1 SDK client in a session', () => {
  test('the transport keeps the minted session id and the server declares resource subscriptions', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true });
    await client.close();
  });

  test('sampling, elicitation and roots requests are answered by the client’s handlers', async () => {
    const { client } = await connect();
    expect(text(await client.callTool({ name: 'ask_model', arguments: {} }))).toBe(
      'model said: from the sdk',
    );
    expect(text(await client.callTool({ name: 'ask_user', arguments: {} }))).toBe('hello Grace (asked)');
    expect(text(await client.callTool({ name: 'list_roots', arguments: {} }))).toBe('file:///work');
    await client.close();
  });

  test('a subscribed resource update arrives on the GET stream the client opened', async () => {
    const { client } = await connect();
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await client.subscribeResource({ uri: WATCHED });
    // The client opens its GET stream after the handshake, asynchronously: announce until it is there.
    let received: string | undefined;
    void updated.then((uri) => {
      received = uri;
    });
    for (let i = 0; i < 100 && received === undefined; i++) {
      await handler.notifyResourceUpdated(WATCHED);
      await Bun.sleep(50);
    }
    expect(received).toBe(WATCHED);
    await client.close();
  });

  test('terminateSession sends DELETE; the ended session then gets 404', async () => {
    const { client, transport } = await connect();
    const id = transport.sessionId as string;
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(404);
    await res.body?.cancel();
    await client.close();
  });

  test('a POST stream cut after its first event: the client resumes it with GET and Last-Event-ID and gets the answer', async () => {
    const seen: { method: string; lastEventId: string | null }[] = [];
    let cut = false;
    // Passes the tools/call stream through until its first event with an id, then fails it as a
    // dropped connection would.
    const cutting = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      seen.push({ method: request.method, lastEventId: request.headers.get('last-event-id') });
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const response = await fetch(request);
      const streamed = (response.headers.get('content-type') ?? '').includes('text/event-stream');
      if (cut || !body.includes('"tools/call"') || !streamed) return response;
      cut = true;
      return cutAfterFirstEvent(response);
    };
    const { client } = await connect({
      fetch: cutting,
      reconnectionOptions: {
        initialReconnectionDelay: 50,
        maxReconnectionDelay: 500,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 5,
      },
    });
    expect(text(await client.callTool({ name: 'ask_model', arguments: {} }))).toBe(
      'model said: from the sdk',
    );
    expect(cut).toBe(true);
    const resumes = seen.filter((each) => each.method === 'GET' && each.lastEventId !== null);
    expect(resumes.length).toBe(1);
    // Cut after the priming event (`.1`), or after the request too when both came in one chunk.
    expect(resumes[0]?.lastEventId).toMatch(/^[A-Za-z0-9_-]{16}\.[12]$/);
    await client.close();
  });
});
