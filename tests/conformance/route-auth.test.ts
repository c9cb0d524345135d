/**
 * A route's declared `auth` is enforced, not only documented: the App adds one last hook layer to every
 * route (or group, or plugin) that declares it. framework.md "Authentication" items 3 and 4, AuthSpec.
 */
import { describe, expect, test } from 'bun:test';
import {
  App,
  type AppOptions,
  bearer,
  type Hooks,
  httpBearerScheme,
  insufficientScope,
  requireScopes,
  unauthorized,
  withHookTraits,
} from '@charter/core';
import { type } from 'arktype';
import { expectProblem } from './support/problem.ts';
import { post as postRequest } from './support/request.ts';
import { trackedBody } from '../support/tracked-body.ts';

const Ok = type({ ok: 'boolean' });
const Note = type({ text: 'string' });
const ok = () => ({ status: 200 as const, body: { ok: true } });

/**
 * A header-only authenticator: `x-scopes: a b` authenticates with those scopes, `x-payload: signed`
 * marks the payload as covered (what an HMAC-over-the-body scheme would do in beforeHandle).
 */
const headerAuth: Hooks = withHookTraits(
  {
    preBody(ctx) {
      const scopes = ctx.request.headers.get('x-scopes');
      if (scopes === null) return;
      ctx.state.user = { sub: 'u1', scopes: scopes.split(' ').filter(Boolean), claims: {} };
      ctx.state.auth = { scheme: 'bearer', credentials: 'token' };
    },
    beforeHandle(ctx) {
      if (ctx.request.headers.get('x-payload') === 'signed' && ctx.state.auth !== undefined) {
        ctx.state.auth = { ...ctx.state.auth, payloadVerified: true };
      }
    },
  },
  { authenticates: true },
);

function appWithNotes(options: AppOptions = {}): App {
  const app = new App({ logger: false, hooks: headerAuth, ...options });
  app.post(
    '/notes',
    {
      request: { body: Note },
      responses: { 201: { body: Ok } },
      auth: { scheme: 'bearerAuth', scopes: ['notes:write'] },
    },
    () => ({ status: 201 as const, body: { ok: true } }),
  );
  return app;
}

const post = (app: App, headers: Record<string, string>, body: BodyInit) =>
  app.fetch(postRequest('/notes', body, headers));

describe('route auth: declared scopes are enforced', () => {
  test('a caller with the declared scope reaches the handler', async () => {
    const res = await post(appWithNotes(), { 'x-scopes': 'notes:read notes:write' }, '{"text":"hi"}');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true });
  });

  test('a caller without credentials gets 401 with a challenge, and the body is never read', async () => {
    const tracked = trackedBody('{"text":"hi"}');
    const res = await post(appWithNotes(), {}, tracked.body);
    await expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(tracked.pulled()).toBe(false);
  });

  test('too few scopes and a malformed body give 403 (not 400 or 422), before the body is read', async () => {
    const tracked = trackedBody('{not json');
    const res = await post(appWithNotes(), { 'x-scopes': 'notes:read' }, tracked.body);
    const problem = await expectProblem(res, 403, 'forbidden');
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="notes:write"',
    );
    expect(String(problem.detail)).toContain('notes:write');
    expect(tracked.pulled()).toBe(false);
  });

  test('with enough scopes a malformed body is a 400 problem: the scope check passed first', async () => {
    const res = await post(appWithNotes(), { 'x-scopes': 'notes:write' }, '{not json');
    await expectProblem(res, 400);
  });

  test('the handler and hooks see the effective auth as ctx.route.auth', async () => {
    const app = new App({ logger: false, hooks: headerAuth });
    app.group('/g', { auth: { scheme: 'bearerAuth', scopes: ['g'] } }, (g) =>
      g.get(
        '/in',
        { responses: { 200: { body: type({ scheme: 'string', scopes: 'string[]' }) } } },
        (ctx) => ({
          status: 200 as const,
          body: { scheme: ctx.route.auth?.scheme ?? '', scopes: [...(ctx.route.auth?.scopes ?? [])] },
        }),
      ),
    );
    const res = await app.request('/g/in', { headers: { 'x-scopes': 'g' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ scheme: 'bearerAuth', scopes: ['g'] });
  });
});

