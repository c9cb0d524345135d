import { describe, expect, test } from 'bun:test';
import {
  meetsFloor,
  memoryPerLane,
  resolvePasswordHashOptions,
  SCRYPT_DEFAULTS,
  withinCeiling,
} from './params.ts';

describe('scrypt floor', () => {
  test('accepts every OWASP configuration', () => {
    for (const [ln, p] of [
      [17, 1],
      [16, 2],
      [15, 3],
      [14, 5],
      [13, 10],
    ] as const) {
      expect(meetsFloor({ ln, r: 8, p })).toBe(true);
    }
  });

  test('refuses each OWASP row with one less lane, a block size under 8, and the classic N=2^14 interactive setting', () => {
    for (const [ln, p] of [
      [16, 1],
      [15, 2],
      [14, 4],
      [13, 9],
      [12, 100],
    ] as const) {
      expect(meetsFloor({ ln, r: 8, p })).toBe(false);
    }
    expect(meetsFloor({ ln: 20, r: 1, p: 1 })).toBe(false);
    expect(meetsFloor({ ln: 14, r: 8, p: 1 })).toBe(false);
  });

  test('counts memory as 128·N·r, so a larger block size can stand in for a larger N', () => {
    expect(memoryPerLane(SCRYPT_DEFAULTS)).toBe(128 * 1024 * 1024);
    expect(meetsFloor({ ln: 16, r: 16, p: 1 })).toBe(true);
  });
});

describe('scrypt ceiling', () => {
  test('accepts the defaults and up to 256 MiB per lane and 2^23 work', () => {
    expect(withinCeiling(SCRYPT_DEFAULTS)).toBe(true);
    expect(withinCeiling({ ln: 18, r: 8, p: 1 })).toBe(true);
    expect(withinCeiling({ ln: 17, r: 8, p: 8 })).toBe(true);
  });

  test('refuses more memory, more work, and values no scrypt takes', () => {
    expect(withinCeiling({ ln: 19, r: 8, p: 1 })).toBe(false);
    expect(withinCeiling({ ln: 17, r: 8, p: 9 })).toBe(false);
    expect(withinCeiling({ ln: 62, r: 8, p: 1 })).toBe(false);
    expect(withinCeiling({ ln: 0, r: 8, p: 1 })).toBe(false);
    expect(withinCeiling({ ln: 17, r: 0, p: 1 })).toBe(false);
  });
});

describe('resolvePasswordHashOptions', () => {
  test('fills the defaults, ln=17 r=8 p=1', () => {
    expect(resolvePasswordHashOptions()).toEqual({ ln: 17, r: 8, p: 1 });
    expect(resolvePasswordHashOptions({ ln: 18 })).toEqual({ ln: 18, r: 8, p: 1 });
  });

  test('throws a TypeError naming the option for a value that is not a positive integer', () => {
    expect(() => resolvePasswordHashOptions({ ln: 17.5 })).toThrow(/"ln" must be a positive integer/);
    expect(() => resolvePasswordHashOptions({ r: 0 })).toThrow(TypeError);
    expect(() => resolvePasswordHashOptions({ p: '2' as unknown as number })).toThrow(/"p"/);
    expect(() => resolvePasswordHashOptions(null as unknown as object)).toThrow(TypeError);
  });

  test('throws a TypeError for options below the floor or above the ceiling', () => {
    expect(() => resolvePasswordHashOptions({ ln: 16 })).toThrow(/below the secure floor/);
    expect(() => resolvePasswordHashOptions({ r: 4 })).toThrow(TypeError);
    expect(() => resolvePasswordHashOptions({ ln: 19 })).toThrow(/above the ceiling/);
    expect(() => resolvePasswordHashOptions({ ln: 16, p: 2 })).not.toThrow();
  });
});
