import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { JSON_RPC_ERROR_CODES } from './codes.ts';
import { JSON_RPC_MAX_DEPTH, nestsDeeperThan, type ParsedBody, parseJsonRpcBody } from './parse.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The parse-error message of a failed parse, failing the test on success. */
function errorOf(parsed: ParsedBody): string {
  if (parsed.ok) throw new Error('expected a parse error');
  expect(parsed.error.code).toBe(JSON_RPC_ERROR_CODES.parseError);
  expect(Object.hasOwn(parsed.error, 'data')).toBe(false);
  return parsed.error.message;
}

const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Depth as the number of nested containers on the longest path; a scalar is 0 (reference). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}

describe('parseJsonRpcBody', () => {
  test('parses objects, arrays and scalars', () => {
    expect(parseJsonRpcBody(bytes('{"jsonrpc":"2.0","id":1,"method":"ping"}'))).toEqual({
      ok: true,
      value: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(parseJsonRpcBody(bytes(' [1, {"b": null}] '))).toEqual({ ok: true, value: [1, { b: null }] });
    expect(parseJsonRpcBody(bytes('"x"'))).toEqual({ ok: true, value: 'x' });
    expect(parseJsonRpcBody(bytes('0'))).toEqual({ ok: true, value: 0 });
  });

  test('decodes multi-byte UTF-8 text', () => {
    expect(parseJsonRpcBody(bytes('{"q":"café 世界 🚀"}'))).toEqual({
      ok: true,
      value: { q: 'café 世界 🚀' },
    });
  });

  test('refuses bytes that are not UTF-8 (RFC 8259 §8.1)', () => {
    const bad = [
      [0xff],
      [0x7b, 0x22, 0xc3, 0x22, 0x7d], // a truncated two-byte sequence inside a string
      [0xc0, 0xaf], // an overlong encoding of "/"
      [0xed, 0xa0, 0x80], // an encoded surrogate
      [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
    ];
    for (const sequence of bad) {
      expect(errorOf(parseJsonRpcBody(new Uint8Array(sequence)))).toBe(
        'Parse error: the body is not valid UTF-8',
      );
    }
  });

  test('ignores a leading byte order mark, which RFC 8259 §8.1 lets a parser ignore', () => {
    expect(parseJsonRpcBody(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toEqual({ ok: true, value: {} });
  });

  test('refuses an empty or whitespace-only body as empty', () => {
    for (const text of ['', ' ', '\r\n\t ', '\n\n']) {
      expect(errorOf(parseJsonRpcBody(bytes(text)))).toBe('Parse error: the body is empty');
    }
  });

  test('refuses a syntax error with a sentence that says the JSON is invalid', () => {
    for (const text of ['{"a":', "{'a':1}", '{"a":1,}', 'NaN', '{"a" 1}', '[1] [2]', 'undefined']) {
      const message = errorOf(parseJsonRpcBody(bytes(text)));
      expect(message.startsWith('Parse error: The body is not valid JSON: ')).toBe(true);
    }
  });

  test('refuses prototype keys at any depth, spelled plainly or with escapes, as an invalid request', () => {
    const cases: Array<[string, string]> = [
      ['{"__proto__":{"admin":true}}', '__proto__'],
      ['{"params":{"constructor":{"prototype":1}}}', 'constructor'],
      ['[{"a":[{"prototype":1}]}]', 'prototype'],
      ['{"\\u005f_proto__":1}', '__proto__'],
    ];
    for (const [text, key] of cases) {
      const parsed = parseJsonRpcBody(bytes(text));
      expect(parsed.ok).toBe(false);
      expect(parsed.ok ? undefined : parsed.error).toEqual({
        code: JSON_RPC_ERROR_CODES.invalidRequest,
        message: `Invalid Request: The JSON body contains the forbidden key "${key}"`,
      });
    }
  });

  test('accepts the words as values, not keys', () => {
    expect(parseJsonRpcBody(bytes('{"method":"constructor","params":["__proto__"]}')).ok).toBe(true);
  });

  test('accepts nesting of exactly 64 containers and refuses 65', () => {
    expect(JSON_RPC_MAX_DEPTH).toBe(64);
    for (const build of [arrays, objects]) {
      expect(parseJsonRpcBody(bytes(build(64))).ok).toBe(true);
      expect(errorOf(parseJsonRpcBody(bytes(build(65))))).toBe(
        'Parse error: the JSON is nested deeper than 64 levels',
      );
    }
  });

  test('honours a smaller cap given by the caller', () => {
    expect(parseJsonRpcBody(bytes('{"a":{"b":1}}'), 2).ok).toBe(true);
    expect(errorOf(parseJsonRpcBody(bytes('{"a":{"b":[]}}'), 2))).toBe(
      'Parse error: the JSON is nested deeper than 2 levels',
    );
  });

  test('answers a 100 000-deep body with a parse error instead of throwing', () => {
    for (const text of [arrays(100_000), objects(100_000), `{"a":${arrays(100_000)}}`]) {
      let parsed: ParsedBody | undefined;
      expect(() => {
        parsed = parseJsonRpcBody(bytes(text));
      }).not.toThrow();
      expect(errorOf(parsed as ParsedBody)).toMatch(/^Parse error: .*nested/);
    }
  });

  test('answers a 100 000-deep body with a prototype-looking key without throwing', () => {
    const text = `${'{"a":'.repeat(100_000)}{"constructor":1}${'}'.repeat(100_001)}`;
    expect(() => parseJsonRpcBody(bytes(text))).not.toThrow();
    expect(parseJsonRpcBody(bytes(text)).ok).toBe(false);
  });
});

describe('nestsDeeperThan', () => {
  test('counts containers, not scalars', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan('deep', 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan([], 1)).toBe(false);
    expect(nestsDeeperThan({ a: { b: 1 } }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: { b: {} } }, 2)).toBe(true);
    expect(nestsDeeperThan([1, [2, [3]], { x: 'y' }], 3)).toBe(false);
    expect(nestsDeeperThan([1, [2, [3, []]], { x: 'y' }], 3)).toBe(true);
  });

  test('walks a 100 000-deep value without recursion', () => {
    let value: unknown = 0;
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(nestsDeeperThan(value, 64)).toBe(true);
    expect(nestsDeeperThan(value, 100_000)).toBe(false);
  });

  test('agrees with a recursive reference on random JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 7 }), fc.integer({ min: 0, max: 9 }), (value, max) => {
        expect(nestsDeeperThan(value, max)).toBe(depthOf(value) > max);
      }),
      { numRuns: 1000 },
    );
  });
});
