import { describe, expect, test } from 'bun:test';
import { BadRequestError, encodeBase64Url } from '@charter/core';
import fc from 'fast-check';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { MAX_CURSOR_LENGTH } from './limits.ts';

/** A token spelling exactly these bytes, as a forger would write one. */
function tokenOfBytes(bytes: number[]): string {
  return encodeBase64Url(new Uint8Array(bytes));
}

/** A token of this JSON text, bypassing encodeCursor's checks. */
function tokenOfText(text: string): string {
  return encodeBase64Url(new TextEncoder().encode(text));
}

function badRequest(token: string): BadRequestError {
  try {
    decodeCursor(token);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return error as BadRequestError;
  }
  throw new Error('decodeCursor did not throw');
}

describe('encodeCursor', () => {
  test('writes the UTF-8 JSON of the value in base64url without padding', () => {
    expect(encodeCursor({ id: 1 })).toBe(tokenOfText('{"id":1}'));
    expect(encodeCursor('é')).toBe(tokenOfText('"é"'));
    expect(encodeCursor(null)).toBe('bnVsbA');
  });

  test('writes only base64url characters', () => {
    expect(encodeCursor({ text: '>>>???' })).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  test('turns a Date into its ISO string, as JSON does', () => {
    const at = new Date('2024-01-02T03:04:05.000Z');
    expect(decodeCursor(encodeCursor({ at }))).toEqual({ at: '2024-01-02T03:04:05.000Z' });
  });

  test('leaves out an object property whose value is undefined', () => {
    expect(decodeCursor(encodeCursor({ a: 1, b: undefined }))).toEqual({ a: 1 });
  });

  test('accepts objects without a prototype', () => {
    const value = Object.assign(Object.create(null) as object, { a: 1 });
    expect(decodeCursor(encodeCursor(value))).toEqual({ a: 1 });
  });

  const refused: Array<[string, unknown, string]> = [
    ['undefined', undefined, 'the value is undefined'],
    ['a function', () => 1, 'is a function'],
    ['a symbol', Symbol('s'), 'is a symbol'],
    ['a bigint', 10n, 'is a bigint'],
    ['a nested bigint', { n: 10n }, 'the value at key "n" is a bigint'],
    ['a nested function', { f: () => 1 }, 'the value at key "f" is a function'],
    ['undefined in an array', [1, undefined], 'is undefined'],
    ['a function in an array', [() => 1], 'is a function'],
    ['NaN', { n: Number.NaN }, 'is NaN'],
    ['Infinity', [Number.POSITIVE_INFINITY], 'is Infinity'],
    ['a Map', { m: new Map([[1, 2]]) }, 'is a Map'],
    ['a Set', new Set([1]), 'is a Set'],
    ['a typed array', new Uint8Array(2), 'is a Uint8Array'],
    ['a __proto__ key', JSON.parse('{"__proto__":{"admin":true}}'), 'the key "__proto__"'],
    ['a constructor key', { a: { constructor: 1 } }, 'the key "constructor"'],
    ['a prototype key', [{ prototype: null }], 'the key "prototype"'],
  ];
  for (const [name, value, message] of refused) {
    test(`throws a TypeError for ${name}`, () => {
      expect(() => encodeCursor(value)).toThrow(TypeError);
      expect(() => encodeCursor(value)).toThrow(message);
    });
  }

  test('throws a TypeError for a cycle', () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    expect(() => encodeCursor(value)).toThrow(TypeError);
    expect(() => encodeCursor(value)).toThrow('not JSON-serialisable');
  });

  test('wraps an error thrown by a toJSON method', () => {
    const value = {
      toJSON() {
        throw new Error('boom');
      },
    };
    expect(() => encodeCursor(value)).toThrow('encodeCursor: the value is not JSON-serialisable: boom');
  });

  test('accepts a token of exactly MAX_CURSOR_LENGTH characters', () => {
    // 3070 characters of text plus two quotes: 3072 bytes, 4096 base64url characters.
    const token = encodeCursor('a'.repeat(3070));
    expect(token.length).toBe(MAX_CURSOR_LENGTH);
  });

  test('throws a TypeError when the token would pass MAX_CURSOR_LENGTH', () => {
    expect(() => encodeCursor('a'.repeat(3071))).toThrow(TypeError);
    expect(() => encodeCursor('a'.repeat(3071))).toThrow('over MAX_CURSOR_LENGTH (4096)');
  });
});

describe('decodeCursor', () => {
  test('reads back what encodeCursor wrote', () => {
    const value = { after: 'id-42', at: 1700000000, tags: ['a', 'ü'], nested: { ok: true, none: null } };
    expect(decodeCursor<typeof value>(encodeCursor(value))).toEqual(value);
  });

  test('reads a token of exactly MAX_CURSOR_LENGTH characters', () => {
    expect(decodeCursor(encodeCursor('a'.repeat(3070)))).toBe('a'.repeat(3070));
  });

  test('refuses a token longer than MAX_CURSOR_LENGTH before decoding it', () => {
    expect(badRequest('A'.repeat(MAX_CURSOR_LENGTH + 1)).detail).toBe(
      'The cursor is longer than 4096 characters',
    );
  });

  test('refuses an empty token', () => {
    expect(badRequest('').detail).toBe('The cursor is empty');
  });

  test('refuses characters outside base64url, naming the position only', () => {
    const error = badRequest('eyJh+IjoxfQ');
    expect(error.detail).toBe(
      'The cursor is not valid base64url: the character at position 5 is outside the alphabet',
    );
    expect(badRequest('abc/').detail).toContain('position 4');
    expect(badRequest('ab c').detail).toContain('position 3');
    expect(badRequest('abcé').detail).toContain('position 4');
  });

  test('refuses padding', () => {
    expect(badRequest(`${encodeCursor(1)}==`).detail).toContain('padding');
    expect(badRequest('bnVsbA==').detail).toContain('padding');
  });

  test('refuses an impossible length', () => {
    expect(badRequest('bnVsb').detail).toBe('The cursor is not valid base64url: its length is impossible');
  });

  test('refuses a non-canonical last character', () => {
    // 'bnVsbA' spells "null"; 'bnVsbB' sets an unused low bit of the last character.
    expect(badRequest('bnVsbB').detail).toBe(
      'The cursor is not valid base64url: its last character is not canonical',
    );
  });

  test('refuses bytes that are not UTF-8', () => {
    expect(badRequest(tokenOfBytes([0x22, 0xff, 0x22])).detail).toBe('The cursor is not valid UTF-8');
    expect(badRequest(tokenOfBytes([0x22, 0xed, 0xa0, 0x80, 0x22])).detail).toBe(
      'The cursor is not valid UTF-8',
    );
  });

  test('refuses text that is not JSON, without echoing it', () => {
    const error = badRequest(tokenOfText('{"secret-looking-text":'));
    expect(error.detail).toBe('The cursor is not valid JSON');
    expect(error.message).not.toContain('secret');
  });

  test('refuses a leading byte order mark (a second spelling of the same cursor)', () => {
    expect(badRequest(tokenOfBytes([0xef, 0xbb, 0xbf, 0x31])).detail).toBe('The cursor is not valid JSON');
  });

  test('answers with status 400', () => {
    expect(badRequest('!').status).toBe(400);
  });

  test('throws a TypeError for a token that is not a string', () => {
    expect(() => decodeCursor(undefined as never)).toThrow(TypeError);
    expect(() => decodeCursor(['a'] as never)).toThrow('must be a string');
  });

  test('strips a __proto__ key and never pollutes a prototype', () => {
    const value = decodeCursor<Record<string, unknown>>(tokenOfText('{"__proto__":{"admin":true},"id":1}'));
    expect(value).toEqual({ id: 1 });
    expect(Object.hasOwn(value, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as { admin?: unknown }).admin).toBeUndefined();
    expect((value as { admin?: unknown }).admin).toBeUndefined();
  });

  test('strips a top-level object made only of a __proto__ key down to {}', () => {
    const value = decodeCursor<object>(tokenOfText('{"__proto__":{"admin":true}}'));
    expect(Object.keys(value)).toEqual([]);
    expect((value as { admin?: unknown }).admin).toBeUndefined();
  });

  test('strips constructor and prototype keys at every depth', () => {
    const text = '{"a":{"constructor":{"prototype":{"x":1}},"b":[{"prototype":2,"c":3}]},"constructor":0}';
    expect(decodeCursor(tokenOfText(text))).toEqual({ a: { b: [{ c: 3 }] } });
  });

  test('strips keys spelled with escapes too', () => {
    expect(decodeCursor(tokenOfText('{"\\u005f_proto__":{"x":1},"k":2}'))).toEqual({ k: 2 });
  });

  test('keeps array elements and string values that look like the forbidden keys', () => {
    expect(decodeCursor(tokenOfText('{"k":["__proto__","constructor"]}'))).toEqual({
      k: ['__proto__', 'constructor'],
    });
  });
});

describe('cursor properties', () => {
  const hasForbiddenKey = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null) return false;
    if (Array.isArray(value)) return value.some(hasForbiddenKey);
    return Object.entries(value).some(
      ([key, inner]) =>
        key === '__proto__' || key === 'constructor' || key === 'prototype' || hasForbiddenKey(inner),
    );
  };

  test('decode(encode(value)) gives back any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        fc.pre(!hasForbiddenKey(value));
        let token: string;
        try {
          token = encodeCursor(value);
        } catch (error) {
          // Only the size cap may refuse a JSON value.
          return error instanceof TypeError && error.message.includes('MAX_CURSOR_LENGTH');
        }
        // JSON turns -0 into 0; compare with what JSON itself gives back.
        expect(decodeCursor(token)).toEqual(JSON.parse(JSON.stringify(value)));
        return /^[A-Za-z0-9_-]*$/.test(token) && token.length <= MAX_CURSOR_LENGTH;
      }),
      { numRuns: 500 },
    );
  });

  test('decode never throws anything but a BadRequestError for any string', () => {
    const alphabet = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ é\n',
    );
    const strings = fc.oneof(
      fc.string({ maxLength: 64 }),
      fc.string({ unit: 'binary', maxLength: 64 }),
      fc.string({ unit: alphabet, maxLength: 64 }),
      fc.uint8Array({ maxLength: 48 }).map((bytes) => encodeBase64Url(bytes)),
      fc.jsonValue().map((value) => tokenOfText(JSON.stringify(value))),
    );
    fc.assert(
      fc.property(strings, (token) => {
        try {
          decodeCursor(token);
          return true;
        } catch (error) {
          return error instanceof BadRequestError && error.status === 400;
        }
      }),
      { numRuns: 1000 },
    );
  });
});
