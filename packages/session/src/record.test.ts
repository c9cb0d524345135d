import { describe, expect, test } from 'bun:test';
import {
  assertJsonValue,
  frozenJsonCopy,
  MAX_SESSION_VALUE_DEPTH,
  normalizeSessionUser,
  parseSessionRecord,
} from './record.ts';

describe('assertJsonValue', () => {
  test('accepts what JSON keeps unchanged', () => {
    for (const value of [
      null,
      true,
      0,
      -1.5,
      '',
      'text',
      [],
      [1, 'a', null],
      { a: { b: [1, { c: false }] } },
    ]) {
      expect(() => assertJsonValue(value, 'v')).not.toThrow();
    }
    expect(() => assertJsonValue(Object.assign(Object.create(null), { a: 1 }), 'v')).not.toThrow();
  });

  test('refuses what JSON would drop or change, naming where', () => {
    expect(() => assertJsonValue(undefined, 'v')).toThrow('v is undefined');
    expect(() => assertJsonValue({ a: undefined }, 'v')).toThrow('v.a is undefined');
    expect(() => assertJsonValue([1, Number.NaN], 'v')).toThrow('v[1] is NaN');
    expect(() => assertJsonValue(Number.POSITIVE_INFINITY, 'v')).toThrow(TypeError);
    expect(() => assertJsonValue(new Date(0), 'v')).toThrow('v is a Date');
    expect(() => assertJsonValue(new Map(), 'v')).toThrow('v is a Map');
    expect(() => assertJsonValue(() => 1, 'v')).toThrow('a function');
    expect(() => assertJsonValue(1n, 'v')).toThrow('a bigint');
    expect(() => assertJsonValue(Symbol('s'), 'v')).toThrow('a symbol');
  });

  test('refuses prototype-pollution keys', () => {
    expect(() => assertJsonValue(JSON.parse('{"__proto__":{"admin":true}}'), 'v')).toThrow(
      'forbidden key "__proto__"',
    );
    expect(() => assertJsonValue({ constructor: 1 }, 'v')).toThrow('forbidden key');
  });

  test('refuses nesting past the depth limit', () => {
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_SESSION_VALUE_DEPTH; i++) deep = [deep];
    expect(() => assertJsonValue(deep, 'v')).toThrow('deeper than');
    expect(() => assertJsonValue((deep as unknown[])[0], 'v')).not.toThrow();
  });
});

describe('frozenJsonCopy', () => {
  test('returns a deep-frozen copy that does not share objects with the input', () => {
    const input = { list: [1, 2], nested: { a: 1 } };
    const copy = frozenJsonCopy(input, 'v');
    expect(copy).toEqual(input);
    expect(copy.list).not.toBe(input.list);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.list) && Object.isFrozen(copy.nested)).toBe(true);
    expect(() => (copy.list as number[]).push(3)).toThrow(TypeError);
  });
});

describe('normalizeSessionUser', () => {
  test('fills defaults and drops duplicate scopes', () => {
    expect(normalizeSessionUser({ sub: 'u1' }, 'user')).toEqual({ sub: 'u1', scopes: [], claims: {} });
    expect(
      normalizeSessionUser({ sub: 'u1', scopes: ['a', 'b', 'a'], claims: { name: 'Ada' } }, 'user'),
    ).toEqual({
      sub: 'u1',
      scopes: ['a', 'b'],
      claims: { name: 'Ada' },
    });
  });

  test('refuses a user without a subject, with bad scopes or with claims JSON cannot hold', () => {
    expect(() => normalizeSessionUser({ sub: '' }, 'user')).toThrow('user.sub must be a non-empty string');
    expect(() => normalizeSessionUser(null as never, 'user')).toThrow('user must be an object');
    expect(() => normalizeSessionUser({ sub: 'u', scopes: [''] }, 'user')).toThrow('user.scopes');
    expect(() => normalizeSessionUser({ sub: 'u', scopes: 'a' as never }, 'user')).toThrow('user.scopes');
    expect(() => normalizeSessionUser({ sub: 'u', claims: [] as never }, 'user')).toThrow('user.claims');
    expect(() => normalizeSessionUser({ sub: 'u', claims: { at: new Date() } }, 'user')).toThrow(
      'user.claims.at',
    );
  });
});

describe('parseSessionRecord', () => {
  const good = { data: { cart: [1, 2] }, createdAt: 1000, expiresAt: 2000 };

  test('gives a frozen record with null-prototype data, user normalised', () => {
    const record = parseSessionRecord({ ...good, user: { sub: 'u1', scopes: ['a'] } });
    expect(record).toEqual({ ...good, user: { sub: 'u1', scopes: ['a'], claims: {} } });
    expect(Object.getPrototypeOf(record.data)).toBeNull();
    expect(Object.isFrozen(record.data)).toBe(true);
    expect(parseSessionRecord({ ...good, user: null }).user).toBeUndefined();
  });

  test('throws a plain Error (a 500, not a 400) for anything that is not a session record', () => {
    const bad: unknown[] = [
      null,
      'text',
      { ...good, createdAt: '1000' },
      { ...good, expiresAt: Number.NaN },
      { ...good, data: [] },
      { ...good, data: null },
      { ...good, data: { when: new Date() } },
      { ...good, data: JSON.parse('{"__proto__":{"admin":true}}') },
      { ...good, user: { sub: '' } },
    ];
    for (const value of bad) {
      let thrown: unknown;
      try {
        parseSessionRecord(value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(Error);
      expect((thrown as Error).constructor).toBe(Error);
      expect((thrown as Error).message).toStartWith('The session store returned a malformed record');
    }
  });
});
