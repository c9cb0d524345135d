import { describe, expect, test } from 'bun:test';
import type { State } from '@charter/core';
import { resolveSessionOptions } from './options.ts';
import type { SessionRecord } from './record.ts';
import { attachSession, SessionState, sessionSlot } from './request-session.ts';

const T0 = 1_700_000_000_000;
const options = resolveSessionOptions({
  secret: 'q8Vd-2nTz!kP4sLw9Xe7Rb3Hc6Jm',
  cookie: { secure: false },
  now: () => T0 + 5000,
});

function loadedRecord(): SessionRecord {
  return {
    data: { a: 1 },
    user: { sub: 'u1', scopes: ['x'], claims: {} },
    createdAt: T0,
    expiresAt: T0 + 60_000,
  };
}

function fresh(state: State = {}): SessionState {
  return new SessionState(options, state, undefined, false, T0);
}

describe('SessionState', () => {
  test('a fresh session is new, empty, and expires one idle period from now', () => {
    const s = fresh();
    expect(s.isNew).toBe(true);
    expect(s.isEmpty()).toBe(true);
    expect(s.createdAt).toBe(T0);
    expect(s.expiresAt).toBe(T0 + 1_800_000);
    expect(s.dirty).toBe(false);
  });

  test('get, set, has, delete, keys and clear work on copies and mark the session changed', () => {
    const s = fresh();
    const value = { list: [1] };
    s.set('v', value);
    value.list.push(2);
    expect(s.get('v')).toEqual({ list: [1] });
    expect(s.has('v')).toBe(true);
    expect(s.has('w')).toBe(false);
    expect(s.keys()).toEqual(['v']);
    expect(s.dirty).toBe(true);
    s.delete('v');
    expect(s.get('v')).toBeUndefined();
    s.set('a', 1);
    s.set('b', 2);
    s.clear();
    expect(s.keys()).toEqual([]);
  });

  test('keys that reach a prototype, empty keys and non-JSON values are refused', () => {
    const s = fresh();
    expect(() => s.set('__proto__', 1)).toThrow('"__proto__" cannot be a session key');
    expect(() => s.get('constructor')).toThrow(TypeError);
    expect(() => s.set('', 1)).toThrow('non-empty string');
    expect(() => s.set('v', undefined)).toThrow('session value "v" is undefined');
    expect(() => s.set('v', { when: new Date() })).toThrow('session value "v".when is a Date');
    expect(s.dirty).toBe(false);
  });

  test('deleting or clearing nothing leaves the session unchanged', () => {
    const s = fresh();
    s.delete('missing');
    s.clear();
    expect(s.dirty).toBe(false);
  });

  test('a loaded session with a user publishes it on ctx.state', () => {
    const state: State = {};
    const s = new SessionState(options, state, { id: 'id1', record: loadedRecord(), keyIndex: 0 }, true, T0);
    expect(s.isNew).toBe(false);
    expect(s.originalId).toBe('id1');
    expect(s.resign).toBe(false);
    expect(state.user).toEqual({ sub: 'u1', scopes: ['x'], claims: {} });
    expect(state.auth?.scheme).toBe('session');
    expect(state.auth?.credentials).toEqual(loadedRecord());
    expect(Object.isFrozen(state.auth)).toBe(true);
  });

  test('rotate marks the old id for deletion and keeps or drops the data', () => {
    const state: State = {};
    const s = new SessionState(options, state, { id: 'id1', record: loadedRecord(), keyIndex: 1 }, true, T0);
    expect(s.resign).toBe(true);
    s.rotate();
    expect(s.discardOriginal).toBe(true);
    expect(s.get('a')).toBe(1);
    expect(s.createdAt).toBe(T0);
    s.rotate({ keepData: false, user: { sub: 'u2' } });
    expect(s.keys()).toEqual([]);
    expect(s.user?.sub).toBe('u2');
    expect(s.createdAt).toBe(T0 + 5000);
    expect(state.user?.sub).toBe('u2');
    s.rotate({ user: null });
    expect(state.user).toBeUndefined();
    expect(state.auth).toBeUndefined();
  });

  test('rotate refuses bad options', () => {
    const s = fresh();
    expect(() => s.rotate({ keepData: 'no' as never })).toThrow('"keepData" must be a boolean');
    expect(() => s.rotate(null as never)).toThrow('must be an object');
    expect(() => s.rotate({ user: { sub: 1 as never } })).toThrow('rotateSession option "user".sub');
  });

  test('destroy empties the session and signs the user out', () => {
    const state: State = {};
    const s = new SessionState(options, state, { id: 'id1', record: loadedRecord(), keyIndex: 0 }, true, T0);
    s.destroy();
    expect(s.destroyed && s.discardOriginal).toBe(true);
    expect(s.isEmpty()).toBe(true);
    expect(state.user).toBeUndefined();
  });

  test('toRecord gives what a store keeps', () => {
    const s = fresh();
    s.set('n', 1);
    expect(s.toRecord(T0 + 10)).toEqual({ data: { n: 1 }, createdAt: T0, expiresAt: T0 + 10 });
  });

  test('nothing can change once the session is committed', () => {
    const s = fresh();
    s.committed = true;
    for (const change of [
      () => s.set('a', 1),
      () => s.delete('a'),
      () => s.clear(),
      () => s.rotate(),
      () => s.destroy(),
    ]) {
      expect(change).toThrow('already saved');
    }
  });

  test('attachSession hides the session from Object.keys and JSON, and sessionSlot finds it', () => {
    const state: State = { other: 1 };
    const s = attachSession(state, fresh(state));
    expect(sessionSlot(state)).toBe(s);
    expect(Object.keys(state)).toEqual(['other']);
    expect(JSON.stringify(state)).toBe('{"other":1}');
    expect(sessionSlot({})).toBeUndefined();
  });
});
