/**
 * One MCP tool server as two app processes sharing one real redis-server (issue 24): instance A on
 * Bun's built-in Redis client, instance B on node-redis (tests/scaling/support/mcp-instance.ts),
 * over real HTTP. A legacy-era session minted on A continues on B; a tool on A asks the client
 * (sampling, elicitation, roots) and the answer POSTed to B completes it; a resource subscribed on
 * A and announced by a tool on B reaches A's GET stream; a POST stream cut on A is resumed on B; the
 * official v1 SDK client works with its requests alternating between A and B. Then Redis is killed
 * (every session request answers 503 with Retry-After within the store's deadline, on both) and
 * started again (everything works again without restarting either instance), and stopped with
 * SIGSTOP (503 within the deadline, then recovery).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { answeringClient, cutAfterFirstEvent } from '../mcp/sdk-client-support.ts';
import { SseReader } from '../mcp/session-support.ts';
import { type RestartableRedis, startRestartableRedis } from '../redis/support/restartable-redis.ts';
import {
  type AppProcess,
  figuresPrintedAfterAll,
  spawnInstancePair,
  stopProcessesAfterAll,
  timed,
} from './support/processes.ts';
import {
  ANSWERS,
  end,
  eventually,
  initialize,
  type Json,
  LEGACY,
  openStream,
  post,
  problem,
  result,
  rpc,
  toolText,
  unavailable,
} from './support/mcp-http.ts';

const SCRIPT = 'tests/scaling/support/mcp-instance.ts';
// The store waits 500 ms for Redis at most; a request does one or two store calls.
const BOUND_MS = 2_000;
// How long a tool waits for the client's answer to its sampling/elicitation/roots request.
const CLIENT_REQUEST_TIMEOUT_MS = 6_000;
const WATCHED = 'notes://today';

let redis: RestartableRedis;
let a: AppProcess;
let b: AppProcess;
stopProcessesAfterAll();

beforeAll(async () => {
  redis = await startRestartableRedis();
  const env = { REDIS_URL: redis.url, CLIENT_REQUEST_TIMEOUT_MS: String(CLIENT_REQUEST_TIMEOUT_MS) };
  [a, b] = await spawnInstancePair(SCRIPT, env);
}, 60_000);

afterAll(async () => {
  await redis?.stop();
});

// The latencies measured while Redis was down, printed with SCALING_FIGURES=1.
const record = figuresPrintedAfterAll('mcp figures (ms)');

describe('one MCP session on two instances', () => {
  test("initialized on A, it continues on B: tools/list and tools/call on B with A's Mcp-Session-Id", async () => {
    const session = await initialize(a);
    const listed = await result(await post(b, rpc('tools/list'), session));
    expect((listed.tools as { name: string }[]).map((tool) => tool.name).sort()).toEqual([
      'ask_model',
      'ask_user',
      'list_roots',
      'touch',
      'whoami',
    ]);
    expect(toolText(await result(await post(b, rpc('tools/call', { name: 'whoami' }), session)))).toBe(
      'instance B',
    );
    expect(toolText(await result(await post(a, rpc('tools/call', { name: 'whoami' }), session)))).toBe(
      'instance A',
    );
    expect((await end(a, session)).status).toBe(204);
  });

  test("unknown ids are 404 on both; DELETE on B ends A's session, closes A's GET stream, and the id is 404 on both", async () => {
    const unknown = 'x'.repeat(43);
    for (const at of [a, b]) {
      await problem(await post(at, rpc('tools/list'), unknown), 404, 'Unknown or expired Mcp-Session-Id');
      await problem(await openStream(at, unknown), 404, 'Unknown or expired Mcp-Session-Id');
      await problem(await end(at, unknown), 404, 'Unknown or expired Mcp-Session-Id');
    }
    const session = await initialize(a);
    const opened = await openStream(a, session);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toContain('text/event-stream');
    const stream = new SseReader(opened.body);
    expect((await end(b, session)).status).toBe(204);
    expect(await stream.next()).toBeUndefined();
    for (const at of [a, b]) {
      await problem(await post(at, rpc('tools/list'), session), 404, 'Unknown or expired Mcp-Session-Id');
      await problem(await openStream(at, session), 404, 'Unknown or expired Mcp-Session-Id');
      await problem(await end(at, session), 404, 'Unknown or expired Mcp-Session-Id');
    }
  });

  for (const [method, { tool, result: answer, text }] of Object.entries(ANSWERS)) {
    test(`a tool on A sends ${method} on its POST stream; the client's answer POSTed to B completes it`, async () => {
      const session = await initialize(a);
      const res = await post(a, rpc('tools/call', { name: tool }, `call-${tool}`), session);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const events = new SseReader(res.body);
      const request = (await events.next()) as Json;
      expect(request.method).toBe(method);
      expect(String(request.id)).toMatch(/^charter-/);
      expect((await post(b, { jsonrpc: '2.0', id: request.id, result: answer }, session)).status).toBe(202);
      expect(await events.next()).toEqual({
        jsonrpc: '2.0',
        id: `call-${tool}`,
        result: { content: [{ type: 'text', text: text('A') }] },
      });
      expect(await events.next()).toBeUndefined();
      expect((await end(b, session)).status).toBe(204);
    });
  }

  test("a POST accepting JSON only: A's roots/list request goes out on the GET stream B holds, answered on B", async () => {
    const session = await initialize(a);
    const stream = new SseReader((await openStream(b, session)).body);
    const pending = post(a, rpc('tools/call', { name: 'list_roots' }, 'json-only'), session, {
      accept: 'application/json',
    });
    const request = (await stream.next()) as Json;
    expect(request.method).toBe('roots/list');
    expect(stream.lastId).toMatch(/^\d+$/);
    await post(b, { jsonrpc: '2.0', id: request.id, result: ANSWERS['roots/list']?.result }, session);
    const res = await pending;
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(toolText(await result(res))).toBe('A: file:///work');
    await stream.cancel();
    expect((await end(a, session)).status).toBe(204);
  });

  test('resources/subscribe on A, a tool on B announces the change: the notification arrives on A’s GET stream', async () => {
    const session = await initialize(a);
    expect(await result(await post(a, rpc('resources/subscribe', { uri: WATCHED }), session))).toEqual({});
    const stream = new SseReader((await openStream(a, session)).body);
    expect(
      toolText(
        await result(
          await post(b, rpc('tools/call', { name: 'touch', arguments: { uri: WATCHED } }), session),
        ),
      ),
    ).toBe('B: announced');
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: WATCHED },
    });
    // Unsubscribed on B: the next change of it is not sent; a URI still watched is.
    expect(await result(await post(b, rpc('resources/unsubscribe', { uri: WATCHED }), session))).toEqual({});
    expect(
      await result(await post(b, rpc('resources/subscribe', { uri: 'notes://other' }), session)),
    ).toEqual({});
    await post(b, rpc('tools/call', { name: 'touch', arguments: { uri: WATCHED } }), session);
    await post(b, rpc('tools/call', { name: 'touch', arguments: { uri: 'notes://other' } }), session);
    expect(((await stream.next()) as Json).params).toEqual({ uri: 'notes://other' });
    await stream.cancel();
    expect((await end(a, session)).status).toBe(204);
  });

  test('a POST stream on A cut by the client is resumed on B with its Last-Event-ID; the answer arrives there', async () => {
    const session = await initialize(a);
    const cut = new AbortController();
    const res = await post(a, rpc('tools/call', { name: 'ask_model' }, 'resumed'), session, {
      signal: cut.signal,
    });
    const events = new SseReader(res.body);
    const request = (await events.next()) as Json;
    expect(request.method).toBe('sampling/createMessage');
    const eventId = events.lastId as string;
    expect(eventId).toMatch(/^[A-Za-z0-9_-]{16}\.2$/);
    cut.abort();
    await events.cancel();
    const resumed = await openStream(b, session, eventId);
    expect(resumed.status).toBe(200);
    const replay = new SseReader(resumed.body);
    await post(
      b,
      { jsonrpc: '2.0', id: request.id, result: ANSWERS['sampling/createMessage']?.result },
      session,
    );
    expect(await replay.next()).toEqual({
      jsonrpc: '2.0',
      id: 'resumed',
      result: { content: [{ type: 'text', text: 'A: model said hi' }] },
    });
    expect(replay.lastId).toBe(`${eventId.split('.')[0]}.3`);
    expect(await replay.next()).toBeUndefined();
    // Resumed again later, on A, from the first event: the same two messages, then the end.
    const again = new SseReader((await openStream(a, session, eventId.replace(/\.2$/, '.0'))).body);
    expect(((await again.next()) as Json).id).toBe(request.id);
    expect(((await again.next()) as Json).id).toBe('resumed');
    expect(await again.next()).toBeUndefined();
    expect((await end(b, session)).status).toBe(204);
  });

  test('the official v1 SDK client with its requests alternating between A and B, a cut POST stream resumed on the other', async () => {
    const sent: { at: string; method: string; lastEventId: string | null }[] = [];
    let turn = 0;
    let cut = false;
    let cutAt: string | undefined;
    // Each request goes to the other instance than the one before; the first ask_model stream is cut
    // after its first event with an id, as a dropped connection would be.
    const alternating = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const original = new Request(input, init);
      // A resume goes to the instance the cut stream was not on.
      const resuming = original.method === 'GET' && original.headers.has('last-event-id');
      const at = resuming ? (cutAt === 'A' ? b : a) : turn++ % 2 === 0 ? a : b;
      const request = new Request(`${at.origin}/mcp`, original);
      sent.push({ at: at.name, method: request.method, lastEventId: request.headers.get('last-event-id') });
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const response = await fetch(request);
      const streamed = (response.headers.get('content-type') ?? '').includes('text/event-stream');
      if (cut || !body.includes('"ask_model"') || !streamed) return response;
      cut = true;
      cutAt = at.name;
      return cutAfterFirstEvent(response);
    };
    const client = answeringClient('scaling-sdk', 'Ada', 'file:///sdk');
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${a.origin}/mcp`), {
      fetch: alternating,
      reconnectionOptions: {
        initialReconnectionDelay: 100,
        maxReconnectionDelay: 1_000,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 5,
      },
    });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const callText = async (name: string) =>
      toolText((await client.callTool({ name, arguments: {} })) as Json);
    const whoami = new Set([await callText('whoami'), await callText('whoami')]);
    expect(whoami).toEqual(new Set(['instance A', 'instance B']));
    expect(await callText('ask_model')).toMatch(/^[AB]: model said from the sdk$/);
    expect(await callText('ask_user')).toMatch(/^[AB]: hello Ada$/);
    expect(await callText('list_roots')).toMatch(/^[AB]: file:\/\/\/sdk$/);
    // The cut stream was resumed with GET + Last-Event-ID, and on the other instance.
    expect(cut).toBe(true);
    const resumes = sent.filter((each) => each.method === 'GET' && each.lastEventId !== null);
    expect(resumes.length).toBe(1);
    expect(resumes[0]?.lastEventId).toMatch(/^[A-Za-z0-9_-]{16}\.[12]$/);
    expect(resumes[0]?.at).toBe(cutAt === 'A' ? 'B' : 'A');
    // A resource subscribed through one instance and announced through the other reaches the
    // client's GET stream, wherever it is open.
    await client.subscribeResource({ uri: WATCHED });
    for (let i = 0; i < 50 && !updated.includes(WATCHED); i++) {
      await client.callTool({ name: 'touch', arguments: { uri: WATCHED } });
      await Bun.sleep(100);
    }
    expect(updated).toContain(WATCHED);
    await transport.terminateSession();
    await client.close();
  });
});

describe('Redis killed, then restarted', () => {
  let session: string;
  let inFlight: SseReader;
  let pendingRequest: Json;

  test('before: a session watching a resource and a sampling request of a tool on A waiting', async () => {
    session = await initialize(a);
    expect(await result(await post(a, rpc('resources/subscribe', { uri: WATCHED }), session))).toEqual({});
    inFlight = new SseReader(
      (await post(a, rpc('tools/call', { name: 'ask_model' }, 'in-flight'), session)).body,
    );
    pendingRequest = (await inFlight.next()) as Json;
    expect(pendingRequest.method).toBe('sampling/createMessage');
    await redis.kill();
  });

  for (const at of ['A', 'B'] as const) {
    test(`on ${at}: every session request fails closed with 503 and Retry-After, within the deadline`, async () => {
      const app = at === 'A' ? a : b;
      const attempts: [string, () => Promise<Response>][] = [
        ['tools/list', () => post(app, rpc('tools/list'), session)],
        ['tools/call', () => post(app, rpc('tools/call', { name: 'whoami' }), session)],
        [
          'announcing a change (tools/call touch)',
          () => post(app, rpc('tools/call', { name: 'touch', arguments: { uri: WATCHED } }), session),
        ],
        ['resources/subscribe', () => post(app, rpc('resources/subscribe', { uri: 'notes://x' }), session)],
        [
          'initialize',
          () =>
            post(
              app,
              rpc('initialize', {
                protocolVersion: LEGACY,
                capabilities: {},
                clientInfo: { name: 't', version: '1' },
              }),
            ),
        ],
        ['GET stream', () => openStream(app, session)],
        [
          'resuming a POST stream (GET with Last-Event-ID)',
          () => openStream(app, session, 'AAAAAAAAAAAAAAAA.1'),
        ],
        ['DELETE', () => end(app, session)],
        [
          'answer to a server request',
          () =>
            post(
              app,
              { jsonrpc: '2.0', id: pendingRequest.id, result: ANSWERS['sampling/createMessage']?.result },
              session,
            ),
        ],
      ];
      for (const [label, attempt] of attempts) {
        const { value, ms } = await timed(attempt);
        record(`killed: ${label}`, ms);
        expect(ms).toBeLessThan(BOUND_MS);
        await unavailable(value);
      }
    });
  }

  test('the tool on A whose answer could not arrive ends with -32001 at its deadline, never hangs', async () => {
    const { value: last, ms } = await timed(() => inFlight.next(CLIENT_REQUEST_TIMEOUT_MS + 10_000));
    record('killed: waiting tool ended', ms);
    expect(last).toMatchObject({ jsonrpc: '2.0', id: 'in-flight', error: { code: -32001 } });
    expect(String((last as Json).error.message)).toContain('did not answer sampling/createMessage');
    expect(await inFlight.next()).toBeUndefined();
  }, 30_000);

  test('restarted: sessions, server-to-client requests and subscriptions work again on both, neither restarted', async () => {
    await redis.start();
    const restarted = performance.now();
    // Redis came back empty (no persistence here): the old session is gone, so 404 on both.
    // Each instance's client reconnects on its own schedule: wait for each.
    for (const at of [b, a]) {
      const gone = await eventually(`sessions on ${at.name}`, async () => {
        const response = await post(at, rpc('tools/list'), session);
        return response.status === 503 ? undefined : response;
      });
      await problem(gone, 404, 'Unknown or expired Mcp-Session-Id');
    }
    const fresh = await eventually('initialize on A', async () => {
      const res = await post(
        a,
        rpc('initialize', {
          protocolVersion: LEGACY,
          capabilities: { sampling: {} },
          clientInfo: { name: 'after', version: '1' },
        }),
      );
      return res.status === 200 ? (res.headers.get('mcp-session-id') ?? undefined) : undefined;
    });
    expect(toolText(await result(await post(b, rpc('tools/call', { name: 'whoami' }), fresh)))).toBe(
      'instance B',
    );
    // A sampling request of a tool on A, answered through B. Until A's pub/sub connection is back,
    // the tool fails (-32603) instead of asking: try again until it asks.
    const sampled = await eventually('sampling on A answered through B', async () => {
      const events = new SseReader((await post(a, rpc('tools/call', { name: 'ask_model' }), fresh)).body);
      const request = (await events.next()) as Json;
      if (request.method !== 'sampling/createMessage') return undefined;
      const answer = { jsonrpc: '2.0', id: request.id, result: ANSWERS['sampling/createMessage']?.result };
      expect((await post(b, answer, fresh)).status).toBe(202);
      return (await events.next()) as Json;
    });
    expect(sampled.result).toEqual({ content: [{ type: 'text', text: 'A: model said hi' }] });
    // Subscriptions: announced on B, heard on a GET stream on A; and the other way round. A fresh
    // stream per attempt, until the listening instance's subscriber has subscribed again.
    await result(await post(a, rpc('resources/subscribe', { uri: WATCHED }), fresh));
    const heard = (listener: AppProcess, announcer: AppProcess) =>
      eventually(`announced on ${announcer.name}, heard on ${listener.name}`, async () => {
        const opened = await openStream(listener, fresh);
        if (opened.status !== 200) {
          await opened.body?.cancel();
          return undefined;
        }
        const stream = new SseReader(opened.body);
        try {
          await post(announcer, rpc('tools/call', { name: 'touch', arguments: { uri: WATCHED } }), fresh);
          return (await stream.next(1_500)) as Json;
        } finally {
          await stream.cancel();
        }
      });
    expect((await heard(a, b)).params).toEqual({ uri: WATCHED });
    expect((await heard(b, a)).params).toEqual({ uri: WATCHED });
    record('restart to every MCP flow recovered', performance.now() - restarted);
    const onA = new SseReader(
      (
        await eventually('GET stream on A', async () => {
          const res = await openStream(a, fresh);
          if (res.status === 200) return res;
          await res.body?.cancel();
          return undefined;
        })
      ).body,
    );
    expect((await end(b, fresh)).status).toBe(204);
    expect(await onA.next()).toBeUndefined();
  }, 60_000);
});

describe('Redis hung (stopped with SIGSTOP, connections open), then resumed', () => {
  test('session requests on both answer 503 with Retry-After within the deadline, then work again', async () => {
    const session = await initialize(b);
    redis.pause();
    try {
      for (const at of [a, b]) {
        const listed = await timed(() => post(at, rpc('tools/list'), session));
        record(`paused: tools/list on ${at.name}`, listed.ms);
        expect(listed.ms).toBeLessThan(BOUND_MS);
        await unavailable(listed.value);
        const opened = await timed(() => openStream(at, session));
        record(`paused: GET stream on ${at.name}`, opened.ms);
        expect(opened.ms).toBeLessThan(BOUND_MS);
        await unavailable(opened.value);
      }
    } finally {
      redis.resume();
    }
    for (const at of [a, b]) {
      const listed = await eventually(`tools/list on ${at.name}`, async () => {
        const res = await post(at, rpc('tools/list'), session);
        return res.status === 200 ? res : undefined;
      });
      expect((await result(listed)).tools.length).toBe(5);
    }
    expect((await end(a, session)).status).toBe(204);
  }, 30_000);
});
