import { describe, expect, test } from 'bun:test';
import { App, ConflictError, type Hooks, withHookTraits } from '@charter/core';
import { type } from 'arktype';
import { type MemorySessionStore, memorySessionStore } from './memory-store.ts';
import { type SessionOptions, resolveSessionOptions } from './options.ts';
import { requireSession } from './require-session.ts';
import { rotateSession, session, sessionOf } from './session.ts';
import { signValue } from './signing.ts';

const SECRET = 'q8Vd-2nTz!kP4sLw9Xe7Rb3Hc6JmYt1Gf5Ua0Ni2Oe8Wr';
const OLD_SECRET = 'Zt5-pW2qLx8Nv4Rk7Hs1Jd6Fb9GcEa3Mh0Ty8Qo2Iu5Kl';
const T0 = 1_700_000_000_000;
const COOKIE_SHAPE = /^sid=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/;

const State = type({ isNew: 'boolean', sub: 'string | null', data: 'object' });
const Ok = type({ ok: 'boolean' });
const Sub = type({ sub: 'string' });
const Item = type({ item: 'string' });

interface Harness {
  app: App;
  store: MemorySessionStore;
  clock: { at: number };
}

/** An app with session() on every route, a fake clock, and routes that read and change the session. */
function harness(options: Partial<SessionOptions> = {}, appHooks: Hooks[] = []): Harness {
  const clock = { at: T0 };
  const store = memorySessionStore({ now: () => clock.at });
  const app = new App({ logger: false });
  app.use([
    ...appHooks,
    session({ secret: SECRET, store, now: () => clock.at, cookie: { secure: false }, ...options }),
  ]);
  app.get('/state', { responses: { 200: { body: State } } }, (ctx) => {
    const current = sessionOf(ctx);
    const data = Object.fromEntries(current.keys().map((key) => [key, current.get(key)]));
    return { status: 200, body: { isNew: current.isNew, sub: ctx.state.user?.sub ?? null, data } };
  });
  app.post('/login', { request: { body: Sub }, responses: { 200: { body: Ok } } }, (ctx) => {
    rotateSession(ctx, { user: { sub: ctx.body.sub, scopes: ['orders:read'] } });
    return { status: 200, body: { ok: true } };
  });
  app.post('/cart', { request: { body: Item }, responses: { 200: { body: Ok } } }, (ctx) => {
    const current = sessionOf<{ cart: string[] }>(ctx);
    current.set('cart', [...(current.get('cart') ?? []), ctx.body.item]);
    return { status: 200, body: { ok: true } };
  });
  app.post('/rotate', { responses: { 200: { body: Ok } } }, (ctx) => {
    rotateSession(ctx, { keepData: ctx.query.keep !== 'no' });
    return { status: 200, body: { ok: true } };
  });
  app.post('/logout', { responses: { 200: { body: Ok } } }, (ctx) => {
    sessionOf(ctx).destroy();
    if (ctx.query.flash === 'yes') sessionOf(ctx).set('flash', 'Signed out');
    return { status: 200, body: { ok: true } };
  });
  return { app, store, clock };
}

function post(path: string, body: unknown, cookie?: string): RequestInit & { path: string } {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cookie !== undefined) headers.cookie = cookie;
  return { path, method: 'POST', headers, body: JSON.stringify(body) };
}

async function send(app: App, init: RequestInit & { path: string }): Promise<Response> {
  const { path, ...rest } = init;
  return app.request(path, rest);
}

/** The `name=value` part of the response's only Set-Cookie. */
function cookieOf(response: Response): string {
  const all = response.headers.getSetCookie();
  expect(all).toHaveLength(1);
  return (all[0] as string).split(';')[0] as string;
}

