import { describe, expect, test } from 'bun:test';
import { App, bearer, isCredentialRejection, type Logger } from '@charter/core';
import {
  isJwtError,
  JWT_ERROR_CODES,
  JwtError,
  type JwtErrorCode,
  type JwtTemporalErrorCode,
} from './errors.ts';

// Expected behaviour per code, not a copy of errors.ts: `Record<JwtErrorCode, ...>` makes tsc fail
// when a code is added to or dropped from the union without a decision here.

/** What `bearer({ verify })` answers when `verify` throws a JwtError with this code (RFC 6750 §3.1). */
const BEARER_OUTCOME: Record<JwtErrorCode, 401 | 500> = {
  'missing-exp': 401,
  expired: 401,
  'not-before': 401,
  'issued-in-future': 401,
  'invalid-exp': 401,
  'invalid-nbf': 401,
  'invalid-iat': 401,
  'lifetime-too-long': 401,
  malformed: 401,
  'alg-none': 401,
  'alg-not-allowed': 401,
  'crit-unsupported': 401,
  'unknown-kid': 401,
  'invalid-signature': 401,
  'invalid-issuer': 401,
  'invalid-audience': 401,
  'invalid-typ': 401,
  // A misconfigured signer or verifier is the server's fault, not the token's.
  'invalid-key': 500,
  'invalid-options': 500,
};

/** The RFC 7519 claim each temporal code is about. */
const TEMPORAL_CLAIM: Record<JwtTemporalErrorCode, 'exp' | 'nbf' | 'iat'> = {
  'missing-exp': 'exp', // §4.1.4
  expired: 'exp',
  'invalid-exp': 'exp',
  'lifetime-too-long': 'exp',
  'not-before': 'nbf', // §4.1.5
  'invalid-nbf': 'nbf',
  'issued-in-future': 'iat', // §4.1.6
  'invalid-iat': 'iat',
};

const ignore = (): void => {};
const SILENT: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };

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

  test('lists every code once, frozen, the eight temporal codes included', () => {
    expect(new Set(JWT_ERROR_CODES).size).toBe(JWT_ERROR_CODES.length);
    expect(Object.isFrozen(JWT_ERROR_CODES)).toBe(true);
    // Both directions: the Record keys are checked against the JwtErrorCode union by tsc.
    expect<string[]>([...JWT_ERROR_CODES].sort()).toEqual(Object.keys(BEARER_OUTCOME).sort());
    for (const code of Object.keys(TEMPORAL_CLAIM)) expect(JWT_ERROR_CODES).toContain(code as JwtErrorCode);
    expect(Object.keys(TEMPORAL_CLAIM).length).toBe(8);
    expect(JWT_ERROR_CODES.length).toBe(19);
  });

  test('marks refused tokens as credential rejections and misconfiguration as not', () => {
    for (const code of JWT_ERROR_CODES) {
      expect(isCredentialRejection(new JwtError(code, 'x'))).toBe(BEARER_OUTCOME[code] === 401);
    }
  });

  test('bearer({ verify }) answers 401 invalid_token for a refused token, 500 for a misconfigured verifier (RFC 6750 §3.1)', async () => {
    for (const code of JWT_ERROR_CODES) {
      const app = new App({ logger: SILENT });
      const verify = async (): Promise<never> => {
        throw new JwtError(code, 'refused');
      };
      app.get('/me', { responses: { 200: {} }, hooks: bearer({ verify }) }, () => ({ status: 200 }));
      const response = await app.request('/me', { headers: { authorization: 'Bearer abc' } });
      expect({ code, status: response.status }).toEqual({ code, status: BEARER_OUTCOME[code] });
      const challenge = response.headers.get('www-authenticate');
      if (BEARER_OUTCOME[code] === 401) expect(challenge).toContain('error="invalid_token"');
      else expect(challenge).toBeNull();
    }
  });
});
