import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { acceptIssue, acceptsExtension, acceptsType, mediaTypeEssence, parseAcceptList } from './accept.ts';

const tchar = fc.constantFrom(
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'+-.^_`|~",
);
const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
// A media type token; the first character is alphanumeric, as in every registered type (an entry starting
// with a dot is an extension).
const token = fc
  .tuple(alnum, fc.string({ unit: tchar, maxLength: 11 }))
  .map(([first, rest]) => `${first}${rest}`);
const word = fc.string({ unit: alnum, minLength: 1, maxLength: 8 });
const randomCase = (text: string, flips: boolean[]): string =>
  Array.from(text, (c, i) => (flips[i % flips.length] ? c.toUpperCase() : c.toLowerCase())).join('');

describe('parseAcceptList', () => {
  test('sorts media types, type/* wildcards and extensions, lower-casing them', () => {
    const list = parseAcceptList(['Image/PNG', 'text/*', '.JPG', '.tar.gz']);
    expect(list.types).toEqual(['image/png']);
    expect(list.wildcards).toEqual(['text/']);
    expect(list.extensions).toEqual(['.jpg', '.tar.gz']);
  });

  test('refuses an empty list, non-strings, parameters, */*, partial wildcards and bad extensions', () => {
    expect(() => parseAcceptList([])).toThrow(TypeError);
    expect(() => parseAcceptList('image/png')).toThrow(TypeError);
    expect(() => parseAcceptList([1])).toThrow('must be a string');
    expect(() => parseAcceptList(['text/plain; charset=utf-8'])).toThrow('RFC 9110 §8.3.1');
    expect(() => parseAcceptList(['*/*'])).toThrow('is not a media type');
    expect(() => parseAcceptList(['image/png*'])).toThrow('partial wildcard');
    expect(() => parseAcceptList(['image'])).toThrow('is not a media type');
    expect(() => parseAcceptList(['image/png/x'])).toThrow('is not a media type');
    expect(() => parseAcceptList(['im age/png'])).toThrow('is not a media type');
    expect(() => parseAcceptList(['.'])).toThrow('is not a file extension');
    expect(() => parseAcceptList(['.a/b'])).toThrow('is not a file extension');
    expect(() => parseAcceptList(['.png.'])).toThrow('is not a file extension');
  });
});

describe('mediaTypeEssence', () => {
  test('drops parameters and whitespace and lower-cases', () => {
    expect(mediaTypeEssence(' Text/Plain ; charset=UTF-8')).toBe('text/plain');
    expect(mediaTypeEssence('')).toBe('');
  });
});

describe('acceptsType', () => {
  test('matches exact types and wildcards case-insensitively, ignoring parameters (property)', () => {
    fc.assert(
      fc.property(token, token, fc.array(fc.boolean(), { minLength: 1 }), token, (top, sub, flips, param) => {
        const lower = `${top}/${sub}`.toLowerCase();
        const declared = `${randomCase(`${top}/${sub}`, flips)}; p=${param}`;
        expect(acceptsType(parseAcceptList([lower]), declared)).toBe(true);
        expect(acceptsType(parseAcceptList([`${top}/*`]), declared)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('does not match another type or a type sharing only a prefix (property)', () => {
    fc.assert(
      fc.property(token, token, token, (top, sub, other) => {
        fc.pre(other.toLowerCase() !== sub.toLowerCase());
        const list = parseAcceptList([`${top}/${sub}`]);
        expect(acceptsType(list, `${top}/${other}`)).toBe(false);
        // `image/*` never matches `imagex/...` nor the bare `image/`.
        expect(acceptsType(parseAcceptList([`${top}/*`]), `${top}x/${sub}`)).toBe(false);
        expect(acceptsType(parseAcceptList([`${top}/*`]), `${top}/`)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  test('an empty declared type matches nothing', () => {
    expect(acceptsType(parseAcceptList(['text/*']), '')).toBe(false);
  });
});

describe('acceptsExtension', () => {
  test('matches the end of the name case-insensitively (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), word, (stem, ext) => {
        const list = parseAcceptList([`.${ext}`]);
        expect(acceptsExtension(list, `${stem}.${ext.toUpperCase()}`)).toBe(true);
        expect(acceptsExtension(list, `${stem}.${ext.toLowerCase()}`)).toBe(true);
        expect(acceptsExtension(list, `${stem}.${ext}x`)).toBe(false);
        // Without the dot the name matches only when the stem brings one (and is more than the dot).
        expect(acceptsExtension(list, `${stem}${ext}`)).toBe(stem.endsWith('.') && stem.length > 1);
      }),
      { numRuns: 500 },
    );
  });

  test('a name that is only the extension (a hidden file) does not match', () => {
    expect(acceptsExtension(parseAcceptList(['.png']), '.png')).toBe(false);
    expect(acceptsExtension(parseAcceptList(['.png']), 'a.png')).toBe(true);
  });
});

describe('acceptIssue', () => {
  test('needs a media type match when types are listed and an extension match when extensions are', () => {
    const list = parseAcceptList(['image/png', '.png']);
    expect(acceptIssue(list, 'image/png', 'a.png')).toBeUndefined();
    expect(acceptIssue(list, 'text/html', 'a.png')).toBe(
      'The file has a media type not accepted; accepted: image/png',
    );
    expect(acceptIssue(list, '', 'a.png')).toBe('The file has no media type; accepted: image/png');
    expect(acceptIssue(list, 'image/png', 'a.html')).toBe(
      'The file name does not end with an accepted extension: .png',
    );
  });

  test('checks only the kinds the list names', () => {
    expect(acceptIssue(parseAcceptList(['.csv']), 'application/octet-stream', 'x.csv')).toBeUndefined();
    expect(acceptIssue(parseAcceptList(['text/*']), 'text/csv', 'no-extension')).toBeUndefined();
  });
});