async function stateOf(
  app: App,
  cookie?: string,
): Promise<{ isNew: boolean; sub: string | null; data: object }> {
  const response = await app.request('/state', cookie === undefined ? {} : { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as { isNew: boolean; sub: string | null; data: object };
}

/** Signs in as `sub` and returns the session cookie. */
async function signIn(h: Harness, sub = 'u1', cookie?: string): Promise<string> {
  const response = await send(h.app, post('/login', { sub }, cookie));
  expect(response.status).toBe(200);
  return cookieOf(response);
}

describe('session: loading and saving', () => {
  test('a visit that leaves the session empty sets no cookie and stores nothing', async () => {
    const h = harness();
    const response = await h.app.request('/state');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('cache-control')).toBeNull();
    expect(await response.json()).toEqual({ isNew: true, sub: null, data: {} });
    expect(h.store.size).toBe(0);
  });

  test('writing the session stores it and sets a signed HttpOnly Strict cookie with Cache-Control: no-store', async () => {
    const h = harness();
    const response = await send(h.app, post('/cart', { item: 'book' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.getSetCookie()[0]).toMatch(COOKIE_SHAPE);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(h.store.size).toBe(1);
    const cookie = cookieOf(response);
    expect(await stateOf(h.app, cookie)).toEqual({ isNew: false, sub: null, data: { cart: ['book'] } });
    // A later change to a live session keeps its id: no new cookie.
    const again = await send(h.app, post('/cart', { item: 'pen' }, cookie));
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await stateOf(h.app, cookie)).toEqual({
      isNew: false,
      sub: null,
      data: { cart: ['book', 'pen'] },
    });
  });

  test('a secure cookie is __Host-sid with Secure', async () => {
    const h = harness({ cookie: { secure: true } });
    const response = await send(h.app, post('/cart', { item: 'book' }));
    expect(response.headers.getSetCookie()[0]).toMatch(
      /^__Host-sid=[\w-]{43}\.[\w-]{43}; Path=\/; Secure; HttpOnly; SameSite=Strict$/,
    );
  });

  test('a persistent cookie lives until the absolute timeout', async () => {
    const h = harness({ cookie: { secure: false, persistent: true }, absoluteTimeoutSeconds: 7200 });
    const response = await send(h.app, post('/cart', { item: 'book' }));
    expect(response.headers.getSetCookie()[0]).toContain('; Max-Age=7200; Path=/');
  });

  test('a cookie the handler sets is kept beside the session cookie', async () => {
    const h = harness();
    h.app.post('/prefs', { responses: { 200: { body: Ok } } }, (ctx) => {
      sessionOf(ctx).set('theme', 'dark');
      return { status: 200, body: { ok: true }, headers: { 'set-cookie': 'theme=dark; Path=/' } };
    });
    const response = await h.app.request('/prefs', { method: 'POST' });
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toBe('theme=dark; Path=/');
    expect(cookies[1]).toMatch(COOKIE_SHAPE);
  });

  test('Cache-Control that already keeps shared caches out is kept; one that does not is replaced', async () => {
    const h = harness();
    const cases: [given: string, sent: string][] = [
      ['private, max-age=60', 'private, max-age=60'],
      ['no-store', 'no-store'],
      ['public, max-age=600', 'no-store'],
      ['private="set-cookie"', 'no-store'],
    ];
    for (const [index, [given, sent]] of cases.entries()) {
      h.app.post(`/cc-${index}`, { responses: { 200: { body: Ok } } }, (ctx) => {
        sessionOf(ctx).set('n', 1);
        return { status: 200, body: { ok: true }, headers: { 'cache-control': given } };
      });
      const response = await h.app.request(`/cc-${index}`, { method: 'POST' });
      expect(response.headers.get('cache-control')).toBe(sent);
      expect(response.headers.getSetCookie()).toHaveLength(1);
    }
  });

  test('values are deep-frozen: a handler must set() to change one', async () => {
    const h = harness();
    h.app.post('/mutate', { responses: { 200: { body: type({ error: 'string' }) } } }, (ctx) => {
      const cart = sessionOf<{ cart: string[] }>(ctx).get('cart') as string[];
      try {
        cart.push('x');
        return { status: 200, body: { error: 'none' } };
      } catch (error) {
        return { status: 200, body: { error: (error as Error).name } };
      }
    });
    const cookie = cookieOf(await send(h.app, post('/cart', { item: 'book' })));
    const response = await h.app.request('/mutate', { method: 'POST', headers: { cookie } });
    expect(await response.json()).toEqual({ error: 'TypeError' });
  });

  test('a value JSON cannot keep fails the request with 500 and saves nothing', async () => {
    const h = harness();
    h.app.post('/date', { responses: { 200: { body: Ok } } }, (ctx) => {
      sessionOf(ctx).set('when', new Date());
      return { status: 200, body: { ok: true } };
    });
    const response = await h.app.request('/date', { method: 'POST' });
    expect(response.status).toBe(500);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(h.store.size).toBe(0);
  });

  test('unmatched routes pass through untouched when session() is a constructor hook', async () => {
    const app = new App({ logger: false, hooks: session({ secret: SECRET, cookie: { secure: false } }) });
    const response = await app.request('/missing');
    expect(response.status).toBe(404);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(((await response.json()) as { status: number }).status).toBe(404);
  });
});

describe('session: tampered and foreign cookies', () => {
  test('a cookie whose id was changed gives a fresh, signed-out session', async () => {
    const h = harness();
    const cookie = await signIn(h);
    const [name, value] = cookie.split('=') as [string, string];
    const tampered = `${name}=${value[0] === 'A' ? 'B' : 'A'}${value.slice(1)}`;
    expect(await stateOf(h.app, tampered)).toEqual({ isNew: true, sub: null, data: {} });
    expect(await stateOf(h.app, cookie)).toMatchObject({ isNew: false, sub: 'u1' });
  });

  test('a cookie whose mac was changed, or that has none, is refused', async () => {
    const h = harness();
    const cookie = await signIn(h);
    const id = cookie.slice('sid='.length, cookie.indexOf('.'));
    const mac = cookie.slice(cookie.indexOf('.') + 1);
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const value of [`${id}.${flipped}`, id, `${id}.`, '']) {
      expect(await stateOf(h.app, `sid=${value}`)).toEqual({ isNew: true, sub: null, data: {} });
    }
  });

  test('a cookie signed with another secret is refused', async () => {
    const h = harness();
    const cookie = await signIn(h);
    const id = cookie.slice('sid='.length, cookie.indexOf('.'));
    expect(await stateOf(h.app, `sid=${await signValue(id, OLD_SECRET)}`)).toMatchObject({
      isNew: true,
      sub: null,
    });
  });

  test('a validly signed id the store does not know gives a fresh session', async () => {
    const h = harness();
    expect(await stateOf(h.app, `sid=${await signValue('unknown-id', SECRET)}`)).toMatchObject({
      isNew: true,
    });
  });

  test('two cookies of the session name (cookie tossing) are both ignored', async () => {
    const h = harness();
    const cookie = await signIn(h);
    expect(await stateOf(h.app, `${cookie}; ${cookie}`)).toMatchObject({ isNew: true, sub: null });
  });

  test('a cookie signed with an older secret of the list is accepted and signed again with the first', async () => {
    const h = harness({ secret: OLD_SECRET });
    const oldCookie = await signIn(h);
    const rotated = new App({ logger: false });
    rotated.use(
      session({
        secret: [SECRET, OLD_SECRET],
        store: h.store,
        now: () => h.clock.at,
        cookie: { secure: false },
      }),
    );
    rotated.get('/state', { responses: { 200: { body: State } } }, (ctx) => ({
      status: 200,
      body: { isNew: sessionOf(ctx).isNew, sub: ctx.state.user?.sub ?? null, data: {} },
    }));
    const response = await rotated.request('/state', { headers: { cookie: oldCookie } });
    expect(await response.json()).toEqual({ isNew: false, sub: 'u1', data: {} });
    const fresh = cookieOf(response);
    const id = oldCookie.slice('sid='.length, oldCookie.indexOf('.'));
    expect(fresh).toBe(`sid=${await signValue(id, SECRET)}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('session: sign-in, rotation and fixation', () => {
  test('signing in changes the id, kills the old one, keeps the data and publishes the user', async () => {
    const h = harness();
    // An attacker's session id, fixed in the victim's browser before sign-in.
    const planted = cookieOf(await send(h.app, post('/cart', { item: 'book' })));
    const signedIn = await signIn(h, 'victim', planted);
    expect(signedIn).not.toBe(planted);
    expect(signedIn).toMatch(/^sid=/);
    expect(await stateOf(h.app, signedIn)).toEqual({ isNew: false, sub: 'victim', data: { cart: ['book'] } });
    // The planted id is dead: the attacker holding it is not signed in.
    expect(await stateOf(h.app, planted)).toEqual({ isNew: true, sub: null, data: {} });
    expect(h.store.size).toBe(1);
  });

  test('ctx.state.auth and ctx.state.user describe the signed-in user', async () => {
    const h = harness();
    h.app.get(
      '/auth',
      { responses: { 200: { body: type({ scheme: 'string', sub: 'string', scopes: 'string[]' }) } } },
      (ctx) => ({
        status: 200,
        body: {
          scheme: ctx.state.auth?.scheme ?? 'none',
          sub: (ctx.state.auth?.credentials as { user?: { sub: string } }).user?.sub ?? 'none',
          scopes: [...(ctx.state.user?.scopes ?? [])],
        },
      }),
    );
    const cookie = await signIn(h, 'ada');
    const response = await h.app.request('/auth', { headers: { cookie } });
    expect(await response.json()).toEqual({ scheme: 'session', sub: 'ada', scopes: ['orders:read'] });
  });

  test('rotation without sign-in changes the id and keeps the user; keepData: false drops the data', async () => {
    const h = harness();
    const cookie = await signIn(h);
    expect((await send(h.app, post('/cart', { item: 'book' }, cookie))).headers.get('set-cookie')).toBeNull();
    const rotated = cookieOf(await h.app.request('/rotate', { method: 'POST', headers: { cookie } }));
    expect(rotated).not.toBe(cookie);
    expect(await stateOf(h.app, rotated)).toEqual({ isNew: false, sub: 'u1', data: { cart: ['book'] } });
    expect(await stateOf(h.app, cookie)).toMatchObject({ isNew: true });
    const emptied = cookieOf(
      await h.app.request('/rotate?keep=no', { method: 'POST', headers: { cookie: rotated } }),
    );
    expect(await stateOf(h.app, emptied)).toEqual({ isNew: false, sub: 'u1', data: {} });
  });

  test('rotateSession() as route hooks rotates after a successful handler, not after a failed one', async () => {
    const h = harness();
    h.app.post(
      '/elevate',
      { hooks: rotateSession(), responses: { 200: { body: Ok }, 409: { body: Ok } } },
      (ctx) =>
        ctx.query.fail === 'yes' ? { status: 409, body: { ok: false } } : { status: 200, body: { ok: true } },
    );
    const cookie = await signIn(h, 'ada');
    const refused = await h.app.request('/elevate?fail=yes', { method: 'POST', headers: { cookie } });
    expect(refused.status).toBe(409);
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect(await stateOf(h.app, cookie)).toMatchObject({ isNew: false, sub: 'ada' });
    const elevated = await h.app.request('/elevate', { method: 'POST', headers: { cookie } });
    expect(elevated.status).toBe(200);
    const rotated = cookieOf(elevated);
    expect(rotated).not.toBe(cookie);
    expect(await stateOf(h.app, rotated)).toMatchObject({ isNew: false, sub: 'ada' });
    expect(await stateOf(h.app, cookie)).toMatchObject({ isNew: true, sub: null });
  });

  test('rotating an empty stored session clears the cookie', async () => {
    const h = harness();
    const cookie = cookieOf(await send(h.app, post('/cart', { item: 'book' })));
    const emptied = await h.app.request('/rotate?keep=no', { method: 'POST', headers: { cookie } });
    expect(emptied.headers.getSetCookie()[0]).toStartWith('sid=; Max-Age=0; Expires=Thu, 01 Jan 1970');
    expect(h.store.size).toBe(0);
  });

  test('destroy deletes the record and clears the cookie with the same attributes', async () => {
    const h = harness();
    const cookie = await signIn(h);
    const response = await h.app.request('/logout', { method: 'POST', headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([
      'sid=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Strict',
    ]);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(h.store.size).toBe(0);
    expect(await stateOf(h.app, cookie)).toEqual({ isNew: true, sub: null, data: {} });
  });

  test('destroy without a cookie sets none', async () => {
    const h = harness();
    const response = await h.app.request('/logout', { method: 'POST' });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  test('data set after destroy starts a new session under a new id', async () => {
    const h = harness();
    const cookie = await signIn(h);
    const response = await h.app.request('/logout?flash=yes', { method: 'POST', headers: { cookie } });
    const next = cookieOf(response);
    expect(next).not.toBe(cookie);
    expect(await stateOf(h.app, next)).toEqual({ isNew: false, sub: null, data: { flash: 'Signed out' } });
    expect(await stateOf(h.app, cookie)).toMatchObject({ isNew: true });
  });

  test('signing out with user: null rotates and drops the principal', async () => {
    const h = harness();
    h.app.post('/signout', { responses: { 200: { body: Ok } } }, (ctx) => {
      rotateSession(ctx, { user: null });
      return { status: 200, body: { ok: ctx.state.user === undefined && ctx.state.auth === undefined } };
    });
    const cookie = await signIn(h);
    await send(h.app, post('/cart', { item: 'book' }, cookie));
    const response = await h.app.request('/signout', { method: 'POST', headers: { cookie } });
    expect(await response.json()).toEqual({ ok: true });
    expect(await stateOf(h.app, cookieOf(response))).toEqual({
      isNew: false,
      sub: null,
      data: { cart: ['book'] },
    });
  });

  test('a principal another hook authenticated first is not replaced', async () => {
    const bearer = withHookTraits(
      {
        preBody(ctx) {
          ctx.state.auth = { scheme: 'bearer', credentials: 'token' };
          ctx.state.user = { sub: 'service', scopes: [], claims: {} };
        },
      },
      { authenticates: true },
    );
    const h = harness({}, [bearer]);
    const cookie = await signIn(h, 'ada');
    expect(await stateOf(h.app, cookie)).toMatchObject({ sub: 'service' });
  });

  test('a bad rotation option fails the request with 500', async () => {
    const h = harness();
    h.app.post('/bad', { responses: { 200: { body: Ok } } }, (ctx) => {
      rotateSession(ctx, { user: { sub: '' } });
      return { status: 200, body: { ok: true } };
    });
    const response = await h.app.request('/bad', { method: 'POST' });
    expect(response.status).toBe(500);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('session: error responses', () => {
  test('changes made before an error are saved and the cookie rides on the problem response', async () => {
    const h = harness();
    h.app.post('/conflict', { responses: { 200: { body: Ok } } }, (ctx) => {
      sessionOf(ctx).set('attempts', 1);
      throw new ConflictError('Try again');
    });
    const response = await h.app.request('/conflict', { method: 'POST' });
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { detail: string }).detail).toBe('Try again');
    expect(await stateOf(h.app, cookieOf(response))).toMatchObject({ data: { attempts: 1 } });
  });

  test('a route with session() registered twice loads and saves once', async () => {
    const store = memorySessionStore();
    let writes = 0;
    const counting = {
      ...store,
      set: (id: string, record: Parameters<typeof store.set>[1]) => (writes++, store.set(id, record)),
    };
    const hooks = session({ secret: SECRET, store: counting, cookie: { secure: false } });
    const app = new App({ logger: false });
    app.use(hooks);
    app.post('/twice', { hooks, responses: { 200: { body: Ok } } }, (ctx) => {
      sessionOf(ctx).set('n', 1);
      return { status: 200, body: { ok: true } };
    });
    const response = await app.request('/twice', { method: 'POST' });
    expect(response.headers.getSetCookie()).toHaveLength(1);
    expect(writes).toBe(1);
  });

  test('changing the session once the response is on its way throws', async () => {
    const failures: string[] = [];
    const late: Hooks = {
      onResponse(_response, ctx) {
        try {
          if (ctx !== undefined) sessionOf(ctx).set('late', true);
        } catch (error) {
          failures.push((error as Error).message);
        }
      },
    };
    const h = harness();
    h.app.use(late);
    await send(h.app, post('/cart', { item: 'book' }));
    expect(failures).toEqual([
      'The session was already saved with the response: change it before the response is sent',
    ]);
  });
});

describe('resolveSessionOptions and session()', () => {
  test('session() validates its options at construction', () => {
    expect(() => session({ secret: '' })).toThrow('session option "secret" must not be empty');
    expect(resolveSessionOptions({ secret: SECRET, cookie: { secure: false } }).cookieName).toBe('sid');
  });
});
