import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { ForbiddenError } from '../errors/index.ts';
import { hookTraitsOf } from '../types/index.ts';
import { type BearerOptions, bearer, resolveBearerOptions } from './bearer.ts';
import { trackedBody } from '../../../../tests/support/tracked-body.ts';

const Who = type({ 'sub?': 'string', scopes: 'string[]', scheme: 'string', credentials: 'string' });
const Note = type({ text: 'string' });

const TOKENS: Record<string, { sub: string; scopes: string }> = {
  'tok-ada': { sub: 'ada', scopes: 'notes:read notes:write notes:read' },
};

function appWith(options: Partial<BearerOptions> = {}): App {
  const app = new App({ logger: false });
  const hooks = bearer({ verify: (token) => TOKENS[token], ...options });
  app.get('/me', { responses: { 200: { body: Who } }, hooks }, (ctx) => ({
    status: 200,
    body: {
      ...(ctx.state.user?.sub !== undefined && { sub: ctx.state.user.sub }),
      scopes: [...(ctx.state.user?.scopes ?? [])],
      scheme: String(ctx.state.auth?.scheme),
      credentials: String(ctx.state.auth?.credentials),
    },
  }));
  app.post('/notes', { request: { body: Note }, responses: { 201: { body: Note } }, hooks }, (ctx) => ({
    status: 201,
    body: ctx.body,
  }));
  return app;
}

async function problem(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.type).toBe(`https://charter.dev/errors/${code}`);
  expect(body.status).toBe(status);
  return body;
}

const get = (app: App, authorization?: string) =>
  app.request('/me', authorization === undefined ? {} : { headers: { authorization } });

describe('bearer', () => {
  test('a valid token reaches the handler with ctx.state.auth and a normalised ctx.state.user', async () => {
    const res = await get(appWith(), 'Bearer tok-ada');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      sub: 'ada',
      scopes: ['notes:read', 'notes:write'],
      scheme: 'bearer',
      credentials: 'tok-ada',
    });
  });

  test('the scheme name is case-insensitive and several spaces may follow it (RFC 9110 §11.1, §11.6.2)', async () => {
    expect((await get(appWith(), 'bearer tok-ada')).status).toBe(200);
    expect((await get(appWith(), 'BEARER   tok-ada')).status).toBe(200);
  });

  test('verify answering true gives an anonymous principal without scopes', async () => {
    const res = await get(appWith({ verify: () => true }), 'Bearer anything');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ scopes: [], scheme: 'bearer', credentials: 'anything' });
  });

  test('verify may be async and receives the pre-body context', async () => {
    const seen: string[] = [];
    const app = appWith({
      verify: async (token, ctx) => {
        seen.push(`${ctx.route.method} ${ctx.route.path} ${String(ctx.body)}`);
        return token === 'ok' ? { sub: 'x' } : null;
      },
    });
    expect((await get(app, 'Bearer ok')).status).toBe(200);
    expect(seen).toEqual(['GET /me undefined']);
  });

  test('no credentials: 401 with the bare challenge and no error attribute (RFC 6750 §3.1)', async () => {
    const res = await get(appWith());
    const body = await problem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(body.title).toBe('Unauthorized');
  });

  test('an unauthenticated upload is refused before its body stream is pulled', async () => {
    const tracked = trackedBody('{"text":"hello"}');
    const res = await appWith().request('/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tracked.body,
      duplex: 'half',
    } as RequestInit);
    await problem(res, 401, 'unauthorized');
    expect(tracked.pulled()).toBe(false);
  });

  test('a refused token on an upload is refused before the body is pulled too', async () => {
    const tracked = trackedBody('{"text":"hello"}');
    const res = await appWith().request('/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' },
      body: tracked.body,
      duplex: 'half',
    } as RequestInit);
    await problem(res, 401, 'unauthorized');
    expect(tracked.pulled()).toBe(false);
  });

  test('an authenticated upload reads and validates the body (the tracker sees that read)', async () => {
    const tracked = trackedBody('{"text":"hello"}');
    const res = await appWith().request('/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok-ada' },
      body: tracked.body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ text: 'hello' });
    expect(tracked.pulled()).toBe(true);
  });

  test('another scheme counts as no credentials: 401 with the bare challenge', async () => {
    const res = await get(appWith(), 'Basic YWxhZGRpbjpvcGVuc2VzYW1l');
    await problem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  test('a malformed Bearer header is 400 invalid_request with a challenge (RFC 6750 §3.1)', async () => {
    for (const header of ['Bearer', 'Bearer two tokens', 'Bearer "quoted"', 'Bearer a=b=c', 'Bearer =abc']) {
      const res = await get(appWith(), header);
      const body = await problem(res, 400, 'bad-request');
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="api", error="invalid_request", error_description="The Authorization header must be \\"Bearer\\" followed by exactly one token."',
      );
      expect(String(body.detail)).toContain('exactly one token');
    }
  });

  test('two Authorization headers (two tokens) are 400 invalid_request', async () => {
    const headers = new Headers();
    headers.append('authorization', 'Bearer tok-ada');
    headers.append('authorization', 'Bearer other');
    const res = await appWith().request('/me', { headers });
    await problem(res, 400, 'bad-request');
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_request"');
  });

  test('a token verify refuses is 401 invalid_token, and the problem never echoes it', async () => {
    for (const answer of [false, null, undefined]) {
      const res = await get(appWith({ verify: () => answer }), 'Bearer secret-token-value');
      const body = await problem(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="api", error="invalid_token", error_description="The access token is invalid or expired."',
      );
      expect(JSON.stringify(body)).not.toContain('secret-token-value');
    }
  });

  test('a token longer than maxTokenLength is refused without calling verify', async () => {
    let calls = 0;
    const app = appWith({
      maxTokenLength: 8,
      verify: () => {
        calls++;
        return true;
      },
    });
    expect((await get(app, 'Bearer 12345678')).status).toBe(200);
    const res = await get(app, 'Bearer 123456789');
    await problem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(calls).toBe(1);
  });

  test('an HttpError thrown by verify is the answer', async () => {
    const app = appWith({
      verify: () => {
        throw new ForbiddenError('This account is suspended.');
      },
    });
    const body = await problem(await get(app, 'Bearer tok-ada'), 403, 'forbidden');
    expect(body.detail).toBe('This account is suspended.');
  });

  test('any other throw from verify becomes a 500 that names neither the error nor the token', async () => {
    const app = appWith({
      verify: () => {
        throw new Error('connect ECONNREFUSED db-password=hunter2');
      },
    });
    const res = await get(app, 'Bearer tok-ada');
    const body = await problem(res, 500, 'internal');
    const text = JSON.stringify(body);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('tok-ada');
  });

  test('a malformed answer from verify is a 500, not an accepted request', async () => {
    for (const answer of [42, 'yes', [], { sub: 7 }, { scopes: ['has space'] }, { claims: 'x' }]) {
      const app = appWith({ verify: () => answer as never });
      await problem(await get(app, 'Bearer tok-ada'), 500, 'internal');
    }
  });

  test('a custom realm appears in every challenge', async () => {
    const app = appWith({ realm: 'notes "v2"' });
    expect((await get(app)).headers.get('www-authenticate')).toBe('Bearer realm="notes \\"v2\\""');
    expect((await get(app, 'Bearer nope')).headers.get('www-authenticate')).toContain(
      'realm="notes \\"v2\\""',
    );
  });

  test('declares that it authenticates, and guards in preBody only', () => {
    const hooks = bearer({ verify: () => true });
    expect(hookTraitsOf(hooks)).toEqual({ authenticates: true });
    expect(Object.keys(hooks)).toEqual(['preBody']);
  });
});

