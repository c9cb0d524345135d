/**
 * jwk() through a real App: status, WWW-Authenticate and problem body of every refusal, the principal on
 * success, and a JWKS served over real HTTPS (test CA) that fails and rotates keys under a test clock.
 */
import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { App, fetchGuard, type Hooks, hookTraitsOf, type PreBodyContext } from '@charter/core';
import { type } from 'arktype';
import { jwk } from './hooks.ts';
import type { JwkOptions } from './options.ts';
import {
  generateTestKey,
  jwkSet,
  signHs256,
  signToken,
  startJwksServer,
  tamper,
  type TestKey,
  testClock,
  unsecuredToken,
} from './__fixtures__/test-support.ts';

const ISSUER = 'https://id.example/';
const AUDIENCE = 'https://api.example';

const k1 = await generateTestKey('RS256', 'k1');
const k2 = await generateTestKey('RS256', 'k2');
const ec = await generateTestKey('ES256', 'e1');
const server = await startJwksServer(jwkSet(k1));
afterAll(() => server.stop());
afterEach(() => {
  server.mode = 'ok';
  server.set = jwkSet(k1);
});

const Me = type({ sub: 'string', scopes: 'string[]', kid: 'string' });
const Ok = type({ ok: 'boolean' });

interface Setup {
  app: App;
  clock: ReturnType<typeof testClock>;
  /** Signs a token valid now (10 minutes), with these claims overriding the defaults. */
  token(key?: TestKey, claims?: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  get(token?: string, headers?: Record<string, string>): Promise<Response>;
}

function setup(options: Partial<JwkOptions> = {}): Setup {
  const clock = testClock();
  const hooks: Hooks = jwk({
    jwks: server.url,
    fetch: server.fetch,
    algorithms: ['RS256', 'ES256'],
    issuer: ISSUER,
    audience: AUDIENCE,
    now: clock.now,
    ...options,
  });
  const app = new App({ logger: false, hooks });
  app.get('/me', { responses: { 200: { body: Me } } }, (ctx) => ({
    status: 200 as const,
    body: {
      sub: ctx.state.user?.sub ?? '',
      scopes: [...(ctx.state.user?.scopes ?? [])],
      kid: String((ctx.state.auth?.credentials as { header: { kid?: string } }).header.kid),
    },
  }));
  app.post(
    '/upload',
    { request: { body: type({ text: 'string' }) }, responses: { 201: { body: Ok } } },
    () => ({
      status: 201 as const,
      body: { ok: true },
    }),
  );
  const token: Setup['token'] = (key = k1, claims = {}, header = {}) => {
    const now = Math.floor(clock.now() / 1000);
    return signToken(
      key,
      { iss: ISSUER, aud: AUDIENCE, sub: 'user-1', iat: now, exp: now + 600, scope: 'read write', ...claims },
      header,
    );
  };
  const get = (bearer?: string, headers: Record<string, string> = {}) =>
    app.request('/me', {
      headers: bearer === undefined ? headers : { authorization: `Bearer ${bearer}`, ...headers },
    });
  return { app, clock, token, get };
}

/** Asserts an RFC 9457 problem with this status and catalog type; returns the body. */
async function expectProblem(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.type).toBe(`https://charter.dev/errors/${code}`);
  expect(body.status).toBe(status);
  return body;
}

async function expectInvalidToken(res: Response, description: string): Promise<void> {
  const body = await expectProblem(res, 401, 'unauthorized');
  expect(res.headers.get('www-authenticate')).toBe(
    `Bearer realm="api", error="invalid_token", error_description="${description}"`,
  );
  expect(body.detail).toBe(description);
}

describe('jwk: success', () => {
  test('a valid token reaches the handler with ctx.state.user and ctx.state.auth', async () => {
    const { get, token } = setup();
    const res = await get(await token());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: 'user-1', scopes: ['read', 'write'], kid: 'k1' });
  });

  test('the principal carries every claim and the auth context the verified header and payload', async () => {
    let seen: PreBodyContext['state'] | undefined;
    const { app, token } = setup();
    app.get('/inspect', { responses: { 200: { body: Ok } } }, (ctx) => {
      seen = ctx.state;
      return { status: 200 as const, body: { ok: true } };
    });
    const res = await app.request('/inspect', {
      headers: {
        authorization: `Bearer ${await token(k1, { scope: undefined, scp: ['a', 'b', 'a'], tenant: 't1' })}`,
      },
    });
    expect(res.status).toBe(200);
    expect(seen?.user?.scopes).toEqual(['a', 'b']);
    expect(seen?.user?.claims.tenant).toBe('t1');
    expect(seen?.auth?.scheme).toBe('jwk');
    const credentials = seen?.auth?.credentials as { header: { alg: string }; payload: { sub: string } };
    expect(credentials.header.alg).toBe('RS256');
    expect(credentials.payload.sub).toBe('user-1');
  });

  test('the Bearer scheme is case-insensitive', async () => {
    const { app, token } = setup();
    const res = await app.request('/me', { headers: { authorization: `bEaReR ${await token()}` } });
    expect(res.status).toBe(200);
  });

  test('an ES256 token verifies against an EC key of the set, and an audience list accepts any member', async () => {
    server.set = jwkSet(k1, ec);
    const { get, token } = setup({ audience: ['https://other.example', AUDIENCE] });
    expect((await get(await token(ec))).status).toBe(200);
  });

  test('declares the authenticates trait for the boot guards', () => {
    const hooks = jwk({ jwks: jwkSet(k1), algorithms: ['RS256'], issuer: ISSUER, audience: AUDIENCE });
    expect(hookTraitsOf(hooks)?.authenticates).toBe(true);
  });
});

