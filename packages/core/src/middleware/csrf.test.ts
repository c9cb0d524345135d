import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { hookTraitsOf } from '../types/index.ts';
import { type CsrfOptions, csrf, csrfTokenOf, resolveCsrfOptions } from './csrf.ts';

const Token = type({ token: 'string' });
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * An app with the CSRF hooks. The App's own cross-origin guard is off, so the refusals seen here
 * are the hook's (with the guard on, it answers first for cross-origin requests).
 */
function appWith(options?: CsrfOptions): App {
  const app = new App({ logger: false, corsCrossOriginGuard: false });
  app.use(csrf(options));
  app.get('/form', { responses: { 200: { body: Token } } }, (ctx) => ({
    status: 200,
    body: { token: csrfTokenOf(ctx) ?? 'none' },
  }));
  app.post('/items', { responses: { 201: { body: Token } } }, (ctx) => ({
    status: 201,
    body: { token: String(ctx.state.csrfToken) },
  }));
  app.post(
    '/form-post',
    {
      request: { body: type({ name: 'string', '_csrf?': 'string' }) },
      responses: { 201: { body: type({ name: 'string' }) } },
    },
    (ctx) => ({ status: 201, body: { name: ctx.body.name } }),
  );
  return app;
}

/** Gets a token: a GET with no cookie, returning the Set-Cookie value and the token. */
async function issue(app: App): Promise<{ setCookie: string; token: string }> {
  const response = await app.request('/form');
  expect(response.status).toBe(200);
  const setCookie = response.headers.get('set-cookie') as string;
  const { token } = (await response.json()) as { token: string };
  return { setCookie, token };
}

async function expectRefused(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(403);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as { type: string; detail: string };
  expect(body.type).toBe('https://charter.dev/errors/forbidden');
  expect(body.detail).toMatch(detail);
}

function post(
  token: string | undefined,
  headers: Record<string, string> = {},
  path = '/items',
): [string, RequestInit] {
  const all: Record<string, string> = { ...headers };
  if (token !== undefined) all.cookie = `csrf=${token}`;
  return [path, { method: 'POST', headers: all }];
}

describe('csrf: safe requests', () => {
  test('issue a token cookie when the request has none, and expose the token to the handler', async () => {
    const { setCookie, token } = await issue(appWith());
    expect(token).toMatch(TOKEN_SHAPE);
    expect(setCookie).toBe(`csrf=${token}; Path=/; SameSite=Lax`);
  });

  test('keep an existing token without setting the cookie again', async () => {
    const app = appWith();
    const { token } = await issue(app);
    const again = await app.request('/form', { headers: { cookie: `other=1; csrf=${token}` } });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.json()).toEqual({ token });
  });

  test('replace a cookie that is not a token of ours', async () => {
    const response = await appWith().request('/form', { headers: { cookie: 'csrf=planted-by-someone' } });
    const { token } = (await response.json()) as { token: string };
    expect(token).toMatch(TOKEN_SHAPE);
    expect(response.headers.get('set-cookie')).toStartWith(`csrf=${token};`);
  });

  test('let HEAD and OPTIONS through without a token', async () => {
    const app = appWith();
    expect((await app.request('/form', { method: 'HEAD' })).status).toBe(200);
    expect((await app.request('/items', { method: 'OPTIONS' })).status).toBe(405);
  });

  test('in secure mode, use a __Host- cookie with Secure', async () => {
    const app = appWith({ secure: true });
    const { setCookie, token } = await issue(app);
    expect(setCookie).toBe(`__Host-csrf=${token}; Path=/; Secure; SameSite=Lax`);
    const ok = await app.request('/items', {
      method: 'POST',
      headers: { cookie: `__Host-csrf=${token}`, 'x-csrf-token': token },
    });
    expect(ok.status).toBe(201);
  });
});

describe('csrf: the double-submit token', () => {
  test('passes a state-changing request whose header token matches the cookie', async () => {
    const app = appWith();
    const { token } = await issue(app);
    const response = await app.request(...post(token, { 'x-csrf-token': token }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ token });
  });

  test('refuses a token that does not match the cookie', async () => {
    const app = appWith();
    const { token } = await issue(app);
    const other = (await issue(app)).token;
    await expectRefused(await app.request(...post(token, { 'x-csrf-token': other })), /does not match/);
  });

  test('refuses a request without the cookie', async () => {
    const app = appWith();
    const { token } = await issue(app);
    await expectRefused(await app.request(...post(undefined, { 'x-csrf-token': token })), /cookie missing/);
  });

  test('refuses a request without the header (and no form body)', async () => {
    const app = appWith();
    const { token } = await issue(app);
    await expectRefused(await app.request(...post(token)), /missing from the x-csrf-token header/);
  });

  test('refuses two cookies of the same name (cookie tossing)', async () => {
    const app = appWith();
    const { token } = await issue(app);
    const response = await app.request('/items', {
      method: 'POST',
      headers: { cookie: `csrf=${token}; csrf=${token}`, 'x-csrf-token': token },
    });
    await expectRefused(response, /cookie missing/);
  });

  test('reads the token from a form field when the header is absent', async () => {
    const app = appWith();
    const { token } = await issue(app);
    const form = (value: string) => ({
      method: 'POST',
      headers: { cookie: `csrf=${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=ada&_csrf=${value}`,
    });
    const ok = await app.request('/form-post', form(token));
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ name: 'ada' });
    await expectRefused(await app.request('/form-post', form('wrong')), /does not match/);
  });

  test('with formField: false, wants the header even for forms', async () => {
    const app = appWith({ formField: false });
    const { token } = await issue(app);
    const response = await app.request('/form-post', {
      method: 'POST',
      headers: { cookie: `csrf=${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=ada&_csrf=${token}`,
    });
    await expectRefused(response, /missing from the x-csrf-token header/);
  });

  test('honours a custom header and cookie name', async () => {
    const app = appWith({ headerName: 'X-XSRF-Token', cookieName: 'xsrf' });
    const issued = await app.request('/form');
    const { token } = (await issued.json()) as { token: string };
    expect(issued.headers.get('set-cookie')).toStartWith(`xsrf=${token};`);
    const ok = await app.request('/items', {
      method: 'POST',
      headers: { cookie: `xsrf=${token}`, 'x-xsrf-token': token },
    });
    expect(ok.status).toBe(201);
  });
});

