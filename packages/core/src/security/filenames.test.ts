import { describe, expect, test } from 'bun:test';
import { BadRequestError } from '../errors/index.ts';
import {
  assertSafeRelativePath,
  FALLBACK_FILENAME,
  MAX_FILENAME_BYTES,
  sanitizeFilename,
} from './filenames.ts';

const bytes = (text: string): number => new TextEncoder().encode(text).length;

describe('sanitizeFilename', () => {
  test('keeps an ordinary name, Unicode letters and emoji included', () => {
    expect(sanitizeFilename('report 2024.pdf')).toBe('report 2024.pdf');
    expect(sanitizeFilename('r\u00e9sum\u00e9 \u65e5\u672c.txt')).toBe('r\u00e9sum\u00e9 \u65e5\u672c.txt');
    expect(sanitizeFilename('photo \u{1f600}.jpg')).toBe('photo \u{1f600}.jpg');
  });

  test('replaces path separators, so "../" cannot climb out', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(sanitizeFilename('..\\..\\windows\\win.ini')).toBe('_.._windows_win.ini');
    expect(sanitizeFilename('/abs/path.txt')).toBe('_abs_path.txt');
  });

  test('replaces the characters Windows refuses, ":" (NTFS streams) included', () => {
    expect(sanitizeFilename('a<b>c:d"e|f?g*h.txt')).toBe('a_b_c_d_e_f_g_h.txt');
    expect(sanitizeFilename('shell.php::$DATA')).toBe('shell.php__$DATA');
  });

  test('strips leading dots and spaces (no hidden files) and trailing dots and spaces', () => {
    expect(sanitizeFilename('.htaccess')).toBe('htaccess');
    expect(sanitizeFilename(' . .env')).toBe('env');
    expect(sanitizeFilename('invoice.pdf. . ')).toBe('invoice.pdf');
  });

  test('falls back to "file" for names with nothing usable left', () => {
    for (const empty of ['', '.', '..', '...', '   ', '\u0000', '\u202e\u200b', '. . .']) {
      expect(sanitizeFilename(empty)).toBe(FALLBACK_FILENAME);
    }
  });

  test('removes NUL and other control characters', () => {
    expect(sanitizeFilename('evil.php\u0000.jpg')).toBe('evil.php.jpg');
    expect(sanitizeFilename('a\r\nb\tc\u007fd\u0085e')).toBe('abcde');
  });

  test('removes bidi controls, so "exe" cannot pose as "txt" (CVE-2021-42574)', () => {
    expect(sanitizeFilename('invoice\u202Etxt.exe')).toBe('invoicetxt.exe');
    for (const mark of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
    ]) {
      expect(sanitizeFilename(`a${mark}b.txt`)).toBe('ab.txt');
    }
  });

  test('removes invisible format characters, line separators and blank fillers', () => {
    for (const mark of [
      '\u200B',
      '\u200C',
      '\u200D',
      '\u2060',
      '\uFEFF',
      '\u00AD',
      '\u2028',
      '\u2029',
      '\u3164',
      '\u{E0041}',
    ]) {
      expect(sanitizeFilename(`pay${mark}pal.pdf`)).toBe('paypal.pdf');
    }
    expect(sanitizeFilename('a\uD800b')).toBe('ab');
  });

  test('neutralises Windows device names, with any case, extension or trailing space', () => {
    expect(sanitizeFilename('CON')).toBe('_CON');
    expect(sanitizeFilename('nul.txt')).toBe('_nul.txt');
    expect(sanitizeFilename('Com1.tar.gz')).toBe('_Com1.tar.gz');
    expect(sanitizeFilename('lpt\u00b9')).toBe('_lpt\u00b9');
    expect(sanitizeFilename('aux .log')).toBe('_aux .log');
    expect(sanitizeFilename('CONSOLE.txt')).toBe('CONSOLE.txt');
    expect(sanitizeFilename('COM10')).toBe('COM10');
  });

  test('caps the name at 255 UTF-8 bytes without splitting a code point, keeping the extension', () => {
    const long = `${'\u00e9'.repeat(200)}.pdf`;
    const out = sanitizeFilename(long);
    expect(bytes(out)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
    expect(out.endsWith('.pdf')).toBe(true);
    expect(out).toBe(`${'\u00e9'.repeat(125)}.pdf`);
    const emoji = sanitizeFilename('\u{1f600}'.repeat(100));
    expect(bytes(emoji)).toBe(252);
    expect(emoji).toBe('\u{1f600}'.repeat(63));
  });

  test('drops an over-long extension rather than the whole stem', () => {
    const out = sanitizeFilename(`name.${'x'.repeat(400)}`);
    expect(bytes(out)).toBe(MAX_FILENAME_BYTES);
    expect(out.startsWith('name.xxx')).toBe(true);
  });

  test('re-trims and re-checks after shortening', () => {
    expect(sanitizeFilename(`a${' '.repeat(300)}b`)).toBe('a');
    expect(sanitizeFilename(`CON${' '.repeat(300)}x`)).toBe('_CON');
  });

  test('is idempotent on the names above', () => {
    for (const name of [
      '../../etc/passwd',
      `CON${' '.repeat(300)}x`,
      `${'\u00e9'.repeat(200)}.pdf`,
      'nul.txt',
      '. .env',
    ]) {
      const once = sanitizeFilename(name);
      expect(sanitizeFilename(once)).toBe(once);
    }
  });
});

