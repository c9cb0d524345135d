import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { isErrorDescription, OAuthErrorBody, oauthError, oauthErrorResponse } from './oauth-error.ts';

describe('oauthError', () => {
  test('builds a 400 RFC 6749 §5.2 body with Cache-Control: no-store', () => {
    expect(oauthError('invalid_scope', 'Only docs:read.')).toEqual({
      status: 400,
      body: { error: 'invalid_scope', error_description: 'Only docs:read.' },
      headers: { 'Cache-Control': 'no-store' },
    });
  });

  test('refuses a description outside the RFC 6749 §5.2 character set', () => {
    expect(() => oauthError('invalid_request', 'say "hi"')).toThrow(/RFC 6749/);
    expect(() => oauthError('invalid_request', 'back\\slash')).toThrow(/RFC 6749/);
    expect(() => oauthError('invalid_request', 'section §3')).toThrow(/RFC 6749/);
  });
});

describe('isErrorDescription', () => {
  test('accepts printable ASCII but double quote and backslash', () => {
    expect(isErrorDescription('Use grant_type=client_credentials at https://x/oauth/token.')).toBe(true);
    expect(isErrorDescription('tab\there')).toBe(false);
    expect(isErrorDescription('"')).toBe(false);
  });
});

describe('oauthErrorResponse', () => {
  test('declares a JSON body whose schema accepts an OAuth error and refuses a problem', () => {
    const spec = oauthErrorResponse('x');
    expect(spec.contentType).toBe('application/json');
    expect(spec.body({ error: 'invalid_request', error_description: 'd' })).toEqual({
      error: 'invalid_request',
      error_description: 'd',
    });
    expect(
      OAuthErrorBody({ type: 'about:blank', title: 'Bad Request', status: 400 }) instanceof type.errors,
    ).toBe(true);
  });
});