describe('route auth: groups and plugins', () => {
  const build = (): App => {
    const app = new App({ logger: false, hooks: headerAuth });
    app.group('/admin', { auth: { scheme: 'bearerAuth', scopes: ['admin'] } }, (g) => {
      g.get('/stats', { responses: { 200: { body: Ok } } }, ok);
      // A route's own auth replaces its group's.
      g.get(
        '/open-to-readers',
        { responses: { 200: { body: Ok } }, auth: { scheme: 'bearerAuth', scopes: ['read'] } },
        ok,
      );
    });
    app.register((p) => void p.get('/items', { responses: { 200: { body: Ok } } }, ok), {
      prefix: '/plugin',
      auth: { scheme: 'bearerAuth', scopes: ['plugin'] },
    });
    app.get('/public', { responses: { 200: { body: Ok } } }, ok);
    return app;
  };

  test('a group route inherits the group auth', async () => {
    const app = build();
    expect((await app.request('/admin/stats', { headers: { 'x-scopes': 'admin' } })).status).toBe(200);
    await expectProblem(await app.request('/admin/stats', { headers: { 'x-scopes': 'read' } }), 403);
    await expectProblem(await app.request('/admin/stats'), 401);
  });

  test("a route's own auth replaces the group's", async () => {
    const app = build();
    expect((await app.request('/admin/open-to-readers', { headers: { 'x-scopes': 'read' } })).status).toBe(
      200,
    );
    await expectProblem(
      await app.request('/admin/open-to-readers', { headers: { 'x-scopes': 'admin' } }),
      403,
    );
  });

  test('a plugin route inherits the plugin auth', async () => {
    const app = build();
    expect((await app.request('/plugin/items', { headers: { 'x-scopes': 'plugin' } })).status).toBe(200);
    await expectProblem(await app.request('/plugin/items', { headers: { 'x-scopes': 'admin' } }), 403);
  });

  test('a route without auth is not touched', async () => {
    const app = build();
    expect((await app.request('/public')).status).toBe(200);
  });

  test('introspect reports the effective auth of group and plugin routes', () => {
    const routes = build().introspect();
    const auth = (path: string) => routes.find((r) => r.path === path && r.method === 'GET')?.auth;
    expect(auth('/admin/stats')).toEqual({ scheme: 'bearerAuth', scopes: ['admin'] });
    expect(auth('/plugin/items')).toEqual({ scheme: 'bearerAuth', scopes: ['plugin'] });
    expect(auth('/public')).toBeUndefined();
  });
});

