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
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
      { numRuns: 500 },
    );
  });
});
