/**
 * What the session tests share: a small tool server with a session store (tools that ask the client,
 * one resource), the legacy handshake done by hand, and an SSE reader for the answers and the GET
 * stream.
 */
import { expect } from 'bun:test';
import {
  createMcpHandler,
  inputRequired,
  type McpHandler,
  type McpHandlerOptions,
  type McpRequestContext,
  type McpSessionStore,
  memoryMcpSessionStore,
} from '@charter/mcp';

export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';
export const WATCHED = 'notes://today';

/** Every request context a tool saw, for assertions on what a session carries. */
export const seen: McpRequestContext[] = [];

/** A handler over `store` (a fresh memory store by default); `options` override the fixture's. */
export function sessionHandler(
  options: Partial<McpHandlerOptions> & { store?: McpSessionStore } = {},
): McpHandler {
  const { store, ...rest } = options;
  return createMcpHandler({
    serverInfo: { name: 'sessions-fixture', version: '1.0.0' },
    tools: [
      {
        name: 'inspect',
        description: 'Records its context',
        inputSchema: { type: 'object', properties: {} },
        handler: (_args, ctx) => {
          seen.push(ctx);
          ctx.log('info', 'inspected');
          return 'ok';
        },
      },
      {
        name: 'ask_model',
        description: 'Samples through ctx.sample',
        inputSchema: { type: 'object', properties: {} },
        handler: async (_args, ctx) => {
          const answer = await ctx.sample({
            messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
            maxTokens: 10,
          });
          return `model said: ${(answer.content as { text: string }).text}`;
        },
      },
      {
        name: 'ask_user',
        description: 'Elicits through an input-required answer',
        inputSchema: { type: 'object', properties: {} },
        handler: (_args, ctx) => {
          const reply = ctx.inputResponses?.name as
            | { action?: string; content?: { name?: string } }
            | undefined;
          if (reply === undefined) {
            return inputRequired({
              inputRequests: {
                name: {
                  method: 'elicitation/create',
                  params: {
                    message: 'Your name?',
                    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
                  },
                },
              },
              requestState: 'asked',
            });
          }
          return `hello ${reply.content?.name} (${String(ctx.requestState)})`;
        },
      },
      {
        name: 'list_roots',
        description: 'Lists the client roots',
        inputSchema: { type: 'object', properties: {} },
        handler: async (_args, ctx) => {
          const { roots } = (await ctx.listRoots({ timeoutMs: 5_000 })) as { roots: { uri: string }[] };
          return roots.map((root) => root.uri).join(',');
        },
      },
    ],
    resources: [{ uri: WATCHED, name: 'today', read: () => 'notes of today' }],
    exposeInternalErrors: true,
    onError: () => {},
    ...rest,
    sessions: rest.sessions ?? { store: store ?? memoryMcpSessionStore() },
  });
}

/** A stateless handler: the same catalog, no store. */
export function statelessHandler(): McpHandler {
  return createMcpHandler({
    serverInfo: { name: 'sessions-fixture', version: '1.0.0' },
    tools: [
      {
        name: 'ask_model',
        description: 'Samples through ctx.sample',
        inputSchema: { type: 'object', properties: {} },
        handler: async (_args, ctx) => {
          await ctx.sample({ messages: [], maxTokens: 1 });
          return 'unreachable';
        },
      },
    ],
    resources: [{ uri: WATCHED, name: 'today', read: () => 'notes of today' }],
    exposeInternalErrors: true,
    onError: () => {},
  });
}

let nextId = 1;

/** A JSON-RPC request body. */
export function rpc(method: string, params: Record<string, unknown> = {}, id: string | number = nextId++) {
  return { jsonrpc: '2.0', id, method, params };
}

/** Sends to the handler at `/mcp`. */
export function call(
  handler: McpHandler,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Response> {
  const method = init.method ?? 'POST';
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    ...init.headers,
  };
  return handler(
    new Request('http://127.0.0.1/mcp', {
      method,
      headers,
      body: init.body === undefined ? null : JSON.stringify(init.body),
    }),
  );
}

