import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { ForbiddenError, UnauthorizedError } from '../errors/index.ts';
import type { Hooks, State } from '../types/index.ts';
import { bearer } from './bearer.ts';
import { authorizeScopes, type RequireScopesOptions, requireScopes } from './scopes.ts';
import { trackedBody as tracked } from '../../../../tests/support/tracked-body.ts';

const Note = type({ text: 'string' });
const Ok = type({ ok: 'boolean' });

/** `Bearer s.notes~read.notes~write` authenticates with scopes `notes:read notes:write` (`~` for `:`). */
const auth = bearer({
  verify: (token) =>
    token.startsWith('s')
      ? {
          sub: 'u',
          scopes: token
            .split('.')
            .slice(1)
            .map((s) => s.replaceAll('~', ':')),
        }
      : false,
});

function appWith(
  scopes: readonly string[],
  options?: RequireScopesOptions,
  authHooks: Hooks[] = [auth],
): App {
  const app = new App({ logger: false });
  app.post(
    '/notes',
    {
      request: { body: Note },
      responses: { 201: { body: Ok } },
      hooks: [...authHooks, requireScopes(scopes, options)],
    },
    () => ({ status: 201, body: { ok: true } }),
  );
  return app;
}

const post = (app: App, token: string | undefined, body: BodyInit | ReadableStream<Uint8Array>) =>
  app.request('/notes', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body,
    duplex: 'half',
  } as RequestInit);

async function problem(res: Response, status: number): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  return (await res.json()) as Record<string, unknown>;
}

