import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import {
  isTraceStateKey,
  isTraceStateValue,
  MAX_TRACESTATE_MEMBERS,
  parseTraceParent,
  parseTraceState,
  TraceStateList,
} from './trace-context.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe('parseTraceParent', () => {
  test('reads the trace id, parent id and sampled flag of a valid version-00 header', () => {
    expect(parseTraceParent(VALID)).toEqual({ traceId: TRACE_ID, parentId: PARENT_ID, traceFlags: 1 });
    expect(parseTraceParent(`00-${TRACE_ID}-${PARENT_ID}-00`)?.traceFlags).toBe(0);
  });

  test('keeps only the sampled bit of the flags', () => {
    expect(parseTraceParent(`00-${TRACE_ID}-${PARENT_ID}-ff`)?.traceFlags).toBe(1);
    expect(parseTraceParent(`00-${TRACE_ID}-${PARENT_ID}-02`)?.traceFlags).toBe(0);
  });

  test('refuses upper-case hex, wrong lengths, missing dashes and absent values', () => {
    expect(parseTraceParent(VALID.toUpperCase())).toBeUndefined();
    expect(parseTraceParent(`00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceParent(`00-${TRACE_ID}-${PARENT_ID}-0A`)).toBeUndefined();
    expect(parseTraceParent(`00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceParent(`00-${TRACE_ID}-${PARENT_ID}0-01`)).toBeUndefined();
    expect(parseTraceParent(`00_${TRACE_ID}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceParent(`00-${TRACE_ID}_${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceParent(`00-${TRACE_ID}-${PARENT_ID}_01`)).toBeUndefined();
    expect(parseTraceParent(`00-${TRACE_ID}-${PARENT_ID}-0g`)).toBeUndefined();
    expect(parseTraceParent('')).toBeUndefined();
    expect(parseTraceParent(null)).toBeUndefined();
    expect(parseTraceParent(undefined)).toBeUndefined();
  });

  test('refuses all-zero trace and parent ids', () => {
    expect(parseTraceParent(`00-${'0'.repeat(32)}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceParent(`00-${TRACE_ID}-${'0'.repeat(16)}-01`)).toBeUndefined();
  });

  test('refuses version ff and a version-00 value with trailing data', () => {
    expect(parseTraceParent(`ff-${TRACE_ID}-${PARENT_ID}-01`)).toBeUndefined();
    expect(parseTraceParent(`${VALID}-extra`)).toBeUndefined();
    expect(parseTraceParent(`${VALID} `)).toBeUndefined();
  });

  test('reads a future version as version 00 when the flags end the value or are followed by a dash', () => {
    expect(parseTraceParent(`01-${TRACE_ID}-${PARENT_ID}-01`)?.traceId).toBe(TRACE_ID);
    expect(parseTraceParent(`cc-${TRACE_ID}-${PARENT_ID}-01-what-the-future-holds`)?.parentId).toBe(
      PARENT_ID,
    );
    expect(parseTraceParent(`cc-${TRACE_ID}-${PARENT_ID}-01x`)).toBeUndefined();
    expect(parseTraceParent(`0A-${TRACE_ID}-${PARENT_ID}-01`)).toBeUndefined();
  });

  test('accepts exactly the well-formed version-00 values (property)', () => {
    const hex = (n: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
    fc.assert(
      fc.property(hex(32), hex(16), hex(2), (traceId, parentId, flags) => {
        const parsed = parseTraceParent(`00-${traceId}-${parentId}-${flags}`);
        const zero = /^0+$/;
        if (zero.test(traceId) || zero.test(parentId)) expect(parsed).toBeUndefined();
        else expect(parsed).toEqual({ traceId, parentId, traceFlags: Number.parseInt(flags, 16) & 1 });
      }),
      { numRuns: 500 },
    );
  });

  test('never throws and only accepts lower-case hex ids on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const parsed = parseTraceParent(text);
        if (parsed !== undefined) {
          expect(parsed.traceId).toMatch(/^[0-9a-f]{32}$/);
          expect(parsed.parentId).toMatch(/^[0-9a-f]{16}$/);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseTraceState', () => {
  test('reads list-members in order, skipping empty members and optional whitespace', () => {
    const state = parseTraceState('rojo=00f067aa0ba902b7, ,congo=t61rcWkgMzE\t,tenant@vendor=x y');
    expect(state?.serialize()).toBe('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE,tenant@vendor=x y');
    expect(state?.get('congo')).toBe('t61rcWkgMzE');
  });

  test('discards the whole header when one member is invalid', () => {
    expect(parseTraceState('rojo=1,BAD=2')).toBeUndefined();
    expect(parseTraceState('rojo=1,nokey')).toBeUndefined();
    expect(parseTraceState('rojo=a=b')).toBeUndefined();
    expect(parseTraceState('rojo=')).toBeUndefined();
    expect(parseTraceState('1abc=x')).toBeUndefined();
  });

  test('discards a header with a duplicated key', () => {
    expect(parseTraceState('rojo=1,congo=2,rojo=3')).toBeUndefined();
  });

  test('accepts 32 members and discards 33', () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v`).join(',');
    expect(parseTraceState(members(MAX_TRACESTATE_MEMBERS))?.serialize()).toBe(members(32));
    expect(parseTraceState(members(MAX_TRACESTATE_MEMBERS + 1))).toBeUndefined();
  });

  test('answers undefined for an absent or empty header', () => {
    expect(parseTraceState(null)).toBeUndefined();
    expect(parseTraceState(' , ')).toBeUndefined();
  });
});

describe('isTraceStateKey and isTraceStateValue', () => {
  test('apply the key length limits of simple and multi-tenant keys', () => {
    expect(isTraceStateKey(`a${'b'.repeat(255)}`)).toBe(true);
    expect(isTraceStateKey(`a${'b'.repeat(256)}`)).toBe(false);
    expect(isTraceStateKey(`1${'a'.repeat(240)}@s${'a'.repeat(13)}`)).toBe(true);
    expect(isTraceStateKey(`1${'a'.repeat(241)}@s`)).toBe(false);
    expect(isTraceStateKey(`t@s${'a'.repeat(14)}`)).toBe(false);
    expect(isTraceStateKey('t@1s')).toBe(false);
    expect(isTraceStateKey('@s')).toBe(false);
    expect(isTraceStateKey('a_-*/9')).toBe(true);
  });

  test('refuse commas, equals signs, controls, non-ASCII and trailing spaces in values', () => {
    expect(isTraceStateValue('ok value')).toBe(true);
    expect(isTraceStateValue('x'.repeat(256))).toBe(true);
    expect(isTraceStateValue('x'.repeat(257))).toBe(false);
    for (const bad of ['a,b', 'a=b', 'a\tb', 'é', 'trailing ', ''])
      expect(isTraceStateValue(bad)).toBe(false);
  });
});

describe('TraceStateList', () => {
  test('set moves the member to the front, unset removes it, both leave the original untouched', () => {
    const state = new TraceStateList([
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(state.set('b', '3').serialize()).toBe('b=3,a=1');
    expect(state.unset('a').serialize()).toBe('b=2');
    expect(state.serialize()).toBe('a=1,b=2');
  });

  test('set ignores an invalid key or value', () => {
    const state = new TraceStateList([['a', '1']]);
    expect(state.set('Bad', 'x').serialize()).toBe('a=1');
    expect(state.set('ok', 'x,y').serialize()).toBe('a=1');
  });
});