describe('csrf: Fetch Metadata and Origin', () => {
  test('refuses a cross-site request even with a valid token', async () => {
    const app = appWith();
    const { token } = await issue(app);
    const response = await app.request(
      ...post(token, { 'x-csrf-token': token, 'sec-fetch-site': 'cross-site' }),
    );
    await expectRefused(response, /Cross-site request refused: Sec-Fetch-Site is cross-site/);
  });

  test('refuses same-site requests, and passes same-origin and none on to the token check', async () => {
    const app = appWith();
    const { token } = await issue(app);
    await expectRefused(
      await app.request(...post(token, { 'x-csrf-token': token, 'sec-fetch-site': 'same-site' })),
      /same-site/,
    );
    for (const site of ['same-origin', 'none']) {
      expect(
        (await app.request(...post(token, { 'x-csrf-token': token, 'sec-fetch-site': site }))).status,
      ).toBe(201);
      await expectRefused(await app.request(...post(token, { 'sec-fetch-site': site })), /missing/);
    }
  });

  test('without Fetch Metadata, refuses an Origin naming another host and passes this host', async () => {
    const app = appWith();
    const { token } = await issue(app);
    const withOrigin = (origin: string) => post(token, { 'x-csrf-token': token, origin });
    await expectRefused(
      await app.request(...withOrigin('https://evil.example')),
      /Origin header does not name this site/,
    );
    await expectRefused(await app.request(...withOrigin('null')), /Origin/);
    // The scheme is not compared: a TLS-terminating proxy makes the app see http://.
    expect((await app.request(...withOrigin('https://charter.local'))).status).toBe(201);
    expect((await app.request(...withOrigin('http://charter.local'))).status).toBe(201);
  });

  test('lets a trusted origin past the site checks, still asking for the token', async () => {
    const app = appWith({ trustedOrigins: ['https://admin.example'] });
    const { token } = await issue(app);
    const headers = { origin: 'https://admin.example', 'sec-fetch-site': 'cross-site' };
    expect((await app.request(...post(token, { ...headers, 'x-csrf-token': token }))).status).toBe(201);
    await expectRefused(await app.request(...post(token, headers)), /missing/);
    await expectRefused(
      await app.request(
        ...post(token, {
          origin: 'https://other.example',
          'sec-fetch-site': 'cross-site',
          'x-csrf-token': token,
        }),
      ),
      /Cross-site/,
    );
  });
});

describe('csrf: with the App cross-origin guard on', () => {
  test('passes a same-origin request with its token, and a cross-site one is refused', async () => {
    const app = new App({ logger: false });
    app.use(csrf());
    app.get('/form', { responses: { 200: { body: Token } } }, (ctx) => ({
      status: 200,
      body: { token: csrfTokenOf(ctx) ?? 'none' },
    }));
    app.post('/items', { responses: { 201: { body: Token } } }, () => ({
      status: 201,
      body: { token: 'ok' },
    }));
    const { token } = await issue(app);
    const same = { cookie: `csrf=${token}`, 'x-csrf-token': token, 'sec-fetch-site': 'same-origin' };
    expect((await app.request('/items', { method: 'POST', headers: same })).status).toBe(201);
    const cross = await app.request('/items', {
      method: 'POST',
      headers: { ...same, 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.status).toBe(403);
    expect(((await cross.json()) as { type: string }).type).toBe('https://charter.dev/errors/forbidden');
  });
});

describe('csrf: options', () => {
  test('declares the csrfProtection trait', () => {
    expect(hookTraitsOf(csrf())?.csrfProtection).toBe(true);
  });

  test('fills defaults by mode', () => {
    expect(resolveCsrfOptions({ secure: false }).cookieName).toBe('csrf');
    const secure = resolveCsrfOptions({ secure: true });
    expect(secure.cookieName).toBe('__Host-csrf');
    expect(secure.cookie).toEqual({ secure: true, httpOnly: false, sameSite: 'Lax', path: '/' });
    expect(secure.headerName).toBe('x-csrf-token');
    expect(secure.formField).toBe('_csrf');
  });

  test('refuses bad options, naming them', () => {
    expect(() => csrf({ cookieName: 'bad name' })).toThrow(/"cookieName"/);
    expect(() => csrf({ cookieName: '__Host-csrf', secure: false })).toThrow(
      /__Host- prefix requires Secure/,
    );
    expect(() => csrf({ headerName: 'x y' })).toThrow(/"headerName"/);
    expect(() => csrf({ formField: '' })).toThrow(/"formField"/);
    expect(() => csrf({ sameSite: 'None' as never })).toThrow(/"sameSite"/);
    expect(() => csrf({ secure: 'yes' as never })).toThrow(/"secure"/);
    expect(() => csrf({ trustedOrigins: ['admin.example'] })).toThrow(/"trustedOrigins"/);
    expect(() => csrf({ trustedOrigins: ['null'] })).toThrow(/"trustedOrigins"/);
  });
});