describe('requireScopes in preBody (default)', () => {
  const app = appWith(['notes:write']);

  test('a caller with the scope reaches the handler', async () => {
    expect((await post(app, 's.notes~read.notes~write', '{"text":"x"}')).status).toBe(201);
  });

  test('too few scopes and a malformed body: 403 insufficient_scope, and the body is never read', async () => {
    const upload = tracked('{not json');
    const res = await post(app, 's.notes~read', upload.body);
    const body = await problem(res, 403);
    expect(body.type).toBe('https://charter.dev/errors/forbidden');
    expect(String(body.detail)).toContain('notes:write');
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="notes:write"',
    );
    expect(upload.pulled()).toBe(false);
  });

  test('enough scopes and a malformed body: the body is read and refused (400)', async () => {
    const upload = tracked('{not json');
    await problem(await post(app, 's.notes~write', upload.body), 400);
    expect(upload.pulled()).toBe(true);
  });

  test('scopes are case-sensitive (RFC 6749 §3.3)', async () => {
    await problem(await post(app, 's.NOTES~WRITE', '{"text":"x"}'), 403);
  });

  test('without an authenticated principal: 401 with the bare challenge', async () => {
    const alone = appWith(['notes:write'], {}, []);
    const res = await post(alone, undefined, '{"text":"x"}');
    await problem(res, 401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  test('all listed scopes are needed by default; the challenge lists them all', async () => {
    const both = appWith(['a', 'b']);
    expect((await post(both, 's.b.a', '{"text":"x"}')).status).toBe(201);
    const res = await post(both, 's.a', '{"text":"x"}');
    await problem(res, 403);
    expect(res.headers.get('www-authenticate')).toContain('scope="a b"');
  });

  test('match "any" passes with one of the scopes', async () => {
    const any = appWith(['admin', 'notes:write'], { match: 'any' });
    expect((await post(any, 's.notes~write', '{"text":"x"}')).status).toBe(201);
    await problem(await post(any, 's.notes~read', '{"text":"x"}'), 403);
  });

  test('an empty list needs a principal only', async () => {
    const none = appWith([]);
    expect((await post(none, 's', '{"text":"x"}')).status).toBe(201);
    await problem(await post(none, undefined, '{"text":"x"}'), 401);
  });

  test('the realm option names the realm of both refusals', async () => {
    const realm = appWith(['w'], { realm: 'notes' }, []);
    expect((await post(realm, undefined, '{}')).headers.get('www-authenticate')).toBe('Bearer realm="notes"');
    const withAuth = appWith(['w'], { realm: 'notes' });
    expect((await post(withAuth, 's.r', '{}')).headers.get('www-authenticate')).toContain('realm="notes"');
  });
});

describe('requireScopes in beforeHandle', () => {
  const app = appWith(['notes:write'], { phase: 'beforeHandle' });

  test('validation runs first: too few scopes and a malformed body give 400', async () => {
    await problem(await post(app, 's.notes~read', '{oops'), 400);
  });

  test('too few scopes and a valid body give 403', async () => {
    const res = await post(app, 's.notes~read', '{"text":"x"}');
    await problem(res, 403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  test('enough scopes reach the handler', async () => {
    expect((await post(app, 's.notes~write', '{"text":"x"}')).status).toBe(201);
  });

  test('puts its check in beforeHandle only', () => {
    expect(Object.keys(requireScopes(['a'], { phase: 'beforeHandle' }))).toEqual(['beforeHandle']);
    expect(Object.keys(requireScopes(['a']))).toEqual(['preBody']);
  });
});

describe('requireScopes in a group', () => {
  test('guards every route of the group after the group authenticates', async () => {
    const app = new App({ logger: false });
    app.group('/admin', { hooks: [auth, requireScopes(['admin'])] }, (g) => {
      g.get('/stats', { responses: { 200: { body: Ok } } }, () => ({ status: 200, body: { ok: true } }));
    });
    const get = (token?: string) =>
      app.request(
        '/admin/stats',
        token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } },
      );
    expect((await get('s.admin')).status).toBe(200);
    await problem(await get('s.user'), 403);
    await problem(await get(), 401);
  });
});

describe('requireScopes options', () => {
  test('refuses scopes that are not scope-tokens and unknown option values', () => {
    expect(() => requireScopes('admin' as never)).toThrow(/array/);
    expect(() => requireScopes([''])).toThrow(/scope/);
    expect(() => requireScopes(['two words'])).toThrow(/scope/);
    expect(() => requireScopes(['a"b'])).toThrow(/scope/);
    expect(() => requireScopes(['a'], { phase: 'onRequest' as never })).toThrow(/"phase"/);
    expect(() => requireScopes(['a'], { match: 'some' as never })).toThrow(/"match"/);
    expect(() => requireScopes([], { match: 'any' })).toThrow(/at least one/);
    expect(() => requireScopes(['a'], { realm: 'x\ny' })).toThrow(/"realm"/);
  });
});

describe('authorizeScopes', () => {
  const user = (scopes: string[]) => ({ user: { sub: 'u', scopes, claims: {} } }) as State;

  test('passes when the principal has every required scope', () => {
    expect(() => authorizeScopes(user(['a', 'b', 'c']), ['a', 'c'])).not.toThrow();
    expect(() => authorizeScopes(user([]), [])).not.toThrow();
  });

  test('throws a 401 UnauthorizedError without a principal', () => {
    expect(() => authorizeScopes({}, ['a'])).toThrow(UnauthorizedError);
    expect(() => authorizeScopes({}, [])).toThrow(UnauthorizedError);
  });

  test('throws a 403 ForbiddenError naming the required scopes when one is missing', () => {
    let thrown: unknown;
    try {
      authorizeScopes(user(['a']), ['a', 'b'], { realm: 'r' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ForbiddenError);
    expect((thrown as ForbiddenError).headers?.get('www-authenticate')).toBe(
      'Bearer realm="r", error="insufficient_scope", scope="a b"',
    );
  });

  test('with match "any", one scope is enough and none is a 403', () => {
    expect(() => authorizeScopes(user(['b']), ['a', 'b'], { match: 'any' })).not.toThrow();
    expect(() => authorizeScopes(user(['c']), ['a', 'b'], { match: 'any' })).toThrow(ForbiddenError);
  });
});

describe('the insufficient_scope challenge follows the scheme that authenticated', () => {
  const metadata = 'https://docs.example/.well-known/oauth-protected-resource';
  const docsBearer = bearer({
    realm: 'docs',
    resourceMetadata: metadata,
    verify: (token) => (token === 'reader' ? { sub: 'u', scopes: ['docs:read'] } : false),
  });

  function routeAuthApp(): App {
    const app = new App({ logger: false, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } });
    app.get(
      '/admin',
      {
        auth: { scheme: 'bearer', scopes: ['docs:admin'] },
        hooks: [docsBearer],
        responses: { 200: { body: Ok } },
      },
      () => ({ status: 200, body: { ok: true } }),
    );
    return app;
  }

  test("a route's declared scopes refuse with the bearer hook's realm and resource_metadata", async () => {
    const res = await routeAuthApp().request('/admin', { headers: { authorization: 'Bearer reader' } });
    const body = await problem(res, 403);
    expect(String(body.detail)).toContain('docs:admin');
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="docs", resource_metadata="${metadata}", error="insufficient_scope", scope="docs:admin"`,
    );
  });

  test('a missing token is still the 401 of the bearer hook, not a 403', async () => {
    const res = await routeAuthApp().request('/admin');
    await problem(res, 401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="docs", resource_metadata="${metadata}"`);
  });

  test("requireScopes' own realm wins over the authenticating scheme's", async () => {
    const app = appWith(['notes:write'], { realm: 'notes' }, [docsBearer]);
    const res = await app.request('/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer reader' },
      body: '{"text":"x"}',
    });
    await problem(res, 403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="notes", resource_metadata="${metadata}", error="insufficient_scope", scope="notes:write"`,
    );
  });
});
