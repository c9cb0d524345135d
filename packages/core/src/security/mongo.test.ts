import { describe, expect, test } from 'bun:test';
import { badRequestDetail } from './__fixtures__/bad-request.ts';
import { assertNoMongoOperators, hasMongoOperatorKeys, MONGO_MAX_DEPTH } from './mongo.ts';

function nest(levels: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('hasMongoOperatorKeys', () => {
  test('is false for plain values, including "$" inside values and keys not starting with it', () => {
    expect(hasMongoOperatorKeys({ user: 'alice', price: '$5', tags: ['$x'], a$b: 1 })).toBe(false);
    expect(hasMongoOperatorKeys(null)).toBe(false);
    expect(hasMongoOperatorKeys('$ne')).toBe(false);
    expect(hasMongoOperatorKeys([1, 'two', { three: 3 }])).toBe(false);
  });

  test('finds a "$" key at the top level, nested, and inside arrays', () => {
    expect(hasMongoOperatorKeys({ $where: 'sleep(1000)' })).toBe(true);
    expect(hasMongoOperatorKeys({ password: { $ne: null } })).toBe(true);
    expect(hasMongoOperatorKeys({ list: [{ ok: 1 }, { nested: [{ $gt: '' }] }] })).toBe(true);
    expect(hasMongoOperatorKeys([[[{ $regex: '.*' }]]])).toBe(true);
  });

  test('finds "$" keys in a Map, which BSON serialisers write as a document', () => {
    expect(hasMongoOperatorKeys({ filter: new Map([['$ne', 1]]) })).toBe(true);
    expect(hasMongoOperatorKeys(new Map([['name', 'x']]))).toBe(false);
  });

  test('ignores dotted keys by default and refuses them with dottedKeys', () => {
    const value = { profile: { 'role.admin': true } };
    expect(hasMongoOperatorKeys(value)).toBe(false);
    expect(hasMongoOperatorKeys(value, { dottedKeys: true })).toBe(true);
  });

  test('accepts nesting up to the limit and refuses deeper values without exhausting the stack', () => {
    expect(hasMongoOperatorKeys(nest(MONGO_MAX_DEPTH, 'leaf'))).toBe(false);
    expect(hasMongoOperatorKeys(nest(MONGO_MAX_DEPTH + 1, 'leaf'))).toBe(true);
    expect(hasMongoOperatorKeys(nest(200_000, 'leaf'))).toBe(true);
  });

  test('treats binary data as one value, as BSON does, without walking its bytes', () => {
    const bytes = Object.assign(new Uint8Array(1_000_000), { $ne: 1 });
    expect(hasMongoOperatorKeys({ file: bytes, at: new Date(0) })).toBe(false);
  });

  test('terminates on a cyclic value', () => {
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic.self = cyclic;
    expect(hasMongoOperatorKeys(cyclic)).toBe(false);
    cyclic.bad = { $ne: 1 };
    expect(hasMongoOperatorKeys(cyclic)).toBe(true);
  });
});

describe('assertNoMongoOperators', () => {
  test('passes a value without operator keys', () => {
    expect(() => assertNoMongoOperators({ email: 'a@b.c', age: 3 }, 'body')).not.toThrow();
  });

  test('throws a 400 naming the key path and where', () => {
    const detail = badRequestDetail(() =>
      assertNoMongoOperators({ user: { password: { $ne: null } } }, 'body'),
    );
    expect(detail).toContain('body');
    expect(detail).toContain('user.password.$ne');
  });

  test('names array indices and quotes keys that are not identifiers', () => {
    const detail = badRequestDetail(() => assertNoMongoOperators({ 'my key': [0, { $gt: 1 }] }));
    expect(detail).toContain('["my key"][1].$gt');
    expect(detail).toContain('input');
  });

  test('refuses dotted keys only when asked, and too-deep values always', () => {
    expect(() => assertNoMongoOperators({ 'a.b': 1 }, 'update')).not.toThrow();
    expect(
      badRequestDetail(() => assertNoMongoOperators({ 'a.b': 1 }, 'update', { dottedKeys: true })),
    ).toContain('"."');
    expect(badRequestDetail(() => assertNoMongoOperators(nest(MONGO_MAX_DEPTH + 5, 1), 'query'))).toContain(
      'nested deeper',
    );
  });

  test('caps a huge attacker key in the detail', () => {
    const key = `$${'x'.repeat(10_000)}`;
    const detail = badRequestDetail(() => assertNoMongoOperators({ [key]: 1 }));
    expect(detail.length).toBeLessThan(400);
  });
});
