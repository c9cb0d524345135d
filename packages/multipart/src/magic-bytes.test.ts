import { describe, expect, test } from 'bun:test';
import { FILE_SIGNATURES, matchesSignature, resolveMagicBytes, signaturesFor } from './magic-bytes.ts';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

describe('resolveMagicBytes', () => {
  test('takes a list of signatures (arrays or Uint8Arrays) and reads as many bytes as the longest', () => {
    const magic = resolveMagicBytes([FILE_SIGNATURES.png, bytes(0xff, 0xd8, 0xff)]);
    expect(magic.any?.length).toBe(2);
    expect(magic.byType).toBeUndefined();
    expect(magic.length).toBe(8);
  });

  test('takes signatures by media type, keys lower-cased', () => {
    const magic = resolveMagicBytes({
      'Image/PNG': [FILE_SIGNATURES.png],
      'image/webp': [FILE_SIGNATURES.webp],
    });
    expect(magic.any).toBeUndefined();
    expect([...(magic.byType?.keys() ?? [])]).toEqual(['image/png', 'image/webp']);
    expect(magic.length).toBe(12);
  });

  test('refuses empty lists, non-bytes, all-wildcard signatures and bad keys', () => {
    expect(() => resolveMagicBytes([])).toThrow('non-empty array of signatures');
    expect(() => resolveMagicBytes('89504e47')).toThrow(TypeError);
    expect(() => resolveMagicBytes([[]])).toThrow('magicBytes[0] must not be empty');
    expect(() => resolveMagicBytes([[256]])).toThrow('not a byte value');
    expect(() => resolveMagicBytes([[-1]])).toThrow(RangeError);
    expect(() => resolveMagicBytes([[1.5]])).toThrow(RangeError);
    expect(() => resolveMagicBytes([[null, null]])).toThrow('at least one byte');
    expect(() => resolveMagicBytes([{}])).toThrow(TypeError);
    expect(() => resolveMagicBytes({})).toThrow('at least one media type');
    expect(() => resolveMagicBytes({ 'image/*': [FILE_SIGNATURES.png] })).toThrow('must be a media type');
    expect(() => resolveMagicBytes({ png: [FILE_SIGNATURES.png] })).toThrow('must be a media type');
    expect(() => resolveMagicBytes({ 'image/png': [] })).toThrow('magicBytes["image/png"]');
  });
});

describe('matchesSignature', () => {
  test('matches a prefix, null positions matching any byte', () => {
    const webp = bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50, 0);
    expect(matchesSignature(webp, FILE_SIGNATURES.webp)).toBe(true);
    expect(matchesSignature(bytes(0x89, 0x50), FILE_SIGNATURES.png)).toBe(false);
    expect(matchesSignature(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b), FILE_SIGNATURES.png)).toBe(
      false,
    );
    expect(matchesSignature(new TextEncoder().encode('%PDF-1.7'), FILE_SIGNATURES.pdf)).toBe(true);
  });
});

describe('signaturesFor', () => {
  test('gives the list form for any type and the keyed form only for its types', () => {
    const list = resolveMagicBytes([FILE_SIGNATURES.gif89a]);
    expect(signaturesFor(list, 'text/plain')).toEqual([FILE_SIGNATURES.gif89a]);
    const keyed = resolveMagicBytes({ 'image/gif': [FILE_SIGNATURES.gif87a, FILE_SIGNATURES.gif89a] });
    expect(signaturesFor(keyed, 'image/gif')?.length).toBe(2);
    expect(signaturesFor(keyed, 'image/png')).toBeUndefined();
  });
});
