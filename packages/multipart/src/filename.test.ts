import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { DEFAULT_FILENAME_MAX_LENGTH, filenameIssue, resolveFilenameRules } from './filename.ts';

const defaults = resolveFilenameRules(undefined);
const isControl = (code: number): boolean => code < 0x20 || (code >= 0x7f && code <= 0x9f);
/** The rule restated as a plain predicate, for the property tests to compare with. */
function acceptable(name: string): boolean {
  if (name === '' || name === '.' || name === '..') return false;
  return Array.from(name).every((c) => c !== '/' && c !== '\\' && !isControl(c.codePointAt(0) as number));
}

describe('resolveFilenameRules', () => {
  test('defaults maxLength to 255 and no pattern', () => {
    expect(defaults).toEqual({ maxLength: DEFAULT_FILENAME_MAX_LENGTH, pattern: undefined });
    expect(DEFAULT_FILENAME_MAX_LENGTH).toBe(255);
  });

  test('refuses a non-object, a bad maxLength and a stateful or non-RegExp pattern', () => {
    expect(() => resolveFilenameRules('x')).toThrow(TypeError);
    expect(() => resolveFilenameRules({ maxLength: 0 })).toThrow('filename.maxLength');
    expect(() => resolveFilenameRules({ maxLength: 1.5 })).toThrow(RangeError);
    expect(() => resolveFilenameRules({ pattern: '^a$' })).toThrow('filename.pattern must be a RegExp');
    expect(() => resolveFilenameRules({ pattern: /a/g })).toThrow('g or y flag');
    expect(() => resolveFilenameRules({ pattern: /a/y })).toThrow('g or y flag');
  });
});

describe('filenameIssue', () => {
  test('accepts ordinary names, Unicode included', () => {
    expect(filenameIssue('photo.png', defaults)).toBeUndefined();
    expect(filenameIssue('résumé 2026 (final).pdf', defaults)).toBeUndefined();
    expect(filenameIssue('...hidden', defaults)).toBeUndefined();
  });

  test('refuses empty, dot names, separators and control characters, without echoing the name', () => {
    expect(filenameIssue('', defaults)).toBe('The file has no name');
    expect(filenameIssue('.', defaults)).toBe('The file name must not be "." or ".."');
    expect(filenameIssue('..', defaults)).toBe('The file name must not be "." or ".."');
    expect(filenameIssue('../etc/passwd', defaults)).toContain('path separator');
    expect(filenameIssue('C:\\x.txt', defaults)).toContain('path separator');
    expect(filenameIssue('a\u0000.png', defaults)).toBe('The file name must not contain control characters');
    expect(filenameIssue('a\u007f', defaults)).toContain('control');
    expect(filenameIssue('a\u0085', defaults)).toContain('control');
  });

  test('counts code points against maxLength', () => {
    const rules = resolveFilenameRules({ maxLength: 3 });
    expect(filenameIssue('😀😀😀', rules)).toBeUndefined();
    expect(filenameIssue('abcd', rules)).toBe('The file name is longer than 3 characters');
    expect(filenameIssue('x'.repeat(255), defaults)).toBeUndefined();
    expect(filenameIssue('x'.repeat(256), defaults)).toContain('longer than 255');
  });

  test('applies the pattern to the whole name', () => {
    const rules = resolveFilenameRules({ pattern: /^[a-z0-9-]+\.png$/ });
    expect(filenameIssue('my-photo.png', rules)).toBeUndefined();
    expect(filenameIssue('My Photo.png', rules)).toBe('The file name does not match the required pattern');
  });

  test('agrees with the rule for any string (property)', () => {
    const chars = fc.oneof(
      fc.constantFrom('/', '\\', '.', '\u0000', '\u001f', '\u007f', '\u009f', 'a', 'é', '😀', ' '),
      fc.string({ unit: 'grapheme', maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 12 }), (parts) => {
        const name = parts.join('');
        expect(filenameIssue(name, defaults) === undefined).toBe(acceptable(name));
      }),
      { numRuns: 1000 },
    );
  });

  test('never accepts a name containing a separator anywhere (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('/', '\\'), fc.string(), (before, sep, after) => {
        expect(filenameIssue(`${before}${sep}${after}`, defaults)).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });
});
