import { afterAll, describe, expect, test } from 'bun:test';
import { App, type AppOptions, csrf, withHookTraits } from '@charter/core';
import { type } from 'arktype';
import { expectProblem } from './support/problem.ts';

const Msg = type({ msg: 'string' });

function secureApp(options: AppOptions = {}): App {
  const app = new App({ logger: false, ...options });
  app.get('/json', { responses: { 200: { body: Msg } } }, () => ({ status: 200, body: { msg: 'hi' } }));
  app.get('/text', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'hi' }));
  app.get('/empty', { responses: { 204: {} } }, () => ({ status: 204 }));
  app.get('/with-headers', { responses: { 200: { body: Msg } } }, () => ({
    status: 200,
    body: { msg: 'hi' },
    headers: { 'x-extra': '1' },
  }));
  app.get('/boom', { responses: { 200: { body: Msg } } }, () => {
    throw new Error('database password is hunter2');
  });
  app.get('/own-csp', { responses: { 200: { body: Msg } } }, () => ({
    status: 200,
    body: { msg: 'hi' },
    headers: { 'content-security-policy': "default-src 'self'" },
  }));
  app.get('/raw', { acknowledgeNoResponseBodySchema: true, responses: { 200: {} } }, () => {
    return new Response('raw', { headers: { server: 'nginx/1.2.3', 'x-powered-by': 'PHP/5.4' } });
  });
  return app;
}

const BASELINE: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function expectSecurityHeaders(response: Response): void {
  for (const [name, value] of Object.entries(BASELINE)) expect(response.headers.get(name)).toBe(value);
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
}

