import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { oauthRoutes } from './routes.ts';
import { createTokenService, type TokenService } from './tokens.ts';

const ORIGIN = 'http://localhost:3000';
const KEY = new Uint8Array(32).fill(3);
const FORM = 'application/x-www-form-urlencoded';
const T0 = 1_900_000_000;

function setup(options: { bodyLimitBytes?: number; tokens?: TokenService } = {}) {
  const clock = { now: T0 };
  const tokens = options.tokens ?? createTokenService({ origin: ORIGIN, key: KEY, now: () => clock.now });
  const app = new App({
    logger: false,
    openapi: true,
    validateResponses: true,
    bodyLimitBytes: options.bodyLimitBytes,
  });
  app.registerRoutes(oauthRoutes({ origin: ORIGIN, tokens }));
  const post = (path: string, body: string | Uint8Array<ArrayBuffer>, contentType = FORM) =>
    app.request(path, { method: 'POST', body, headers: { 'content-type': contentType } });
  return { app, tokens, clock, post };
}

async function expectOAuthError(response: Response, error: string): Promise<string> {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(body.error).toBe(error);
  expect(body.error_description).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
  return body.error_description as string;
}

describe('GET /.well-known/oauth-authorization-server', () => {
  test('serves RFC 8414 metadata whose issuer is the origin exactly, cacheable for an hour', async () => {
    const { app } = setup();
    const response = await app.request('/.well-known/oauth-authorization-server');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.issuer).toBe(ORIGIN);
    expect(body.token_endpoint).toBe(`${ORIGIN}/oauth/token`);
    expect(body.introspection_endpoint).toBe(`${ORIGIN}/oauth/introspect`);
    expect(body.grant_types_supported).toEqual(['client_credentials']);
    // Advertised for the MCP SDKs, which refuse metadata without it; it offers no response type.
    expect(body.authorization_endpoint).toBe(`${ORIGIN}/oauth/authorize`);
    expect(body.response_types_supported).toEqual([]);
  });
});

