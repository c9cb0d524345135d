import { describe, expect, test } from 'bun:test';
import {
  App,
  type AppOptions,
  AppOptionsError,
  type Hooks,
  InsecureConfigError,
  REQUIRE_AUTH_META,
  withHookTraits,
} from '@charter/core';
import { type } from 'arktype';
import { expectProblem } from './support/problem.ts';

const Ok = type({ ok: 'boolean' });
const ok = () => ({ status: 200 as const, body: { ok: true } });

/** Hooks that only declare traits: what a session, csrf, auth or cors helper would declare. */
const session = withHookTraits({} as Hooks, { usesSession: true });
const csrf = withHookTraits({} as Hooks, { csrfProtection: true });
const auth = withHookTraits({} as Hooks, { authenticates: true });
const wildcardCredentials = withHookTraits({} as Hooks, {
  cors: { allowsOrigin: () => true, anyOrigin: true, credentials: true },
});
const weakSecret = withHookTraits({} as Hooks, { secrets: [{ where: 'session secret', value: 'changeme' }] });
const strongSecret = withHookTraits({} as Hooks, {
  secrets: [{ where: 'session secret', value: 'k3Y9-x2Qv8nLr5TfW0aZpE7cM4bJ6hUy1sGd' }],
});

function appWith(hooks: Hooks[], options: AppOptions = {}, meta?: Record<string, unknown>): App {
  const app = new App({ logger: false, behindProxy: 'none', ...options });
  app.post('/change', { hooks, meta, responses: { 200: { body: Ok } } }, ok);
  return app;
}

const codes = (app: App, production = false) => app.assertSecureConfig({ production }).map((i) => i.code);

describe('boot guards: options refused at construction', () => {
  test('production refuses to turn a default guard off without acknowledgeInsecureDefaults', () => {
    for (const options of [
      { secureDefaults: false },
      { stripServerHeaders: false },
      { secureHeaders: false as const },
      { corsCrossOriginGuard: false },
      { mockMode: true },
    ]) {
      expect(() => new App({ production: true, ...options })).toThrow(AppOptionsError);
      expect(() => new App({ production: true, ...options })).toThrow(/acknowledgeInsecureDefaults/);
    }
  });

  test('with acknowledgeInsecureDefaults, or outside production, the same options are accepted', async () => {
    const app = new App({
      logger: false,
      production: true,
      secureDefaults: false,
      acknowledgeInsecureDefaults: true,
    });
    app.get('/x', { responses: { 200: { body: Ok } } }, ok);
    expect((await app.request('/x')).status).toBe(200);
    expect(() => new App({ secureDefaults: false })).not.toThrow();
  });

  test('a /0 trusted CIDR, bad hops and unknown values are refused by name', () => {
    expect(() => new App({ behindProxy: { cidrs: ['0.0.0.0/0'] } })).toThrow(/behindProxy/);
    expect(() => new App({ behindProxy: { cidrs: ['::/0'] } })).toThrow(/behindProxy/);
    expect(() => new App({ behindProxy: { hops: 0 } })).toThrow(/behindProxy/);
    expect(() => new App({ behindProxy: 'everyone' as never })).toThrow(/behindProxy/);
    expect(() => new App({ trustProxy: 'yes' as never })).toThrow(/trustProxy/);
    expect(() => new App({ preset: 'public' as never })).toThrow(/preset/);
    expect(() => new App({ csrf: 'on' as never })).toThrow(/csrf/);
    expect(() => new App({ loadShedding: { maxInFlight: -1 } })).toThrow(/loadShedding.maxInFlight/);
    expect(() => new App({ behindProxy: { cidrs: ['10.0.0.0/8'] } })).not.toThrow();
  });
});

describe('boot guards: assertSecureConfig', () => {
  test('a state-changing session route without CSRF protection is an error', () => {
    expect(codes(appWith([session]))).toEqual(['csrf-missing']);
    expect(codes(appWith([session, csrf]))).toEqual([]);
    expect(codes(appWith([session], { csrf: 'off' }))).toEqual([]);
  });

  test('a safe-method session route needs no CSRF protection', () => {
    const app = new App({ logger: false, behindProxy: 'none' });
    app.get('/page', { hooks: [session], responses: { 200: { body: Ok } } }, ok);
    expect(codes(app)).toEqual([]);
  });

  test('CORS admitting every origin with credentials is an error', () => {
    const issues = appWith([wildcardCredentials]).assertSecureConfig();
    expect(issues.map((i) => i.code)).toEqual(['cors-wildcard-credentials']);
    expect(issues[0]?.route).toBe('POST /change');
  });

  test('a weak secret is an error in production and names where it is used, never its value', () => {
    const app = appWith([weakSecret]);
    // Outside production the same secret may pass the lower development floor or be reported.
    expect(codes(app).every((code) => code === 'weak-secret')).toBe(true);
    let thrown: unknown;
    try {
      app.assertSecureConfig({ production: true });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InsecureConfigError);
    expect((thrown as Error).message).toContain('session secret');
    expect((thrown as Error).message).not.toContain('changeme');
    expect(codes(appWith([strongSecret]), true)).toEqual([]);
  });

  test('a route that requires auth (tool-server, agent) with no authenticating hook is reported', () => {
    const meta = { [REQUIRE_AUTH_META]: true };
    const bare = appWith([], {}, meta).assertSecureConfig();
    expect(bare.map((i) => [i.code, i.severity])).toEqual([['auth-missing', 'warning']]);
    expect(() => appWith([], {}, meta).assertSecureConfig({ production: true })).toThrow(InsecureConfigError);
    expect(codes(appWith([auth], {}, meta), true)).toEqual([]);
  });

  test('production without a proxy posture is a warning, not an error', () => {
    const app = new App({ logger: false, production: true });
    const issues = app.assertSecureConfig();
    expect(issues.map((i) => [i.code, i.severity])).toEqual([['proxy-posture-missing', 'warning']]);
  });

  test('returns the issues outside production instead of throwing', () => {
    const app = appWith([session, wildcardCredentials]);
    expect(codes(app).sort()).toEqual(['cors-wildcard-credentials', 'csrf-missing']);
  });
});

