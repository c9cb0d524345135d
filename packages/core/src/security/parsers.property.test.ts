import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { BadRequestError } from '../errors/index.ts';
import { parseCookieHeader, readRequestCookie, serializeCookie } from './cookies.ts';
import { assertSafeRelativePath, MAX_FILENAME_BYTES, sanitizeFilename } from './filenames.ts';

const RUNS = { numRuns: 500 };

const TCHARS = [..."!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"];
const cookieName = fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 16 });
// Any code point but lone surrogates, which no cookie value can carry.
const cookieValue = fc.string({ unit: 'binary', maxLength: 40 });

/** The `name=value` pair of a Set-Cookie, as a browser sends it back in Cookie. */
const pairOf = (name: string, value: string): string => serializeCookie(name, value).split(';')[0] as string;

describe('cookie parser and serializer (properties)', () => {
  test('a serialised value reads back unchanged, among other cookies', () => {
    fc.assert(
      fc.property(
        cookieName,
        cookieValue,
        fc.array(fc.tuple(cookieName, cookieValue), { maxLength: 4 }),
        (name, value, others) => {
          const rest = others.filter(([other]) => other !== name).map(([n, v]) => pairOf(n, v));
          const header = [...rest, pairOf(name, value)].join('; ');
          expect(readRequestCookie(header, name)).toBe(value);
          expect(parseCookieHeader(header).get(name)).toEqual([value]);
        },
      ),
      RUNS,
    );
  });

  test('a name sent twice reads as null, and the map keeps both values in order', () => {
    fc.assert(
      fc.property(cookieName, cookieValue, cookieValue, cookieName, (name, first, second, other) => {
        fc.pre(other !== name);
        const header = `${pairOf(name, first)}; ${pairOf(other, 'x')}; ${pairOf(name, second)}`;
        expect(readRequestCookie(header, name)).toBeNull();
        expect(parseCookieHeader(header).get(name)).toEqual([first, second]);
      }),
      RUNS,
    );
  });

  test('never throws on arbitrary header text, lone surrogates and stray escapes included', () => {
    const noisy = fc.string({
      unit: fc.oneof(
        fc.constantFrom(';', '=', '%', '"', ' ', '\t', '%E0', '%zz', '\uD800', 'a'),
        fc.string({ unit: 'binary', maxLength: 1 }),
      ),
      maxLength: 60,
    });
    fc.assert(
      fc.property(noisy, cookieName, (header, name) => {
        const cookies = parseCookieHeader(header);
        for (const [key, values] of cookies) {
          expect(key).not.toBe('');
          expect(key.includes(';') || key.includes('=')).toBe(false);
          expect(values.length).toBeGreaterThan(0);
        }
        const read = readRequestCookie(header, name);
        expect(read === null || typeof read === 'string').toBe(true);
        if (read !== null) expect(cookies.get(name)).toEqual([read]);
      }),
      RUNS,
    );
  });
});

// Units biased toward what a sanitiser must handle, mixed with any code point.
const hostileUnit = fc.oneof(
  fc.constantFrom(
    '.',
    '..',
    '/',
    '\\',
    ' ',
    ':',
    '\u0000',
    '\r\n',
    '\u202E',
    '\u2066',
    '\u200B',
    '\uFEFF',
    '\u00AD',
  ),
  fc.constantFrom('CON', 'nul', 'Com1', 'LPT\u00b9', '\uD800', '\uDC00', '\u{1F600}', '\u00e9', '\u65e5'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const hostileName = fc.oneof(
  fc.string({ unit: hostileUnit, maxLength: 40 }),
  fc.string({ unit: hostileUnit, minLength: 100, maxLength: 300 }),
);
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
const DEVICE =
  /^(?:CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])$/i;

describe('sanitizeFilename (properties)', () => {
  test('the result is a single safe, visible, non-empty name of at most 255 UTF-8 bytes', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        const out = sanitizeFilename(name);
        expect(out.length).toBeGreaterThan(0);
        expect(out.includes('/') || out.includes('\\')).toBe(false);
        expect(out.startsWith('.')).toBe(false);
        expect(/^[.\s]*$/.test(out)).toBe(false);
        expect(INVISIBLE_OR_CONTROL.test(out)).toBe(false);
        expect(new TextEncoder().encode(out).length).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
        expect(/[.\s]$/.test(out)).toBe(false);
        expect(DEVICE.test(out.split('.')[0]?.trimEnd() ?? '')).toBe(false);
      }),
      RUNS,
    );
  });

  test('is idempotent', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        const once = sanitizeFilename(name);
        expect(sanitizeFilename(once)).toBe(once);
      }),
      RUNS,
    );
  });
});

const safeSegment = fc.stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,11}$/);
const separator = fc.constantFrom('/', '\\');

function joinWith(segments: readonly string[], separators: readonly string[]): string {
  return segments.reduce(
    (path, segment, i) => (i === 0 ? segment : `${path}${separators[i % separators.length]}${segment}`),
    '',
  );
}

describe('assertSafeRelativePath (properties)', () => {
  test('accepts any join of safe segments with either separator', () => {
    fc.assert(
      fc.property(
        fc.array(safeSegment, { minLength: 1, maxLength: 6 }),
        fc.array(separator, { minLength: 1, maxLength: 6 }),
        (segments, seps) => {
          expect(() => assertSafeRelativePath(joinWith(segments, seps))).not.toThrow();
        },
      ),
      RUNS,
    );
  });

  test('refuses any path with a ".." segment, wherever it sits', () => {
    fc.assert(
      fc.property(
        fc.array(safeSegment, { maxLength: 5 }),
        fc.nat(),
        fc.array(separator, { minLength: 1, maxLength: 6 }),
        (segments, at, seps) => {
          const withDots = [...segments];
          withDots.splice(at % (segments.length + 1), 0, '..');
          expect(() => assertSafeRelativePath(joinWith(withDots, seps))).toThrow(BadRequestError);
        },
      ),
      RUNS,
    );
  });

  test('refuses every absolute form', () => {
    const absolute = fc.constantFrom(
      '/',
      '\\',
      '\\\\server\\share\\',
      '//server/share/',
      'C:\\',
      'c:/',
      'Z:',
    );
    fc.assert(
      fc.property(
        absolute,
        fc.array(safeSegment, { minLength: 1, maxLength: 4 }),
        separator,
        (prefix, segments, sep) => {
          expect(() => assertSafeRelativePath(prefix + segments.join(sep))).toThrow(BadRequestError);
        },
      ),
      RUNS,
    );
  });
});