describe('resolveBearerOptions', () => {
  test('fills the defaults', () => {
    const verify = () => true as const;
    expect(resolveBearerOptions({ verify })).toEqual({
      verify,
      realm: 'api',
      maxTokenLength: 8192,
      optional: false,
      resourceMetadata: undefined,
    });
  });

  test('refuses bad options with an error naming the option', () => {
    expect(() => resolveBearerOptions({} as BearerOptions)).toThrow(/"verify"/);
    expect(() => resolveBearerOptions({ verify: () => true, realm: '' })).toThrow(/"realm"/);
    expect(() => resolveBearerOptions({ verify: () => true, realm: 'a\r\nb' })).toThrow(/"realm"/);
    expect(() => resolveBearerOptions({ verify: () => true, maxTokenLength: 0 })).toThrow(RangeError);
    expect(() => resolveBearerOptions({ verify: () => true, maxTokenLength: 1.5 })).toThrow(
      /"maxTokenLength"/,
    );
    expect(() => resolveBearerOptions(null as never)).toThrow(TypeError);
    expect(() => resolveBearerOptions({ verify: () => true, optional: 'yes' as never })).toThrow(
      /"optional"/,
    );
  });

  test('resourceMetadata must be an https URL, http only on loopback, with nothing that could split the header', () => {
    const verify = () => true as const;
    const ok = ['https://docs.example/.well-known/oauth-protected-resource/mcp', 'http://127.0.0.1:3000/x'];
    for (const url of ok)
      expect(resolveBearerOptions({ verify, resourceMetadata: url }).resourceMetadata).toBe(url);
    const bad = [
      'http://docs.example/meta',
      '/.well-known/oauth-protected-resource',
      'https://user:pw@docs.example/meta',
      'https://docs.example/meta#frag',
      'javascript:alert(1)',
      42,
    ];
    for (const url of bad) {
      expect(() => resolveBearerOptions({ verify, resourceMetadata: url as string })).toThrow(
        /"resourceMetadata"/,
      );
    }
  });
});

describe('bearer with optional: true', () => {
  const META = 'https://docs.example/.well-known/oauth-protected-resource/notes';
  const optionalApp = () => appWith({ optional: true, resourceMetadata: META });

  test('a request without an Authorization header passes anonymously', async () => {
    const res = await get(optionalApp());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ scopes: [], scheme: 'undefined', credentials: 'undefined' });
  });

  test('a valid token still identifies the caller', async () => {
    const res = await get(optionalApp(), 'Bearer tok-ada');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sub: string }).sub).toBe('ada');
  });

  test('a refused token is 401 invalid_token with the resource_metadata auth-param (RFC 9728 §5.1)', async () => {
    const res = await get(optionalApp(), 'Bearer forged');
    await problem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="api", resource_metadata="${META}", error="invalid_token", error_description="The access token is invalid or expired."`,
    );
  });

  test('credentials of another scheme are refused, not ignored: the client meant to use them', async () => {
    const res = await get(optionalApp(), 'Basic YWRhOnB3');
    await problem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="api", resource_metadata="${META}"`);
  });

  test('a malformed Bearer header is 400 invalid_request and names the metadata too', async () => {
    const res = await get(optionalApp(), 'Bearer a b');
    await problem(res, 400, 'bad-request');
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toStartWith(`Bearer realm="api", resource_metadata="${META}", error="invalid_request"`);
  });

  test('declares optional authentication, not authentication', () => {
    expect(hookTraitsOf(bearer({ verify: () => true, optional: true }))).toEqual({
      authenticatesOptionally: true,
    });
  });

  test('without optional, the challenge of a missing token carries resource_metadata as well', async () => {
    const res = await get(appWith({ resourceMetadata: META }));
    await problem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="api", resource_metadata="${META}"`);
  });
});
