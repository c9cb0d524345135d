import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { parseBearerAuthorization } from './bearer-token.ts';

const TOKEN68_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';

describe('parseBearerAuthorization', () => {
  test('reads the token of "Bearer <token68>", scheme in any case, after one or more spaces', () => {
    expect(parseBearerAuthorization('Bearer a.b.c')).toEqual({ kind: 'token', token: 'a.b.c' });
    expect(parseBearerAuthorization('bearer   abc==')).toEqual({ kind: 'token', token: 'abc==' });
    expect(parseBearerAuthorization('BEARER x+/y~')).toEqual({ kind: 'token', token: 'x+/y~' });
  });

  test('no header, or an empty one, is missing credentials', () => {
    expect(parseBearerAuthorization(null)).toEqual({ kind: 'missing' });
    expect(parseBearerAuthorization(undefined)).toEqual({ kind: 'missing' });
    expect(parseBearerAuthorization('   ')).toEqual({ kind: 'missing' });
  });

  test('another scheme, or something that is not `scheme SP ...`, is not bearer credentials', () => {
    for (const value of [
      'Basic dXNlcjpwYXNz',
      'DPoP abc',
      'Bearer\tabc',
      'Bearerabc',
      '"Bearer" abc',
      ' =abc',
    ]) {
      expect(parseBearerAuthorization(value)).toEqual({ kind: 'other-scheme' });
    }
  });

  test('Bearer with no token, several tokens, or characters outside token68 is malformed', () => {
    for (const value of [
      'Bearer',
      'Bearer ',
      'Bearer a b',
      'Bearer a, Bearer b',
      'Bearer a=b',
      'Bearer é',
      'Bearer =',
    ]) {
      expect(parseBearerAuthorization(value).kind).toBe('malformed');
    }
  });

  test('every token68 is read back unchanged', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...TOKEN68_CHARS), minLength: 1, maxLength: 64 }),
        fc.nat({ max: 2 }),
        (body, padding) => {
          const token = body + '='.repeat(padding);
          expect(parseBearerAuthorization(`Bearer ${token}`)).toEqual({ kind: 'token', token });
        },
      ),
      { numRuns: 500 },
    );
  });

  test('never throws, and only returns a token made of token68 characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const result = parseBearerAuthorization(`Bearer ${text}`);
        if (result.kind === 'token') {
          for (const c of result.token.replace(/=+$/, '')) expect(TOKEN68_CHARS.includes(c)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
