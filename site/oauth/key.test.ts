import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { decodeBase64Url, MIN_TOKEN_SECRET_BYTES, resolveTokenKey, TOKEN_SECRET_ENV } from './key.ts';

const encode = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const bytesOf = (length: number, fill = 7): Uint8Array => new Uint8Array(length).fill(fill);

describe('decodeBase64Url', () => {
  test('decodes what base64url encoding produced, for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(decodeBase64Url(encode(bytes))).toEqual(bytes);
      }),
      { numRuns: 500 },
    );
  });

  test('accepts the padded form too', () => {
    expect(decodeBase64Url('AQ==')).toEqual(new Uint8Array([1]));
    expect(decodeBase64Url('AQI=')).toEqual(new Uint8Array([1, 2]));
  });

  test('refuses standard-base64 characters, spaces and impossible lengths', () => {
    expect(decodeBase64Url('ab+/')).toBeUndefined();
    expect(decodeBase64Url('ab cd')).toBeUndefined();
    expect(decodeBase64Url('abcde')).toBeUndefined();
    expect(decodeBase64Url('AQ=')).toBeUndefined();
    expect(decodeBase64Url('A===')).toBeUndefined();
    expect(decodeBase64Url('AQ=A')).toBeUndefined();
  });
});

describe('resolveTokenKey', () => {
  test('decodes a base64url secret of 33 bytes', () => {
    const secret = bytesOf(33);
    const { key, generated } = resolveTokenKey({ secret: encode(secret), production: true });
    expect(key).toEqual(secret);
    expect(generated).toBe(false);
  });

  test('accepts exactly 32 bytes and ignores surrounding whitespace', () => {
    const secret = bytesOf(MIN_TOKEN_SECRET_BYTES, 9);
    expect(resolveTokenKey({ secret: `  ${encode(secret)}\n`, production: false }).key).toEqual(secret);
  });

  test('refuses a 31-byte secret, naming the variable and the minimum', () => {
    expect(() => resolveTokenKey({ secret: encode(bytesOf(31)), production: false })).toThrow(
      /SITE_TOKEN_SECRET decodes to 31 bytes; HS256 needs at least 32/,
    );
  });

  test('refuses a secret that is not base64url', () => {
    const standard = Buffer.from(new Uint8Array(33).fill(251)).toString('base64');
    expect(standard).toContain('+');
    expect(() => resolveTokenKey({ secret: standard, production: false })).toThrow(/not base64url/);
  });

  test('refuses to start in production without a secret', () => {
    expect(() => resolveTokenKey({ secret: undefined, production: true })).toThrow(
      new RegExp(`${TOKEN_SECRET_ENV} is not set`),
    );
    expect(() => resolveTokenKey({ secret: '  ', production: true })).toThrow(/is not set/);
  });

  test('generates a fresh random 32-byte key in development without a secret', () => {
    const a = resolveTokenKey({ secret: undefined, production: false });
    const b = resolveTokenKey({ secret: '', production: false });
    expect(a.generated).toBe(true);
    expect(b.generated).toBe(true);
    expect(a.key.length).toBe(32);
    expect(a.key).not.toEqual(b.key);
  });

  test('refuses malformed options with a TypeError naming the option', () => {
    expect(() => resolveTokenKey({ secret: undefined, production: 'yes' as never })).toThrow(/production/);
    expect(() => resolveTokenKey({ secret: 42 as never, production: false })).toThrow(/secret/);
  });
});
