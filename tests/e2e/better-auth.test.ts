/**
 * Better Auth mounted in Charter (framework.md, "Mounting an external auth library"), end to end over
 * a real socket: the example app of examples/better-auth.ts served by the Bun adapter, driven with
 * `fetch` and `redirect: 'manual'`, its users in a bun:sqlite file.
 */
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BunServer, serve } from 'charter/bun';
import type { App } from 'charter';
import {
  type BetterAuthAppOptions,
  createBetterAuthApp,
  isSensitiveAuthPath,
} from '../../examples/better-auth.ts';
import { trackedBody as recordingBody } from '../support/tracked-body.ts';

const SPA = 'https://spa.example';
const PASSWORD = 'correct horse battery staple';

/** 32 random bytes, base64url: a secret `assertStrongSecret` accepts in production. */
function randomSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
}

/** A free port: Better Auth needs its baseURL (port included) before the app can be served. */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(null) });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

interface Served {
  app: App;
  server: BunServer;
  base: string;
  database: Database;
  resetLinks: { email: string; url: string }[];
}

async function start(options: Partial<BetterAuthAppOptions> & { database: Database }): Promise<Served> {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const resetLinks: { email: string; url: string }[] = [];
  const { app } = await createBetterAuthApp({
    secret: randomSecret(),
    baseURL: base,
    logger: false,
    sendResetPassword: (email, url) => {
      resetLinks.push({ email, url });
    },
    ...options,
  });
  const server = await serve(app, { port, signals: false });
  return { app, server, base, database: options.database, resetLinks };
}

/** What a browser keeps: cookie name to value, from Set-Cookie fields (Max-Age=0 deletes). */
class CookieJar {
  readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const field of response.headers.getSetCookie()) {
      const pair = field.split(';')[0] as string;
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      if (/;\s*max-age=0/i.test(field)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** `name => attributes` of each Set-Cookie field, attribute names lower-cased. */
function setCookies(response: Response): Map<string, { value: string; attributes: Map<string, string> }> {
  const out = new Map<string, { value: string; attributes: Map<string, string> }>();
  for (const field of response.headers.getSetCookie()) {
    const [pair, ...rest] = field.split(';').map((part) => part.trim());
    const eq = (pair as string).indexOf('=');
    const attributes = new Map<string, string>();
    for (const attribute of rest) {
      const at = attribute.indexOf('=');
      if (at === -1) attributes.set(attribute.toLowerCase(), '');
      else attributes.set(attribute.slice(0, at).toLowerCase(), attribute.slice(at + 1));
    }
    out.set((pair as string).slice(0, eq), { value: (pair as string).slice(eq + 1), attributes });
  }
  return out;
}

function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
}

async function expectProblem(response: Response, status: number): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as Record<string, unknown>;
  expect(problem.status).toBe(status);
  expect(String(problem.type)).toStartWith('https://charter.dev/errors/');
  return problem;
}

const SESSION = 'better-auth.session_token';
const DONT_REMEMBER = 'better-auth.dont_remember';
const SESSION_DATA = 'better-auth.session_data';