describe('boot guards: at boot', () => {
  test('in production, ready() rejects and requests get a 500 until the configuration is fixed', async () => {
    const app = appWith([session], { production: true });
    await expect(app.ready()).rejects.toBeInstanceOf(InsecureConfigError);
    const response = await app.request('/change', { method: 'POST' });
    const problem = await expectProblem(response, 500, 'internal');
    // Production redacts the detail: the reason is in the logs, not in the response.
    expect(JSON.stringify(problem)).not.toContain('csrf');
  });

  test('outside production the issues are logged once as warnings and the app serves', async () => {
    const lines: Array<{ level: string; message: string; code?: unknown }> = [];
    const logger = {
      debug() {},
      info() {},
      warn: (message: string, fields?: Record<string, unknown>) =>
        void lines.push({ level: 'warn', message, code: fields?.code }),
      error: (message: string) => void lines.push({ level: 'error', message }),
    };
    const app = new App({ logger, behindProxy: 'none' });
    app.post('/change', { hooks: [session], responses: { 200: { body: Ok } } }, ok);
    expect((await app.request('/change', { method: 'POST' })).status).toBe(200);
    expect((await app.request('/change', { method: 'POST' })).status).toBe(200);
    expect(lines.filter((l) => l.code === 'csrf-missing')).toHaveLength(1);
  });

  test('a production app with a safe configuration boots and serves', async () => {
    const app = appWith([session, csrf], { production: true });
    await app.ready();
    expect((await app.request('/change', { method: 'POST' })).status).toBe(200);
  });
});

describe('mock mode', () => {
  const User = type({ id: 'number', name: 'string' });
  function mockApp(): App {
    const app = new App({ logger: false, mockMode: true });
    app.get(
      '/users/:id',
      {
        request: { params: type({ id: 'number' }) },
        responses: { 200: { body: User }, 404: {} },
        examples: [
          { request: { params: { id: 1 } }, response: { status: 200, body: { id: 1, name: 'Ada' } } },
          { request: { params: { id: 2 } }, response: { status: 200, body: { id: 2, name: 'Grace' } } },
          { request: { params: { id: 404 } }, response: { status: 404 } },
        ],
      },
      () => {
        throw new Error('the real handler must not run in mock mode');
      },
    );
    app.get(
      '/status',
      {
        responses: { 200: { body: type({ up: 'boolean' }), examples: { healthy: { value: { up: true } } } } },
      },
      () => ({ status: 200, body: { up: false } }),
    );
    app.delete('/users/:id', { responses: { 204: {} } }, () => ({ status: 204 }));
    app.get(
      '/weight',
      // A body with a `value` member and another one is the example itself, not an Example Object.
      {
        responses: {
          200: {
            body: type({ value: 'number', unit: 'string' }),
            examples: { kg: { value: 3, unit: 'kg' } },
          },
        },
      },
      () => ({ status: 200, body: { value: 0, unit: 'g' } }),
    );
    app.get('/unmocked', { responses: { 200: { body: User } } }, () => ({
      status: 200,
      body: { id: 0, name: '' },
    }));
    app.get(
      '/stale',
      { responses: { 200: { body: User, examples: { old: { value: { id: 'one' } } } } } },
      () => ({ status: 200, body: { id: 1, name: 'x' } }),
    );
    return app;
  }

  test('answers with the route example whose request matches, else the first', async () => {
    const app = mockApp();
    expect(await (await app.request('/users/2')).json()).toEqual({ id: 2, name: 'Grace' });
    expect((await app.request('/users/404')).status).toBe(404);
    const other = await app.request('/users/7');
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual({ id: 1, name: 'Ada' });
  });

  test('a response example that merely has a value member is answered whole', async () => {
    const res = await mockApp().request('/weight');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ value: 3, unit: 'kg' });
  });

  test('falls back to a response example, then to an empty 2xx', async () => {
    const app = mockApp();
    const status = await app.request('/status');
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ up: true });
    expect((await app.request('/users/1', { method: 'DELETE' })).status).toBe(204);
  });

  test('a route with nothing to answer from gets 501, and validation still runs', async () => {
    const app = mockApp();
    const problem = await expectProblem(await app.request('/unmocked'), 501);
    expect(String(problem.detail)).toContain('GET /unmocked');
    await expectProblem(await app.request('/users/abc'), 422, 'validation');
  });

  test('an example that no longer matches its schema is a 500, like any bad handler result', async () => {
    await expectProblem(await mockApp().request('/stale'), 500, 'internal');
  });
});
