import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { isValidTraceparent, isValidTracestate, newTraceparent, traceHeaders } from './trace.ts';

const VALID = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('isValidTraceparent', () => {
  test('accepts the W3C example and a future version with extra fields', () => {
    expect(isValidTraceparent(VALID)).toBe(true);
    expect(isValidTraceparent(`01${VALID.slice(2)}-extra`)).toBe(true);
    expect(isValidTraceparent(`01${VALID.slice(2)}`)).toBe(true);
  });

  test('refuses uppercase, all-zero ids, version ff, wrong lengths and extra fields on version 00', () => {
    const bad = [
      VALID.toUpperCase(),
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      `ff${VALID.slice(2)}`,
      `${VALID}-extra`,
      VALID.slice(0, 54),
      `01${VALID.slice(2)}x`,
      VALID.replace(/-/g, '_'),
      42,
      undefined,
    ];
    for (const value of bad) expect(isValidTraceparent(value)).toBe(false);
  });
});

describe('isValidTracestate', () => {
  test('accepts simple, multi-tenant and empty-member lists', () => {
    for (const value of [
      'congo=t61rcWkgMzE',
      'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
      'a=1,,b=2',
      'tenant1@vendor=x',
      '1tenant@sys=v',
    ]) {
      expect(isValidTracestate(value)).toBe(true);
    }
  });

  test('refuses bad keys, bad values, too many members and too long headers', () => {
    const tooMany = Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',');
    const bad = [
      '',
      ' ',
      'Upper=1',
      '1digit=1',
      'k=',
      '=v',
      'k=a,b',

      'k=\u00e9',
      'a@b@c=1',
      tooMany,
      `k=${'v'.repeat(600)}`,
      7,
    ];
    for (const value of bad) expect(isValidTracestate(value)).toBe(false);
  });
});

describe('newTraceparent', () => {
  test('always produces a valid sampled version-00 traceparent with distinct ids', () => {
    fc.assert(
      fc.property(fc.constant(null), () => {
        const value = newTraceparent();
        expect(isValidTraceparent(value)).toBe(true);
        expect(value.startsWith('00-')).toBe(true);
        expect(value.endsWith('-01')).toBe(true);
      }),
      { numRuns: 300 },
    );
    const ids = new Set(Array.from({ length: 200 }, () => newTraceparent().slice(3, 35)));
    expect(ids.size).toBe(200);
  });
});

describe('traceHeaders', () => {
  test('sends nothing when propagation is off', () => {
    expect(traceHeaders(false)).toEqual({});
  });

  test('starts a fresh trace when propagation is true', () => {
    const headers = traceHeaders(true);
    expect(Object.keys(headers)).toEqual(['traceparent']);
    expect(isValidTraceparent(headers.traceparent)).toBe(true);
  });

  test("forwards the tracer's context, dropping an invalid tracestate alone", () => {
    expect(traceHeaders(() => ({ traceparent: VALID, tracestate: 'rojo=1' }))).toEqual({
      traceparent: VALID,
      tracestate: 'rojo=1',
    });
    expect(traceHeaders(() => ({ traceparent: VALID, tracestate: 'BAD' }))).toEqual({ traceparent: VALID });
  });

  test('drops an invalid, absent or throwing context instead of failing the call', () => {
    expect(traceHeaders(() => ({ traceparent: 'garbage', tracestate: 'rojo=1' }))).toEqual({});
    expect(traceHeaders(() => undefined)).toEqual({});
    expect(
      traceHeaders(() => {
        throw new Error('tracer broke');
      }),
    ).toEqual({});
  });

  test('any string the tracer returns is sent only when it is a valid traceparent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const headers = traceHeaders(() => ({ traceparent: text }));
        expect(headers.traceparent === undefined || isValidTraceparent(headers.traceparent)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
