import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { UnauthorizedError } from '../errors/index.ts';
import { type Hooks, hookTraitsOf } from '../types/index.ts';
import { cors, resolveCorsOptions, serialiseOrigin } from './cors.ts';

const APP_ORIGIN = 'https://app.example';
const EVIL_ORIGIN = 'https://evil.example';

/** An app with the CORS hooks (and any others) registered with app.use. */
function appWith(...hooks: Hooks[]): App {
  const app = new App({ logger: false });
  for (const h of hooks) app.use(h);
  app.get('/items', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, () => ({
    status: 200,
    body: { ok: true },
    headers: { 'x-total': '3' },
  }));
  app.post('/items', { responses: { 201: { body: type({ ok: 'boolean' }) } } }, () => ({
    status: 201,
    body: { ok: true },
  }));
  return app;
}

function preflight(origin: string, method = 'POST', headers?: string): RequestInit {
  const init: Record<string, string> = { origin, 'access-control-request-method': method };
  if (headers !== undefined) init['access-control-request-headers'] = headers;
  return { method: 'OPTIONS', headers: init };
}

async function expectForbidden(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(403);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
  const body = (await response.json()) as { type: string; detail: string };
  expect(body.type).toBe('https://charter.dev/errors/forbidden');
  expect(body.detail).toMatch(detail);
}

