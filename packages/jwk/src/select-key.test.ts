import { describe, expect, test } from 'bun:test';
import { parseJwkSet } from './jwk-set.ts';
import { MAX_KEY_CANDIDATES, selectKeys } from './select-key.ts';
import { generateTestKey } from './__fixtures__/test-support.ts';

const rsaA = await generateTestKey('RS256', 'a');
const rsaB = await generateTestKey('RS256', 'b');
const ec = await generateTestKey('ES256', 'e', { alg: undefined });

const kidsOf = (selection: ReturnType<typeof selectKeys>) => selection.candidates.map((key) => key.kid);

describe('selectKeys', () => {
  const set = parseJwkSet({ keys: [rsaA.jwk, rsaB.jwk, ec.jwk] });

  test('with a kid, only the keys carrying that kid are candidates', () => {
    expect(kidsOf(selectKeys(set, { alg: 'RS256', kid: 'b' }))).toEqual(['b']);
    expect(selectKeys(set, { alg: 'RS256', kid: 'b' }).kidKnown).toBe(true);
  });

  test('a known kid whose key does not fit the algorithm gives no candidate, and the kid counts as known', () => {
    const selection = selectKeys(set, { alg: 'ES256', kid: 'a' });
    expect(selection.candidates).toEqual([]);
    expect(selection.kidKnown).toBe(true);
  });

  test('an unknown kid gives no candidate and says so', () => {
    const selection = selectKeys(set, { alg: 'RS256', kid: 'zzz' });
    expect(selection.candidates).toEqual([]);
    expect(selection.kidKnown).toBe(false);
  });

  test('without a kid, every key fitting the algorithm is a candidate, in set order', () => {
    expect(kidsOf(selectKeys(set, { alg: 'RS256' }))).toEqual(['a', 'b']);
    expect(kidsOf(selectKeys(set, { alg: 'ES256' }))).toEqual(['e']);
    expect(selectKeys(set, { alg: 'EdDSA' }).candidates).toEqual([]);
    expect(selectKeys(set, { alg: 'RS256' }).kidKnown).toBe(true);
  });

  test('keys with the same kid but another type are told apart by the algorithm', () => {
    const shared = parseJwkSet({
      keys: [
        { ...rsaA.jwk, kid: 'same' },
        { ...ec.jwk, kid: 'same' },
      ],
    });
    expect(selectKeys(shared, { alg: 'ES256', kid: 'same' }).candidates.map((key) => key.kty)).toEqual([
      'EC',
    ]);
    expect(selectKeys(shared, { alg: 'RS256', kid: 'same' }).candidates.map((key) => key.kty)).toEqual([
      'RSA',
    ]);
  });

  test(`at most ${MAX_KEY_CANDIDATES} candidates are returned`, () => {
    const many = parseJwkSet({ keys: Array.from({ length: 30 }, (_, i) => ({ ...rsaA.jwk, kid: `k${i}` })) });
    expect(selectKeys(many, { alg: 'RS256' }).candidates).toHaveLength(MAX_KEY_CANDIDATES);
  });
});
