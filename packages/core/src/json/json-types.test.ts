import { describe, expect, test } from 'bun:test';
import { isJsonObject, matchesJsonType } from './json-types.ts';

describe('isJsonObject', () => {
  test('accepts what JSON.parse makes and null-prototype records', () => {
    expect(isJsonObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject(Object.create(null))).toBe(true);
  });

  test('refuses arrays, null, primitives and objects with no JSON object form', () => {
    for (const value of [[], null, 'x', 1, true, undefined, new Date(0), new Map(), new (class Point {})()]) {
      expect(isJsonObject(value)).toBe(false);
    }
  });
});

describe('matchesJsonType', () => {
  test('matches each JSON Schema type name (Validation §6.1.1)', () => {
    expect(matchesJsonType('null', null)).toBe(true);
    expect(matchesJsonType('boolean', false)).toBe(true);
    expect(matchesJsonType('string', '')).toBe(true);
    expect(matchesJsonType('number', 1.5)).toBe(true);
    expect(matchesJsonType('integer', 2)).toBe(true);
    expect(matchesJsonType('array', [])).toBe(true);
    expect(matchesJsonType('object', {})).toBe(true);
  });

  test('counts an integer as a number and 2.0 as an integer, never a non-finite number', () => {
    expect(matchesJsonType('number', 3)).toBe(true);
    expect(matchesJsonType('integer', 2.0)).toBe(true);
    expect(matchesJsonType('integer', 2.5)).toBe(false);
    expect(matchesJsonType('number', Number.NaN)).toBe(false);
    expect(matchesJsonType('number', Number.POSITIVE_INFINITY)).toBe(false);
    expect(matchesJsonType('integer', '2')).toBe(false);
  });

  test('refuses the wrong type, a non-JSON object and an unknown name', () => {
    expect(matchesJsonType('null', undefined)).toBe(false);
    expect(matchesJsonType('object', [])).toBe(false);
    expect(matchesJsonType('object', null)).toBe(false);
    expect(matchesJsonType('object', new Date(0))).toBe(false);
    expect(matchesJsonType('array', {})).toBe(false);
    expect(matchesJsonType('string', 1)).toBe(false);
    expect(matchesJsonType('any', 1)).toBe(false);
    expect(matchesJsonType(undefined, 1)).toBe(false);
  });
});