describe('cors: preflight', () => {
  test('answers an allowed preflight with 204 and the allow headers, before routing', async () => {
    const app = appWith(cors({ origin: APP_ORIGIN }));
    const response = await app.request('/items', preflight(APP_ORIGIN, 'PUT', 'Content-Type, Authorization'));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toBe(
      'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    );
    expect(await response.text()).toBe('');
    // /items has no OPTIONS route and /nowhere no route at all: the preflight is answered anyway.
    expect((await app.request('/nowhere', preflight(APP_ORIGIN))).status).toBe(204);
  });

  test('refuses a preflight from an origin not allowed with a 403 problem', async () => {
    const response = await appWith(cors({ origin: APP_ORIGIN })).request('/items', preflight(EVIL_ORIGIN));
    await expectForbidden(response, /origin is not allowed/);
  });

  test('refuses a method or a header the policy does not allow', async () => {
    const app = appWith(cors({ origin: APP_ORIGIN, methods: ['GET', 'POST'] }));
    await expectForbidden(await app.request('/items', preflight(APP_ORIGIN, 'DELETE')), /method "DELETE"/);
    // Methods are case-sensitive (Fetch §3.2.3): `patch` is not `PATCH`.
    await expectForbidden(await app.request('/items', preflight(APP_ORIGIN, 'post')), /method "post"/);
    await expectForbidden(
      await app.request('/items', preflight(APP_ORIGIN, 'POST', 'x-secret')),
      /header "x-secret"/,
    );
    expect((await app.request('/items', preflight(APP_ORIGIN, 'POST', 'content-type'))).status).toBe(204);
  });

  test('with allowedHeaders "*", admits and lists the headers the preflight asks for', async () => {
    const app = appWith(cors({ origin: APP_ORIGIN, allowedHeaders: '*', credentials: true }));
    const response = await app.request('/items', preflight(APP_ORIGIN, 'POST', 'X-One, x-two'));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toBe('x-one, x-two');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    await expectForbidden(
      await app.request('/items', preflight(APP_ORIGIN, 'POST', 'bad header')),
      /header is not/,
    );
  });

  test('leaves an OPTIONS without Access-Control-Request-Method to the router', async () => {
    const response = await appWith(cors({ origin: APP_ORIGIN })).request('/items', {
      method: 'OPTIONS',
      headers: { origin: APP_ORIGIN },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});

describe('cors: actual requests', () => {
  test('gives an allowed origin its CORS headers and Vary: Origin', async () => {
    const app = appWith(cors({ origin: [APP_ORIGIN, 'http://localhost:5173'], exposedHeaders: ['X-Total'] }));
    const response = await app.request('/items', { headers: { origin: APP_ORIGIN } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(response.headers.get('access-control-expose-headers')).toBe('x-total');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toBe('Origin');
    const local = await app.request('/items', { headers: { origin: 'http://localhost:5173' } });
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  test('gives a disallowed origin or no origin no CORS headers, but still Vary: Origin', async () => {
    const app = appWith(cors({ origin: APP_ORIGIN }));
    const cases: Record<string, string>[] = [
      { origin: EVIL_ORIGIN },
      {},
      { origin: `${APP_ORIGIN}.evil.example` },
      { origin: 'null' },
    ];
    for (const headers of cases) {
      const response = await app.request('/items', { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('vary')).toBe('Origin');
    }
  });

  test('with credentials, echoes the specific origin (normalised) and allows credentials', async () => {
    const app = appWith(cors({ origin: 'https://App.Example:443/', credentials: true }));
    const response = await app.request('/items', { method: 'POST', headers: { origin: APP_ORIGIN } });
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    const odd = await app.request('/items', { headers: { origin: 'HTTPS://APP.EXAMPLE:443' } });
    expect(odd.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });

  test('puts the headers on a 401 from an auth hook registered before it, and on a 404', async () => {
    const auth: Hooks = {
      preBody: (ctx) => {
        if (ctx.request.headers.get('authorization') === null)
          throw new UnauthorizedError('credentials required');
      },
    };
    const app = appWith(auth, cors({ origin: APP_ORIGIN, credentials: true }));
    const refused = await app.request('/items', { headers: { origin: APP_ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(refused.headers.get('access-control-allow-credentials')).toBe('true');
    expect(((await refused.json()) as { type: string }).type).toBe('https://charter.dev/errors/unauthorized');
  });

  test('with "*", answers every origin with the wildcard and no Vary, unmatched 404s included', async () => {
    const app = new App({ logger: false, hooks: cors({ origin: '*' }) });
    app.get('/open', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'hi' }));
    const response = await app.request('/open', { headers: { origin: EVIL_ORIGIN } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('vary')).toBeNull();
    const missing = await app.request('/missing', { headers: { origin: EVIL_ORIGIN } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    const pre = await app.request('/open', preflight('null', 'GET'));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a predicate decides per origin and never sees the null origin', async () => {
    const asked: string[] = [];
    const app = appWith(
      cors({
        origin: (origin) => {
          asked.push(origin);
          return origin.endsWith('.trusted.example');
        },
        credentials: true,
      }),
    );
    const good = await app.request('/items', { headers: { origin: 'https://A.trusted.example' } });
    expect(good.headers.get('access-control-allow-origin')).toBe('https://a.trusted.example');
    const bad = await app.request('/items', { headers: { origin: EVIL_ORIGIN } });
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    const opaque = await app.request('/items', { headers: { origin: 'null' } });
    expect(opaque.headers.get('access-control-allow-origin')).toBeNull();
    expect(asked).not.toContain('null');
  });

  test('allows the null origin only when listed explicitly', async () => {
    const app = appWith(cors({ origin: ['null'] }));
    const response = await app.request('/items', { headers: { origin: 'null' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('null');
  });
});

describe('cors: options', () => {
  test('throws for "*" with credentials', () => {
    expect(() => cors({ origin: '*', credentials: true })).toThrow(
      /"origin" cannot be "\*" when credentials/,
    );
  });

  test('throws for a predicate admitting any origin with credentials, and allows it without', () => {
    expect(() => cors({ origin: () => true, credentials: true })).toThrow(/admits any origin/);
    expect(resolveCorsOptions({ origin: () => true }).anyOrigin).toBe(true);
    expect(resolveCorsOptions({ origin: (o) => o === APP_ORIGIN, credentials: true }).anyOrigin).toBe(false);
  });

  test('refuses values that are not origins', () => {
    for (const origin of [
      'app.example',
      'https://app.example/path',
      'https://user@app.example',
      'https://app.example?x=1',
      'https://*.example.com',
      ['*'],
      [],
      42,
    ]) {
      expect(() => cors({ origin: origin as never })).toThrow(/"origin"/);
    }
  });

  test('refuses bad methods, headers and max age', () => {
    expect(() => cors({ origin: APP_ORIGIN, methods: ['GET', 'BAD METHOD'] })).toThrow(/"methods"/);
    expect(() => cors({ origin: APP_ORIGIN, methods: [] })).toThrow(/"methods"/);
    expect(() => cors({ origin: APP_ORIGIN, allowedHeaders: ['x\r\ny'] })).toThrow(/"allowedHeaders"/);
    expect(() => cors({ origin: APP_ORIGIN, exposedHeaders: 'x-a' as never })).toThrow(/"exposedHeaders"/);
    expect(() => cors({ origin: APP_ORIGIN, maxAgeSeconds: -1 })).toThrow(RangeError);
    expect(() => cors({ origin: APP_ORIGIN, credentials: 'yes' as never })).toThrow(/"credentials"/);
    expect(() => cors(undefined as never)).toThrow(TypeError);
  });

  test('declares the cors trait for the cross-origin guard', () => {
    const traits = hookTraitsOf(cors({ origin: [APP_ORIGIN], credentials: true }))?.cors;
    expect(traits?.allowsOrigin(APP_ORIGIN)).toBe(true);
    expect(traits?.allowsOrigin('https://APP.example:443')).toBe(true);
    expect(traits?.allowsOrigin(EVIL_ORIGIN)).toBe(false);
    expect(traits?.anyOrigin).toBe(false);
    expect(traits?.credentials).toBe(true);
    const open = hookTraitsOf(cors({ origin: '*' }))?.cors;
    expect(open?.anyOrigin).toBe(true);
    expect(open?.allowsOrigin(EVIL_ORIGIN)).toBe(true);
  });
});

describe('serialiseOrigin', () => {
  test('lower-cases and drops default ports', () => {
    expect(serialiseOrigin('HTTPS://Example.COM:443')).toBe('https://example.com');
    expect(serialiseOrigin('http://example.com:80')).toBe('http://example.com');
    expect(serialiseOrigin('http://example.com:8080')).toBe('http://example.com:8080');
    expect(serialiseOrigin('https://example.com/')).toBe('https://example.com');
    expect(serialiseOrigin('capacitor://LocalHost')).toBe('capacitor://localhost');
    expect(serialiseOrigin('null')).toBe('null');
  });

  test('refuses URLs that are not origins', () => {
    for (const bad of [
      '',
      'example.com',
      'https://a.example/x',
      'https://a@b.example',
      'https://a.example#x',
      'file:///etc',
      'data:x',
    ]) {
      expect(serialiseOrigin(bad)).toBeUndefined();
    }
  });
});
