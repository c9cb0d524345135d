/**
 * redisSessionStore against a real redis-server, through both client adapters: the session store
 * contract (the same cases as packages/session/src/store-contract.test.ts), the keys it writes, and
 * sessions shared by two Apps as two instances would.
 */
import { describe, expect, test } from 'bun:test';
import { App } from '../../packages/core/src/index.ts';
import { redisSessionStore } from '../../packages/redis/src/index.ts';
import { rotateSession, type SessionRecord, session, sessionOf } from '../../packages/session/src/index.ts';
import { CLIENT_KINDS, redisForThisFile } from './support/clients.ts';

const redis = redisForThisFile();
const T0 = 1_700_000_000_000;

function record(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return { data: { cart: [1, 2], name: 'Ada' }, createdAt: T0, expiresAt: T0 + 60_000, ...overrides };
}

const fresh = () => `sess-${crypto.randomUUID()}`;

for (const kind of CLIENT_KINDS) {
  describe(`redisSessionStore contract (${kind})`, () => {
    const make = async (clock = { at: T0 }) => {
      const client = await redis.client(kind);
      return {
        store: redisSessionStore({ client, prefix: `t:${crypto.randomUUID()}:`, now: () => clock.at }),
        clock,
        client,
      };
    };

    test('get of an unknown id gives nothing', async () => {
      const { store } = await make();
      expect(await store.get('nope')).toBeUndefined();
    });

    test('set then get gives an equal record, as a copy', async () => {
      const { store } = await make();
      const written = record({ user: { sub: 'u1', scopes: ['a'], claims: { n: 1 } } });
      await store.set('id-1', written);
      const read = await store.get('id-1');
      expect(read).toEqual(written);
      expect(read).not.toBe(written);
    });

    test('set replaces an existing record', async () => {
      const { store } = await make();
      await store.set('id-1', record());
      await store.set('id-1', record({ data: { step: 2 } }));
      expect((await store.get('id-1'))?.data).toEqual({ step: 2 });
    });

    test('delete removes the record, and deleting an unknown id is not an error', async () => {
      const { store } = await make();
      await store.set('id-1', record());
      await store.delete('id-1');
      expect(await store.get('id-1')).toBeUndefined();
      await store.delete('never-there');
    });

    test('a record is not returned once expiresAt has passed, and is returned just before', async () => {
      const { store, clock } = await make();
      await store.set('id-1', record({ expiresAt: T0 + 1000 }));
      clock.at = T0 + 999;
      expect(await store.get('id-1')).toBeDefined();
      clock.at = T0 + 1000;
      expect(await store.get('id-1')).toBeUndefined();
      clock.at = T0;
      expect(await store.get('id-1')).toBeUndefined();
    });

    test('touch moves the expiry without changing the data; touching an unknown id creates nothing', async () => {
      const { store, clock } = await make();
      await store.set('id-1', record({ expiresAt: T0 + 1000 }));
      await store.touch('id-1', T0 + 5000);
      clock.at = T0 + 2000;
      expect(await store.get('id-1')).toEqual(record({ expiresAt: T0 + 5000 }));
      await store.touch('unknown', T0 + 5000);
      expect(await store.get('unknown')).toBeUndefined();
    });

    test('keeps records apart by id', async () => {
      const { store } = await make();
      await store.set('a', record({ data: { who: 'a' } }));
      await store.set('b', record({ data: { who: 'b' } }));
      expect((await store.get('a'))?.data).toEqual({ who: 'a' });
      expect((await store.get('b'))?.data).toEqual({ who: 'b' });
    });

    test('writes one hash under charter:sess: that Redis expires with the session', async () => {
      const client = await redis.client(kind);
      const store = redisSessionStore({ client });
      expect(store.prefix).toBe('charter:sess:');
      const id = fresh();
      const expiresAt = Date.now() + 30_000;
      await store.set(id, record({ createdAt: Date.now(), expiresAt }));
      expect(Number(await client.send('HGET', [`charter:sess:${id}`, 'e']))).toBe(expiresAt);
      const ttl = Number(await client.send('PTTL', [`charter:sess:${id}`]));
      expect(ttl).toBeGreaterThan(28_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
      await store.touch(id, Date.now() + 90_000);
      expect(Number(await client.send('PTTL', [`charter:sess:${id}`]))).toBeGreaterThan(88_000);
      // Written already expired: nothing is kept.
      await store.set(id, record({ expiresAt: Date.now() - 1 }));
      expect(await client.send('EXISTS', [`charter:sess:${id}`])).toBe(0);
    });

    test('a record that is not JSON fails the read with a plain Error, never a 400', async () => {
      const client = await redis.client(kind);
      const store = redisSessionStore({ client });
      const id = fresh();
      await client.send('HSET', [`charter:sess:${id}`, 'r', '{"data":', 'e', String(Date.now() + 60_000)]);
      const error = await store.get(id).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain('not valid JSON');
    });
  });
}

describe('redisSessionStore options', () => {
  test('refuses a missing client, a bad prefix or timeout, and a clock that is not a function', async () => {
    const client = await redis.client('bun');
    expect(() => redisSessionStore({} as never)).toThrow(/option "client"/);
    expect(() => redisSessionStore({ client, prefix: 3 as never })).toThrow(/option "prefix"/);
    expect(() => redisSessionStore({ client, timeoutMs: -1 })).toThrow(/option "timeoutMs"/);
    expect(() => redisSessionStore({ client, now: 5 as never })).toThrow(/option "now"/);
  });
});

describe('sessions shared by two instances', () => {
  const SECRET = 'x'.repeat(48);

  async function instance(kind: (typeof CLIENT_KINDS)[number], prefix: string): Promise<App> {
    const app = new App({ logger: false });
    app.use(
      session({ secret: SECRET, store: redisSessionStore({ client: await redis.client(kind), prefix }) }),
    );
    app.post('/login', { responses: { 204: { description: 'in' } } }, (ctx) => {
      rotateSession(ctx, { user: { sub: 'ada' } });
      return { status: 204, body: undefined };
    });
    app.get('/me', { responses: { 200: { description: 'who' } } }, (ctx) => ({
      status: 200,
      body: { sub: sessionOf(ctx).user?.sub ?? null },
    }));
    return app;
  }

  test('a sign-in on one instance is read by the other; without the cookie nobody is signed in', async () => {
    const prefix = `shared:${crypto.randomUUID()}:`;
    const a = await instance('bun', prefix);
    const b = await instance('node-redis', prefix);
    const login = await a.request('http://localhost/login', {
      method: 'POST',
      headers: { origin: 'http://localhost' },
    });
    expect(login.status).toBe(204);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toContain('=');
    const me = await b.request('http://localhost/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ sub: 'ada' });
    const anonymous = await b.request('http://localhost/me');
    expect(await anonymous.json()).toEqual({ sub: null });
  });
});
