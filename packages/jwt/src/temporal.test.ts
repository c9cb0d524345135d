import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { JwtErrorCode } from './errors.ts';
import {
  assertTemporalClaims,
  DEFAULT_MAX_LIFETIME_SECONDS,
  type TemporalClaimsOptions,
} from './temporal.ts';

const NOW = 1_700_000_000;

function codeOf(claims: Record<string, unknown>, opts: TemporalClaimsOptions = {}): JwtErrorCode | undefined {
  try {
    assertTemporalClaims(claims, { now: NOW, ...opts });
    return undefined;
  } catch (error) {
    return (error as { code: JwtErrorCode }).code;
  }
}

describe('assertTemporalClaims', () => {
  test('accepts a token inside its validity window', () => {
    expect(codeOf({ iat: NOW - 10, nbf: NOW - 10, exp: NOW + 10 })).toBeUndefined();
  });

  test('missing-exp: refuses a token without exp unless requireExp is false', () => {
    expect(codeOf({ iat: NOW })).toBe('missing-exp');
    expect(codeOf({ iat: NOW }, { requireExp: false })).toBeUndefined();
  });

  test('expired: refuses on and after exp (RFC 7519 §4.1.4)', () => {
    expect(codeOf({ exp: NOW })).toBe('expired');
    expect(codeOf({ exp: NOW - 1 })).toBe('expired');
    expect(codeOf({ exp: NOW + 1 })).toBeUndefined();
    expect(codeOf({ exp: NOW + 0.5 })).toBeUndefined();
  });

  test('expired: the clock skew extends exp', () => {
    expect(codeOf({ exp: NOW - 5 }, { clockSkewSeconds: 5 })).toBe('expired');
    expect(codeOf({ exp: NOW - 5 }, { clockSkewSeconds: 6 })).toBeUndefined();
  });

  test('not-before: refuses before nbf, accepts from nbf on (RFC 7519 §4.1.5)', () => {
    expect(codeOf({ nbf: NOW + 1, exp: NOW + 60 })).toBe('not-before');
    expect(codeOf({ nbf: NOW, exp: NOW + 60 })).toBeUndefined();
    expect(codeOf({ nbf: NOW + 1, exp: NOW + 60 }, { clockSkewSeconds: 1 })).toBeUndefined();
    expect(codeOf({ nbf: NOW + 2, exp: NOW + 60 }, { clockSkewSeconds: 1 })).toBe('not-before');
  });

  test('issued-in-future: refuses iat after now plus skew', () => {
    expect(codeOf({ iat: NOW + 1, exp: NOW + 60 })).toBe('issued-in-future');
    expect(codeOf({ iat: NOW, exp: NOW + 60 })).toBeUndefined();
    expect(codeOf({ iat: NOW + 30, exp: NOW + 60 }, { clockSkewSeconds: 30 })).toBeUndefined();
    expect(codeOf({ iat: NOW + 31, exp: NOW + 60 }, { clockSkewSeconds: 30 })).toBe('issued-in-future');
  });

  test('invalid-exp, invalid-nbf, invalid-iat: a present claim must be a finite number (RFC 7519 §2)', () => {
    for (const bad of ['1700000060', null, Number.NaN, Number.POSITIVE_INFINITY, true, [NOW], {}]) {
      expect(codeOf({ exp: bad })).toBe('invalid-exp');
      expect(codeOf({ nbf: bad, exp: NOW + 60 })).toBe('invalid-nbf');
      expect(codeOf({ iat: bad, exp: NOW + 60 })).toBe('invalid-iat');
    }
    expect(codeOf({ nbf: NOW - 1.5, iat: NOW - 1.5, exp: NOW + 60.25 })).toBeUndefined();
  });

  test('lifetime-too-long: exp - iat over 30 days is refused, exactly 30 days accepted', () => {
    expect(DEFAULT_MAX_LIFETIME_SECONDS).toBe(2592000);
    expect(codeOf({ iat: NOW, exp: NOW + 2592000 })).toBeUndefined();
    expect(codeOf({ iat: NOW, exp: NOW + 2592001 })).toBe('lifetime-too-long');
  });

  test('lifetime-too-long: without iat the lifetime counts from now', () => {
    expect(codeOf({ exp: NOW + 2592000 })).toBeUndefined();
    expect(codeOf({ exp: NOW + 2592001 })).toBe('lifetime-too-long');
    // An old iat makes a long-lived token visible even when little time is left.
    expect(codeOf({ iat: NOW - 2592000, exp: NOW + 1 })).toBe('lifetime-too-long');
  });

  test('lifetime-too-long: maxLifetimeSeconds lowers the cap and Infinity removes it', () => {
    expect(codeOf({ iat: NOW, exp: NOW + 3600 }, { maxLifetimeSeconds: 3599 })).toBe('lifetime-too-long');
    expect(codeOf({ iat: NOW, exp: NOW + 3600 }, { maxLifetimeSeconds: 3600 })).toBeUndefined();
    expect(
      codeOf({ iat: NOW, exp: NOW + 10 * 365 * 86400 }, { maxLifetimeSeconds: Infinity }),
    ).toBeUndefined();
  });

  test('reports type errors before time errors', () => {
    expect(codeOf({ exp: NOW - 10, iat: 'yesterday' })).toBe('invalid-iat');
    expect(codeOf({ exp: 'soon' }, { requireExp: true })).toBe('invalid-exp');
  });

  test('defaults now to the clock', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(() => assertTemporalClaims({ exp: now + 60 })).not.toThrow();
    expect(() => assertTemporalClaims({ exp: now - 60 })).toThrow(
      expect.objectContaining({ code: 'expired' }),
    );
  });

  test('refuses bad options naming them', () => {
    const claims = { exp: NOW + 60 };
    expect(codeOf(claims, { clockSkewSeconds: -1 })).toBe('invalid-options');
    expect(codeOf(claims, { clockSkewSeconds: Number.NaN })).toBe('invalid-options');
    expect(codeOf(claims, { maxLifetimeSeconds: 0 })).toBe('invalid-options');
    expect(codeOf(claims, { now: Number.NaN })).toBe('invalid-options');
    expect(codeOf(claims, { requireExp: 'yes' as never })).toBe('invalid-options');
    expect(() => assertTemporalClaims(claims, { clockSkewSeconds: -1 })).toThrow(/clockSkewSeconds/);
  });

  test('expired exactly when now >= exp + skew (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 300 }), (offset, skew) => {
        const exp = NOW + offset;
        const code = codeOf({ exp }, { clockSkewSeconds: skew });
        expect(code === 'expired').toBe(NOW >= exp + skew);
      }),
      { numRuns: 500 },
    );
  });
});
