import { describe, expect, test } from 'bun:test';
import {
  assertWsCloseArguments,
  decodeWsClosePayload,
  encodeWsClosePayload,
  isValidWsCloseCode,
} from './close-codes.ts';

describe('close codes', () => {
  test('valid wire codes are 1000-1003, 1007-1014 and 3000-4999 (RFC 6455 §7.4)', () => {
    for (const code of [1000, 1001, 1002, 1003, 1007, 1011, 1014, 3000, 4999])
      expect(isValidWsCloseCode(code)).toBe(true);
    for (const code of [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 1000.5])
      expect(isValidWsCloseCode(code)).toBe(false);
  });

  test('a server may not send reserved codes, 1010, or a reason over 123 bytes', () => {
    expect(() => assertWsCloseArguments(1000, 'bye')).not.toThrow();
    expect(() => assertWsCloseArguments(4000, 'é'.repeat(61))).not.toThrow();
    for (const code of [1005, 1006, 1010, 1015, 2000])
      expect(() => assertWsCloseArguments(code, '')).toThrow(RangeError);
    expect(() => assertWsCloseArguments(1000, 'é'.repeat(62))).toThrow(RangeError);
  });

  test('a Close body round-trips; empty is 1005; one byte or a bad code is 1002; a bad reason is 1007', () => {
    expect(decodeWsClosePayload(encodeWsClosePayload(4001, 'done ✓'))).toEqual({
      ok: true,
      code: 4001,
      reason: 'done ✓',
    });
    expect(decodeWsClosePayload(new Uint8Array(0))).toEqual({ ok: true, code: 1005, reason: '' });
    expect(decodeWsClosePayload(new Uint8Array([3]))).toMatchObject({ ok: false, failWith: 1002 });
    expect(decodeWsClosePayload(encodeWsClosePayload(1005))).toMatchObject({ ok: false, failWith: 1002 });
    expect(decodeWsClosePayload(new Uint8Array([0x03, 0xe8, 0xff]))).toMatchObject({
      ok: false,
      failWith: 1007,
    });
  });
});
