import { describe, expect, test } from 'bun:test';
import {
  assertStrongSecret,
  MIN_PROD_SECRET_BYTES,
  randomId,
  timingSafeEqual,
  WeakSecretError,
} from './tokens.ts';
import { encodeBase64Url } from './base64.ts';

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

function weakReason(value: string | Uint8Array | undefined, production = true): string {
  try {
    assertStrongSecret(value, 'SESSION_SECRET', { production });
  } catch (error) {
    expect(error).toBeInstanceOf(WeakSecretError);
    const weak = error as WeakSecretError;
    expect(weak.message).toContain('SESSION_SECRET');
    expect(weak.where).toBe('SESSION_SECRET');
    if (typeof value === 'string' && value.length >= 8) expect(weak.message).not.toContain(value);
    return weak.reason;
  }
  throw new Error('expected a throw');
}

describe('timingSafeEqual', () => {
  test('is true for equal strings and equal bytes', () => {
    expect(timingSafeEqual('token-abc', 'token-abc')).toBe(true);
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(timingSafeEqual('', '')).toBe(true);
  });

  test('compares a string with bytes as UTF-8', () => {
    expect(timingSafeEqual('h\u00e9', new Uint8Array([0x68, 0xc3, 0xa9]))).toBe(true);
  });

  test('is false for any differing byte, first or last', () => {
    expect(timingSafeEqual('token-abc', 'token-abd')).toBe(false);
    expect(timingSafeEqual('xoken-abc', 'token-abc')).toBe(false);
  });

  test('is false for different lengths, including a prefix and a zero-padded copy', () => {
    expect(timingSafeEqual('token', 'token-abc')).toBe(false);
    expect(timingSafeEqual('', 'a')).toBe(false);
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
  });
});

describe('randomId', () => {
  test('gives 16 random bytes as 22 base64url characters by default', () => {
    const id = randomId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomId()).not.toBe(id);
  });

  test('honours byteLength without padding', () => {
    expect(randomId(1)).toHaveLength(2);
    expect(randomId(32)).toHaveLength(43);
    expect(randomId(33)).toMatch(/^[A-Za-z0-9_-]{44}$/);
  });

  test('throws a RangeError for a byteLength that is not an integer from 1 to 65536', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 65537]) expect(() => randomId(bad)).toThrow(RangeError);
    expect(randomId(65536).length).toBeGreaterThan(80_000);
  });
});

describe('encodeBase64Url', () => {
  test('matches RFC 4648 test vectors in the URL alphabet without padding', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [input, output] of vectors)
      expect(encodeBase64Url(new TextEncoder().encode(input))).toBe(output);
    expect(encodeBase64Url(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe('-_-_');
  });
});

describe('assertStrongSecret', () => {
  test('accepts a random 32-byte secret in production, as text or bytes', () => {
    expect(MIN_PROD_SECRET_BYTES).toBe(32);
    expect(() => assertStrongSecret(randomId(32), 'k', { production: true })).not.toThrow();
    expect(() => assertStrongSecret(randomHex(16), 'k', { production: true })).not.toThrow();
    expect(() =>
      assertStrongSecret(crypto.getRandomValues(new Uint8Array(32)), 'k', { production: true }),
    ).not.toThrow();
  });

  test('refuses a missing or empty secret', () => {
    expect(weakReason(undefined)).toBe('missing');
    expect(weakReason('')).toBe('missing');
    expect(weakReason(new Uint8Array(0))).toBe('missing');
  });

  test('refuses fewer than 32 bytes in production and fewer than 16 elsewhere', () => {
    const twenty = randomHex(10);
    expect(weakReason(twenty, true)).toBe('too-short');
    expect(() => assertStrongSecret(twenty, 'k', { production: false })).not.toThrow();
    expect(weakReason(randomHex(7), false)).toBe('too-short');
  });

  test('says how long the secret is and how long it must be, never what it is', () => {
    try {
      assertStrongSecret('abcdefghij0123456789', 'JWT key', { production: true });
    } catch (error) {
      expect((error as Error).message).toContain(
        'JWT key is 20 bytes; at least 32 are required in production',
      );
      return;
    }
    throw new Error('expected a throw');
  });

  test('refuses a repeated character or a short repeated pattern', () => {
    expect(weakReason('a'.repeat(64))).toBe('low-entropy');
    expect(weakReason('ab12'.repeat(16))).toBe('low-entropy');
    expect(weakReason('k7Qp9Zx2'.repeat(5))).toBe('low-entropy');
    expect(weakReason(new Uint8Array(32).fill(7))).toBe('low-entropy');
  });

  test('refuses few distinct characters and runs of consecutive characters', () => {
    expect(weakReason(`${'0'.repeat(20)}1${'0'.repeat(5)}12${'0'.repeat(8)}3`)).toBe('low-entropy');
    expect(weakReason('abcdefghijklmnopqrstuvwxyz0123456789')).toBe('low-entropy');
    expect(weakReason('zyxwvutsrqponmlkjihgfedcba9876543210')).toBe('low-entropy');
  });

  test('refuses well-known placeholders, however padded or spelled', () => {
    expect(weakReason('changeme')).toBe('placeholder');
    expect(weakReason('Change-Me')).toBe('placeholder');
    expect(weakReason('secret')).toBe('placeholder');
    expect(weakReason('password')).toBe('placeholder');
    expect(weakReason('keyboard cat')).toBe('placeholder');
    expect(weakReason('your-super-secret-key-please-changeme-in-prod-7f3a')).toBe('placeholder');
  });

  test('defaults to the production floor when NODE_ENV is production', () => {
    const previous = process.env.NODE_ENV;
    try {
      process.env.NODE_ENV = 'production';
      expect(() => assertStrongSecret(randomHex(10), 'k')).toThrow(WeakSecretError);
      process.env.NODE_ENV = 'development';
      expect(() => assertStrongSecret(randomHex(10), 'k')).not.toThrow();
    } finally {
      process.env.NODE_ENV = previous;
    }
  });

  test('is a plain Error, not an HTTP error', () => {
    let caught: unknown;
    try {
      assertStrongSecret('', 'k');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as { status?: number }).status).toBeUndefined();
    expect((caught as Error).name).toBe('WeakSecretError');
  });
});