describe('jwk: missing and malformed credentials', () => {
  test('no Authorization header: 401 with a bare challenge (RFC 6750 §3.1)', async () => {
    const res = await setup().get();
    const body = await expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(body.detail).toBe('Authentication is required to access this resource.');
  });

  test('another scheme is no bearer credentials: 401 with a bare challenge', async () => {
    const res = await setup().get(undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    await expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  test('Bearer without one token68: 400 invalid_request with a challenge', async () => {
    const { get } = setup();
    for (const value of ['Bearer', 'Bearer a b', 'Bearer a,Bearer b', 'Bearer tok@n']) {
      const res = await get(undefined, { authorization: value });
      const body = await expectProblem(res, 400, 'bad-request');
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="api", error="invalid_request", error_description="The Authorization header must be \\"Bearer\\" followed by exactly one token."',
      );
      expect(body.detail).toBe('The Authorization header must be "Bearer" followed by exactly one token.');
    }
  });

  test('a token that is not a JWS is invalid_token', async () => {
    await expectInvalidToken(await setup().get('not-a-jwt'), 'The access token is malformed.');
  });

  test('the realm option names the protection space of every challenge', async () => {
    const { get } = setup({ realm: 'billing' });
    expect((await get()).headers.get('www-authenticate')).toBe('Bearer realm="billing"');
    expect((await get('x.y.z')).headers.get('www-authenticate')).toStartWith(
      'Bearer realm="billing", error="invalid_token"',
    );
  });
});

describe('jwk: refused tokens', () => {
  test('expired: 401 invalid_token', async () => {
    const { get, token, clock } = setup();
    const jwt = await token();
    clock.advance(600);
    await expectInvalidToken(await get(jwt), 'The access token expired.');
  });

  test('clockSkewSeconds accepts a token that expired within the skew', async () => {
    const { get, token, clock } = setup({ clockSkewSeconds: 30 });
    const jwt = await token();
    clock.advance(620);
    expect((await get(jwt)).status).toBe(200);
    clock.advance(20);
    await expectInvalidToken(await get(jwt), 'The access token expired.');
  });

  test('not yet valid (nbf in the future): 401 invalid_token', async () => {
    const { get, token, clock } = setup();
    const now = Math.floor(clock.now() / 1000);
    await expectInvalidToken(
      await get(await token(k1, { nbf: now + 60 })),
      'The access token is not valid yet.',
    );
  });

  test('without exp: 401 invalid_token', async () => {
    const { get, token } = setup();
    await expectInvalidToken(
      await get(await token(k1, { exp: undefined })),
      'The access token has no expiry.',
    );
  });

  test('a lifetime over maxLifetimeSeconds: 401 invalid_token', async () => {
    const { get, token, clock } = setup({ maxLifetimeSeconds: 300 });
    const now = Math.floor(clock.now() / 1000);
    await expectInvalidToken(
      await get(await token(k1, { exp: now + 3600 })),
      'The access token lives longer than this API accepts.',
    );
  });

  test('wrong issuer: 401 invalid_token', async () => {
    const { get, token } = setup();
    await expectInvalidToken(
      await get(await token(k1, { iss: 'https://evil.example/' })),
      'The access token was not issued by a trusted issuer.',
    );
  });

  test('wrong audience, or none: 401 invalid_token', async () => {
    const { get, token } = setup();
    await expectInvalidToken(
      await get(await token(k1, { aud: 'https://other.example' })),
      'The access token is not intended for this API.',
    );
    await expectInvalidToken(
      await get(await token(k1, { aud: undefined })),
      'The access token is not intended for this API.',
    );
  });

  test('audience: false accepts tokens without aud only', async () => {
    const { get, token } = setup({ audience: false });
    expect((await get(await token(k1, { aud: undefined }))).status).toBe(200);
    await expectInvalidToken(await get(await token()), 'The access token is not intended for this API.');
  });

  test('an algorithm outside the list: 401 invalid_token, and no JWKS fetch happens', async () => {
    server.set = jwkSet(k1, ec);
    const { get, token } = setup({ algorithms: ['RS256'] });
    const hits = server.hits;
    await expectInvalidToken(
      await get(await token(ec)),
      'The access token is signed with an algorithm this API does not accept.',
    );
    expect(server.hits).toBe(hits);
  });

  test('HS256 signed with the public key as secret (algorithm confusion): 401 invalid_token', async () => {
    const { get, clock } = setup();
    const now = Math.floor(clock.now() / 1000);
    const secret = new TextEncoder().encode(JSON.stringify(k1.jwk));
    const forged = await signHs256(
      secret,
      { iss: ISSUER, aud: AUDIENCE, sub: 'admin', exp: now + 60 },
      { kid: 'k1' },
    );
    await expectInvalidToken(
      await get(forged),
      'The access token is signed with an algorithm this API does not accept.',
    );
  });

  test('a tampered payload: 401 invalid_token (signature)', async () => {
    const { get, token } = setup();
    await expectInvalidToken(await get(tamper(await token())), 'The access token signature is invalid.');
  });

  test('a signature by another key with the same kid: 401 invalid_token', async () => {
    const impostor = await generateTestKey('RS256', 'k1');
    const { get, token } = setup();
    await expectInvalidToken(await get(await token(impostor)), 'The access token signature is invalid.');
  });

  test('alg none: 401 invalid_token', async () => {
    const { get, clock } = setup();
    const now = Math.floor(clock.now() / 1000);
    const res = await get(
      unsecuredToken({ iss: ISSUER, aud: AUDIENCE, sub: 'admin', exp: now + 60 }, { kid: 'k1' }),
    );
    await expectInvalidToken(res, 'Unsecured access tokens are not accepted.');
  });

  test('typ is enforced when configured', async () => {
    const { get, token } = setup({ typ: 'at+jwt' });
    expect((await get(await token(k1, {}, { typ: 'at+JWT' }))).status).toBe(200);
    await expectInvalidToken(await get(await token()), 'The access token has the wrong type.');
  });

  test('a refused token leaves no principal for later hooks', async () => {
    let state: PreBodyContext['state'] | undefined;
    const { app, token } = setup();
    app.use({
      onError(_error, ctx) {
        state = ctx?.state;
      },
    });
    const res = await app.request('/me', { headers: { authorization: `Bearer ${tamper(await token())}` } });
    expect(res.status).toBe(401);
    expect(state?.user).toBeUndefined();
    expect(state?.auth).toBeUndefined();
  });
});

describe('jwk: the verify hook', () => {
  test('false gives 403 without a challenge; true passes; it sees the payload and the context', async () => {
    const calls: { sub: unknown; path: string }[] = [];
    const { get, token } = setup({
      verify: (payload, ctx) => {
        calls.push({ sub: payload.sub, path: new URL(ctx.request.url).pathname });
        return payload.sub !== 'banned';
      },
    });
    expect((await get(await token())).status).toBe(200);
    const res = await get(await token(k1, { sub: 'banned' }));
    const body = await expectProblem(res, 403, 'forbidden');
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(body.detail).toBe('The access token does not grant access to this resource.');
    expect(calls).toEqual([
      { sub: 'user-1', path: '/me' },
      { sub: 'banned', path: '/me' },
    ]);
  });

  test('an async verify is awaited, and returning nothing accepts', async () => {
    const { get, token } = setup({ verify: async () => {} });
    expect((await get(await token())).status).toBe(200);
    const refusing = setup({ verify: async () => false });
    expect((await refusing.get(await refusing.token())).status).toBe(403);
  });
});

describe('jwk: header-only authentication', () => {
  test('an unauthenticated upload is refused before its body is read', async () => {
    let pulled = false;
    // highWaterMark 0: the stream is pulled only when someone reads it, never to fill its own queue.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new TextEncoder().encode('{"text":"hello"}'));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const { app } = setup();
    const res = await app.request('/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not.a.token' },
      body,
      duplex: 'half',
    } as RequestInit);
    await expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toStartWith('Bearer realm="api", error="invalid_token"');
    expect(pulled).toBe(false);
  });

  test('an authenticated upload reaches the handler', async () => {
    const { app, token } = setup();
    const res = await app.request('/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await token()}` },
      body: '{"text":"hello"}',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('jwk: JWKS over HTTPS', () => {
  test('an unknown kid refetches once, then 401; a second unknown kid inside the cooldown does not refetch', async () => {
    const stranger = await generateTestKey('RS256', 'stranger');
    const other = await generateTestKey('RS256', 'other');
    const { get, token, clock } = setup();
    expect((await get(await token())).status).toBe(200);
    const hits = server.hits;
    clock.advance(60);
    await expectInvalidToken(
      await get(await token(stranger)),
      'The access token is signed with an unknown key.',
    );
    expect(server.hits).toBe(hits + 1);
    clock.advance(10);
    await expectInvalidToken(
      await get(await token(other)),
      'The access token is signed with an unknown key.',
    );
    expect(server.hits).toBe(hits + 1);
  });

  test('key rotation: a new kid published at the URL is picked up on the refetch', async () => {
    const { get, token, clock } = setup();
    expect((await get(await token())).status).toBe(200);
    server.set = jwkSet(k1, k2);
    clock.advance(31);
    const res = await get(await token(k2));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { kid: string }).kid).toBe('k2');
  });

  test('endpoint down: the stale set is served, then 503 with Retry-After after maxStaleSeconds', async () => {
    const { get, token, clock } = setup({ maxStaleSeconds: 600 });
    expect((await get(await token())).status).toBe(200);
    server.mode = 'down';
    clock.advance(300);
    expect((await get(await token())).status).toBe(200);
    clock.advance(599);
    expect((await get(await token())).status).toBe(200);
    clock.advance(1);
    const res = await get(await token());
    const body = await expectProblem(res, 503, 'service-unavailable');
    // The last failed attempt was 1 s ago: the next one is due after the 30 s cooldown.
    expect(res.headers.get('retry-after')).toBe('29');
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(body.detail).toBe('The keys to verify access tokens are unavailable; try again later.');
    // The URL and the fetch error stay out of the response.
    expect(JSON.stringify(body)).not.toContain('localhost');
    server.mode = 'ok';
    clock.advance(30);
    expect((await get(await token())).status).toBe(200);
  });

  test('with no set ever fetched, an outage is 503, not 401', async () => {
    server.mode = 'down';
    const { get, token } = setup();
    const res = await get(await token());
    await expectProblem(res, 503, 'service-unavailable');
    expect(res.headers.get('retry-after')).toBe('30');
  });

  test('paired with fetchGuard: a loopback JWKS needs allowLoopback, and is refused (503) otherwise', async () => {
    const allowed = setup({ fetch: fetchGuard({ fetch: server.fetch, allowLoopback: true }) });
    expect((await allowed.get(await allowed.token())).status).toBe(200);
    const guarded = setup({ fetch: fetchGuard({ fetch: server.fetch }) });
    await expectProblem(await guarded.get(await guarded.token()), 503, 'service-unavailable');
  });
});

describe('jwk: static sets and resolvers', () => {
  test('a static set verifies without any fetch, and an unknown kid is 401 at once', async () => {
    const { get, token } = setup({ jwks: jwkSet(k1, k2) });
    const hits = server.hits;
    expect((await get(await token(k2))).status).toBe(200);
    const stranger = await generateTestKey('RS256', 'stranger');
    await expectInvalidToken(
      await get(await token(stranger)),
      'The access token is signed with an unknown key.',
    );
    expect(server.hits).toBe(hits);
  });

  test('a token without kid is tried against every fitting key', async () => {
    const anonymous = await generateTestKey('RS256', undefined);
    const { get, token } = setup({
      jwks: { keys: [k1.jwk, { ...k2.jwk, kid: undefined }, { ...anonymous.jwk }] },
    });
    expect((await get(await token(anonymous))).status).toBe(200);
    const outsider = await generateTestKey('RS256', undefined);
    await expectInvalidToken(await get(await token(outsider)), 'The access token signature is invalid.');
  });

  test('a resolver chooses keys per token', async () => {
    const seen: unknown[] = [];
    const { get, token } = setup({
      jwks: (header) => {
        seen.push(header.kid);
        return header.kid === 'k2' ? k2.jwk : undefined;
      },
    });
    expect((await get(await token(k2))).status).toBe(200);
    await expectInvalidToken(await get(await token(k1)), 'The access token is signed with an unknown key.');
    expect(seen).toEqual(['k2', 'k1']);
  });

  test('a resolver that fails is 503', async () => {
    const { get, token } = setup({
      jwks: () => {
        throw new Error('database down');
      },
    });
    await expectProblem(await get(await token()), 503, 'service-unavailable');
  });
});

describe('jwk: construction', () => {
  const base = { algorithms: ['RS256'] as const, issuer: ISSUER, audience: AUDIENCE };

  test('an http URL is refused', () => {
    expect(() => jwk({ ...base, jwks: 'http://id.example/jwks.json' })).toThrow(/https/);
  });

  test('HS* algorithms are refused', () => {
    expect(() => jwk({ ...base, jwks: server.url, algorithms: ['HS256' as never] })).toThrow(
      /HS256 is symmetric/,
    );
  });
});
