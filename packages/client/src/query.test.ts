import { describe, expect, test } from 'bun:test';
import { buildQuery } from './query.ts';

describe('buildQuery', () => {
  test('serialises scalars, repeats arrays and leaves undefined out', () => {
    expect(
      buildQuery('op', {
        a: 'x y',
        n: 2,
        b: false,
        tags: ['1', 2],
        none: undefined,
        sparse: ['a', undefined],
      }),
    ).toBe('a=x+y&n=2&b=false&tags=1&tags=2&sparse=a');
  });

  test('sends Dates as ISO 8601 text and gives an empty string for nothing', () => {
    expect(buildQuery('op', { at: new Date(Date.UTC(2020, 1, 3)) })).toBe('at=2020-02-03T00%3A00%3A00.000Z');
    expect(buildQuery('op', undefined)).toBe('');
    expect(buildQuery('op', {})).toBe('');
  });

  test('refuses values that have no query form', () => {
    expect(() => buildQuery('list', { q: null })).toThrow('list: query parameter "q" must be a string');
    expect(() => buildQuery('list', { q: { a: 1 } })).toThrow('got object');
    expect(() => buildQuery('list', { q: Symbol('s') })).toThrow('got symbol');
    expect(() => buildQuery('list', { q: 1n })).toThrow('got bigint');
    expect(() => buildQuery('list', { q: [[1]] })).toThrow('nested array');
    expect(() => buildQuery('list', { q: Number.NaN })).toThrow('not a finite number');
    expect(() => buildQuery('list', { q: new Date('nope') })).toThrow('invalid Date');
    expect(() => buildQuery('list', ['a'])).toThrow('query must be an object');
    expect(() => buildQuery('list', 'a=1')).toThrow('query must be an object');
  });
});
