import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { type } from 'arktype';
import { memorySessionStore } from './memory-store.ts';
import type { SessionOptions } from './options.ts';
import type { SessionRecord } from './record.ts';
import { session, sessionOf } from './session.ts';
import { signValue } from './signing.ts';
import type { SessionStore } from './store.ts';

const SECRET = 'q8Vd-2nTz!kP4sLw9Xe7Rb3Hc6JmYt1Gf5Ua0Ni2Oe8Wr';
const T0 = 1_700_000_000_000;
const MINUTE = 60_000;

const State = type({ isNew: 'boolean', n: 'number' });

interface Calls {
  set: number;
  touch: number;
  lastTouch?: number;
}

/** A memory store that counts writes; `withTouch: false` hides its touch method. */
function countingStore(now: () => number, withTouch = true): { store: SessionStore; calls: Calls } {
  const inner = memorySessionStore({ now });
  const calls: Calls = { set: 0, touch: 0 };
  const store: SessionStore = {
    get: (id) => inner.get(id),
    set: (id: string, record: SessionRecord) => {
      calls.set++;
      inner.set(id, record);
    },
    delete: (id) => inner.delete(id),
  };
  if (withTouch) {
    store.touch = (id, expiresAt) => {
      calls.touch++;
      calls.lastTouch = expiresAt;
      inner.touch(id, expiresAt);
    };
  }
  return { store, calls };
}

/** An app whose /visit counts visits in the session: 30 min idle, 8 h absolute unless overridden. */
function harness(options: Partial<SessionOptions> = {}, withTouch = true) {
  const clock = { at: T0 };
  const { store, calls } = countingStore(() => clock.at, withTouch);
  const app = new App({ logger: false });
  app.use(session({ secret: SECRET, store, now: () => clock.at, cookie: { secure: false }, ...options }));
  app.post('/visit', { responses: { 200: { body: State } } }, (ctx) => {
    const current = sessionOf<{ n: number }>(ctx);
    const n = (current.get('n') ?? 0) + 1;
    current.set('n', n);
    return { status: 200, body: { isNew: current.isNew, n } };
  });
  app.get('/peek', { responses: { 200: { body: State } } }, (ctx) => {
    const current = sessionOf<{ n: number }>(ctx);
    return { status: 200, body: { isNew: current.isNew, n: current.get('n') ?? 0 } };
  });
  const start = async (): Promise<string> => {
    const response = await app.request('/visit', { method: 'POST' });
    return (response.headers.get('set-cookie') as string).split(';')[0] as string;
  };
  const peek = async (cookie: string) => {
    const response = await app.request('/peek', { headers: { cookie } });
    expect(response.status).toBe(200);
    return { body: (await response.json()) as { isNew: boolean; n: number }, response };
  };
  return { app, clock, calls, start, peek };
}

