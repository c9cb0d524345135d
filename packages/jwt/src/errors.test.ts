import { describe, expect, test } from 'bun:test';
import { isJwtError, JWT_ERROR_CODES, JwtError } from './errors.ts';

describe('JwtError', () => {
  test('carries its code, name and cause', () => {
    const cause = new Error('inner');
    const error = new JwtError('expired', 'The token has expired', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('expired');
    expect(error.name).toBe('JwtError');
    expect(error.message).toBe('The token has expired');
    expect(error.cause).toBe(cause);
  });

  test('isJwtError tells JwtErrors apart, optionally by code', () => {
    const error = new JwtError('malformed', 'x');
    expect(isJwtError(error)).toBe(true);
    expect(isJwtError(error, 'malformed')).toBe(true);
    expect(isJwtError(error, 'expired')).toBe(false);
    expect(isJwtError(Object.assign(new Error('x'), { code: 'malformed' }))).toBe(false);
  });

  test('lists every code once, the eight temporal codes included', () => {
    expect(new Set(JWT_ERROR_CODES).size).toBe(JWT_ERROR_CODES.length);
    for (const code of [
      'missing-exp',
      'expired',
      'not-before',
      'issued-in-future',
      'invalid-exp',
      'invalid-nbf',
      'invalid-iat',
      'lifetime-too-long',
      'malformed',
      'alg-none',
      'alg-not-allowed',
      'crit-unsupported',
      'unknown-kid',
      'invalid-signature',
      'invalid-issuer',
      'invalid-audience',
      'invalid-typ',
      'invalid-key',
      'invalid-options',
    ]) {
      expect(JWT_ERROR_CODES).toContain(code as never);
    }
    expect(JWT_ERROR_CODES.length).toBe(19);
  });
});
