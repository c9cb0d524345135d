import { describe, expect, test } from 'bun:test';
import {
  algorithmSpec,
  importParams,
  isJwtAlgorithm,
  isNoneAlgorithm,
  JWT_ALGORITHMS,
  signParams,
} from './algorithms.ts';

describe('algorithms', () => {
  test('lists the thirteen supported algorithms and not none', () => {
    expect([...JWT_ALGORITHMS]).toEqual([
      'HS256',
      'HS384',
      'HS512',
      'RS256',
      'RS384',
      'RS512',
      'PS256',
      'PS384',
      'PS512',
      'ES256',
      'ES384',
      'ES512',
      'EdDSA',
    ]);
    expect(Object.isFrozen(JWT_ALGORITHMS)).toBe(true);
  });

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
