import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { type AuthUser, defineRoute } from '@charter/core';
import { type } from 'arktype';
import { BEARER_REALM, optionalBearer } from './bearer.ts';
import { createTokenService } from './tokens.ts';

const ORIGIN = 'http://localhost:3000';
const KEY = new Uint8Array(32).fill(5);
const T0 = 1_900_000_000;

function setup(resource: string) {
  const clock = { now: T0 };
  const tokens = createTokenService({ origin: ORIGIN, key: KEY, now: () => clock.now });
  const app = new App({ logger: false });
  app.registerRoutes([
    defineRoute({
      method: 'GET',
      path: '/probe',
      operationId: 'probe',
      hooks: optionalBearer({ tokens, origin: ORIGIN, resource }),
      responses: { 200: { body: type({ user: 'unknown' }) } },
      handler: (ctx) => ({ status: 200, body: { user: ctx.state.user ?? null } }),
    }),
  ]);
  const get = (authorization?: string) =>
    app.request('/probe', authorization === undefined ? {} : { headers: { authorization } });
  return { tokens, clock, get };
}

const metadataUrl = (id: string) =>
  `${ORIGIN}/.well-known/oauth-protected-resource${id === '' ? '' : `/${id}`}`;

describe('optionalBearer', () => {
  test('lets a request without Authorization through anonymously', async () => {
    const { get } = setup('mcp');
    const response = await get();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: null });
  });

  test('sets ctx.state.user from a good token: subject, scopes and claims', async () => {
    const { tokens, get } = setup('mcp');
    const { accessToken, claims } = await tokens.issue({
      clientId: 'bot',
      scope: 'docs:read',
      audience: ORIGIN,
    });
    const response = await get(`Bearer ${accessToken}`);
    expect(response.status).toBe(200);
    const { user } = (await response.json()) as { user: AuthUser };
    expect(user).toEqual({ sub: 'bot', scopes: ['docs:read'], claims: { ...claims } });
  });

  test('accepts a token bound to the resource itself, refuses one bound to another resource', async () => {
    const { tokens, get } = setup('mcp');
    const mine = await tokens.issue({ scope: 'docs:read', audience: `${ORIGIN}/mcp` });
    expect((await get(`Bearer ${mine.accessToken}`)).status).toBe(200);
    const other = await tokens.issue({ scope: 'docs:read', audience: `${ORIGIN}/md` });
    const response = await get(`Bearer ${other.accessToken}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl('mcp')}"`);
  });

  test('at the origin resource only origin-wide tokens are good', async () => {
    const { tokens, get } = setup('');
    const wide = await tokens.issue({ scope: 'docs:read', audience: ORIGIN });
    expect((await get(`Bearer ${wide.accessToken}`)).status).toBe(200);
    const narrow = await tokens.issue({ scope: 'docs:read', audience: `${ORIGIN}/mcp` });
    const response = await get(`Bearer ${narrow.accessToken}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl('')}"`);
  });

  test('refuses a bad or expired token with 401 invalid_token and resource_metadata (RFC 9728 §5.1)', async () => {
    const { tokens, clock, get } = setup('api/v1');
    const bad = await get('Bearer not-a-token');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect(bad.headers.get('www-authenticate')).toBe(
      `Bearer realm="${BEARER_REALM}", resource_metadata="${metadataUrl('api/v1')}", error="invalid_token", ` +
        'error_description="The access token is invalid or expired."',
    );
    const { accessToken } = await tokens.issue({ scope: 'docs:read', audience: ORIGIN });
    clock.now = T0 + 3600;
    const expired = await get(`Bearer ${accessToken}`);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  test('refuses a token of another key', async () => {
    const { get } = setup('md');
    const stranger = createTokenService({ origin: ORIGIN, key: new Uint8Array(32).fill(6) });
    const { accessToken } = await stranger.issue({ scope: 'docs:read', audience: ORIGIN });
    expect((await get(`Bearer ${accessToken}`)).status).toBe(401);
  });

  test('refuses other schemes sent as credentials with a challenge carrying resource_metadata', async () => {
    const { get } = setup('md');
    const response = await get('Basic dXNlcjpwYXNz');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="${BEARER_REALM}", resource_metadata="${metadataUrl('md')}"`,
    );
  });

  test('refuses bad options with a TypeError naming them', () => {
    const tokens = createTokenService({ origin: ORIGIN, key: KEY });
    expect(() => optionalBearer({ tokens, origin: ORIGIN, resource: 'nope' })).toThrow(/resource/);
    expect(() => optionalBearer({ tokens, origin: 'http://localhost:4000', resource: 'mcp' })).toThrow(
      /tokens/,
    );
    expect(() => optionalBearer({ tokens: {} as never, origin: ORIGIN, resource: 'mcp' })).toThrow(/tokens/);
  });
});
