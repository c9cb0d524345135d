import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { decodeBase64Url, decodeBase64UrlText, encodeBase64Url, encodeBase64UrlText } from './base64url.ts';

describe('base64url', () => {
  test('encodes the RFC 4648 §10 test vectors without padding', () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of vectors) {
      expect(encodeBase64UrlText(text)).toBe(encoded);
      expect(decodeBase64UrlText(encoded)).toBe(text);
    }
  });

  test('uses the URL-safe alphabet', () => {
    expect(encodeBase64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(decodeBase64Url('-_8')).toEqual(new Uint8Array([0xfb, 0xff]));
  });

  test('round-trips any bytes and agrees with Buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const encoded = encodeBase64Url(bytes);
        expect(encoded).toBe(Buffer.from(bytes).toString('base64url'));
        expect(decodeBase64Url(encoded)).toEqual(bytes);
      }),
      { numRuns: 500 },
    );
  });

  test('refuses padding, the standard alphabet, whitespace and non-ASCII', () => {
    for (const bad of ['Zg==', 'Zm9v+', 'Zm9v/', 'Zm9 v', 'Zm9v\n', 'Zm9vé', '=']) {
      expect(decodeBase64Url(bad)).toBeUndefined();
    }
  });

  test('refuses a length that leaves a lone character', () => {
    expect(decodeBase64Url('Zm9vY')).toBeUndefined();
    expect(decodeBase64Url('Zm9vYg')).toEqual(new TextEncoder().encode('foob'));
  });

  test('refuses non-zero unused bits, so each byte string has one spelling', () => {
    // "Zg" is "f"; "Zh" carries the same byte with a stray low bit.
    expect(decodeBase64Url('Zg')).toEqual(new Uint8Array([0x66]));
    expect(decodeBase64Url('Zh')).toBeUndefined();
    expect(decodeBase64Url('Zm8')).toEqual(new TextEncoder().encode('fo'));
    expect(decodeBase64Url('Zm9')).toBeUndefined();
  });

  test('accepts only canonical spellings (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'AZaz09-_Zg'.split('')), maxLength: 40 }), (text) => {
        const bytes = decodeBase64Url(text);
        if (bytes !== undefined) expect(encodeBase64Url(bytes)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  test('decodes text strictly as UTF-8', () => {
    expect(decodeBase64UrlText(encodeBase64UrlText('héllo ✓'))).toBe('héllo ✓');
    expect(decodeBase64UrlText(encodeBase64Url(new Uint8Array([0xc3, 0x28])))).toBeUndefined();
    expect(decodeBase64UrlText('!!')).toBeUndefined();
  });
});