describe('GET /.well-known/oauth-protected-resource[/<resource>]', () => {
  test('serves the origin-wide metadata', async () => {
    const { app } = setup();
    const response = await app.request('/.well-known/oauth-protected-resource');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await response.json()).toMatchObject({
      resource: ORIGIN,
      authorization_servers: [ORIGIN],
      scopes_supported: ['docs:read'],
      bearer_methods_supported: ['header'],
    });
  });

  test('serves each resource at the path of its identifier', async () => {
    const { app } = setup();
    for (const id of ['mcp', 'api/v1', 'md']) {
      const response = await app.request(`/.well-known/oauth-protected-resource/${id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(((await response.json()) as { resource: string }).resource).toBe(`${ORIGIN}/${id}`);
    }
  });

  test('answers 404 unknown_resource with a hint listing the known resources', async () => {
    const { app } = setup();
    for (const path of ['nope', 'mcp/tools', 'api', 'api/v2']) {
      const response = await app.request(`/.well-known/oauth-protected-resource/${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const problem = (await response.json()) as Record<string, string>;
      expect(problem.code).toBe('unknown_resource');
      for (const id of ['mcp', 'api/v1', 'md']) expect(problem.hint).toContain(`${ORIGIN}/${id}`);
      expect(problem.hint).toContain(`${ORIGIN}/.well-known/oauth-protected-resource`);
    }
  });
});

describe('POST /oauth/token', () => {
  test('issues a Bearer token for docs:read with no-store caching (RFC 6749 §5.1)', async () => {
    const { post, tokens } = setup();
    const response = await post('/oauth/token', 'grant_type=client_credentials');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'docs:read',
    });
    const claims = await tokens.verify(body.access_token);
    expect(claims).toMatchObject({
      iss: ORIGIN,
      sub: 'anonymous',
      aud: ORIGIN,
      scope: 'docs:read',
      exp: T0 + 3600,
    });
  });

  test('names the client as subject and accepts scope=docs:read and a charset parameter', async () => {
    const { post, tokens } = setup();
    const response = await post(
      '/oauth/token',
      'grant_type=client_credentials&scope=docs%3Aread&client_id=agent-7',
      `${FORM};charset=UTF-8`,
    );
    expect(response.status).toBe(200);
    const { access_token } = (await response.json()) as { access_token: string };
    expect(await tokens.verify(access_token)).toMatchObject({ sub: 'agent-7', client_id: 'agent-7' });
  });

  test('binds the token to the requested resources (RFC 8707)', async () => {
    const { post, tokens } = setup();
    const one = await post(
      '/oauth/token',
      `grant_type=client_credentials&resource=${encodeURIComponent(`${ORIGIN}/mcp`)}`,
    );
    const { access_token: mcpToken } = (await one.json()) as { access_token: string };
    expect((await tokens.verify(mcpToken))?.aud).toBe(`${ORIGIN}/mcp`);
    expect(await tokens.verify(mcpToken, { audience: [ORIGIN, `${ORIGIN}/md`] })).toBeUndefined();
    const two = await post(
      '/oauth/token',
      `grant_type=client_credentials&resource=${encodeURIComponent(`${ORIGIN}/md/`)}&resource=${encodeURIComponent(`${ORIGIN}/api/v1`)}`,
    );
    const { access_token: both } = (await two.json()) as { access_token: string };
    expect((await tokens.verify(both))?.aud).toEqual([`${ORIGIN}/md`, `${ORIGIN}/api/v1`]);
  });

  test('invalid_request: grant_type missing', async () => {
    const { post } = setup();
    await expectOAuthError(await post('/oauth/token', 'scope=docs:read'), 'invalid_request');
    await expectOAuthError(await post('/oauth/token', ''), 'invalid_request');
  });

  test('invalid_request, not 415: a body that is not a form, or has no Content-Type', async () => {
    const { post } = setup();
    const json = await post('/oauth/token', '{"grant_type":"client_credentials"}', 'application/json');
    expect(await expectOAuthError(json, 'invalid_request')).toContain(FORM);
    await expectOAuthError(
      await post('/oauth/token', 'grant_type=client_credentials', 'text/plain'),
      'invalid_request',
    );
    const bare = new Request('http://localhost/oauth/token', {
      method: 'POST',
      body: 'grant_type=client_credentials',
    });
    bare.headers.delete('content-type');
    await expectOAuthError(await setup().app.request(bare), 'invalid_request');
  });

  test('invalid_request: a parameter twice, a client secret, a bad client_id, bytes that are not UTF-8', async () => {
    const { post } = setup();
    const twice = await post('/oauth/token', 'grant_type=client_credentials&grant_type=client_credentials');
    expect(await expectOAuthError(twice, 'invalid_request')).toContain('grant_type');
    const secret = await post('/oauth/token', 'grant_type=client_credentials&client_id=a&client_secret=s');
    expect(await expectOAuthError(secret, 'invalid_request')).toContain('no client secret');
    const longId = await post('/oauth/token', `grant_type=client_credentials&client_id=${'a'.repeat(201)}`);
    await expectOAuthError(longId, 'invalid_request');
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('grant_type=client_credentials&client_id='),
      0xc3,
    ]);
    await expectOAuthError(await post('/oauth/token', bytes), 'invalid_request');
  });

  test('unsupported_grant_type: any grant but client_credentials', async () => {
    const { post } = setup();
    for (const grant of ['authorization_code', 'password', 'refresh_token']) {
      await expectOAuthError(await post('/oauth/token', `grant_type=${grant}`), 'unsupported_grant_type');
    }
  });

  test('invalid_scope: any scope but docs:read', async () => {
    const { post } = setup();
    const response = await post('/oauth/token', 'grant_type=client_credentials&scope=docs:read+docs:write');
    expect(await expectOAuthError(response, 'invalid_scope')).toContain('docs:read');
  });

  test('invalid_target: a resource that is not one of this origin', async () => {
    const { post } = setup();
    const response = await post(
      '/oauth/token',
      'grant_type=client_credentials&resource=https%3A%2F%2Fevil.example%2Fmcp',
    );
    expect(await expectOAuthError(response, 'invalid_target')).toContain(`${ORIGIN}/mcp`);
  });

  test('a body past the App limit is a 413 problem', async () => {
    const { post } = setup({ bodyLimitBytes: 64 });
    const response = await post('/oauth/token', `grant_type=client_credentials&client_id=${'a'.repeat(100)}`);
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});

describe('GET /oauth/authorize', () => {
  test('answers unsupported_response_type naming the token endpoint, and never redirects', async () => {
    const { app } = setup();
    const response = await app.request(
      '/oauth/authorize?response_type=code&client_id=a&redirect_uri=https%3A%2F%2Fevil.example%2Fcb',
    );
    expect(response.headers.get('location')).toBeNull();
    const description = await expectOAuthError(response, 'unsupported_response_type');
    expect(description).toContain(`${ORIGIN}/oauth/token`);
  });

  test('is GET only', async () => {
    const { post } = setup();
    expect((await post('/oauth/authorize', 'response_type=code')).status).toBe(405);
  });
});

