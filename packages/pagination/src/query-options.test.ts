import { describe, expect, test } from 'bun:test';
import { type PaginationQueryOptions, resolvePaginationQueryOptions } from './query-options.ts';

describe('resolvePaginationQueryOptions', () => {
  test('fills the spec defaults: cursor, limit, 20, 1, 100', () => {
    expect(resolvePaginationQueryOptions()).toEqual({
      cursorParam: 'cursor',
      limitParam: 'limit',
      defaultLimit: 20,
      minLimit: 1,
      maxLimit: 100,
    });
  });

  test('returns a frozen object', () => {
    expect(Object.isFrozen(resolvePaginationQueryOptions({}))).toBe(true);
  });

  test('keeps the options it is given', () => {
    expect(
      resolvePaginationQueryOptions({
        cursorParam: 'after',
        limitParam: 'per_page',
        defaultLimit: 30,
        minLimit: 5,
        maxLimit: 50,
      }),
    ).toEqual({ cursorParam: 'after', limitParam: 'per_page', defaultLimit: 30, minLimit: 5, maxLimit: 50 });
  });

  test('defaults defaultLimit to maxLimit when maxLimit is below 20', () => {
    expect(resolvePaginationQueryOptions({ maxLimit: 10 }).defaultLimit).toBe(10);
  });

  test('defaults defaultLimit to 20 when maxLimit is above 20', () => {
    expect(resolvePaginationQueryOptions({ maxLimit: 500 }).defaultLimit).toBe(20);
  });

  test('accepts minLimit = defaultLimit = maxLimit', () => {
    expect(resolvePaginationQueryOptions({ minLimit: 7, defaultLimit: 7, maxLimit: 7 }).defaultLimit).toBe(7);
  });

  test('refuses options that are not an object', () => {
    expect(() => resolvePaginationQueryOptions(null as never)).toThrow(TypeError);
    expect(() => resolvePaginationQueryOptions([] as never)).toThrow('options must be an object');
  });

  const typeErrors: Array<[string, PaginationQueryOptions<string, string>]> = [
    ['minLimit', { minLimit: 1.5 }],
    ['maxLimit', { maxLimit: Number.NaN }],
    ['defaultLimit', { defaultLimit: '10' as never }],
    ['maxLimit', { maxLimit: Number.POSITIVE_INFINITY }],
    ['cursorParam', { cursorParam: 5 as never }],
    ['limitParam', { limitParam: null as never }],
  ];
  for (const [option, options] of typeErrors) {
    test(`throws a TypeError naming ${option} for ${JSON.stringify(options)}`, () => {
      expect(() => resolvePaginationQueryOptions(options)).toThrow(TypeError);
      expect(() => resolvePaginationQueryOptions(options)).toThrow(option);
    });
  }

  const rangeErrors: Array<[string, PaginationQueryOptions<string, string>]> = [
    ['minLimit', { minLimit: 0 }],
    ['minLimit', { minLimit: -3 }],
    ['maxLimit', { minLimit: 10, maxLimit: 5 }],
    ['defaultLimit', { defaultLimit: 0 }],
    ['defaultLimit', { defaultLimit: 101 }],
    ['defaultLimit', { minLimit: 30 }],
    ['cursorParam', { cursorParam: '' }],
    ['limitParam', { limitParam: '' }],
    ['limitParam', { limitParam: '__proto__' }],
    ['cursorParam and limitParam', { cursorParam: 'page', limitParam: 'page' }],
  ];
  for (const [option, options] of rangeErrors) {
    test(`throws a RangeError naming ${option} for ${JSON.stringify(options)}`, () => {
      expect(() => resolvePaginationQueryOptions(options)).toThrow(RangeError);
      expect(() => resolvePaginationQueryOptions(options)).toThrow(option);
    });
  }

  test('says to set defaultLimit when the default would fall below minLimit', () => {
    expect(() => resolvePaginationQueryOptions({ minLimit: 30 })).toThrow('set defaultLimit');
  });
});
