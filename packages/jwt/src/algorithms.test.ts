import { describe, expect, test } from 'bun:test';
import {
  algorithmSpec,
  importParams,
  isJwtAlgorithm,
  isNoneAlgorithm,
  JWT_ALGORITHMS,
  type JwtAlgorithm,
  signParams,
} from './algorithms.ts';
import { encodeBase64Url } from './base64url.ts';
import { generateTestKeys } from './__fixtures__/test-keys.ts';

// Test vectors written from the RFCs, not from algorithms.ts: a wrong row there fails here.

/** What WebCrypto writes in an exported key: `alg` for oct and RSA keys, `crv` for EC (RFC 7518 §3.4) and OKP (RFC 8037 §3.1). */
const WEBCRYPTO_KEY_LABEL: Record<JwtAlgorithm, string> = {
  HS256: 'HS256',
  HS384: 'HS384',
  HS512: 'HS512',
  RS256: 'RS256',
  RS384: 'RS384',
  RS512: 'RS512',
  PS256: 'PS256',
  PS384: 'PS384',
  PS512: 'PS512',
  ES256: 'P-256',
  ES384: 'P-384',
  ES512: 'P-521',
  EdDSA: 'Ed25519',
};

/**
 * Signature sizes in bytes: the hash output for HMAC (RFC 7518 §3.2), the 2048-bit modulus of the test
 * key for RSA (§3.3, §3.5), R||S for ECDSA (§3.4), 64 for Ed25519 (RFC 8032 §5.1.6).
 */
const SIGNATURE_BYTES: Record<JwtAlgorithm, number> = {
  HS256: 32,
  HS384: 48,
  HS512: 64,
  RS256: 256,
  RS384: 256,
  RS512: 256,
  PS256: 256,
  PS384: 256,
  PS512: 256,
  ES256: 64,
  ES384: 96,
  ES512: 132,
  EdDSA: 64,
};

/** RFC 7515 Appendix A.1: the HMAC SHA-256 example, key, signing input and signature. */
const RFC_7515_A1 = {
  alg: 'HS256',
  key: {
    kty: 'oct',
    k: 'AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow',
  },
  input:
    'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9' +
    '.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ',
  signature: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
} as const;

/** RFC 8037 Appendix A.4: the Ed25519 example (A.1 key), signing input and signature. */
const RFC_8037_A4 = {
  alg: 'EdDSA',
  key: {
    kty: 'OKP',
    crv: 'Ed25519',
    d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
    x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  },
  input: 'eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc',
  signature: 'hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg',
} as const;

describe('algorithms', () => {
  test('lists the thirteen supported algorithms once each, frozen, and not none', () => {
    expect(JWT_ALGORITHMS.length).toBe(13);
    expect(new Set(JWT_ALGORITHMS).size).toBe(JWT_ALGORITHMS.length);
    expect(Object.isFrozen(JWT_ALGORITHMS)).toBe(true);
    for (const alg of JWT_ALGORITHMS) {
      expect(isNoneAlgorithm(alg)).toBe(false);
      expect(algorithmSpec(alg).alg).toBe(alg);
    }
  });

  test('signs each algorithm with the key WebCrypto names for it and the RFC signature size', async () => {
    const keys = await generateTestKeys();
    const input = new TextEncoder().encode('eyJhbGciOiJ4In0.e30');
    for (const alg of JWT_ALGORITHMS) {
      const spec = algorithmSpec(alg);
      const signKey = await crypto.subtle.importKey('jwk', keys[alg].privateJwk, importParams(spec), true, [
        'sign',
      ]);
      // WebCrypto labels an exported HMAC or RSA key with its JWS name, EC and OKP keys with their curve.
      const exported = await crypto.subtle.exportKey('jwk', signKey);
      expect(exported.alg ?? exported.crv).toBe(WEBCRYPTO_KEY_LABEL[alg]);
      const signature = await crypto.subtle.sign(signParams(spec), signKey, input);
      expect(signature.byteLength).toBe(SIGNATURE_BYTES[alg]);
      expect(await crypto.subtle.verify(signParams(spec), keys[alg].verifyKey, signature, input)).toBe(true);
    }
  });

  for (const [name, vector] of [
    ['the HS256 signature of RFC 7515 Appendix A.1', RFC_7515_A1],
    ['the Ed25519 signature of RFC 8037 Appendix A.4', RFC_8037_A4],
  ] as const) {
    test(`reproduces ${name}`, async () => {
      const spec = algorithmSpec(vector.alg);
      const key = await crypto.subtle.importKey('jwk', vector.key, importParams(spec), false, ['sign']);
      const input = new TextEncoder().encode(vector.input);
      const signature = await crypto.subtle.sign(signParams(spec), key, input);
      expect(encodeBase64Url(new Uint8Array(signature))).toBe(vector.signature);
    });
  }

  test('recognises algorithm names case-sensitively (RFC 7515 §4.1.1)', () => {
    for (const alg of JWT_ALGORITHMS) expect(isJwtAlgorithm(alg)).toBe(true);
    for (const bad of [
      'hs256',
      'Rs256',
      'none',
      'ES256K',
      'Ed25519',
      'toString',
      '__proto__',
      256,
      undefined,
    ]) {
      expect(isJwtAlgorithm(bad)).toBe(false);
    }
  });

  test('recognises none in any letter case', () => {
    for (const none of ['none', 'None', 'NONE', 'nOnE']) expect(isNoneAlgorithm(none)).toBe(true);
    for (const other of ['non', 'nonee', 'HS256', null]) expect(isNoneAlgorithm(other)).toBe(false);
  });

  test('maps each algorithm onto its WebCrypto family, hash and curve', () => {
    expect(importParams(algorithmSpec('HS384'))).toEqual({ name: 'HMAC', hash: 'SHA-384' });
    expect(importParams(algorithmSpec('RS512'))).toEqual({ name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' });
    expect(importParams(algorithmSpec('ES512'))).toEqual({ name: 'ECDSA', namedCurve: 'P-521' });
    expect(importParams(algorithmSpec('EdDSA'))).toEqual({ name: 'Ed25519' });
    expect(signParams(algorithmSpec('ES384'))).toEqual({ name: 'ECDSA', hash: 'SHA-384' });
    expect(signParams(algorithmSpec('HS256'))).toEqual({ name: 'HMAC' });
  });

  test('uses a PSS salt as long as the hash (RFC 7518 §3.5)', () => {
    expect(signParams(algorithmSpec('PS256'))).toEqual({ name: 'RSA-PSS', saltLength: 32 });
    expect(signParams(algorithmSpec('PS384'))).toEqual({ name: 'RSA-PSS', saltLength: 48 });
    expect(signParams(algorithmSpec('PS512'))).toEqual({ name: 'RSA-PSS', saltLength: 64 });
  });

  test('fixes the raw signature size of ECDSA and Ed25519 (RFC 7518 §3.4, RFC 8032)', () => {
    expect(algorithmSpec('ES256').signatureBytes).toBe(64);
    expect(algorithmSpec('ES384').signatureBytes).toBe(96);
    expect(algorithmSpec('ES512').signatureBytes).toBe(132);
    expect(algorithmSpec('EdDSA').signatureBytes).toBe(64);
    expect(algorithmSpec('RS256').signatureBytes).toBeUndefined();
  });
});
