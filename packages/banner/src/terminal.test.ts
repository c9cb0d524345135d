import { describe, expect, test } from 'bun:test';
import { terminalSafeText } from './sanitize.ts';
import { shouldUseColor, supportsUnicode } from './terminal.ts';

describe('shouldUseColor', () => {
  test('a terminal gets colour, a pipe does not, TERM=dumb does not', () => {
    expect(shouldUseColor({ env: {}, isTTY: true })).toBe(true);
    expect(shouldUseColor({ env: {}, isTTY: false })).toBe(false);
    expect(shouldUseColor({ env: { TERM: 'dumb' }, isTTY: true })).toBe(false);
  });

  test('NO_COLOR set and not empty turns colour off (https://no-color.org)', () => {
    expect(shouldUseColor({ env: { NO_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(shouldUseColor({ env: { NO_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(shouldUseColor({ env: { NO_COLOR: '' }, isTTY: true })).toBe(true);
  });

  test('FORCE_COLOR wins over the rest: on unless 0 or false', () => {
    expect(shouldUseColor({ env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(shouldUseColor({ env: { FORCE_COLOR: '3', NO_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(shouldUseColor({ env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(shouldUseColor({ env: { FORCE_COLOR: 'false' }, isTTY: true })).toBe(false);
    expect(shouldUseColor({ env: { FORCE_COLOR: '' }, isTTY: false })).toBe(false);
  });
});

describe('supportsUnicode', () => {
  test('the first locale variable set decides (LC_ALL, LC_CTYPE, LANG)', () => {
    expect(supportsUnicode({ env: { LANG: 'en_US.UTF-8' } })).toBe(true);
    expect(supportsUnicode({ env: { LANG: 'C.utf8' } })).toBe(true);
    expect(supportsUnicode({ env: { LC_ALL: 'C', LANG: 'en_US.UTF-8' } })).toBe(false);
    expect(supportsUnicode({ env: { LC_CTYPE: 'de_DE.UTF-8', LANG: 'C' } })).toBe(true);
    expect(supportsUnicode({ env: { LANG: 'en_US.ISO-8859-1' } })).toBe(false);
  });

  test('without a locale: ASCII on POSIX, Unicode on Windows', () => {
    expect(supportsUnicode({ env: {}, platform: 'linux' })).toBe(false);
    expect(supportsUnicode({ env: {}, platform: 'win32' })).toBe(true);
  });
});

describe('terminalSafeText', () => {
  test('keeps text, stringifies numbers and booleans, falls back for the rest', () => {
    expect(terminalSafeText('  hello  ')).toBe('hello');
    expect(terminalSafeText(3)).toBe('3');
    expect(terminalSafeText(true)).toBe('true');
    expect(terminalSafeText(Number.POSITIVE_INFINITY, { fallback: '?' })).toBe('?');
    expect(terminalSafeText({ toString: () => '\u001b[2J' }, { fallback: 'x' })).toBe('x');
    expect(terminalSafeText('\u0007\u0000', { fallback: 'empty' })).toBe('empty');
  });
});