describe('session: idle expiry', () => {
  test('a session unused for the idle timeout is gone; one used just before is not', async () => {
    const h = harness();
    const cookie = await h.start();
    h.clock.at = T0 + 30 * MINUTE - 1;
    expect((await h.peek(cookie)).body).toEqual({ isNew: false, n: 1 });
    const other = harness();
    const cookie2 = await other.start();
    other.clock.at = T0 + 30 * MINUTE;
    const { body, response } = await other.peek(cookie2);
    expect(body).toEqual({ isNew: true, n: 0 });
    // An expired session is not revived, and the response sets no cookie.
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  test('each use moves the idle deadline (rolling), so an active session outlives one idle period', async () => {
    const h = harness();
    const cookie = await h.start();
    for (let minute = 20; minute <= 120; minute += 20) {
      h.clock.at = T0 + minute * MINUTE;
      expect((await h.peek(cookie)).body).toEqual({ isNew: false, n: 1 });
    }
    h.clock.at = T0 + 151 * MINUTE;
    expect((await h.peek(cookie)).body.isNew).toBe(true);
  });

  test('an unchanged session is extended with touch, not rewritten, and not more than once per touchAfterSeconds', async () => {
    const h = harness();
    const cookie = await h.start();
    expect(h.calls).toEqual({ set: 1, touch: 0 });
    h.clock.at = T0 + 59_000;
    await h.peek(cookie);
    expect(h.calls.touch).toBe(0);
    h.clock.at = T0 + 60_000;
    const { response } = await h.peek(cookie);
    expect(h.calls).toEqual({ set: 1, touch: 1, lastTouch: T0 + MINUTE + 30 * MINUTE });
    // Touching changes nothing the browser holds.
    expect(response.headers.get('set-cookie')).toBeNull();
    h.clock.at = T0 + 90_000;
    await h.peek(cookie);
    expect(h.calls.touch).toBe(1);
  });

  test('a store without touch gets the whole record written again instead', async () => {
    const h = harness({}, false);
    const cookie = await h.start();
    h.clock.at = T0 + 5 * MINUTE;
    await h.peek(cookie);
    expect(h.calls.set).toBe(2);
    h.clock.at = T0 + 34 * MINUTE;
    expect((await h.peek(cookie)).body).toEqual({ isNew: false, n: 1 });
  });
});

describe('session: absolute expiry', () => {
  test('a session ends at the absolute timeout however active it is', async () => {
    const h = harness({ idleTimeoutSeconds: 1800, absoluteTimeoutSeconds: 3600 });
    const cookie = await h.start();
    let last = { isNew: false, n: 1 };
    for (let minute = 10; minute < 60; minute += 10) {
      h.clock.at = T0 + minute * MINUTE;
      const response = await h.app.request('/visit', { method: 'POST', headers: { cookie } });
      last = (await response.json()) as { isNew: boolean; n: number };
      expect(last.isNew).toBe(false);
    }
    expect(last.n).toBe(6);
    h.clock.at = T0 + 60 * MINUTE;
    expect((await h.peek(cookie)).body).toEqual({ isNew: true, n: 0 });
  });

  test('the idle deadline is never moved past the absolute one', async () => {
    const h = harness({ idleTimeoutSeconds: 1800, absoluteTimeoutSeconds: 3600 });
    const cookie = await h.start();
    h.clock.at = T0 + 25 * MINUTE;
    await h.peek(cookie);
    expect(h.calls.lastTouch).toBe(T0 + 55 * MINUTE);
    h.clock.at = T0 + 50 * MINUTE;
    await h.peek(cookie);
    expect(h.calls.lastTouch).toBe(T0 + 60 * MINUTE);
  });

  test('a stored record past the absolute timeout is refused even if the store still returns it', async () => {
    const clock = { at: T0 };
    const record: SessionRecord = { data: { n: 5 }, createdAt: T0 - 9 * 60 * MINUTE, expiresAt: T0 + MINUTE };
    const deleted: string[] = [];
    const store: SessionStore = { get: () => record, set: () => {}, delete: (id) => void deleted.push(id) };
    const app = new App({ logger: false });
    app.use(session({ secret: SECRET, store, now: () => clock.at, cookie: { secure: false } }));
    app.get('/peek', { responses: { 200: { body: State } } }, (ctx) => ({
      status: 200,
      body: { isNew: sessionOf(ctx).isNew, n: Number(sessionOf(ctx).get('n') ?? 0) },
    }));
    const response = await app.request('/peek', {
      headers: { cookie: `sid=${await signValue('some-id', SECRET)}` },
    });
    expect(await response.json()).toEqual({ isNew: true, n: 0 });
    expect(deleted).toEqual(['some-id']);
  });

  test('signing in starts a new lifetime', async () => {
    const h = harness({ idleTimeoutSeconds: 3600, absoluteTimeoutSeconds: 3600 });
    h.app.post('/login', { responses: { 200: { body: type({ createdAt: 'number' }) } } }, (ctx) => {
      sessionOf(ctx).rotate({ user: { sub: 'u1' } });
      return { status: 200, body: { createdAt: sessionOf(ctx).createdAt } };
    });
    const cookie = await h.start();
    h.clock.at = T0 + 50 * MINUTE;
    const login = await h.app.request('/login', { method: 'POST', headers: { cookie } });
    expect(await login.json()).toEqual({ createdAt: T0 + 50 * MINUTE });
    const signedIn = (login.headers.get('set-cookie') as string).split(';')[0] as string;
    h.clock.at = T0 + 70 * MINUTE;
    expect((await h.peek(signedIn)).body).toEqual({ isNew: false, n: 1 });
    h.clock.at = T0 + 110 * MINUTE;
    expect((await h.peek(signedIn)).body).toEqual({ isNew: true, n: 0 });
  });
});
