/**
 * `subscriptions/listen` (MCP 2026-07-28) in one process, through an App and on a bare handler:
 * the acknowledgement first (subscription id = the request id, the honoured subset of the filter),
 * then only opted-in resource updates, tagged; keepalive comments; the graceful end with the listen
 * result; the client closing the stream freeing its budget and store subscription; and the bad
 * paths: no text/event-stream in Accept (406), a malformed filter, too many URIs, too many streams
 * per caller and per instance (-32602 naming the limit), the modern ladder still applying, a store
 * that is down (503), and the option checks.
 */
import { describe, expect, test } from 'bun:test';
import { generateOpenAPI } from '@charter/openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  closeMcpListenStreams,
  createMcpHandler,
  MCP_MAX_UNREAD_LISTEN_MESSAGES,
  type McpHandler,
  type McpSessionStore,
  mcpListenStreamCount,
  memoryMcpSessionStore,
} from '@charter/mcp';
import {
  EventReader,
  eventually,
  expectAcknowledged,
  expectEventStream,
  listenBody,
  SUBSCRIPTION_ID,
  updated,
} from './listen-support.ts';
import { brokenStore, call, initialize, inSession, SseReader } from './session-support.ts';
import {
  createFixture,
  expectRpcError,
  fixtureOptions,
  legacyPost,
  modernPost,
  RESOURCE_URIS,
  rpc,
  SERVER_INFO,
} from './support.ts';

const [README, CHANGELOG, LICENSE] = RESOURCE_URIS;

/** A bare handler of the fixture's catalog with these options. */
function handlerWith(options: Parameters<typeof createMcpHandler>[0] extends infer O ? Partial<O> : never) {
  return createMcpHandler(fixtureOptions([], [], options));
}

/** A memory store that counts its live subscriptions: a real store, observed. */
function countingStore(): { store: McpSessionStore; live: () => number } {
  const inner = memoryMcpSessionStore();
  let live = 0;
  const store: McpSessionStore = {
    ...inner,
    async subscribe(channel, listener) {
      const stop = await inner.subscribe(channel, listener);
      live++;
      let stopped = false;
      return async () => {
        if (!stopped) live--;
        stopped = true;
        await stop();
      };
    },
  };
  return { store, live: () => live };
}

