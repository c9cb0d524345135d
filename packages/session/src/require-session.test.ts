import { describe, expect, test } from 'bun:test';
import { App, hookTraitsOf } from '@charter/core';
import { type } from 'arktype';
import { requireSession, SESSION_CHALLENGE_SCHEME } from './require-session.ts';
import { rotateSession, session } from './session.ts';

const SECRET = 'q8Vd-2nTz!kP4sLw9Xe7Rb3Hc6JmYt1Gf5Ua0Ni2Oe8Wr';
const Me = type({ sub: 'string' });
const Ok = type({ ok: 'boolean' });

/** An app with session() everywhere, a sign-in route, and /me behind requireSession. */
function appWith(options?: Parameters<typeof requireSession>[0]): App {
  const app = new App({ logger: false });
  app.use(session({ secret: SECRET, cookie: { secure: false } }));
  app.post('/login', { responses: { 200: { body: Ok } } }, (ctx) => {
    rotateSession(ctx, { user: { sub: 'ada' } });
    return { status: 200, body: { ok: true } };
  });
  app.post(
    '/upload',
    {
      hooks: requireSession(options),
      request: { body: type({ name: 'string' }) },
      responses: { 200: { body: Ok } },
    },
    () => ({ status: 200, body: { ok: true } }),
  );
  app.get('/me', { hooks: requireSession(options), responses: { 200: { body: Me } } }, (ctx) => ({
    status: 200,
    body: { sub: ctx.state.user?.sub ?? 'none' },
  }));
  return app;
}

async function signIn(app: App): Promise<string> {
  const response = await app.request('/login', { method: 'POST' });
  return (response.headers.get('set-cookie') as string).split(';')[0] as string;
}

describe('requireSession', () => {
  test('lets a signed-in session through, with ctx.state.user set', async () => {
    const app = appWith();
    const response = await app.request('/me', { headers: { cookie: await signIn(app) } });
    expect(response.status).toBe(200);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(await response.json()).toEqual({ sub: 'ada' });
  });

  test('answers 401 with a Cookie challenge and a problem document when nobody is signed in', async () => {
    const response = await appWith().request('/me');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Cookie realm="api"');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual({
      type: 'https://charter.dev/errors/unauthorized',
      title: 'Unauthorized',
      status: 401,
      detail: 'A signed-in session is required to access this resource.',
    });
  });

  test('answers 401 for a tampered cookie', async () => {
    const app = appWith();
    const cookie = await signIn(app);
    const response = await app.request('/me', { headers: { cookie: `${cookie.slice(0, -2)}xx` } });
    expect(response.status).toBe(401);
  });

  test('refuses before the body is read: a malformed upload without a session gets 401, not 400', async () => {
    const response = await appWith().request('/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(401);
  });

  test('uses the configured realm', async () => {
    const response = await appWith({ realm: 'shop' }).request('/me');
    expect(response.headers.get('www-authenticate')).toBe(`${SESSION_CHALLENGE_SCHEME} realm="shop"`);
  });

  test('refuses a realm that cannot be sent in a header, at construction', () => {
    expect(() => requireSession({ realm: 'a\r\nb' })).toThrow(TypeError);
    expect(() => requireSession({ realm: '' })).toThrow('"realm" must be a non-empty string');
  });

  test('fails with 500 when no session() runs before it', async () => {
    const app = new App({ logger: false });
    app.get('/me', { hooks: requireSession(), responses: { 200: { body: Me } } }, () => ({
      status: 200,
      body: { sub: 'x' },
    }));
    const response = await app.request('/me');
    expect(response.status).toBe(500);
  });

  test('declares that it authenticates, for the App guards', () => {
    expect(hookTraitsOf(requireSession())).toEqual({ authenticates: true, usesSession: true });
  });
});
