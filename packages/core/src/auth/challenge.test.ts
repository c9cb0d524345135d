import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { ForbiddenError, UnauthorizedError } from '../errors/index.ts';
import { formatChallenge, insufficientScope, unauthorized } from './challenge.ts';

describe('formatChallenge', () => {
  test('a scheme alone, or with its parameters in order as quoted-strings', () => {
    expect(formatChallenge({ scheme: 'Bearer' })).toBe('Bearer');
    expect(formatChallenge({ scheme: 'Basic', params: { realm: 'api', charset: 'UTF-8' } })).toBe(
      'Basic realm="api", charset="UTF-8"',
    );
  });

  test('leaves out undefined parameters', () => {
    expect(
      formatChallenge({ scheme: 'Bearer', params: { realm: 'api', error: undefined, scope: 'a' } }),
    ).toBe('Bearer realm="api", scope="a"');
  });

  test('escapes quotes and backslashes (RFC 9110 §5.6.4) and allows tabs and Latin-1', () => {
    expect(formatChallenge({ scheme: 'Bearer', params: { realm: 'a "b" \\c\td\u00e9' } })).toBe(
      'Bearer realm="a \\"b\\" \\\\c\td\u00e9"',
    );
  });

  test('refuses what could split or forge a header', () => {
    expect(() => formatChallenge({ scheme: 'Bear er' })).toThrow(/scheme/);
    expect(() => formatChallenge({ scheme: '' })).toThrow(/scheme/);
    expect(() => formatChallenge({ scheme: 'Bearer', params: { 're alm': 'x' } })).toThrow(/parameter name/);
    expect(() => formatChallenge({ scheme: 'Bearer', params: { realm: 'a\r\nSet-Cookie: x=1' } })).toThrow(
      /control/,
    );
    expect(() => formatChallenge({ scheme: 'Bearer', params: { realm: 'a\u0000' } })).toThrow(/control/);
    expect(() => formatChallenge({ scheme: 'Bearer', params: { realm: 'a\u007f' } })).toThrow(/control/);
    expect(() => formatChallenge({ scheme: 'Bearer', params: { realm: '\u0100' } })).toThrow(/non-Latin-1/);
  });
});

describe('unauthorized', () => {
  test('defaults to a 401 with the bare Bearer challenge and a generic detail', () => {
    const error = unauthorized();
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.status).toBe(401);
    expect(error.headers?.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(error.detail).toBe('Authentication is required to access this resource.');
  });

  test('puts realm, extra params, error, error_description and scope in that order', () => {
    const error = unauthorized({
      scheme: 'Bearer',
      realm: 'notes',
      error: 'invalid_token',
      description: 'The token expired.',
      scope: 'a b',
      params: { resource_metadata: 'https://api.example/.well-known/oauth-protected-resource' },
    });
    expect(error.headers?.get('www-authenticate')).toBe(
      'Bearer realm="notes", resource_metadata="https://api.example/.well-known/oauth-protected-resource", error="invalid_token", error_description="The token expired.", scope="a b"',
    );
    expect(error.detail).toBe('The token expired.');
  });

  test('builds a Basic challenge with charset (RFC 7617 §2.1)', () => {
    expect(
      unauthorized({ scheme: 'Basic', params: { charset: 'UTF-8' } }).headers?.get('www-authenticate'),
    ).toBe('Basic realm="api", charset="UTF-8"');
  });
});

describe('insufficientScope', () => {
  test('a 403 whose challenge names the scopes needed (RFC 6750 §3.1)', () => {
    const error = insufficientScope(['notes:write', 'admin'], { realm: 'r' });
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.status).toBe(403);
    expect(error.headers?.get('www-authenticate')).toBe(
      'Bearer realm="r", error="insufficient_scope", scope="notes:write admin"',
    );
    expect(error.detail).toContain('notes:write admin');
  });
});

describe('challenge errors over HTTP', () => {
  test('thrown from a hook, they answer with the problem and the WWW-Authenticate header', async () => {
    const app = new App({ logger: false });
    const Ok = type({ ok: 'boolean' });
    const ok = () => ({ status: 200 as const, body: { ok: true } });
    app.get(
      '/401',
      {
        responses: { 200: { body: Ok } },
        hooks: {
          preBody: () => {
            throw unauthorized({ error: 'invalid_token' });
          },
        },
      },
      ok,
    );
    app.get(
      '/403',
      {
        responses: { 200: { body: Ok } },
        hooks: {
          preBody: () => {
            throw insufficientScope(['w']);
          },
        },
      },
      ok,
    );
    const res401 = await app.request('/401');
    expect(res401.status).toBe(401);
    expect(res401.headers.get('content-type')).toBe('application/problem+json');
    expect(res401.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
    expect(((await res401.json()) as { type: string }).type).toBe('https://charter.dev/errors/unauthorized');
    const res403 = await app.request('/403');
    expect(res403.status).toBe(403);
    expect(res403.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="w"',
    );
    expect(((await res403.json()) as { type: string }).type).toBe('https://charter.dev/errors/forbidden');
  });
});