describe('subscriptions/listen: the stream', () => {
  test('through an App: 200 text/event-stream, no-store; the acknowledgement comes first with the honoured filter', async () => {
    const fx = createFixture();
    const res = await modernPost(
      fx.app,
      listenBody(
        {
          resourceSubscriptions: [README, CHANGELOG, README],
          toolsListChanged: true,
          promptsListChanged: false,
          resourcesListChanged: true,
          'com.example/futureType': true,
        },
        'sub-α',
      ),
    );
    const reader = expectEventStream(res);
    // Duplicates dropped; list-changed types (the catalog never changes) and a type this server does
    // not know are left out, as the acknowledgement's "subset honoured" says.
    expect(await expectAcknowledged(reader, 'sub-α')).toEqual({ resourceSubscriptions: [README, CHANGELOG] });
    expect(mcpListenStreamCount(fx.handler)).toBe(1);
    await reader.cancel();
    await eventually(() => mcpListenStreamCount(fx.handler) === 0);
  });

  test('a change announced after the acknowledgement arrives, tagged; a URI not opted into does not', async () => {
    const fx = createFixture();
    const reader = expectEventStream(
      await modernPost(fx.app, listenBody({ resourceSubscriptions: [README] }, 7)),
    );
    await expectAcknowledged(reader, 7);
    await fx.handler.notifyResourceUpdated(CHANGELOG);
    await fx.handler.notifyResourceUpdated(README);
    // The first message after the acknowledgement is README's: CHANGELOG's was never sent.
    expect(await reader.message()).toEqual(updated(README, 7));
    await fx.handler.notifyResourceUpdated(README);
    expect(await reader.message()).toEqual(updated(README, 7));
    await reader.cancel();
  });

  test('a stream that opted into no resource gets no update; the graceful end sends the listen result', async () => {
    const fx = createFixture();
    const reader = expectEventStream(
      await modernPost(fx.app, listenBody({ toolsListChanged: true }, 'tools')),
    );
    expect(await expectAcknowledged(reader, 'tools')).toEqual({});
    await fx.handler.notifyResourceUpdated(README);
    closeMcpListenStreams(fx.handler);
    // Next is the result, not an update: SubscriptionsListenResult, id and subscription id equal.
    expect(await reader.message()).toEqual({
      jsonrpc: '2.0',
      id: 'tools',
      result: {
        resultType: 'complete',
        _meta: { [SUBSCRIPTION_ID]: 'tools', 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      },
    });
    expect(await reader.next()).toBeUndefined();
    expect(mcpListenStreamCount(fx.handler)).toBe(0);
  });

  test('an idle stream carries keepalive comment lines at the configured interval', async () => {
    const fx = createFixture({ handler: { listen: { keepaliveMs: 20 } } });
    const reader = expectEventStream(
      await modernPost(fx.app, listenBody({ resourceSubscriptions: [README] }, 1)),
    );
    await expectAcknowledged(reader, 1);
    expect(await reader.next()).toEqual({ comment: ': keepalive' });
    expect(await reader.next()).toEqual({ comment: ': keepalive' });
    await reader.cancel();
  });

  test('several streams each get the update for their own URIs, each with its own subscription id', async () => {
    const handler = handlerWith({});
    const a = expectEventStream(
      await modernPost(handler, listenBody({ resourceSubscriptions: [README] }, 'a')),
    );
    const b = expectEventStream(
      await modernPost(handler, listenBody({ resourceSubscriptions: [README, LICENSE] }, 'b')),
    );
    await expectAcknowledged(a, 'a');
    await expectAcknowledged(b, 'b');
    await handler.notifyResourceUpdated(LICENSE);
    await handler.notifyResourceUpdated(README);
    expect(await b.message()).toEqual(updated(LICENSE, 'b'));
    expect(await b.message()).toEqual(updated(README, 'b'));
    expect(await a.message()).toEqual(updated(README, 'a'));
    await a.cancel();
    await b.cancel();
  });

  test('with a sessions store, one announcement reaches a legacy GET stream and a listen stream alike', async () => {
    const handler = handlerWith({ sessions: { store: memoryMcpSessionStore() } });
    // Legacy: a session subscribed to README, with its GET stream open.
    const session = await initialize(handler);
    const subscribed = await call(handler, {
      headers: inSession(session),
      body: rpc('resources/subscribe', { uri: README }, 'sub'),
    });
    expect(((await subscribed.json()) as { result: unknown }).result).toEqual({});
    const get = await call(handler, {
      method: 'GET',
      headers: inSession(session, { accept: 'text/event-stream' }),
    });
    expect(get.status).toBe(200);
    const legacy = new SseReader(get.body);
    // Modern: a listen stream on README.
    const listen = expectEventStream(
      await modernPost(handler, listenBody({ resourceSubscriptions: [README] }, 3)),
    );
    await expectAcknowledged(listen, 3);
    await handler.notifyResourceUpdated(README);
    expect(await listen.message()).toEqual(updated(README, 3));
    // The legacy notification has no subscription id: that key belongs to listen streams.
    expect(await legacy.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: README },
    });
    await listen.cancel();
    await legacy.cancel();
  });
});

