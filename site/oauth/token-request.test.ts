import { describe, expect, test } from 'bun:test';
import type { OAuthForm } from './form.ts';
import { checkIntrospectionRequest, checkTokenRequest } from './token-request.ts';

const ORIGIN = 'https://docs.example';

function formOf(params: Record<string, string>, resources: string[] = []): OAuthForm {
  return {
    single: new Map(Object.entries(params)),
    multi: new Map(resources.length ? [['resource', resources]] : []),
  };
}

const errorOf = (result: unknown): string | undefined =>
  (result as { body?: { error?: string } }).body?.error;

describe('checkTokenRequest', () => {
  const cc = { grant_type: 'client_credentials' };

  test('grants docs:read for the origin by default, with no client id', () => {
    expect(checkTokenRequest(formOf(cc), ORIGIN)).toEqual({
      clientId: undefined,
      scope: 'docs:read',
      audience: ORIGIN,
    });
  });

  test('keeps the client id and accepts docs:read spelled once, twice or with extra spaces', () => {
    for (const scope of ['docs:read', 'docs:read docs:read', ' docs:read  ']) {
      expect(checkTokenRequest(formOf({ ...cc, scope, client_id: 'My agent 1.0' }), ORIGIN)).toEqual({
        clientId: 'My agent 1.0',
        scope: 'docs:read',
        audience: ORIGIN,
      });
    }
  });

  test('requires grant_type and supports only client_credentials', () => {
    expect(errorOf(checkTokenRequest(formOf({}), ORIGIN))).toBe('invalid_request');
    for (const grant of ['authorization_code', 'password', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      expect(errorOf(checkTokenRequest(formOf({ grant_type: grant }), ORIGIN))).toBe(
        'unsupported_grant_type',
      );
    }
  });

  test('refuses a client secret: every client is public', () => {
    const result = checkTokenRequest(formOf({ ...cc, client_id: 'a', client_secret: 's' }), ORIGIN);
    expect(result).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect((result as { body: { error_description: string } }).body.error_description).toContain(
      'no client secret',
    );
  });

  test('refuses a client id longer than 200 characters or with control or non-ASCII characters', () => {
    expect(errorOf(checkTokenRequest(formOf({ ...cc, client_id: 'a'.repeat(200) }), ORIGIN))).toBeUndefined();
    for (const id of ['a'.repeat(201), 'a\tb', 'caf\u00e9', 'a\u0000']) {
      expect(errorOf(checkTokenRequest(formOf({ ...cc, client_id: id }), ORIGIN))).toBe('invalid_request');
    }
  });

  test('refuses any scope but docs:read', () => {
    for (const scope of ['docs:write', 'docs:read docs:write', 'openid', 'DOCS:READ']) {
      expect(errorOf(checkTokenRequest(formOf({ ...cc, scope }), ORIGIN))).toBe('invalid_scope');
    }
  });

  test('turns resource indicators into the audience: one URL, or several deduplicated in order', () => {
    expect(checkTokenRequest(formOf(cc, [`${ORIGIN}/mcp/`]), ORIGIN)).toMatchObject({
      audience: `${ORIGIN}/mcp`,
    });
    expect(
      checkTokenRequest(formOf(cc, [`${ORIGIN}/md`, `${ORIGIN}/`, `${ORIGIN}/md/`]), ORIGIN),
    ).toMatchObject({
      audience: [`${ORIGIN}/md`, ORIGIN],
    });
  });

  test("refuses a resource that is not one of this origin's (invalid_target, RFC 8707 §2)", () => {
    for (const resource of ['https://other.example/mcp', `${ORIGIN}/nope`, `${ORIGIN}/mcp#frag`, 'mcp']) {
      const result = checkTokenRequest(formOf(cc, [`${ORIGIN}/mcp`, resource]), ORIGIN);
      expect(errorOf(result)).toBe('invalid_target');
      expect((result as { body: { error_description: string } }).body.error_description).toContain(
        `${ORIGIN}/mcp`,
      );
    }
  });

  test('checks grant_type before anything else', () => {
    expect(errorOf(checkTokenRequest(formOf({ grant_type: 'password', scope: 'bad' }), ORIGIN))).toBe(
      'unsupported_grant_type',
    );
  });
});

describe('checkIntrospectionRequest', () => {
  test('returns the token; the hint access_token is accepted', () => {
    expect(checkIntrospectionRequest(formOf({ token: 't' }))).toEqual({ token: 't' });
    expect(checkIntrospectionRequest(formOf({ token: 't', token_type_hint: 'access_token' }))).toEqual({
      token: 't',
    });
  });

  test('requires a token', () => {
    expect(errorOf(checkIntrospectionRequest(formOf({ token_type_hint: 'access_token' })))).toBe(
      'invalid_request',
    );
  });

  test('refuses any other hint with unsupported_token_type', () => {
    for (const hint of ['refresh_token', 'id_token', 'x']) {
      expect(errorOf(checkIntrospectionRequest(formOf({ token: 't', token_type_hint: hint })))).toBe(
        'unsupported_token_type',
      );
    }
  });
});
