/**
 * Server-to-client requests in the legacy era (MCP 2025-11-25 "Sampling", "Elicitation", "Roots"):
 * sent on the POST's own event stream (or on the session's GET stream when the POST takes JSON
 * only), answered by a later POST of the same session, on any instance sharing the store; with a
 * deadline. Both ways in: `ctx.sample` / `ctx.listRoots`, and an `inputRequired(...)` answer the
 * transport fulfils by asking the client.
 */
import { describe, expect, test } from 'bun:test';
import { memoryMcpSessionStore } from '@charter/mcp';
import { call, initialize, inSession, rpc, SseReader, sessionHandler } from './session-support.ts';

function answer(id: unknown, result: Record<string, unknown>) {
  return { jsonrpc: '2.0', id, result };
}

const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'hi there' },
  model: 'm',
  stopReason: 'endTurn',
};

describe('ctx.sample on the POST stream', () => {
  test('the request goes out on the POST stream, the answer comes by a later POST, the tool finishes', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    const res = await call(handler, {
      headers: inSession(id),
      body: rpc('tools/call', { name: 'ask_model' }, 'c1'),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = new SseReader(res.body);
    const request = (await events.next()) as { id: string; method: string; params: Record<string, unknown> };
    expect(request.method).toBe('sampling/createMessage');
    expect(request.id).toMatch(/^charter-[A-Za-z0-9_-]{16}$/);
    expect(request.params.maxTokens).toBe(10);
    const reply = await call(handler, { headers: inSession(id), body: answer(request.id, SAMPLED) });
    expect(reply.status).toBe(202);
    expect(await events.next()).toEqual({
      jsonrpc: '2.0',
      id: 'c1',
      result: { content: [{ type: 'text', text: 'model said: hi there' }] },
    });
    expect(await events.next()).toBeUndefined();
  });

  test('answered through another instance on the same store', async () => {
    const store = memoryMcpSessionStore();
    const a = sessionHandler({ store });
    const b = sessionHandler({ store });
    const id = await initialize(a);
    const events = new SseReader(
      (await call(a, { headers: inSession(id), body: rpc('tools/call', { name: 'ask_model' }, 'c2') })).body,
    );
    const request = (await events.next()) as { id: string };
    expect((await call(b, { headers: inSession(id), body: answer(request.id, SAMPLED) })).status).toBe(202);
    expect(((await events.next()) as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'model said: hi there' }],
    });
  });

  test('a client error answer fails the tool call with the client’s message', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    const events = new SseReader(
      (await call(handler, { headers: inSession(id), body: rpc('tools/call', { name: 'ask_model' }, 'c3') }))
        .body,
    );
    const request = (await events.next()) as { id: string };
    await call(handler, {
      headers: inSession(id),
      body: { jsonrpc: '2.0', id: request.id, error: { code: -1, message: 'User rejected sampling' } },
    });
    const final = (await events.next()) as { id: string; error: { code: number; message: string } };
    expect(final.id).toBe('c3');
    expect(final.error.code).toBe(-32603);
    expect(final.error.message).toContain(
      'The client refused sampling/createMessage: User rejected sampling',
    );
  });

  test('no answer within the deadline: -32001 naming the method', async () => {
    const handler = sessionHandler({
      sessions: { store: memoryMcpSessionStore(), clientRequestTimeoutMs: 50 },
    });
    const id = await initialize(handler);
    const events = new SseReader(
      (await call(handler, { headers: inSession(id), body: rpc('tools/call', { name: 'ask_model' }, 'c4') }))
        .body,
    );
    expect(((await events.next()) as { method: string }).method).toBe('sampling/createMessage');
    const final = (await events.next()) as { error: { code: number; message: string } };
    expect(final.error.code).toBe(-32001);
    expect(final.error.message).toContain('did not answer sampling/createMessage within 50 ms');
  });

  test('a client that did not declare sampling gets -32021 naming it; nothing is sent', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler, { elicitation: {} });
    const res = await call(handler, {
      headers: inSession(id),
      body: rpc('tools/call', { name: 'ask_model' }, 'c5'),
    });
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { error: { code: number; message: string; data: unknown } };
    expect(body.error.code).toBe(-32021);
    expect(body.error.data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  test('an answer to a request nobody waits for is accepted and dropped', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    expect(
      (await call(handler, { headers: inSession(id), body: answer('charter-unknown', SAMPLED) })).status,
    ).toBe(202);
  });
});