describe('subscriptions/listen: closing frees everything', () => {
  test('the client closing the body: the stream, its place in the budget and its store subscription are freed', async () => {
    const { store, live } = countingStore();
    const handler = handlerWith({ sessions: { store }, listen: { maxStreamsPerCaller: 1 } });
    const reader = expectEventStream(
      await modernPost(handler, listenBody({ resourceSubscriptions: [README] }, 1)),
    );
    await expectAcknowledged(reader, 1);
    expect([mcpListenStreamCount(handler), live()]).toEqual([1, 1]);
    await reader.cancel();
    await eventually(() => mcpListenStreamCount(handler) === 0 && live() === 0);
    // The caller's one place is free again.
    const again = expectEventStream(
      await modernPost(handler, listenBody({ resourceSubscriptions: [README] }, 2)),
    );
    await expectAcknowledged(again, 2);
    await again.cancel();
    await eventually(() => mcpListenStreamCount(handler) === 0 && live() === 0);
  });

  test('the request aborted (the connection dropped) frees it the same way', async () => {
    const { store, live } = countingStore();
    const handler = handlerWith({ sessions: { store } });
    const abort = new AbortController();
    const body = listenBody({ resourceSubscriptions: [README] }, 1);
    const res = await handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'subscriptions/listen',
        },
        body: JSON.stringify(body),
        signal: abort.signal,
      }),
    );
    const reader = expectEventStream(res);
    await expectAcknowledged(reader, 1);
    abort.abort();
    expect(await reader.next()).toBeUndefined();
    await eventually(() => mcpListenStreamCount(handler) === 0 && live() === 0);
    // Nothing is written to a closed stream.
    await handler.notifyResourceUpdated(README);
  });

  test(`a client that stops reading loses its stream after ${MCP_MAX_UNREAD_LISTEN_MESSAGES} unread messages, not the server's memory`, async () => {
    const handler = handlerWith({});
    const res = await modernPost(handler, listenBody({ resourceSubscriptions: [README] }, 'slow'));
    // Nothing reads the body while the updates come.
    for (let i = 1; i < MCP_MAX_UNREAD_LISTEN_MESSAGES; i++) await handler.notifyResourceUpdated(README);
    expect(mcpListenStreamCount(handler)).toBe(1);
    await handler.notifyResourceUpdated(README);
    expect(mcpListenStreamCount(handler)).toBe(0);
    // What was queued is still delivered, then the stream ends without the listen result (not graceful).
    const reader = expectEventStream(res);
    await expectAcknowledged(reader, 'slow');
    let updates = 0;
    for (let message = await reader.message(); message !== undefined; message = await reader.message()) {
      expect(message).toEqual(updated(README, 'slow'));
      updates++;
    }
    expect(updates).toBe(MCP_MAX_UNREAD_LISTEN_MESSAGES);
  });

  test('the graceful end frees the budget too', async () => {
    const handler = handlerWith({ listen: { maxStreamsPerCaller: 1 } });
    const first = expectEventStream(await modernPost(handler, listenBody({}, 1)));
    await expectAcknowledged(first, 1);
    closeMcpListenStreams(handler);
    expect((await first.message())?.id).toBe(1);
    expect(await first.next()).toBeUndefined();
    const second = expectEventStream(await modernPost(handler, listenBody({}, 2)));
    await expectAcknowledged(second, 2);
    await second.cancel();
  });
});

