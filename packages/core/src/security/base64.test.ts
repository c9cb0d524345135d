import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { decodeBase64, decodeBase64Url, encodeBase64 } from './base64.ts';

describe('encodeBase64 and decodeBase64', () => {
  test('round-trip any bytes in both alphabets, padded or not, agreeing with the platform codec', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const padded = Buffer.from(bytes).toString('base64');
        expect(encodeBase64(bytes, 'base64', { pad: true })).toBe(padded);
        expect(encodeBase64(bytes)).toBe(padded.replace(/=+$/, ''));
        expect(encodeBase64(bytes, 'base64url')).toBe(Buffer.from(bytes).toString('base64url'));
        expect(decodeBase64(padded, 'base64', { padded: true })).toEqual(bytes);
        expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
        expect(decodeBase64Url(encodeBase64(bytes, 'base64url'))).toEqual(bytes);
      }),
      { numRuns: 500 },
    );
  });

  test('refuses the other alphabet, padding where none is asked, and missing padding where it is', () => {
    expect(decodeBase64('-_8', 'base64')).toBeUndefined();
    expect(decodeBase64('+/8', 'base64url')).toBeUndefined();
    expect(decodeBase64('QQ==')).toBeUndefined();
    expect(decodeBase64('QQ', 'base64', { padded: true })).toBeUndefined();
    expect(decodeBase64('QQ==', 'base64', { padded: true })).toEqual(new Uint8Array([0x41]));
  });

  test('refuses impossible lengths, non-canonical last characters, whitespace and non-ASCII', () => {
    for (const text of ['A', 'AAAAA', 'QR', 'QUF=', 'QR==', ' QQ', 'QQ\n', 'Q\u00e9']) {
      expect(decodeBase64(text)).toBeUndefined();
      expect(decodeBase64(text, 'base64', { padded: true })).toBeUndefined();
    }
    expect(decodeBase64('A===', 'base64', { padded: true })).toBeUndefined();
  });
});