describe('route auth: fail closed', () => {
  test('a route that declares auth but has no authenticating hook refuses everyone with 401', async () => {
    const app = new App({ logger: false });
    app.get('/secret', { responses: { 200: { body: Ok } }, auth: { scheme: 'bearerAuth' } }, ok);
    const res = await app.request('/secret', { headers: { authorization: 'Bearer anything' } });
    await expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  test('the boot guards warn about a declared auth that no hook can satisfy', () => {
    const app = new App({ logger: false, behindProxy: 'none' });
    app.get('/secret', { responses: { 200: { body: Ok } }, auth: { scheme: 'bearerAuth' } }, ok);
    const issues = app.assertSecureConfig();
    expect(issues).toEqual([
      expect.objectContaining({ code: 'auth-unenforced', severity: 'warning', route: 'GET /secret' }),
    ]);
    const covered = new App({ logger: false, behindProxy: 'none', hooks: headerAuth });
    covered.get('/secret', { responses: { 200: { body: Ok } }, auth: { scheme: 'bearerAuth' } }, ok);
    expect(covered.assertSecureConfig()).toEqual([]);
  });

  test('auth without scopes needs a principal only', async () => {
    const app = new App({ logger: false, hooks: headerAuth });
    app.get('/me', { responses: { 200: { body: Ok } }, auth: { scheme: 'bearerAuth' } }, ok);
    expect((await app.request('/me', { headers: { 'x-scopes': '' } })).status).toBe(200);
    await expectProblem(await app.request('/me'), 401);
  });
});

describe('route auth: optional', () => {
  const optionalBearer = bearer({
    optional: true,
    verify: (token) =>
      token === 'reader' ? { sub: 'r', scopes: ['docs:read'] } : token === 'nobody' ? true : false,
  });
  function docsApp(): App {
    const app = new App({ logger: false, hooks: optionalBearer, behindProxy: 'none' });
    app.get(
      '/docs',
      {
        responses: { 200: { body: Ok } },
        auth: { scheme: 'bearerAuth', scopes: ['docs:read'], optional: true },
      },
      ok,
    );
    return app;
  }

  test('an anonymous caller reaches the handler', async () => {
    const res = await docsApp().request('/docs');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  test('an authenticated caller with the scopes reaches the handler', async () => {
    expect((await docsApp().request('/docs', { headers: { authorization: 'Bearer reader' } })).status).toBe(
      200,
    );
  });

  test('an authenticated caller without the scopes gets 403 insufficient_scope', async () => {
    const res = await docsApp().request('/docs', { headers: { authorization: 'Bearer nobody' } });
    await expectProblem(res, 403, 'forbidden');
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  test('bad credentials are refused by the authenticating hook: 401', async () => {
    await expectProblem(
      await docsApp().request('/docs', { headers: { authorization: 'Bearer forged' } }),
      401,
    );
  });

  test('introspect reports optional, and an optional hook satisfies the boot guard', () => {
    const app = docsApp();
    expect(app.introspect()[0]?.auth).toEqual({
      scheme: 'bearerAuth',
      scopes: ['docs:read'],
      optional: true,
    });
    expect(app.assertSecureConfig()).toEqual([]);
  });

  test('a required auth behind an optional hook still refuses anonymous callers', async () => {
    const app = new App({ logger: false, hooks: optionalBearer });
    app.get('/private', { responses: { 200: { body: Ok } }, auth: { scheme: 'bearerAuth' } }, ok);
    await expectProblem(await app.request('/private'), 401);
    expect((await app.request('/private', { headers: { authorization: 'Bearer nobody' } })).status).toBe(200);
  });

  test('optional must be a boolean', () => {
    const app = new App({ logger: false });
    expect(() =>
      app.get(
        '/x',
        { responses: { 200: { body: Ok } }, auth: { scheme: 'b', optional: 'yes' as never } },
        ok,
      ),
    ).toThrow(/auth.optional/);
  });
});

describe('route auth: security schemes declared on the App', () => {
  const schemes = {
    bearerAuth: httpBearerScheme({ bearerFormat: 'JWT' }),
    signed: httpBearerScheme({ description: 'HMAC over the body', requirePayloadAuth: true }),
  };

  test('an auth naming an undeclared scheme throws at registration', () => {
    const app = new App({ logger: false, securitySchemes: schemes });
    expect(() => app.get('/x', { responses: { 200: { body: Ok } }, auth: { scheme: 'nope' } }, ok)).toThrow(
      /nope/,
    );
    expect(() =>
      app.group('/g', { auth: { scheme: 'missing' } }, (g) =>
        g.get('/y', { responses: { 200: { body: Ok } } }, ok),
      ),
    ).toThrow(/missing/);
  });

  test('opting out of payload auth is refused when the scheme requires it', () => {
    const app = new App({ logger: false, securitySchemes: schemes });
    expect(() =>
      app.post('/x', { responses: { 200: { body: Ok } }, auth: { scheme: 'signed', payload: false } }, ok),
    ).toThrow(/payload/);
    expect(() =>
      app.post(
        '/y',
        { responses: { 200: { body: Ok } }, auth: { scheme: 'bearerAuth', payload: false } },
        ok,
      ),
    ).not.toThrow();
  });

  test('a scheme that requires payload auth refuses credentials that did not cover the body', async () => {
    const app = new App({ logger: false, hooks: headerAuth, securitySchemes: schemes });
    app.post(
      '/hook',
      { request: { body: Note }, responses: { 200: { body: Ok } }, auth: { scheme: 'signed' } },
      ok,
    );
    const unsigned = await app.request('/hook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scopes': '' },
      body: '{"text":"x"}',
    });
    const problem = await expectProblem(unsigned, 401);
    expect(String(problem.detail)).toContain('cover the request body');
    const signed = await app.request('/hook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scopes': '', 'x-payload': 'signed' },
      body: '{"text":"x"}',
    });
    expect(signed.status).toBe(200);
  });

  test('an invalid securitySchemes option is refused at construction', () => {
    expect(() => new App({ logger: false, securitySchemes: { bad: { type: 'nope' } as never } })).toThrow(
      /securitySchemes/,
    );
  });
});

describe('route auth: requireScopes for a later phase', () => {
  test('in beforeHandle, validation runs first: a malformed body is 400 even with too few scopes', async () => {
    const app = new App({ logger: false, hooks: headerAuth });
    app.post(
      '/late',
      {
        request: { body: Note },
        responses: { 200: { body: Ok } },
        hooks: requireScopes(['w'], { phase: 'beforeHandle' }),
      },
      ok,
    );
    await expectProblem(
      await app.request('/late', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-scopes': 'r' },
        body: '{oops',
      }),
      400,
    );
    const res = await app.request('/late', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scopes': 'r' },
      body: '{"text":"x"}',
    });
    await expectProblem(res, 403);
    expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
  });

  test('the challenge helpers build the RFC 6750 errors the App sends', () => {
    expect(unauthorized().headers?.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(insufficientScope(['a', 'b']).headers?.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="a b"',
    );
  });
});