describe('subscriptions/listen: refusals', () => {
  test('Accept without text/event-stream: 406 problem (the only answer is a stream)', async () => {
    const fx = createFixture();
    for (const accept of ['application/json', 'application/json, text/event-stream;q=0']) {
      const res = await modernPost(fx.app, listenBody({ resourceSubscriptions: [README] }, 1), { accept });
      expect(res.status).toBe(406);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = (await res.json()) as Record<string, unknown>;
      // 406 has no entry in the error catalog: RFC 9457 §4.2.1's about:blank.
      expect(body).toMatchObject({ type: 'about:blank', status: 406, title: 'Not Acceptable' });
      expect(String(body.detail)).toContain('Accept: text/event-stream');
    }
    expect(mcpListenStreamCount(fx.handler)).toBe(0);
  });

  test('a legacy-era subscriptions/listen is an unknown method (200 -32601), Accept or not', async () => {
    const fx = createFixture();
    await expectRpcError(
      await legacyPost(fx.app, rpc('subscriptions/listen', { notifications: {} }, 4), {
        accept: 'application/json',
      }),
      {
        status: 200,
        code: -32601,
        id: 4,
        message: 'subscriptions/listen',
      },
    );
  });

  test('the modern ladder still applies: no Mcp-Method header is -32020', async () => {
    const fx = createFixture();
    await expectRpcError(await modernPost(fx.app, listenBody({}, 5), { 'mcp-method': null }), {
      status: 400,
      code: -32020,
      id: 5,
      message: 'Mcp-Method',
    });
    await expectRpcError(await modernPost(fx.app, listenBody({}, 6), { 'mcp-method': 'tools/list' }), {
      status: 400,
      code: -32020,
      id: 6,
      message: 'Mcp-Method',
    });
  });

  const malformed: readonly [string, unknown, string][] = [
    ['no notifications', undefined, 'params.notifications'],
    ['notifications an array', [], 'params.notifications'],
    ['notifications null', null, 'params.notifications'],
    ['toolsListChanged a string', { toolsListChanged: 'yes' }, 'toolsListChanged must be a boolean'],
    ['resourcesListChanged a number', { resourcesListChanged: 1 }, 'resourcesListChanged must be a boolean'],
    ['resourceSubscriptions a string', { resourceSubscriptions: README }, 'must be an array'],
    ['a URI that is a number', { resourceSubscriptions: [README, 5] }, 'resourceSubscriptions[1]'],
    ['an empty URI', { resourceSubscriptions: [''] }, 'resourceSubscriptions[0]'],
    ['a relative reference', { resourceSubscriptions: ['readme.md'] }, 'not an absolute URI'],
    ['a URI with a space', { resourceSubscriptions: ['docs://read me'] }, 'not an absolute URI'],
    ['a URI with a newline', { resourceSubscriptions: ['docs://readme\n'] }, 'not an absolute URI'],
    ['a URI too long', { resourceSubscriptions: [`docs://${'a'.repeat(9000)}`] }, 'longer than 8192'],
  ];
  for (const [name, notifications, message] of malformed) {
    test(`${name}: -32602, no stream`, async () => {
      const fx = createFixture();
      const params = notifications === undefined ? {} : { notifications };
      const body = listenBody(undefined, 9);
      const sent = { ...body, params: { ...params, _meta: (body.params as { _meta: unknown })._meta } };
      const error = await expectRpcError(await modernPost(fx.app, sent), {
        status: 200,
        code: -32602,
        id: 9,
        message,
      });
      expect(error.message).not.toContain('\n');
      expect(mcpListenStreamCount(fx.handler)).toBe(0);
    });
  }

  test('more URIs than listen.maxResourceSubscriptions: -32602 naming the limit', async () => {
    const fx = createFixture({ handler: { listen: { maxResourceSubscriptions: 2 } } });
    const ok = expectEventStream(
      await modernPost(fx.app, listenBody({ resourceSubscriptions: [README, LICENSE] }, 1)),
    );
    await expectAcknowledged(ok, 1);
    await ok.cancel();
    const error = await expectRpcError(
      await modernPost(fx.app, listenBody({ resourceSubscriptions: [README, LICENSE, CHANGELOG] }, 2)),
      { status: 200, code: -32602, id: 2, message: 'listen.maxResourceSubscriptions' },
    );
    expect(error.data).toEqual({ limit: 'maxResourceSubscriptions', max: 2 });
  });

  test('more streams than listen.maxStreamsPerCaller for one credential: -32602; another credential is served', async () => {
    const fx = createFixture({ handler: { listen: { maxStreamsPerCaller: 2 } } });
    const alice = { authorization: 'Bearer alice' };
    const open: EventReader[] = [];
    for (const id of [1, 2]) {
      const reader = expectEventStream(await modernPost(fx.app, listenBody({}, id), alice));
      await expectAcknowledged(reader, id);
      open.push(reader);
    }
    const error = await expectRpcError(await modernPost(fx.app, listenBody({}, 3), alice), {
      status: 200,
      code: -32602,
      id: 3,
      message: 'listen.maxStreamsPerCaller',
    });
    expect(error.data).toEqual({ limit: 'maxStreamsPerCaller', max: 2 });
    const bob = expectEventStream(
      await modernPost(fx.app, listenBody({}, 4), { authorization: 'Bearer bob' }),
    );
    await expectAcknowledged(bob, 4);
    // Alice closes one: she may open one again.
    await open[0]?.cancel();
    await eventually(() => mcpListenStreamCount(fx.handler) === 2);
    const again = expectEventStream(await modernPost(fx.app, listenBody({}, 5), alice));
    await expectAcknowledged(again, 5);
    for (const reader of [again, bob, open[1] as EventReader]) await reader.cancel();
    await eventually(() => mcpListenStreamCount(fx.handler) === 0);
  });

  test('requestStatePrincipal decides who the caller is', async () => {
    const handler = handlerWith({
      listen: { maxStreamsPerCaller: 1 },
      requestStatePrincipal: (request) => request.headers.get('x-tenant') ?? undefined,
    });
    const one = expectEventStream(
      await modernPost(handler, listenBody({}, 1), { 'x-tenant': 't1', authorization: 'Bearer a' }),
    );
    await expectAcknowledged(one, 1);
    // Another token, same tenant: the same caller.
    await expectRpcError(
      await modernPost(handler, listenBody({}, 2), { 'x-tenant': 't1', authorization: 'Bearer b' }),
      {
        status: 200,
        code: -32602,
        id: 2,
        message: 'maxStreamsPerCaller',
      },
    );
    await one.cancel();
  });

  test('more streams than listen.maxStreams on the instance: -32602 naming the limit', async () => {
    const handler = handlerWith({ listen: { maxStreams: 2 } });
    const readers: EventReader[] = [];
    for (const who of ['a', 'b']) {
      const reader = expectEventStream(
        await modernPost(handler, listenBody({}, who), { authorization: `Bearer ${who}` }),
      );
      await expectAcknowledged(reader, who);
      readers.push(reader);
    }
    const error = await expectRpcError(
      await modernPost(handler, listenBody({}, 'c'), { authorization: 'Bearer c' }),
      {
        status: 200,
        code: -32602,
        id: 'c',
        message: 'listen.maxStreams',
      },
    );
    expect(error.data).toEqual({ limit: 'maxStreams', max: 2 });
    for (const reader of readers) await reader.cancel();
  });

  test('a server without resources has nothing to notify: 404 -32601 (and discover declares no subscribe)', async () => {
    const handler = handlerWith({ resources: [], resourceTemplates: [] });
    await expectRpcError(await modernPost(handler, listenBody({ toolsListChanged: true }, 1)), {
      status: 404,
      code: -32601,
      id: 1,
      message: 'nothing to notify',
    });
  });

  test('a sessions store that is down: 503 -32603, and the budget is not kept', async () => {
    const handler = handlerWith({ sessions: { store: brokenStore() }, listen: { maxStreamsPerCaller: 1 } });
    for (const id of [1, 2]) {
      await expectRpcError(await modernPost(handler, listenBody({ resourceSubscriptions: [README] }, id)), {
        status: 503,
        code: -32603,
        id,
        message: 'unavailable',
      });
    }
    expect(mcpListenStreamCount(handler)).toBe(0);
  });
});