describe('on the GET stream when the POST takes JSON only', () => {
  test('ctx.listRoots asks on the session stream; the POST answers JSON once the client replied', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    const stream = new SseReader(
      (await call(handler, { method: 'GET', headers: inSession(id, { accept: 'text/event-stream' }) })).body,
    );
    const pending = call(handler, {
      headers: inSession(id, { accept: 'application/json' }),
      body: rpc('tools/call', { name: 'list_roots' }, 'r1'),
    });
    const request = (await stream.next()) as { id: string; method: string };
    expect(request.method).toBe('roots/list');
    await call(handler, {
      headers: inSession(id),
      body: answer(request.id, { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] }),
    });
    const res = await pending;
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(((await res.json()) as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'file:///a,file:///b' }],
    });
    await stream.cancel();
  });
});

describe('inputRequired answers fulfilled in a legacy session', () => {
  test('the elicitation goes to the client, the handler runs again with inputResponses and its requestState', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    const events = new SseReader(
      (await call(handler, { headers: inSession(id), body: rpc('tools/call', { name: 'ask_user' }, 'e1') }))
        .body,
    );
    const request = (await events.next()) as { id: string; method: string; params: { message: string } };
    expect(request.method).toBe('elicitation/create');
    expect(request.params.message).toBe('Your name?');
    await call(handler, {
      headers: inSession(id),
      body: answer(request.id, { action: 'accept', content: { name: 'Ada' } }),
    });
    expect(((await events.next()) as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'hello Ada (asked)' }],
    });
  });

  test('outside a session the legacy era still refuses an input-required answer (-32603)', async () => {
    const { createMcpHandler, inputRequired } = await import('@charter/mcp');
    const handler = createMcpHandler({
      serverInfo: { name: 'x', version: '1' },
      tools: [
        {
          name: 'ask',
          description: 'asks',
          inputSchema: { type: 'object', properties: {} },
          handler: () => inputRequired({ inputRequests: { a: { method: 'roots/list' } } }),
        },
      ],
    });
    const res = await call(handler, { body: rpc('tools/call', { name: 'ask' }, 'e2') });
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain('use 2026-07-28');
  });
});

describe('idle streams of a session stay open', () => {
  /** Reads raw text until it contains `needle`. */
  async function readUntil(body: ReadableStream<Uint8Array> | null, needle: string): Promise<string> {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(needle)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    await reader.cancel().catch(() => {});
    return text;
  }

  test('the GET stream and a POST stream waiting on the client send a keepalive comment within 8 s', async () => {
    const handler = sessionHandler();
    const id = await initialize(handler);
    const get = await call(handler, {
      method: 'GET',
      headers: inSession(id, { accept: 'text/event-stream' }),
    });
    const post = await call(handler, {
      headers: inSession(id),
      body: rpc('tools/call', { name: 'ask_model' }, 'k'),
    });
    const [getText, postText] = await Promise.all([
      readUntil(get.body, ': keepalive\n\n'),
      readUntil(post.body, ': keepalive\n\n'),
    ]);
    expect(getText.startsWith(': stream open\n\n')).toBe(true);
    expect(getText).toContain(': keepalive\n\n');
    // The sampling request went first, then the comment kept the stream alive while nobody answered.
    expect(postText).toContain('"method":"sampling/createMessage"');
    expect(postText).toContain(': keepalive\n\n');
    // Answer, so the tool does not wait out its deadline after the test.
    const requestId = /"id":"(charter-[A-Za-z0-9_-]+)"/.exec(postText)?.[1];
    const reply = await call(handler, { headers: inSession(id), body: answer(requestId, SAMPLED) });
    expect(reply.status).toBe(202);
  }, 30_000);
});
