import { describe, expect, test } from 'bun:test';
import { scopesFromClaims, userFromPayload } from './claims.ts';

describe('scopesFromClaims', () => {
  test('splits the space-delimited scope claim and removes duplicates', () => {
    expect(scopesFromClaims({ scope: 'read  write read' })).toEqual(['read', 'write']);
  });

  test('uses scp, as a string or an array, when scope is absent', () => {
    expect(scopesFromClaims({ scp: 'a b' })).toEqual(['a', 'b']);
    expect(scopesFromClaims({ scp: ['a', 'b', 'a'] })).toEqual(['a', 'b']);
  });

  test('scope wins over scp when both are present', () => {
    expect(scopesFromClaims({ scope: 'x', scp: ['y'] })).toEqual(['x']);
  });

  test('claims of another type grant nothing, and entries that are not scope-tokens are dropped', () => {
    expect(scopesFromClaims({})).toEqual([]);
    expect(scopesFromClaims({ scope: 42, scp: { read: true } })).toEqual([]);
    expect(scopesFromClaims({ scp: ['ok', 7, '', 'with space', 'quo"te', null] })).toEqual(['ok']);
    expect(scopesFromClaims({ scope: 'a\u0001b c' })).toEqual(['c']);
  });
});

describe('userFromPayload', () => {
  test('gives a frozen { sub, scopes, claims }', () => {
    const user = userFromPayload({ sub: 'u1', scope: 'read', tenant: 't' });
    expect(user).toEqual({ sub: 'u1', scopes: ['read'], claims: { sub: 'u1', scope: 'read', tenant: 't' } });
    expect(Object.isFrozen(user)).toBe(true);
    expect(Object.isFrozen(user.claims)).toBe(true);
    expect(Object.isFrozen(user.scopes)).toBe(true);
  });

  test('has no sub when the token has none', () => {
    expect(userFromPayload({}).sub).toBeUndefined();
  });
});
