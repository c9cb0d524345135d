import { describe, expect, test } from 'bun:test';
import { isJwkSetShape, JwkSetError, MAX_JWKS_KEYS, parseJwkSet } from './jwk-set.ts';
import { generateTestKey, privateJwkOf } from './__fixtures__/test-support.ts';

const rsa = await generateTestKey('RS256', 'r1');
const ec = await generateTestKey('ES256', 'e1');
const ed = await generateTestKey('EdDSA', 'd1');

describe('parseJwkSet', () => {
  test('keeps RSA, EC and OKP keys with only their public members', () => {
    const set = parseJwkSet({ keys: [{ ...rsa.jwk, x5c: ['MIIB'] }, ec.jwk, ed.jwk] });
    expect(set.keys.map((key) => [key.kid, key.kty])).toEqual([
      ['r1', 'RSA'],
      ['e1', 'EC'],
      ['d1', 'OKP'],
    ]);
    expect(Object.keys(set.keys[0]?.jwk ?? {}).sort()).toEqual(['e', 'kty', 'n']);
    expect(Object.keys(set.keys[1]?.jwk ?? {}).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(Object.keys(set.keys[2]?.jwk ?? {}).sort()).toEqual(['crv', 'kty', 'x']);
    expect([...set.kids]).toEqual(['r1', 'e1', 'd1']);
  });

  test('refuses values that are not a set', () => {
    for (const value of [null, [], 'keys', { keys: 'x' }, { keys: {} }, {}]) {
      expect(() => parseJwkSet(value)).toThrow(JwkSetError);
    }
  });

  test(`refuses a set with more than ${MAX_JWKS_KEYS} keys`, () => {
    const keys = Array.from({ length: MAX_JWKS_KEYS + 1 }, () => rsa.jwk);
    expect(() => parseJwkSet({ keys })).toThrow(/more than 100/);
    expect(parseJwkSet({ keys: keys.slice(1) }).keys).toHaveLength(MAX_JWKS_KEYS);
  });

  test('refuses a set that publishes a private key member', async () => {
    expect(() => parseJwkSet({ keys: [ec.jwk, { ...(ec.jwk as object), d: 'secret' }] })).toThrow(
      /key #1 .*private member "d"/,
    );
    const privateRsa = await privateJwkOf(rsa);
    expect(() => parseJwkSet({ keys: [privateRsa] })).toThrow(/private member/);
  });

  test('ignores symmetric, unknown and incomplete keys, and non-object entries, without failing', () => {
    const set = parseJwkSet({
      keys: [
        { kty: 'oct', k: 'c2VjcmV0', kid: 'hmac' },
        { kty: 'PQC', kid: 'future', pub: 'abc' },
        { kty: 'RSA', kid: 'no-n', e: 'AQAB' },
        { kty: 'EC', kid: 'no-y', crv: 'P-256', x: 'abc' },
        { ...rsa.jwk, kid: 42 },
        'garbage',
        null,
        rsa.jwk,
      ],
    });
    expect(set.keys.map((key) => key.kid)).toEqual(['r1']);
    // Kids of keys that cannot be used still count as known: a refetch would not help them.
    expect(set.kids.has('hmac')).toBe(true);
    expect(set.kids.has('future')).toBe(true);
  });

  test('ignores keys meant for encryption or whose key_ops exclude verify', () => {
    const set = parseJwkSet({
      keys: [
        { ...rsa.jwk, kid: 'enc', use: 'enc' },
        { ...rsa.jwk, kid: 'ops', use: undefined, key_ops: ['encrypt'] },
        { ...rsa.jwk, kid: 'bad-ops', key_ops: 'verify' },
        { ...rsa.jwk, kid: 'ok-ops', use: undefined, key_ops: ['verify'] },
        { ...rsa.jwk, kid: 'no-use', use: undefined },
      ],
    });
    expect(set.keys.map((key) => key.kid)).toEqual(['ok-ops', 'no-use']);
  });
});

describe('ParsedJwk.fits', () => {
  const [r, e, d] = parseJwkSet({ keys: [{ ...rsa.jwk, alg: undefined }, ec.jwk, ed.jwk] }).keys;

  test('an RSA key without alg fits every RS and PS algorithm and nothing else', () => {
    for (const alg of ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']) expect(r?.fits(alg)).toBe(true);
    for (const alg of ['ES256', 'EdDSA', 'HS256', 'none']) expect(r?.fits(alg)).toBe(false);
  });

  test("a key's own alg must equal the token's", () => {
    expect(e?.fits('ES256')).toBe(true);
    const [other] = parseJwkSet({ keys: [{ ...rsa.jwk, alg: 'PS256' }] }).keys;
    expect(other?.fits('RS256')).toBe(false);
    expect(other?.fits('PS256')).toBe(true);
  });

  test('the curve must match the EC algorithm, and OKP keys fit EdDSA on Ed25519 only', () => {
    expect(e?.fits('ES384')).toBe(false);
    const [p384] = parseJwkSet({ keys: [{ ...ec.jwk, alg: undefined, crv: 'P-384' }] }).keys;
    expect(p384?.fits('ES384')).toBe(true);
    expect(p384?.fits('ES256')).toBe(false);
    expect(d?.fits('EdDSA')).toBe(true);
    const [fullySpecified] = parseJwkSet({ keys: [{ ...ed.jwk, alg: 'Ed25519' }] }).keys;
    expect(fullySpecified?.fits('EdDSA')).toBe(true);
    expect(fullySpecified?.fits('ES256')).toBe(false);
    const [ed448] = parseJwkSet({ keys: [{ ...ed.jwk, crv: 'Ed448' }] }).keys;
    expect(ed448?.fits('EdDSA')).toBe(false);
  });
});

describe('isJwkSetShape', () => {
  test('tells a set from a single key', () => {
    expect(isJwkSetShape({ keys: [] })).toBe(true);
    expect(isJwkSetShape(rsa.jwk)).toBe(false);
    expect(isJwkSetShape(null)).toBe(false);
  });
});