/** The legacy handshake: initialize, then notifications/initialized. Returns the session id. */
export async function initialize(
  handler: McpHandler,
  capabilities: Record<string, unknown> = { sampling: {}, elicitation: {}, roots: {} },
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await call(handler, {
    headers,
    body: rpc('initialize', {
      protocolVersion: LEGACY,
      capabilities,
      clientInfo: { name: 'test', version: '1' },
    }),
  });
  expect(res.status).toBe(200);
  const id = res.headers.get('mcp-session-id');
  expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const done = await call(handler, {
    headers: { 'mcp-session-id': id as string, 'mcp-protocol-version': LEGACY, ...headers },
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  expect(done.status).toBe(202);
  return id as string;
}

/** Headers of a request inside session `id`. */
export function inSession(id: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'mcp-session-id': id, 'mcp-protocol-version': LEGACY, ...extra };
}

/** Reads SSE `message` events of a stream one at a time (comment lines skipped). */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = '';
  /** The `id:` of the last event read (a message, or a priming event with empty data), if it had one. */
  lastId: string | undefined;
  /** Every `id:` read so far, in order. */
  readonly ids: string[] = [];

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (body === null) throw new Error('no body');
    this.#reader = body.getReader();
  }

  /** The next message, parsed; undefined when the stream ended. Fails after `timeoutMs`. */
  async next(timeoutMs = 10_000): Promise<Record<string, unknown> | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        const id = block
          .split('\n')
          .find((line) => line.startsWith('id: '))
          ?.slice(4);
        if (id !== undefined) this.ids.push(id);
        if (data.length > 0 || id !== undefined) this.lastId = id;
        if (data.length > 0) return JSON.parse(data) as Record<string, unknown>;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no SSE event in time');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        this.#reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no SSE event in time')), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) return undefined;
      this.#buffer += this.#decoder.decode(chunk.value, { stream: true });
    }
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

/** A store whose every call fails, as a Redis that is down would after its deadline. */
export function brokenStore(): McpSessionStore {
  const down = async (): Promise<never> => {
    throw new Error('store down');
  };
  return { set: down, get: down, replaceIf: down, delete: down, publish: down, subscribe: down };
}

/**
 * Many changes of one session at once, spread over two handlers sharing `store` (issue 24: records
 * change by compare-and-set, so none is lost): 20 URIs subscribed beforehand are unsubscribed while
 * 40 others are subscribed, half of each through each handler, with a `logging/setLevel` among them.
 * Checks every answer and that the stored record ends with exactly the 40 new URIs.
 */
export async function changeOneSessionAtOnce(
  a: McpHandler,
  b: McpHandler,
  store: McpSessionStore,
): Promise<void> {
  const id = await initialize(a);
  const before = await store.get(id);
  const old = Array.from({ length: 20 }, (_, i) => `notes://old/${i}`);
  const added = Array.from({ length: 40 }, (_, i) => `notes://new/${i}`);
  const send = (handler: McpHandler, method: string, params: Record<string, unknown>) =>
    call(handler, { headers: inSession(id), body: rpc(method, params) });
  await Promise.all(old.map((uri, i) => send(i % 2 === 0 ? a : b, 'resources/subscribe', { uri })));
  expect([...((await store.get(id))?.subscriptions ?? [])].sort()).toEqual([...old].sort());
  const answers = await Promise.all([
    ...added.map((uri, i) => send(i % 2 === 0 ? b : a, 'resources/subscribe', { uri })),
    ...old.map((uri, i) => send(i % 2 === 0 ? a : b, 'resources/unsubscribe', { uri })),
    send(b, 'logging/setLevel', { level: 'warning' }),
  ]);
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { result?: unknown }).result).toEqual({});
  }
  const after = await store.get(id);
  expect([...(after?.subscriptions ?? [])].sort()).toEqual([...added].sort());
  expect(after?.logLevel).toBe('warning');
  expect(after?.clientCapabilities).toEqual(before?.clientCapabilities ?? {});
  expect(after?.protocolVersion).toBe(LEGACY);
}

/** The store contract's compare-and-set, on any store: written only over the record as read. */
export async function checkReplaceIf(store: McpSessionStore): Promise<void> {
  const id = `cas-${crypto.randomUUID()}`;
  const record = {
    protocolVersion: LEGACY,
    clientCapabilities: { sampling: {} },
    subscriptions: ['a://1'],
    expiresAt: Date.now() + 60_000,
  };
  expect(await store.replaceIf(id, record, record)).toBe(false);
  await store.set(id, record);
  const read = (await store.get(id)) as typeof record;
  const first = { ...read, subscriptions: ['a://1', 'a://2'] };
  expect(await store.replaceIf(id, first, read)).toBe(true);
  // The same expected record again is stale now: another write came first.
  expect(await store.replaceIf(id, { ...read, subscriptions: [] }, read)).toBe(false);
  expect((await store.get(id))?.subscriptions).toEqual(['a://1', 'a://2']);
  // An expiry in the past ends the session.
  const current = (await store.get(id)) as typeof record;
  expect(await store.replaceIf(id, { ...current, expiresAt: Date.now() - 1 }, current)).toBe(true);
  expect(await store.get(id)).toBeUndefined();
  expect(await store.replaceIf(id, current, current)).toBe(false);
}