describe('subscriptions/listen: options', () => {
  const bad: readonly [unknown, string][] = [
    [[], 'must be an object'],
    [{ maxStreams: 0 }, 'listen.maxStreams'],
    [{ maxStreamsPerCaller: 1.5 }, 'listen.maxStreamsPerCaller'],
    [{ keepaliveMs: '10' }, 'listen.keepaliveMs'],
    [{ maxResourceSubscriptions: -1 }, 'listen.maxResourceSubscriptions'],
    [{ maxStream: 3 }, 'unknown field "maxStream"'],
  ];
  for (const [listen, message] of bad) {
    test(`listen: ${JSON.stringify(listen)} is refused at startup`, () => {
      expect(() => handlerWith({ listen: listen as never })).toThrow(message);
    });
  }

  test('closeMcpListenStreams refuses what is not a handler', () => {
    expect(() => closeMcpListenStreams({} as McpHandler)).toThrow('createMcpHandler');
  });
});

describe('subscriptions/listen in the OpenAPI document of mcpRoutes', () => {
  test('the POST 200 describes the event-stream answer of subscriptions/listen, and the 406 is declared', async () => {
    const fx = createFixture();
    const doc = generateOpenAPI(fx.app, { info: { title: 'Docs', version: '1.0.0' } }) as unknown as {
      paths: Record<
        string,
        Record<
          string,
          { responses: Record<string, { description: string; content?: Record<string, unknown> }> }
        >
      >;
    };
    const responses = doc.paths['/mcp']?.post?.responses ?? {};
    expect(responses['200']?.description).toContain(
      'subscriptions/listen is always answered with text/event-stream',
    );
    expect(responses['200']?.description).toContain('notifications/subscriptions/acknowledged');
    // Both media types the 200 goes out in are listed (ResponseSpec.alsoSentAs).
    expect(responses['200']?.content?.['application/json']).toBeDefined();
    expect(responses['200']?.content?.['text/event-stream']).toEqual({ schema: { type: 'string' } });
    expect(responses['406']?.description).toContain('subscriptions/listen');
    expect(Object.keys(responses['406']?.content ?? {})).toEqual(['application/problem+json']);
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors).toBeUndefined();
  });
});
