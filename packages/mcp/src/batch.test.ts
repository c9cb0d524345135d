import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { utf8Length } from './batch.ts';

describe('utf8Length', () => {
  test('counts 1 to 4 bytes per code point, a lone surrogate as U+FFFD', () => {
    expect(utf8Length('')).toBe(0);
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(utf8Length('\uD800')).toBe(3);
    expect(utf8Length('\uDC00x')).toBe(4);
  });

  test('property: agrees with TextEncoder on any string', () => {
    fc.assert(
      // Any UTF-16 code units, lone surrogates included (fast-check's own unit generators are slow here).
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 64 }), (units) => {
        const text = String.fromCharCode(...units);
        return utf8Length(text) === new TextEncoder().encode(text).length;
      }),
      { numRuns: 300 },
    );
  });
});
