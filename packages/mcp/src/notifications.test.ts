import { describe, expect, test } from 'bun:test';
import { createMcpHandler } from './handler.ts';
import { acceptsEventStream } from './notifications.ts';
import type { McpRequestContext } from './types.ts';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function handlerWith(run: (ctx: McpRequestContext) => Promise<void> | void) {
  return createMcpHandler({
    serverInfo: { name: 'n', version: '1' },
    tools: [
      {
        name: 'work',
        description: 'Reports while it works',
        inputSchema: { type: 'object' },
        handler: async (_args, ctx) => {
          await run(ctx);
          return 'done';
        },
      },
    ],
  });
}

function call(
  meta: Record<string, unknown> | undefined,
  accept = 'application/json, text/event-stream',
): Request {
  const modern = meta !== undefined && 'io.modelcontextprotocol/protocolVersion' in meta;
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept,
      ...(modern
        ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'work' }
        : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'work', _meta: meta },
    }),
  });
}

/** The JSON-RPC messages of an SSE body. */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) => {
      const [event, data] = block.split('\n');
      expect(event).toBe('event: message');
      return JSON.parse((data as string).slice('data: '.length));
    });
}

describe('acceptsEventStream', () => {
  test('is true when Accept lists text/event-stream, with or without parameters', () => {
    const at = (accept: string) => acceptsEventStream(new Request('http://x/', { headers: { accept } }));
    expect(at('application/json, text/event-stream')).toBe(true);
    expect(at('Text/Event-Stream;q=0.5')).toBe(true);
  });

  test('is false without it, without Accept, or with q=0', () => {
    const at = (accept: string) => acceptsEventStream(new Request('http://x/', { headers: { accept } }));
    expect(at('application/json')).toBe(false);
    expect(at('text/event-stream;q=0')).toBe(false);
    expect(acceptsEventStream(new Request('http://x/'))).toBe(false);
  });
});

describe('progress and log notifications', () => {
  test('progress before the result turns the answer into an event stream ending with the response', async () => {
    const handler = handlerWith(async (ctx) => {
      ctx.progress(1, 2, 'half');
      await Bun.sleep(2);
      ctx.progress(2, 2);
    });
    const response = await handler(call({ ...META, progressToken: 'tok' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const messages = await events(response);
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok', progress: 1, total: 2, message: 'half' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok', progress: 2, total: 2 },
      },
      {
        jsonrpc: '2.0',
        id: 7,
        result: expect.objectContaining({
          resultType: 'complete',
          content: [{ type: 'text', text: 'done' }],
        }),
      },
    ]);
  });

  test('progress values that do not increase are dropped', async () => {
    const handler = handlerWith((ctx) => {
      ctx.progress(5);
      ctx.progress(5);
      ctx.progress(3);
      ctx.progress(Number.NaN);
      ctx.progress(6);
    });
    const messages = await events(await handler(call({ ...META, progressToken: 1 })));
    expect(messages.slice(0, -1).map((m) => (m as { params: { progress: number } }).params.progress)).toEqual(
      [5, 6],
    );
  });

  test('without a progressToken, progress sends nothing and the answer stays JSON', async () => {
    const handler = handlerWith((ctx) => ctx.progress(1));
    const response = await handler(call(META));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(((await response.json()) as { id: number }).id).toBe(7);
  });

  test('a client that does not accept an event stream gets JSON; notifications are dropped', async () => {
    const handler = handlerWith((ctx) => ctx.progress(1));
    const response = await handler(call({ ...META, progressToken: 'tok' }, 'application/json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as { result: { content: unknown } };
    expect(body.result.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  test('modern log messages follow the request logLevel: at or above it only', async () => {
    const handler = handlerWith((ctx) => {
      ctx.log('debug', 'too low');
      ctx.log('warning', { disk: 91 }, 'monitor');
      ctx.log('error', 'bad');
    });
    const messages = await events(
      await handler(call({ ...META, 'io.modelcontextprotocol/logLevel': 'warning' })),
    );
    expect(messages.slice(0, -1)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', data: { disk: 91 }, logger: 'monitor' },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'bad' } },
    ]);
  });

  test('modern log messages are not sent when the request set no logLevel', async () => {
    const handler = handlerWith((ctx) => ctx.log('emergency', 'x'));
    const response = await handler(call(META));
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  test('legacy log messages are sent from info up', async () => {
    const handler = handlerWith((ctx) => {
      ctx.log('debug', 'hidden');
      ctx.log('info', 'shown');
    });
    const messages = await events(await handler(call(undefined)));
    expect(messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'shown' },
    });
    expect(messages).toHaveLength(2);
  });
});
