import { describe, expect, test } from 'bun:test';
import { BadRequestError } from '../errors/index.ts';
import { isForbiddenObjectKey, safeJsonParse } from './safe-json.ts';

describe('safeJsonParse', () => {
  test('parses ordinary JSON, including words like "constructor" in values', () => {
    expect(safeJsonParse('{"a":[1,{"b":"constructor"}]}')).toEqual({ a: [1, { b: 'constructor' }] });
    expect(safeJsonParse(new TextEncoder().encode('[1,2]'))).toEqual([1, 2]);
  });

  for (const key of ['__proto__', 'constructor', 'prototype']) {
    test(`refuses the key "${key}" at any depth`, () => {
      expect(() => safeJsonParse(`{"a":{"${key}":{"x":1}}}`)).toThrow(BadRequestError);
      expect(() => safeJsonParse(`[{"${key}":1}]`)).toThrow(/forbidden key/);
    });
  }

  test('refuses a forbidden key spelled with \\u escapes', () => {
    expect(() => safeJsonParse('{"__pro\\u0074o__":{"polluted":true}}')).toThrow(/forbidden key "__proto__"/);
  });

  test('answers malformed JSON with a 400', () => {
    try {
      safeJsonParse('{"a":');
      throw new Error('expected a throw');
    } catch (error) {
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).status).toBe(400);
    }
  });

  test('isForbiddenObjectKey names exactly the three keys', () => {
    expect(['__proto__', 'constructor', 'prototype', 'proto', 'a'].map(isForbiddenObjectKey)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('safeJsonParse nesting', () => {
  const nested = (depth: number, inner: string) => `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

  test('refuses a forbidden key hidden below the scan depth instead of missing it', () => {
    expect(() => safeJsonParse(nested(513, '{"__proto__":{"polluted":1}}'))).toThrow(
      /nested deeper than 512/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('accepts deep documents that mention no forbidden key', () => {
    expect(safeJsonParse(nested(600, '1'))).toBeDefined();
  });
});
