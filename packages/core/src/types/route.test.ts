import { describe, expect, test } from 'bun:test';
import { exampleValue, isExampleObject } from './route.ts';

describe('isExampleObject', () => {
  test('an object with only Example Object members and a value or externalValue is one', () => {
    expect(isExampleObject({ value: 1 })).toBe(true);
    expect(isExampleObject({ summary: 's', description: 'd', value: { a: 1 } })).toBe(true);
    expect(isExampleObject({ externalValue: 'https://example.com/x.json' })).toBe(true);
    expect(isExampleObject({ value: null, 'x-note': 'kept' })).toBe(true);
  });

  test('a value that happens to have a value member, an array or a scalar is not one', () => {
    expect(isExampleObject({ value: 3, unit: 'kg' })).toBe(false);
    expect(isExampleObject({ summary: 'no value' })).toBe(false);
    expect(isExampleObject([{ value: 1 }])).toBe(false);
    expect(isExampleObject('value')).toBe(false);
    expect(isExampleObject(null)).toBe(false);
  });

  test('exampleValue unwraps an Example Object and keeps anything else as it is', () => {
    expect(exampleValue({ summary: 'one', value: 1 })).toBe(1);
    expect(exampleValue({ value: 3, unit: 'kg' })).toEqual({ value: 3, unit: 'kg' });
    expect(exampleValue(7)).toBe(7);
  });
});