describe('Better Auth mounted on /api/auth/*path, over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'charter-better-auth-'));
  const file = join(dir, 'auth.sqlite');
  const email = 'ada@example.com';
  const jar = new CookieJar();
  let served: Served;
  let auth: string;

  beforeAll(async () => {
    served = await start({
      database: new Database(file, { create: true }),
      trustedOrigins: [SPA],
      authRateLimit: { windowMs: 60_000, max: 100 },
    });
    auth = `${served.base}/api/auth`;
  });

  afterAll(async () => {
    await served.server.close(100);
    served.database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('sign-up creates the user and answers with the session cookie, HttpOnly, SameSite=Lax, Path=/', async () => {
    const response = await postJson(`${auth}/sign-up/email`, { email, password: PASSWORD, name: 'Ada' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: Record<string, unknown> };
    expect(body.user.email).toBe(email);
    expect(body.user).not.toHaveProperty('password');
    const cookies = setCookies(response);
    expect([...cookies.keys()]).toEqual([SESSION]);
    const session = cookies.get(SESSION)?.attributes;
    expect(session?.has('httponly')).toBe(true);
    expect(session?.get('samesite')).toBe('Lax');
    expect(session?.get('path')).toBe('/');
    // The response went through Charter's last step: the security headers are there.
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('the users are in the bun:sqlite file: reopened, it has the user and no plain-text password', () => {
    expect(readFileSync(file).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    const reopened = new Database(file, { readonly: true });
    try {
      const user = reopened.query('select id, email from user where email = ?').get(email) as {
        id: string;
      } | null;
      expect(user).not.toBeNull();
      const account = reopened
        .query('select password from account where userId = ?')
        .get((user as { id: string }).id) as { password: string };
      expect(account.password).not.toContain(PASSWORD);
      expect(account.password.length).toBeGreaterThan(PASSWORD.length);
    } finally {
      reopened.close();
    }
  });

  test('sign-in answers 200 with every Set-Cookie field Better Auth wrote (session and remember-me)', async () => {
    const response = await postJson(`${auth}/sign-in/email`, {
      email,
      password: PASSWORD,
      rememberMe: false,
      callbackURL: '/dashboard',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ redirect: true, url: '/dashboard', user: { email } });
    expect(response.headers.getSetCookie()).toHaveLength(2);
    const cookies = setCookies(response);
    expect([...cookies.keys()].sort()).toEqual([DONT_REMEMBER, SESSION]);
    for (const cookie of cookies.values()) {
      expect(cookie.attributes.has('httponly')).toBe(true);
      expect(cookie.attributes.get('samesite')).toBe('Lax');
      expect(cookie.attributes.get('path')).toBe('/');
      // rememberMe: false makes them session cookies (no Max-Age).
      expect(cookie.attributes.has('max-age')).toBe(false);
    }
    jar.store(response);
  });

  test('a wrong password is Better Auth’s own 401, passed through, with no cookie', async () => {
    const response = await postJson(`${auth}/sign-in/email`, { email, password: 'not the password' });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toStartWith('application/json');
    expect(((await response.json()) as { code: string }).code).toBe('INVALID_EMAIL_OR_PASSWORD');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  test('a sign-up body over the app’s limit is Charter’s 413 problem, not a library 500', async () => {
    const name = 'x'.repeat(1024 * 1024 + 1);
    const response = await postJson(`${auth}/sign-up/email`, {
      email: 'big@example.com',
      password: PASSWORD,
      name,
    });
    const problem = await expectProblem(response, 413);
    expect(problem.type).toBe('https://charter.dev/errors/payload-too-large');
    expect(served.database.query('select 1 from user where email = ?').get('big@example.com')).toBeNull();
  });

  test('GET /me with the session cookie: 200 with the user, read by the preBody guard', async () => {
    const response = await fetch(`${served.base}/me`, { headers: { cookie: jar.header() } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email, name: 'Ada' });
    jar.store(response); // the csrf() token cookie handed out on a safe request
    expect(jar.cookies.has('csrf')).toBe(true);
  });

  test('GET /me without a cookie: 401 problem with a Cookie challenge', async () => {
    const response = await fetch(`${served.base}/me`);
    const problem = await expectProblem(response, 401);
    expect(problem.type).toBe('https://charter.dev/errors/unauthorized');
    expect(response.headers.get('www-authenticate')).toStartWith(
      'Cookie realm="app", form-action="/api/auth/sign-in/email"',
    );
  });

  test('GET /me with a tampered or forged session cookie: 401', async () => {
    const value = decodeURIComponent(jar.cookies.get(SESSION) as string);
    const [token, signature] = value.split('.') as [string, string];
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}.${signature}`;
    const forged = `${'x'.repeat(token.length)}.${signature}`;
    const unsigned = token;
    for (const bad of [flipped, forged, unsigned]) {
      const response = await fetch(`${served.base}/me`, {
        headers: { cookie: `${SESSION}=${encodeURIComponent(bad)}` },
      });
      await expectProblem(response, 401);
    }
  });

  test('an unauthenticated POST /notes is refused before its body is read; a signed-in one reads it', async () => {
    const refused = recordingBody('{"text":"secret"}');
    const response = await served.app.request('/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: refused.body,
      duplex: 'half',
    } as RequestInit);
    await expectProblem(response, 401);
    expect(refused.pulled()).toBe(false);

    const accepted = recordingBody('{"text":"first note"}');
    const ok = await served.app.request('/notes', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: jar.header(),
        'x-csrf-token': jar.cookies.get('csrf') as string,
      },
      body: accepted.body,
      duplex: 'half',
    } as RequestInit);
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ text: 'first note' });
    expect(accepted.pulled()).toBe(true);
  });

  test('POST /notes over HTTP: 403 without the CSRF token, 201 with it, then listed', async () => {
    const headers = { cookie: jar.header() };
    const without = await postJson(`${served.base}/notes`, { text: 'no token' }, headers);
    expect(((await expectProblem(without, 403)).detail as string).toLowerCase()).toContain('csrf');
    const token = jar.cookies.get('csrf') as string;
    const created = await postJson(
      `${served.base}/notes`,
      { text: 'second' },
      { ...headers, 'x-csrf-token': token },
    );
    expect(created.status).toBe(201);
    const list = await fetch(`${served.base}/notes`, { headers });
    expect(((await list.json()) as { text: string }[]).map((n) => n.text)).toEqual(['first note', 'second']);
  });

  test('the cross-origin guard refuses an untrusted origin before Better Auth runs; the trusted one passes', async () => {
    const body = { email, password: PASSWORD };
    const evil = await postJson(`${auth}/sign-in/email`, body, { origin: 'https://evil.example' });
    await expectProblem(evil, 403);
    expect(evil.headers.getSetCookie()).toEqual([]);
    const crossSite = await postJson(`${auth}/sign-in/email`, body, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    await expectProblem(crossSite, 403);

    const trusted = await postJson(`${auth}/sign-in/email`, body, {
      origin: SPA,
      'sec-fetch-site': 'same-site',
    });
    expect(trusted.status).toBe(200);
    expect(trusted.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(trusted.headers.get('access-control-allow-credentials')).toBe('true');
    expect(setCookies(trusted).has(SESSION)).toBe(true);
  });

  test('Better Auth keeps its own Origin check under NODE_ENV=test: a cookie POST without Origin is its 403', async () => {
    const response = await postJson(`${auth}/sign-out`, {}, { cookie: jar.header() });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toStartWith('application/json');
    expect(((await response.json()) as { code: string }).code).toBe('MISSING_OR_NULL_ORIGIN');
  });

  test('Better Auth records the client address Charter resolved, not a forged X-Forwarded-For', async () => {
    const response = await postJson(
      `${auth}/sign-in/email`,
      { email, password: PASSWORD },
      { 'x-forwarded-for': '203.0.113.9', 'x-charter-client-ip': '198.51.100.7' },
    );
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    const row = served.database.query('select ipAddress from session where token = ?').get(token) as {
      ipAddress: string;
    };
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1']).toContain(row.ipAddress);
  });

  test('password reset: the emailed link is a 302 to the callback with the token, and the reset works', async () => {
    const requested = await postJson(`${auth}/request-password-reset`, { email, redirectTo: '/reset' });
    expect(requested.status).toBe(200);
    const link = served.resetLinks.at(-1);
    expect(link?.email).toBe(email);
    expect(link?.url).toStartWith(`${auth}/reset-password/`);

    const redirect = await fetch(link?.url as string, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location') as string);
    expect(location.origin + location.pathname).toBe(`${served.base}/reset`);
    const token = location.searchParams.get('token') as string;
    expect(token.length).toBeGreaterThan(10);

    const bogus = await fetch(`${auth}/reset-password/not-a-token?callbackURL=%2Freset`, {
      redirect: 'manual',
    });
    expect(bogus.status).toBe(302);
    expect(new URL(bogus.headers.get('location') as string).searchParams.get('error')).toBe('INVALID_TOKEN');

    const newPassword = 'a new and longer passphrase';
    const reset = await postJson(`${auth}/reset-password`, { token, newPassword });
    expect(reset.status).toBe(200);
    expect((await postJson(`${auth}/sign-in/email`, { email, password: PASSWORD })).status).toBe(401);
    const signIn = await postJson(`${auth}/sign-in/email`, { email, password: newPassword });
    expect(signIn.status).toBe(200);
  });

  test('Better Auth refuses a reset link whose callback leaves the trusted origins (no open redirect)', async () => {
    const response = await postJson(`${auth}/request-password-reset`, {
      email,
      redirectTo: 'https://evil.example/steal',
    });
    expect(response.status).toBe(403);
  });

  test('a session due for renewal: the guard passes Better Auth’s renewed cookie on with the 200', async () => {
    const signUp = await postJson(`${auth}/sign-up/email`, {
      email: 'renew@example.com',
      password: PASSWORD,
      name: 'Renew',
    });
    const { token } = (await signUp.json()) as { token: string };
    const own = new CookieJar();
    own.store(signUp);
    // An hour left of the 7-day session: more than updateAge (1 day) has passed since it was renewed.
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    served.database.query('update session set expiresAt = ? where token = ?').run(soon, token);
    const response = await fetch(`${served.base}/me`, { headers: { cookie: own.header() } });
    expect(response.status).toBe(200);
    const renewed = setCookies(response).get(SESSION);
    expect(renewed?.attributes.get('max-age')).toBe(String(7 * 86_400));
    expect(renewed?.attributes.has('httponly')).toBe(true);
    const row = served.database.query('select expiresAt from session where token = ?').get(token) as {
      expiresAt: string;
    };
    expect(Date.parse(row.expiresAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  });

  test('sign-out clears every auth cookie, and the old cookie no longer opens /me', async () => {
    const before = jar.header();
    const response = await postJson(`${auth}/sign-out`, {}, { cookie: before, origin: served.base });
    expect(response.status).toBe(200);
    const cleared = setCookies(response);
    expect([...cleared.keys()].sort()).toEqual([DONT_REMEMBER, SESSION_DATA, SESSION]);
    for (const cookie of cleared.values()) {
      expect(cookie.value).toBe('');
      expect(cookie.attributes.get('max-age')).toBe('0');
    }
    jar.store(response);
    expect(jar.cookies.has(SESSION)).toBe(false);
    // The session row is gone too: replaying the old cookie fails, and the 401 clears it again.
    const replay = await fetch(`${served.base}/me`, { headers: { cookie: before } });
    await expectProblem(replay, 401);
    expect(setCookies(replay).get(SESSION)?.attributes.get('max-age')).toBe('0');
  });
});

describe('rate limit on the sensitive auth routes', () => {
  let served: Served;
  let auth: string;

  beforeAll(async () => {
    served = await start({
      database: new Database(':memory:'),
      // The test client is the proxy: the client address is the X-Forwarded-For entry it writes.
      behindProxy: 'loopback',
      authRateLimit: { windowMs: 60_000, max: 3 },
    });
    auth = `${served.base}/api/auth`;
  });

  afterAll(async () => {
    await served.server.close(100);
    served.database.close();
  });

  test('sign-in: 429 with Retry-After after max attempts from one client; other routes and clients unaffected', async () => {
    const client = { 'x-forwarded-for': '203.0.113.1' };
    const attempt = { email: 'nobody@example.com', password: 'wrong password' };
    for (let i = 0; i < 3; i++) {
      const response = await postJson(`${auth}/sign-in/email`, attempt, client);
      expect(response.status).toBe(401);
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"auth";r=${2 - i};t=\\d+$`));
    }
    const limited = await postJson(`${auth}/sign-in/email`, attempt, client);
    await expectProblem(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Other spellings and the other sensitive routes share the budget.
    for (const path of ['/sign-in/%65mail', '/SIGN-IN/email', '/sign-up/email', '/request-password-reset']) {
      await expectProblem(await postJson(`${auth}${path}`, attempt, client), 429);
    }
    // The session endpoint and the app's own routes are not limited.
    expect((await fetch(`${auth}/get-session`, { headers: client })).status).toBe(200);
    await expectProblem(await fetch(`${served.base}/me`, { headers: client }), 401);
    // Another client has its own budget.
    const other = await postJson(`${auth}/sign-in/email`, attempt, { 'x-forwarded-for': '203.0.113.2' });
    expect(other.status).toBe(401);
  });

  test('behind the proxy, Better Auth records the forwarded client address Charter trusts', async () => {
    const client = { 'x-forwarded-for': '198.51.100.23' };
    const signUp = await postJson(
      `${auth}/sign-up/email`,
      { email: 'grace@example.com', password: PASSWORD, name: 'Grace' },
      client,
    );
    expect(signUp.status).toBe(200);
    const { token } = (await signUp.json()) as { token: string };
    const row = served.database.query('select ipAddress from session where token = ?').get(token) as {
      ipAddress: string;
    };
    expect(row.ipAddress).toBe('198.51.100.23');
  });
});

describe('the mount, as declared', () => {
  test('GET and POST /api/auth/*path with the declared responses', async () => {
    const { app, database } = await createBetterAuthApp({
      secret: randomSecret(),
      baseURL: 'http://charter.local',
      logger: false,
    });
    const routes = app.introspect().filter((route) => route.path === '/api/auth/*path');
    expect(routes.map((route) => [route.method, route.responses])).toEqual([
      ['GET', [200, 302, 400, 401]],
      ['POST', [200, 201, 204, 400, 401]],
    ]);
    expect(
      app.assertSecureConfig({ production: false }).filter((issue) => issue.severity === 'error'),
    ).toEqual([]);
    database.close();
  });

  test('the app refuses to start with a weak or missing secret', async () => {
    for (const secret of ['', 'short', 'changeme', undefined]) {
      await expect(
        createBetterAuthApp({ secret: secret as string, baseURL: 'http://charter.local', logger: false }),
      ).rejects.toThrow(/BETTER_AUTH_SECRET/);
    }
  });

  test('isSensitiveAuthPath covers sign-in, sign-up, reset and callbacks, in any spelling, and nothing else', () => {
    for (const path of [
      '/api/auth/sign-in/email',
      '/api/auth/sign-up/email',
      '/api/auth/request-password-reset',
      '/api/auth/reset-password/abc',
      '/api/auth/callback/github',
      '/api/auth/sign-in/%65mail',
      '/API/AUTH/Sign-In/email',
      '/api/auth/%E0%A4%A',
    ]) {
      expect(isSensitiveAuthPath(path)).toBe(true);
    }
    for (const path of ['/api/auth/get-session', '/api/auth/sign-out', '/me', '/api/authsign-in/email']) {
      expect(isSensitiveAuthPath(path)).toBe(false);
    }
  });
});
