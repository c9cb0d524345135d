import { describe, expect, test } from 'bun:test';
import { parseJsonObject } from './json.ts';

describe('parseJsonObject', () => {
  test('parses a JSON object', () => {
    expect(parseJsonObject('{"alg":"HS256","n":[1,{"a":2}],"s":"}{,\\""}')).toEqual({
      alg: 'HS256',
      n: [1, { a: 2 }],
      s: '}{,"',
    });
  });

  test('refuses text that is not JSON, or JSON that is not an object', () => {
    expect(parseJsonObject('{alg:1}')).toBe('is not valid JSON');
    expect(parseJsonObject('')).toBe('is not valid JSON');
    for (const text of ['[]', 'null', '"x"', '1', 'true'])
      expect(parseJsonObject(text)).toBe('is not a JSON object');
  });

  test('refuses a member name repeated in one object (RFC 7515 §4)', () => {
    expect(parseJsonObject('{"alg":"RS256","alg":"HS256"}')).toBe('repeats the member "alg"');
    expect(parseJsonObject('{"a":{"b":1,"b":2}}')).toBe('repeats the member "b"');
    expect(parseJsonObject('{"a":[{"b":1,"c":{},"b":2}]}')).toBe('repeats the member "b"');
  });

  test('sees a repeat spelled with escapes', () => {
    expect(parseJsonObject('{"alg":"RS256","\\u0061lg":"HS256"}')).toBe('repeats the member "alg"');
  });

  test('allows the same name in different objects and as a value', () => {
    expect(parseJsonObject('{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":"a"}')).toEqual({
      a: { a: 1 },
      b: [{ a: 2 }, { a: 3 }],
      c: 'a',
    });
    expect(parseJsonObject('{"k":["k","k"],"v":{"k":"k"}}')).toEqual({ k: ['k', 'k'], v: { k: 'k' } });
  });

  test('refuses prototype-reaching member names at any depth', () => {
    expect(parseJsonObject('{"__proto__":{"admin":true}}')).toBe('has the forbidden member "__proto__"');
    expect(parseJsonObject('{"a":{"constructor":1}}')).toBe('has the forbidden member "constructor"');
    expect(parseJsonObject('{"\\u005f_proto__":1}')).toBe('has the forbidden member "__proto__"');
    expect(parseJsonObject('{"a":"__proto__"}')).toEqual({ a: '__proto__' });
  });
});
