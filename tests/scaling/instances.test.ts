/**
 * Two app processes sharing one real redis-server (issue 24): instance A on Bun's built-in Redis
 * client, instance B on node-redis, a client alternating between them. Sessions, idempotency keys,
 * A2A tasks and WebSocket topics behave as one service; then Redis is killed (each module answers
 * its documented failure within its deadline, nothing hangs) and started again (every module
 * recovers, without restarting either instance).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RestartableRedis, startRestartableRedis } from '../redis/support/restartable-redis.ts';
import {
  type AppProcess,
  figuresPrintedAfterAll,
  spawnInstancePair,
  stopProcessesAfterAll,
  timed,
} from './support/processes.ts';

const SCRIPT = 'tests/scaling/support/instance.ts';
// Each store waits 500 ms for Redis at most; a request does one or two store calls.
const BOUND_MS = 2_000;

let redis: RestartableRedis;
let a: AppProcess;
let b: AppProcess;
stopProcessesAfterAll();

beforeAll(async () => {
  redis = await startRestartableRedis();
  const env = { REDIS_URL: redis.url, SESSION_SECRET: 'scaling-test-secret-'.repeat(3) };
  [a, b] = await spawnInstancePair(SCRIPT, env);
}, 60_000);

afterAll(async () => {
  await redis?.stop();
});

// The latencies measured while Redis was down, printed with SCALING_FIGURES=1 (the guide quotes them).
const record = figuresPrintedAfterAll('figures (ms)');

type Json = Record<string, any>;

function cookieOf(response: Response): string {
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  expect(cookie).toMatch(/^sid=./);
  return cookie;
}

const login = (at: AppProcess, user: string) =>
  fetch(`${at.origin}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user }),
  });

const order = (at: AppProcess, key: string, item: string) =>
  fetch(`${at.origin}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ item }),
  });

const runs = async (at: AppProcess): Promise<number> =>
  ((await (await fetch(`${at.origin}/orders/runs`)).json()) as { runs: number }).runs;

let rpcId = 0;
async function rpc(at: AppProcess, method: string, params: unknown): Promise<Json> {
  const response = await fetch(`${at.origin}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

const userMessage = (text: string, taskId?: string) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...(taskId === undefined ? {} : { taskId }),
});

interface Listener {
  readonly socket: WebSocket;
  readonly received: Json[];
  readonly closed: Promise<number>;
  next(check: (m: Json) => boolean, ms?: number): Promise<Json>;
}

async function listen(at: AppProcess, topic: string): Promise<Listener> {
  const socket = new WebSocket(`ws://127.0.0.1:${at.port}/topics/${topic}`);
  const received: Json[] = [];
  const closed = new Promise<number>((resolve) => socket.addEventListener('close', (e) => resolve(e.code)));
  socket.addEventListener('message', (e) => received.push(JSON.parse(String(e.data)) as Json));
  const next = async (check: (m: Json) => boolean, ms = 10_000): Promise<Json> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = received.find(check);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(received)}`);
      await Bun.sleep(20);
    }
  };
  return { socket, received, closed, next };
}

async function eventually<T>(what: string, attempt: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not recover within ${ms} ms`);
    await Bun.sleep(200);
  }
}

describe('two instances, one Redis', () => {
  test('a sign-in on A is valid on B, and a sign-out on B ends it on A', async () => {
    const signedIn = await login(a, 'ada');
    expect(signedIn.status).toBe(204);
    const cookie = cookieOf(signedIn);
    const onB = await fetch(`${b.origin}/me`, { headers: { cookie } });
    expect(onB.status).toBe(200);
    expect(await onB.json()).toEqual({ sub: 'ada', instance: 'B' });
    expect((await fetch(`${a.origin}/me`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${b.origin}/logout`, { method: 'POST', headers: { cookie } })).status).toBe(204);
    const after = await fetch(`${a.origin}/me`, { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(after.headers.get('content-type')).toBe('application/problem+json');
  });

  test("an idempotent POST replayed on B returns A's answer, and B does not run it", async () => {
    const key = crypto.randomUUID();
    const [runsA, runsB] = [await runs(a), await runs(b)];
    const first = await order(a, key, 'tea');
    expect(first.status).toBe(201);
    const body = (await first.json()) as Json;
    expect(body.instance).toBe('A');
    const replay = await order(b, key, 'tea');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(body);
    expect([await runs(a), await runs(b)]).toEqual([runsA + 1, runsB]);
    const misuse = await order(b, key, 'coffee');
    expect(misuse.status).toBe(422);
  });

  test('the same key sent at once to A and B runs once: the other gets 409 while it runs, then the replay', async () => {
    const key = crypto.randomUUID();
    const [runsA, runsB] = [await runs(a), await runs(b)];
    const [onA, onB] = await Promise.all([order(a, key, 'slow'), order(b, key, 'slow')]);
    const statuses = [onA.status, onB.status].sort();
    expect(statuses).toEqual([201, 409]);
    const busy = onA.status === 409 ? onA : onB;
    expect(busy.headers.get('content-type')).toBe('application/problem+json');
    expect(busy.headers.get('retry-after')).toBe('1');
    expect((await runs(a)) + (await runs(b))).toBe(runsA + runsB + 1);
    const winner = (await (onA.status === 201 ? onA : onB).json()) as Json;
    const replay = await order(onA.status === 409 ? a : b, key, 'slow');
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual(winner);
  });

  test('an A2A task created on A continues on B', async () => {
    const created = await rpc(a, 'SendMessage', { message: userMessage('pizza') });
    const task = created.result.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await rpc(b, 'SendMessage', { message: userMessage('large', task.id) });
    expect(done.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.result.task.artifacts[0].parts[0].text).toBe('One large pizza by B');
    const listed = await rpc(a, 'ListTasks', {});
    expect(listed.result.tasks.map((t: Json) => t.id)).toContain(task.id);
  });

  test('two turns of one task sent at once to A and B are serialised: one runs, the other gets -32004', async () => {
    const task = (await rpc(b, 'SendMessage', { message: userMessage('pizza') })).result.task;
    const [onA, onB] = await Promise.all([
      rpc(a, 'SendMessage', { message: userMessage('slow', task.id) }),
      rpc(b, 'SendMessage', { message: userMessage('slow', task.id) }),
    ]);
    const results = [onA, onB];
    const ran = results.filter((r) => r.result !== undefined);
    const refused = results.filter((r) => r.error !== undefined);
    expect(ran).toHaveLength(1);
    expect(ran[0]?.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.error.code).toBe(-32004);
    const stored = await rpc(a, 'GetTask', { id: task.id });
    // The first message, the question, one follow-up: the refused turn left no trace.
    expect(stored.result.history).toHaveLength(3);
  });

  test('a WebSocket message published on A reaches a client connected to B (and one on A), and back', async () => {
    const onB = await listen(b, 'lobby');
    await onB.next((m) => m.joined === 'lobby');
    const onA = await listen(a, 'lobby');
    await onA.next((m) => m.joined === 'lobby');
    onA.socket.send(JSON.stringify({ say: 'hello from A' }));
    expect(await onB.next((m) => m.say !== undefined)).toEqual({ say: 'hello from A' });
    expect(await onA.next((m) => m.say !== undefined)).toEqual({ say: 'hello from A' });
    // And back, from the node-redis instance to the Bun one.
    onB.socket.send(JSON.stringify({ say: 'hello from B' }));
    expect(await onA.next((m) => m.say === 'hello from B')).toEqual({ say: 'hello from B' });
    expect(await onB.next((m) => m.say === 'hello from B')).toEqual({ say: 'hello from B' });
    onA.socket.close();
    onB.socket.close();
  });
});

describe('Redis killed, then restarted', () => {
  let cookie: string;
  let orderKey: string;
  let listenerOnB: Listener;
  let publisherOnA: Listener;

  test('before: a session, a completed order and two WebSocket listeners exist', async () => {
    cookie = cookieOf(await login(a, 'grace'));
    orderKey = crypto.randomUUID();
    expect((await order(a, orderKey, 'cake')).status).toBe(201);
    listenerOnB = await listen(b, 'news');
    await listenerOnB.next((m) => m.joined === 'news');
    publisherOnA = await listen(a, 'news');
    await publisherOnA.next((m) => m.joined === 'news');
    await redis.kill();
  });

  for (const at of ['A', 'B'] as const) {
    test(`sessions fail closed on ${at}: a 500 problem, within the deadline, never a signed-out user`, async () => {
      const app = at === 'A' ? a : b;
      const { value: me, ms } = await timed(() => fetch(`${app.origin}/me`, { headers: { cookie } }));
      expect(me.status).toBe(500);
      expect(me.headers.get('content-type')).toBe('application/problem+json');
      const text = await me.text();
      expect(text).not.toContain(String(redis.port));
      expect(ms).toBeLessThan(BOUND_MS);
      record('killed: session read', ms);
      const { value: signIn, ms: loginMs } = await timed(() => login(app, 'eve'));
      record('killed: sign-in', loginMs);
      expect(signIn.status).toBe(500);
      expect(signIn.headers.get('set-cookie')).toBeNull();
      expect(loginMs).toBeLessThan(BOUND_MS);
    });

    test(`idempotency fails closed on ${at}: a 500 before the handler runs`, async () => {
      const app = at === 'A' ? a : b;
      const before = await runs(app);
      const { value: response, ms } = await timed(() => order(app, crypto.randomUUID(), 'pie'));
      record('killed: idempotent POST', ms);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(ms).toBeLessThan(BOUND_MS);
      expect(await runs(app)).toBe(before);
    });

    test(`A2A fails closed on ${at}: a JSON-RPC internal error, within the deadline`, async () => {
      const app = at === 'A' ? a : b;
      const { value: answer, ms } = await timed(() =>
        rpc(app, 'SendMessage', { message: userMessage('pizza') }),
      );
      expect(answer.error.code).toBe(-32603);
      expect(JSON.stringify(answer)).not.toContain(String(redis.port));
      expect(ms).toBeLessThan(BOUND_MS);
      record('killed: A2A SendMessage', ms);
    });
  }

  test('WebSocket: a publish fails and the sender is told, within the deadline; a new listener is closed with 1011', async () => {
    const { ms } = await timed(async () => {
      publisherOnA.socket.send(JSON.stringify({ say: 'during' }));
      await publisherOnA.next((m) => m.error === 'not published', BOUND_MS);
    });
    expect(ms).toBeLessThan(BOUND_MS);
    record('killed: WebSocket publish reported', ms);
    const late = await listen(b, 'other-topic');
    expect(await late.closed).toBe(1011);
  });

  test('restarted: every module works again on both instances, neither restarted', async () => {
    await redis.start();
    const restarted = performance.now();
    // Redis came back empty (no persistence here): the old session is gone, so /me is 401, not 500.
    const gone = await eventually('sessions on B', async () => {
      const response = await fetch(`${b.origin}/me`, { headers: { cookie } });
      return response.status === 500 ? undefined : response;
    });
    expect(gone.status).toBe(401);
    const fresh = cookieOf(
      await eventually('sign-in on A', async () => {
        const response = await login(a, 'grace');
        return response.status === 204 ? response : undefined;
      }),
    );
    expect((await fetch(`${b.origin}/me`, { headers: { cookie: fresh } })).status).toBe(200);

    const key = crypto.randomUUID();
    const first = await eventually('idempotency on B', async () => {
      const response = await order(b, key, 'soup');
      return response.status === 201 ? ((await response.json()) as Json) : undefined;
    });
    const replay = await order(a, key, 'soup');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(first);

    const task = await eventually('A2A on A', async () => {
      const answer = await rpc(a, 'SendMessage', { message: userMessage('pizza') });
      return answer.result?.task as Json | undefined;
    });
    const done = await rpc(b, 'SendMessage', { message: userMessage('small', task.id) });
    expect(done.result.task.status.state).toBe('TASK_STATE_COMPLETED');

    // The listener connected to B before the outage hears A again: B's subscription was renewed.
    await eventually('WebSocket fan-out from A to B', async () => {
      publisherOnA.socket.send(JSON.stringify({ say: 'after' }));
      await Bun.sleep(200);
      return listenerOnB.received.find((m) => m.say === 'after');
    });
    expect(listenerOnB.received.some((m) => m.say === 'during')).toBe(false);
    record('restart to every module recovered', performance.now() - restarted);
    listenerOnB.socket.close();
    publisherOnA.socket.close();
  }, 60_000);
});

describe('Redis hung (stopped with SIGSTOP, connections open), then resumed', () => {
  test('every module answers its failure within the deadline on both instances, then works again', async () => {
    const cookie = cookieOf(await login(b, 'hopper'));
    redis.pause();
    try {
      for (const app of [a, b]) {
        // 500 ms per store call at most: nothing waits for the stopped server.
        const me = await timed(() => fetch(`${app.origin}/me`, { headers: { cookie } }));
        expect(me.value.status).toBe(500);
        expect(me.ms).toBeLessThan(BOUND_MS);
        record('stopped: session read', me.ms);
        const before = await runs(app);
        const posted = await timed(() => order(app, crypto.randomUUID(), 'jam'));
        expect(posted.value.status).toBe(500);
        expect(posted.ms).toBeLessThan(BOUND_MS);
        record('stopped: idempotent POST', posted.ms);
        expect(await runs(app)).toBe(before);
        const sent = await timed(() => rpc(app, 'SendMessage', { message: userMessage('pizza') }));
        expect(sent.value.error.code).toBe(-32603);
        expect(sent.ms).toBeLessThan(BOUND_MS);
        record('stopped: A2A SendMessage', sent.ms);
      }
    } finally {
      redis.resume();
    }
    const back = await eventually('sessions after SIGCONT', async () => {
      const response = await fetch(`${a.origin}/me`, { headers: { cookie } });
      return response.status === 200 ? ((await response.json()) as Json) : undefined;
    });
    // Nothing was lost: the server was only stopped.
    expect(back).toEqual({ sub: 'hopper', instance: 'A' });
  }, 60_000);
});
