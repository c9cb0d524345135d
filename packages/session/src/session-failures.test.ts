import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { type } from 'arktype';
import { requireSession } from './require-session.ts';
import { session, sessionOf } from './session.ts';
import { signValue } from './signing.ts';
import type { SessionStore } from './store.ts';

const SECRET = 'q8Vd-2nTz!kP4sLw9Xe7Rb3Hc6JmYt1Gf5Ua0Ni2Oe8Wr';
const Ok = type({ ok: 'boolean' });

interface Problem {
  type: string;
  status: number;
  detail?: string;
}

/** A production app (redacted errors) whose store is the given one; GET-only, so no CSRF issue. */
function productionApp(store: SessionStore): App {
  const app = new App({ logger: false, production: true, behindProxy: 'none' });
  app.use(session({ secret: SECRET, store, cookie: { secure: true } }));
  app.get('/me', { hooks: requireSession(), responses: { 200: { body: Ok } } }, () => ({
    status: 200,
    body: { ok: true },
  }));
  app.get('/write', { responses: { 200: { body: Ok } } }, (ctx) => {
    sessionOf(ctx).set('n', 1);
    return { status: 200, body: { ok: true } };
  });
  return app;
}

async function expectRedacted500(response: Response): Promise<void> {
  expect(response.status).toBe(500);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('set-cookie')).toBeNull();
  const body = (await response.json()) as Problem;
  expect(body.status).toBe(500);
  expect(body.type).toBe('https://charter.dev/errors/internal');
  expect(JSON.stringify(body)).not.toContain('database is down');
}

const cookie = async (id = 'some-id') => `__Host-sid=${await signValue(id, SECRET)}`;

describe('session: store failures', () => {
  test('a store that throws on get fails the request with a redacted 500, not a signed-out pass-through', async () => {
    const store: SessionStore = {
      get: () => {
        throw new Error('database is down');
      },
      set: () => {},
      delete: () => {},
    };
    await expectRedacted500(
      await productionApp(store).request('/me', { headers: { cookie: await cookie() } }),
    );
  });

  test('a store whose get rejects fails the same way', async () => {
    const store: SessionStore = {
      get: () => Promise.reject(new Error('database is down')),
      set: () => {},
      delete: () => {},
    };
    await expectRedacted500(
      await productionApp(store).request('/me', { headers: { cookie: await cookie() } }),
    );
  });

  test('a store that fails to save replaces the response with a redacted 500 and sets no cookie', async () => {
    const store: SessionStore = {
      get: () => undefined,
      set: () => {
        throw new Error('database is down');
      },
      delete: () => {},
    };
    await expectRedacted500(await productionApp(store).request('/write'));
  });

  test('a store that returns a malformed record fails with 500', async () => {
    const store: SessionStore = { get: () => ({ data: 'nope' }) as never, set: () => {}, delete: () => {} };
    await expectRedacted500(
      await productionApp(store).request('/me', { headers: { cookie: await cookie() } }),
    );
  });

  test('a request without a session cookie never asks the store', async () => {
    let asked = 0;
    const store: SessionStore = {
      get: () => {
        asked++;
        throw new Error('database is down');
      },
      set: () => {},
      delete: () => {},
    };
    const response = await productionApp(store).request('/me');
    expect(response.status).toBe(401);
    expect(asked).toBe(0);
  });

  test('a cookie with a bad signature never reaches the store', async () => {
    let asked = 0;
    const store: SessionStore = { get: () => void asked++, set: () => {}, delete: () => {} };
    const response = await productionApp(store).request('/me', {
      headers: { cookie: '__Host-sid=forged.id' },
    });
    expect(response.status).toBe(401);
    expect(asked).toBe(0);
  });
});

describe('session: configuration mistakes', () => {
  test('sessionOf without session() hooks fails with 500', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: Ok } } }, (ctx) => {
      sessionOf(ctx);
      return { status: 200, body: { ok: true } };
    });
    const response = await app.request('/x');
    expect(response.status).toBe(500);
    expect(((await response.json()) as Problem).detail).toContain('register session({ secret })');
  });

  test('two different session() hook sets on one route fail with 500', async () => {
    const app = new App({ logger: false });
    app.use(session({ secret: SECRET, cookie: { secure: false } }));
    app.get(
      '/x',
      {
        hooks: session({ secret: SECRET, cookie: { secure: false, name: 'other' } }),
        responses: { 200: { body: Ok } },
      },
      () => ({ status: 200, body: { ok: true } }),
    );
    const response = await app.request('/x');
    expect(response.status).toBe(500);
    expect(((await response.json()) as Problem).detail).toContain('Two different session() hook sets');
  });

  test('the default store is an in-memory one', async () => {
    const app = new App({ logger: false });
    app.use(session({ secret: SECRET, cookie: { secure: false } }));
    app.get('/n', { responses: { 200: { body: type({ n: 'number' }) } } }, (ctx) => {
      const current = sessionOf<{ n: number }>(ctx);
      current.set('n', (current.get('n') ?? 0) + 1);
      return { status: 200, body: { n: current.get('n') ?? 0 } };
    });
    const first = await app.request('/n');
    const sid = (first.headers.get('set-cookie') as string).split(';')[0] as string;
    expect(await (await app.request('/n', { headers: { cookie: sid } })).json()).toEqual({ n: 2 });
  });
});
