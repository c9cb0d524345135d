import { beforeAll, describe, expect, spyOn, test } from 'bun:test';
import type { JwtAlgorithm } from './algorithms.ts';
import type { JwtErrorCode } from './errors.ts';
import { importJwtKey, importKeyFor, type JwtKeyInput, keyProblem } from './keys.ts';
import { generateTestKeys, type TestKeys } from './__fixtures__/test-keys.ts';

let keys: Record<JwtAlgorithm, TestKeys>;
let rsa1024: CryptoKeyPair;

beforeAll(async () => {
  keys = await generateTestKeys();
  rsa1024 = (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 1024,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
});

async function importCode(
  input: unknown,
  alg: JwtAlgorithm,
  usage: 'sign' | 'verify',
): Promise<JwtErrorCode | 'ok'> {
  try {
    await importJwtKey(input as JwtKeyInput, alg, usage);
    return 'ok';
  } catch (error) {
    return (error as { code: JwtErrorCode }).code;
  }
}

const bytes = (length: number): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(length));

describe('importJwtKey', () => {
  test('imports an HMAC secret of at least the hash size (RFC 7518 §3.2)', async () => {
    expect(await importCode(bytes(32), 'HS256', 'verify')).toBe('ok');
    expect(await importCode(bytes(31), 'HS256', 'verify')).toBe('invalid-key');
    expect(await importCode(bytes(48), 'HS384', 'sign')).toBe('ok');
    expect(await importCode(bytes(47), 'HS384', 'sign')).toBe('invalid-key');
    expect(await importCode(bytes(64), 'HS512', 'sign')).toBe('ok');
    expect(await importCode(bytes(63), 'HS512', 'sign')).toBe('invalid-key');
    expect(await importCode(new Uint8Array(0), 'HS256', 'sign')).toBe('invalid-key');
  });

  test('treats bytes as an HMAC secret only', async () => {
    for (const alg of ['RS256', 'PS256', 'ES256', 'EdDSA'] as const) {
      expect(await importCode(bytes(512), alg, 'verify')).toBe('invalid-key');
    }
    expect(keyProblem(bytes(512), 'RS256', 'verify')?.kind).toBe('mismatch');
  });

  test('imports an oct JWK and checks its size', async () => {
    expect(await importCode(keys.HS256.publicJwk, 'HS256', 'verify')).toBe('ok');
    const short = { kty: 'oct', k: Buffer.from(bytes(16)).toString('base64url') };
    expect(await importCode(short, 'HS256', 'verify')).toBe('invalid-key');
    expect(await importCode({ kty: 'oct' }, 'HS256', 'verify')).toBe('invalid-key');
    expect(await importCode({ kty: 'oct', k: 'not base64url!' }, 'HS256', 'verify')).toBe('invalid-key');
  });

  test('imports every algorithm from JWKs and CryptoKeys', async () => {
    for (const [alg, set] of Object.entries(keys) as Array<[JwtAlgorithm, TestKeys]>) {
      const signKey = await importJwtKey(set.privateJwk, alg, 'sign');
      const verifyKey = await importJwtKey(set.publicJwk, alg, 'verify');
      expect(signKey.usages).toEqual(['sign']);
      expect(verifyKey.usages).toEqual(['verify']);
      expect(await importJwtKey(set.signKey, alg, 'sign')).toBe(set.signKey);
      expect(await importJwtKey(set.verifyKey, alg, 'verify')).toBe(set.verifyKey);
    }
  });

  test('refuses RSA moduli under 2048 bits (RFC 7518 §3.3)', async () => {
    expect(await importCode(rsa1024.publicKey, 'RS256', 'verify')).toBe('invalid-key');
    const jwk = await crypto.subtle.exportKey('jwk', rsa1024.publicKey);
    expect(await importCode(jwk, 'RS256', 'verify')).toBe('invalid-key');
    expect(await importCode({ ...keys.RS256.publicJwk, n: 'AQAB' }, 'RS256', 'verify')).toBe('invalid-key');
  });

  test('uses one RSA JWK for any RS or PS hash, but a CryptoKey only for its own hash and scheme', async () => {
    for (const alg of ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] as const) {
      expect(await importCode(keys.RS256.publicJwk, alg, 'verify')).toBe('ok');
    }
    expect(await importCode(keys.RS256.verifyKey, 'RS384', 'verify')).toBe('invalid-key');
    expect(await importCode(keys.RS256.verifyKey, 'PS256', 'verify')).toBe('invalid-key');
    expect(keyProblem(keys.RS256.verifyKey, 'PS256', 'verify')?.kind).toBe('mismatch');
  });

  test('matches the EC curve to the algorithm', async () => {
    expect(await importCode(keys.ES256.publicJwk, 'ES256', 'verify')).toBe('ok');
    expect(await importCode(keys.ES256.publicJwk, 'ES384', 'verify')).toBe('invalid-key');
    expect(await importCode(keys.ES384.verifyKey, 'ES512', 'verify')).toBe('invalid-key');
    expect(keyProblem(keys.ES384.verifyKey, 'ES256', 'verify')?.message).toContain('P-384');
  });

  test('takes only Ed25519 keys for EdDSA', async () => {
    expect(await importCode(keys.EdDSA.publicJwk, 'EdDSA', 'verify')).toBe('ok');
    expect(await importCode({ ...keys.EdDSA.publicJwk, crv: 'Ed448' }, 'EdDSA', 'verify')).toBe(
      'invalid-key',
    );
    expect(await importCode(keys.ES256.publicJwk, 'EdDSA', 'verify')).toBe('invalid-key');
    expect(await importCode(keys.EdDSA.verifyKey, 'ES256', 'verify')).toBe('invalid-key');
  });

  test('honours the JWK alg and use members (RFC 7517 §4.2, §4.4)', async () => {
    expect(await importCode({ ...keys.ES256.publicJwk, alg: 'ES256', use: 'sig' }, 'ES256', 'verify')).toBe(
      'ok',
    );
    expect(await importCode({ ...keys.RS256.publicJwk, alg: 'RS256' }, 'PS256', 'verify')).toBe(
      'invalid-key',
    );
    expect(await importCode({ ...keys.ES256.publicJwk, use: 'enc' }, 'ES256', 'verify')).toBe('invalid-key');
    // WebCrypto exports Ed25519 keys with the RFC 9864 name.
    expect(await importCode({ ...keys.EdDSA.publicJwk, alg: 'Ed25519' }, 'EdDSA', 'verify')).toBe('ok');
  });

  test('honours key_ops', async () => {
    expect(await importCode({ ...keys.ES256.publicJwk, key_ops: ['verify'] }, 'ES256', 'verify')).toBe('ok');
    expect(await importCode({ ...keys.ES256.publicJwk, key_ops: ['encrypt'] }, 'ES256', 'verify')).toBe(
      'invalid-key',
    );
    expect(await importCode({ ...keys.ES256.privateJwk, key_ops: ['sign'] }, 'ES256', 'sign')).toBe('ok');
    expect(await importCode({ ...keys.ES256.privateJwk, key_ops: ['verify'] }, 'ES256', 'sign')).toBe(
      'invalid-key',
    );
  });

  test('refuses to sign with a public key', async () => {
    expect(await importCode(keys.ES256.publicJwk, 'ES256', 'sign')).toBe('invalid-key');
    expect(await importCode(keys.ES256.verifyKey, 'ES256', 'sign')).toBe('invalid-key');
    expect(await importCode(keys.RS256.publicJwk, 'RS256', 'sign')).toBe('invalid-key');
  });

  test('verifies with only the public half of a private JWK', async () => {
    for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
      const key = await importJwtKey(keys[alg].privateJwk, alg, 'verify');
      expect(key.type).toBe('public');
      expect(key.usages).toEqual(['verify']);
    }
  });

  test('verifies with the public half of an extractable private CryptoKey, never a non-extractable one', async () => {
    const key = await importJwtKey(keys.ES256.signKey, 'ES256', 'verify');
    expect(key.type).toBe('public');
    const hidden = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    expect(await importCode(hidden.privateKey, 'ES256', 'verify')).toBe('invalid-key');
  });

  test('refuses a CryptoKey whose usages do not allow the operation', async () => {
    const verifyOnly = await crypto.subtle.importKey(
      'raw',
      bytes(32),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    expect(await importCode(verifyOnly, 'HS256', 'verify')).toBe('ok');
    expect(await importCode(verifyOnly, 'HS256', 'sign')).toBe('invalid-key');
  });

  test('refuses a short HMAC CryptoKey and one bound to another hash', async () => {
    const short = await crypto.subtle.importKey('raw', bytes(16), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    expect(await importCode(short, 'HS256', 'verify')).toBe('invalid-key');
    expect(await importCode(keys.HS256.verifyKey, 'HS512', 'verify')).toBe('invalid-key');
  });

  test('refuses material WebCrypto cannot import, as invalid-key', async () => {
    const offCurve = { ...keys.ES256.publicJwk, x: keys.ES256.publicJwk.y };
    expect(await importCode(offCurve, 'ES256', 'verify')).toBe('invalid-key');
    expect(await importCode({ kty: 'EC', crv: 'P-256' }, 'ES256', 'verify')).toBe('invalid-key');
    expect(await importCode({ ...keys.RS256.privateJwk, oth: [] }, 'RS256', 'sign')).toBe('invalid-key');
  });

  test('refuses inputs that are no key at all, and unknown algorithms', async () => {
    for (const bad of ['a string secret', 42, null, undefined, [], {}, new ArrayBuffer(32)]) {
      expect(await importCode(bad, 'HS256', 'verify')).toBe('invalid-key');
    }
    expect(await importCode(bytes(32), 'none' as never, 'verify')).toBe('invalid-options');
    expect(await importCode(bytes(32), 'HS256', 'encrypt' as never)).toBe('invalid-options');
  });

  test('reports a key of another kind with the caller’s code (the verifier uses alg-not-allowed)', async () => {
    const attempt = importKeyFor(keys.RS256.publicJwk, 'HS256', 'verify', 'alg-not-allowed');
    await expect(attempt).rejects.toMatchObject({ code: 'alg-not-allowed' });
    const weak = importKeyFor(bytes(8), 'HS256', 'verify', 'alg-not-allowed');
    await expect(weak).rejects.toMatchObject({ code: 'invalid-key' });
  });

  test('imports a key object once per algorithm and usage', async () => {
    const jwk = { ...keys.ES256.publicJwk };
    const spy = spyOn(crypto.subtle, 'importKey');
    try {
      const first = await importJwtKey(jwk, 'ES256', 'verify');
      const second = await importJwtKey(jwk, 'ES256', 'verify');
      expect(second).toBe(first);
      expect(spy).toHaveBeenCalledTimes(1);
      await importJwtKey({ ...jwk }, 'ES256', 'verify');
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  test('does not cache a failed import', async () => {
    const jwk: JsonWebKey = { ...keys.ES256.publicJwk, x: keys.ES256.publicJwk.y };
    expect(await importCode(jwk, 'ES256', 'verify')).toBe('invalid-key');
    jwk.x = keys.ES256.publicJwk.x;
    expect(await importCode(jwk, 'ES256', 'verify')).toBe('ok');
  });
});