function reasonOf(path: string, where?: string): string {
  try {
    assertSafeRelativePath(path, where);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return (error as BadRequestError).detail ?? '';
  }
  throw new Error(`expected ${JSON.stringify(path)} to be refused`);
}

describe('assertSafeRelativePath', () => {
  test('accepts relative paths with either separator, dots inside names and "." segments', () => {
    for (const ok of [
      'a',
      'a/b/c.txt',
      'a\\b.txt',
      './a',
      'a..b/c',
      '.hidden/x',
      'a/./b',
      'a//b',
      'dir/',
      '100%.txt',
      'caf\u00e9/\u65e5',
    ]) {
      expect(() => assertSafeRelativePath(ok)).not.toThrow();
    }
  });

  test('refuses absolute paths in every form', () => {
    for (const bad of [
      '/etc/passwd',
      '\\windows',
      '\\\\server\\share',
      '//server/share',
      'C:\\x',
      'C:/x',
      'C:x',
      'c:',
    ]) {
      expect(() => assertSafeRelativePath(bad)).toThrow(BadRequestError);
    }
    expect(reasonOf('/x')).toContain('absolute');
    expect(reasonOf('C:x')).toContain('":"');
  });

  test('refuses ".." segments with either separator, and dot-and-space variants', () => {
    for (const bad of [
      '..',
      '../x',
      'a/../../b',
      'a/..',
      'a\\..\\b',
      '..\\x',
      'a/.../b',
      'a/.. /b',
      'a/ ../b',
    ]) {
      expect(reasonOf(bad)).toContain('".." segment');
    }
  });

  test('refuses NUL and other control characters', () => {
    expect(reasonOf('a\u0000.txt')).toContain('control character');
    expect(reasonOf('a\nb')).toContain('control character');
  });

  test('refuses percent-encoded traversal, double encoding and overlong forms', () => {
    for (const bad of [
      '%2e%2e/x',
      '%2E%2E%2Fx',
      '..%2fx',
      'a%5c..',
      '%252e%252e',
      'a%00.txt',
      '%c0%ae%c0%ae/x',
      'a%3Ab',
    ]) {
      expect(reasonOf(bad)).toContain('percent-encoded');
    }
    expect(() => assertSafeRelativePath('a%20b/c%41')).not.toThrow();
  });

  test('refuses look-alikes that NFKC folds into separators and dots', () => {
    expect(reasonOf('\uFF0E\uFF0E\uFF0Fx')).toContain('".." segment');
    expect(reasonOf('\u2024\u2024/x')).toContain('".." segment');
    expect(reasonOf('\uFF0Fetc')).toContain('absolute');
  });

  test('names where, never the path', () => {
    const detail = reasonOf('../secret-plan.txt', 'upload path');
    expect(detail).toContain('upload path');
    expect(detail).not.toContain('secret-plan');
    expect(reasonOf('')).toContain('The path');
  });
});
