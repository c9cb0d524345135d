import { describe, expect, test } from 'bun:test';
import { InternalError, NotFoundError } from '../errors/index.ts';
import {
  apiKeyNameProblem,
  isScopeToken,
  isToken68,
  normaliseUser,
  parseAuthorization,
  runVerify,
} from './credentials.ts';

describe('parseAuthorization', () => {
  test('splits scheme and the rest after one or more spaces', () => {
    expect(parseAuthorization('Bearer abc')).toEqual({ scheme: 'Bearer', rest: 'abc' });
    expect(parseAuthorization('Bearer    abc def')).toEqual({ scheme: 'Bearer', rest: 'abc def' });
    expect(parseAuthorization('Negotiate')).toEqual({ scheme: 'Negotiate', rest: '' });
  });

  test('is undefined when the scheme is not a token or is not followed by a space', () => {
    expect(parseAuthorization('')).toBeUndefined();
    expect(parseAuthorization(' Bearer abc')).toBeUndefined();
    expect(parseAuthorization('Bearer\tabc')).toBeUndefined();
    expect(parseAuthorization('Bear"er abc')).toBeUndefined();
    expect(parseAuthorization('B\u00e9arer abc')).toBeUndefined();
  });
});

describe('isToken68', () => {
  test('accepts the b64token alphabet with trailing "=" only', () => {
    for (const value of ['abc', 'A-Z.0_9~+/', 'abc==', 'eyJ.eyJ.sig']) expect(isToken68(value)).toBe(true);
  });

  test('refuses empty, spaces, commas, quotes, inner "=", leading "="', () => {
    for (const value of ['', 'a b', 'a,b', '"a"', 'a=b', '=a', '===', 'a\u00e9'])
      expect(isToken68(value)).toBe(false);
  });
});

describe('normaliseUser', () => {
  test('true is an anonymous principal', () => {
    expect(normaliseUser(true)).toEqual({ sub: undefined, scopes: [], claims: {} });
  });

  test('dedupes scopes, splits a space-separated string and freezes everything', () => {
    const user = normaliseUser({ sub: 'u', scopes: ' a b  a ', claims: { tenant: 't1' } });
    expect(user).toEqual({ sub: 'u', scopes: ['a', 'b'], claims: { tenant: 't1' } });
    expect(Object.isFrozen(user)).toBe(true);
    expect(Object.isFrozen(user.scopes)).toBe(true);
    expect(Object.isFrozen(user.claims)).toBe(true);
    expect(normaliseUser({ scopes: ['x', 'x'] }).scopes).toEqual(['x']);
  });

  test('refuses values that are not a principal', () => {
    for (const bad of [
      1,
      'u',
      [],
      { sub: 1 },
      { scopes: [1] },
      { scopes: ['a b'] },
      { claims: [] },
      { scopes: {} },
    ]) {
      expect(() => normaliseUser(bad as never)).toThrow(TypeError);
    }
  });
});

describe('runVerify', () => {
  test('gives the user for an acceptance and undefined for a refusal', async () => {
    expect(await runVerify('t', () => ({ sub: 'a' }))).toEqual({ sub: 'a', scopes: [], claims: {} });
    for (const refusal of [false, null, undefined])
      expect(await runVerify('t', async () => refusal)).toBeUndefined();
  });

  test('lets an HttpError through and turns anything else into a generic InternalError', async () => {
    const notFound = new NotFoundError('gone');
    await expect(runVerify('t', () => Promise.reject(notFound))).rejects.toBe(notFound);
    const cause = new Error('secret-detail');
    let thrown: unknown;
    try {
      await runVerify('bearer', () => {
        throw cause;
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InternalError);
    expect((thrown as InternalError).detail).toBe('The bearer credential check failed.');
    expect((thrown as InternalError).cause).toBe(cause);
    await expect(runVerify('t', () => 5 as never)).rejects.toBeInstanceOf(InternalError);
  });
});

describe('isScopeToken', () => {
  test('accepts visible ASCII but quote and backslash (RFC 6749 §3.3)', () => {
    expect(isScopeToken('notes:write')).toBe(true);
    expect(isScopeToken('https://api.example/read')).toBe(true);
    for (const bad of ['', 'a b', 'a"b', 'a\\b', '\u00e9', 5]) expect(isScopeToken(bad)).toBe(false);
  });
});

describe('apiKeyNameProblem', () => {
  test('header and cookie names must be tokens; query names unreserved characters', () => {
    expect(apiKeyNameProblem('header', 'X-API-Key')).toBeUndefined();
    expect(apiKeyNameProblem('cookie', '__Host-key')).toBeUndefined();
    expect(apiKeyNameProblem('query', 'api_key')).toBeUndefined();
    expect(apiKeyNameProblem('header', 'x:y')).toMatch(/token/);
    expect(apiKeyNameProblem('query', 'a[b]')).toMatch(/query/);
    expect(apiKeyNameProblem('cookie', '')).toMatch(/non-empty/);
    expect(apiKeyNameProblem('header', 7)).toMatch(/non-empty/);
  });
});