describe('POST /oauth/introspect', () => {
  async function issue(
    post: ReturnType<typeof setup>['post'],
    body = 'grant_type=client_credentials&client_id=c1',
  ) {
    return ((await (await post('/oauth/token', body)).json()) as { access_token: string }).access_token;
  }

  test('describes an active token (RFC 7662 §2.2)', async () => {
    const { post } = setup();
    const token = await issue(post);
    const response = await post('/oauth/introspect', `token=${token}&token_type_hint=access_token`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      active: true,
      scope: 'docs:read',
      client_id: 'c1',
      token_type: 'Bearer',
      exp: T0 + 3600,
      iat: T0,
      sub: 'c1',
      aud: ORIGIN,
      iss: ORIGIN,
      jti: expect.any(String),
    });
  });

  test('is active for a token bound to any one of the resources, without client_id when none was sent', async () => {
    const { post } = setup();
    const token = await issue(
      post,
      `grant_type=client_credentials&resource=${encodeURIComponent(`${ORIGIN}/md`)}`,
    );
    const body = (await (await post('/oauth/introspect', `token=${token}`)).json()) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ active: true, aud: `${ORIGIN}/md`, sub: 'anonymous' });
    expect('client_id' in body).toBe(false);
  });

  test('answers active: false for garbage, tampered, expired and foreign tokens', async () => {
    const { post, clock } = setup();
    const token = await issue(post);
    const foreign = await createTokenService({ origin: 'https://other.example', key: KEY }).issue({
      scope: 'docs:read',
      audience: ORIGIN,
    });
    const otherKey = await createTokenService({ origin: ORIGIN, key: new Uint8Array(32).fill(9) }).issue({
      scope: 'docs:read',
      audience: ORIGIN,
    });
    for (const candidate of ['nonsense', `${token}x`, foreign.accessToken, otherKey.accessToken]) {
      const response = await post('/oauth/introspect', `token=${encodeURIComponent(candidate)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ active: false });
    }
    clock.now = T0 + 3600;
    expect(await (await post('/oauth/introspect', `token=${token}`)).json()).toEqual({ active: false });
  });

  test('invalid_request: token missing, or a body that is not a form', async () => {
    const { post } = setup();
    await expectOAuthError(
      await post('/oauth/introspect', 'token_type_hint=access_token'),
      'invalid_request',
    );
    await expectOAuthError(
      await post('/oauth/introspect', '{"token":"x"}', 'application/json'),
      'invalid_request',
    );
    await expectOAuthError(await post('/oauth/introspect', 'token=a&token=b'), 'invalid_request');
  });

  test('unsupported_token_type: a hint other than access_token', async () => {
    const { post } = setup();
    const response = await post('/oauth/introspect', 'token=x&token_type_hint=refresh_token');
    await expectOAuthError(response, 'unsupported_token_type');
  });
});

describe('the OpenAPI document', () => {
  test('shows the form bodies, the 200 schemas, the OAuth errors and the 404 problem', async () => {
    const { app } = setup();
    const doc = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, Record<string, any>>>;
    };
    const token = doc.paths['/oauth/token']?.post;
    expect(Object.keys(token?.requestBody.content)).toEqual([FORM]);
    expect(token?.requestBody.content[FORM].schema.required).toEqual(['grant_type']);
    expect(token?.requestBody.content[FORM].schema.properties.client_secret).toBeUndefined();
    expect(Object.keys(token?.responses['200'].content['application/json'].schema.properties).sort()).toEqual(
      ['access_token', 'expires_in', 'scope', 'token_type'],
    );
    expect(token?.responses['200'].headers.Pragma).toBeDefined();
    expect(token?.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/OAuthError',
    });
    expect((doc as any).components.schemas.OAuthError.required).toEqual(['error']);
    const introspect = doc.paths['/oauth/introspect']?.post;
    expect(introspect?.requestBody.content[FORM].schema.required).toEqual(['token']);
    expect(JSON.stringify(introspect?.responses['200'].content['application/json'].schema)).toContain(
      'active',
    );
    const perResource = doc.paths['/.well-known/oauth-protected-resource/{resource}']?.get;
    expect(perResource?.responses['404'].content['application/problem+json']).toBeDefined();
    expect(doc.paths['/oauth/authorize']?.get?.responses['400'].content['application/json']).toBeDefined();
    expect(
      doc.paths['/.well-known/oauth-authorization-server']?.get?.responses['200'].headers['Cache-Control'],
    ).toBeDefined();
  });
});

describe('oauthRoutes', () => {
  test('refuses an origin that differs from the token service, and a missing token service', () => {
    const tokens = createTokenService({ origin: 'https://a.example', key: KEY });
    expect(() => oauthRoutes({ origin: 'https://b.example', tokens })).toThrow(/differs/);
    expect(() => oauthRoutes({ origin: ORIGIN, tokens: undefined as never })).toThrow(/tokens/);
  });
});