describe('secure defaults: security headers', () => {
  const app = secureApp();

  test('a JSON, a text and an empty response built by the route carry the security headers', async () => {
    for (const path of ['/json', '/text', '/empty', '/with-headers']) {
      const response = await app.request(path);
      expect(response.status).toBe(path === '/empty' ? 204 : 200);
      expectSecurityHeaders(response);
    }
    const json = await app.request('/json');
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({ msg: 'hi' });
    expect((await app.request('/with-headers')).headers.get('x-extra')).toBe('1');
  });

  test('problem responses (404, 405, 500) carry them too', async () => {
    const missing = await app.request('/nope');
    expectSecurityHeaders(missing);
    await expectProblem(missing, 404, 'not-found');
    const wrongMethod = await app.request('/json', { method: 'DELETE' });
    expectSecurityHeaders(wrongMethod);
    await expectProblem(wrongMethod, 405, 'method-not-allowed');
    const failed = await app.request('/boom');
    expectSecurityHeaders(failed);
    await expectProblem(failed, 500, 'internal');
  });

  test('a header the route sets itself wins over the default', async () => {
    const response = await app.request('/own-csp');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  test('HSTS is sent in production only', async () => {
    expect((await app.request('/json')).headers.get('strict-transport-security')).toBeNull();
    const production = secureApp({ production: true, behindProxy: 'none' });
    const hsts = (await production.request('/json')).headers.get('strict-transport-security');
    expect(hsts).toContain('max-age=31536000');
    expect(hsts).toContain('includeSubDomains');
  });

  test('secureHeaders options change the set', async () => {
    const custom = secureApp({
      secureHeaders: { xFrameOptions: 'SAMEORIGIN', referrerPolicy: 'same-origin' },
    });
    const response = await custom.request('/json');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('secureHeaders: false sends none of them', async () => {
    const response = await secureApp({ secureHeaders: false }).request('/json');
    expect(response.status).toBe(200);
    for (const name of [...Object.keys(BASELINE), 'content-security-policy']) {
      expect(response.headers.get(name)).toBeNull();
    }
  });

  test('the internal-service preset turns the browser headers off', async () => {
    const response = await secureApp({ preset: 'internal-service' }).request('/json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBeNull();
    expect(response.headers.get('x-frame-options')).toBeNull();
  });
});

describe('secure defaults: server headers', () => {
  const upstream = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response('upstream', { headers: { server: 'Apache/2.4.1', 'x-powered-by': 'Express' } }),
  });
  afterAll(() => upstream.stop(true));

  test('Server and X-Powered-By are stripped from a raw Response', async () => {
    const response = await secureApp().request('/raw');
    expect(response.status).toBe(200);
    expect(response.headers.get('server')).toBeNull();
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(await response.text()).toBe('raw');
  });

  test('they are stripped from a proxied fetch() response, whose headers are immutable', async () => {
    const app = new App({ logger: false });
    app.get('/proxy', { acknowledgeNoResponseBodySchema: true, responses: { 200: {} } }, () =>
      fetch(`http://127.0.0.1:${upstream.port}/`),
    );
    const response = await app.request('/proxy');
    expect(response.status).toBe(200);
    expect(response.headers.get('server')).toBeNull();
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('upstream');
  });

  test('an onSend hook that adds a Server header does not get it through', async () => {
    const app = new App({
      logger: false,
      hooks: { onSend: (r) => void r.headers.set('server', 'leaky/1.0') },
    });
    app.get('/x', { responses: { 200: { body: Msg } } }, () => ({ status: 200, body: { msg: 'x' } }));
    const response = await app.request('/x');
    expect(response.status).toBe(200);
    expect(response.headers.get('server')).toBeNull();
  });

  test('stripServerHeaders: false keeps them', async () => {
    const response = await secureApp({ stripServerHeaders: false }).request('/raw');
    expect(response.headers.get('server')).toBe('nginx/1.2.3');
    expect(response.headers.get('x-powered-by')).toBe('PHP/5.4');
  });
});

describe('secure defaults: cross-origin guard', () => {
  function guardedApp(options: AppOptions = {}): App {
    const app = new App({ logger: false, ...options });
    const done = () => ({ status: 200 as const, body: { msg: 'done' } });
    app.post('/transfer', { responses: { 200: { body: Msg } } }, done);
    app.delete('/transfer', { responses: { 200: { body: Msg } } }, done);
    app.get('/transfer', { responses: { 200: { body: Msg } } }, done);
    const partner = withHookTraits(
      {},
      {
        cors: {
          allowsOrigin: (origin) => origin === 'https://partner.example',
          anyOrigin: false,
          credentials: true,
        },
      },
    );
    app.group('/shared', { hooks: partner }, (g) => {
      g.post('/transfer', { responses: { 200: { body: Msg } } }, done);
    });
    return app;
  }
  const post = (app: App, path: string, headers: Record<string, string>, method = 'POST') =>
    app.request(path, { method, headers });

  test('a cross-site POST (Fetch Metadata) is refused with 403 before the handler runs', async () => {
    let ran = false;
    const app = new App({ logger: false });
    app.post('/x', { responses: { 200: { body: Msg } } }, () => {
      ran = true;
      return { status: 200, body: { msg: 'ran' } };
    });
    const response = await post(app, '/x', {
      'sec-fetch-site': 'cross-site',
      origin: 'https://evil.example',
    });
    const problem = await expectProblem(response, 403, 'forbidden');
    expect(String(problem.detail)).toContain('https://evil.example');
    expect(ran).toBe(false);
  });

  test('same-site (a sibling subdomain) and a DELETE are refused as well', async () => {
    const app = guardedApp();
    await expectProblem(
      await post(app, '/transfer', { 'sec-fetch-site': 'same-site', origin: 'https://blog.charter.local' }),
      403,
      'forbidden',
    );
    await expectProblem(
      await post(app, '/transfer', { 'sec-fetch-site': 'cross-site' }, 'DELETE'),
      403,
      'forbidden',
    );
  });

  test('an Origin from another host without Fetch Metadata (older browsers) is refused', async () => {
    await expectProblem(
      await post(guardedApp(), '/transfer', { origin: 'https://evil.example' }),
      403,
      'forbidden',
    );
    await expectProblem(await post(guardedApp(), '/transfer', { origin: 'null' }), 403, 'forbidden');
  });

  test('same-origin, user-initiated and non-browser requests pass', async () => {
    const app = guardedApp();
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'http://charter.local' },
      { 'sec-fetch-site': 'none' },
      { origin: 'http://charter.local' },
      { origin: 'https://charter.local' },
      {},
    ];
    for (const headers of cases) {
      const response = await post(app, '/transfer', headers);
      expect({ headers, status: response.status }).toEqual({ headers, status: 200 });
      expect(await response.json()).toEqual({ msg: 'done' });
    }
  });

  test('safe methods are never refused', async () => {
    const response = await post(
      guardedApp(),
      '/transfer',
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      'GET',
    );
    expect(response.status).toBe(200);
  });

  test('an origin admitted by the route’s CORS policy passes; others are still refused there', async () => {
    const app = guardedApp();
    const allowed = await post(app, '/shared/transfer', {
      'sec-fetch-site': 'cross-site',
      origin: 'https://partner.example',
    });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ msg: 'done' });
    await expectProblem(
      await post(app, '/shared/transfer', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }),
      403,
      'forbidden',
    );
    // The partner is admitted only where the policy applies.
    await expectProblem(
      await post(app, '/transfer', { 'sec-fetch-site': 'cross-site', origin: 'https://partner.example' }),
      403,
      'forbidden',
    );
  });

  test('an origin that csrf() trusts passes the guard too, with a valid token', async () => {
    const app = new App({ logger: false });
    app.post(
      '/vote',
      {
        hooks: csrf({ secure: false, trustedOrigins: ['https://partner.example'] }),
        responses: { 200: { body: Msg } },
      },
      () => ({ status: 200, body: { msg: 'voted' } }),
    );
    const token = 'A'.repeat(43);
    const send = (origin: string) =>
      app.request('/vote', {
        method: 'POST',
        headers: { 'sec-fetch-site': 'cross-site', origin, cookie: `csrf=${token}`, 'x-csrf-token': token },
      });
    const trusted = await send('https://partner.example');
    expect(trusted.status).toBe(200);
    expect(await trusted.json()).toEqual({ msg: 'voted' });
    await expectProblem(await send('https://evil.example'), 403, 'forbidden');
  });

  test('corsCrossOriginGuard: false and the internal-service preset turn the guard off', async () => {
    for (const options of [{ corsCrossOriginGuard: false }, { preset: 'internal-service' as const }]) {
      const response = await post(guardedApp(options), '/transfer', {
        'sec-fetch-site': 'cross-site',
        origin: 'https://evil.example',
      });
      expect(response.status).toBe(200);
    }
  });
});
