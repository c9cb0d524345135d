import { describe, expect, test } from 'bun:test';
import { contentDisposition } from './content-disposition.ts';

/** Decodes the filename* parameter the way an agent does (RFC 8187 §3.2). */
function extValue(header: string): string | undefined {
  const match = /filename\*=UTF-8''([^;]*)/.exec(header);
  return match === null ? undefined : decodeURIComponent(match[1] as string);
}

describe('contentDisposition', () => {
  test('sends a plain ASCII name as one quoted filename, as an attachment by default', () => {
    expect(contentDisposition('report.pdf')).toBe('attachment; filename="report.pdf"');
    expect(contentDisposition('a b (1).txt', 'inline')).toBe('inline; filename="a b (1).txt"');
  });

  test('adds filename* with percent-encoded UTF-8 for a non-ASCII name, after an ASCII fallback', () => {
    const header = contentDisposition('r\u00e9sum\u00e9 \u20ac.pdf');
    expect(header).toBe(
      `attachment; filename="resume _.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%82%AC.pdf`,
    );
    expect(extValue(header)).toBe('r\u00e9sum\u00e9 \u20ac.pdf');
  });

  test('folds compatibility forms to ASCII letters but never to separators', () => {
    expect(contentDisposition('\uFF21\uFF22.txt')).toStartWith('attachment; filename="AB.txt"; filename*=');
    expect(contentDisposition('\u2100.txt')).toStartWith('attachment; filename="ac.txt"; filename*=');
    expect(contentDisposition('\u65e5\u672c.txt')).toStartWith('attachment; filename="__.txt"; filename*=');
  });

  test('sanitises first: no path, no quote, no CR/LF, no bidi override reaches the header', () => {
    const header = contentDisposition('../"evil"\r\nSet-Cookie: a=b\u202Etxt.exe');
    expect(header).toBe('attachment; filename="__evil_Set-Cookie_ a=btxt.exe"');
    expect(header).not.toMatch(/[\r\n\u202E]/);
  });

  test('encodes characters outside attr-char in filename*, including those encodeURIComponent leaves', () => {
    const header = contentDisposition("\u00e9'()*%.txt");
    expect(header).toContain(`filename*=UTF-8''%C3%A9%27%28%29_%25.txt`);
    expect(extValue(header)).toBe("\u00e9'()_%.txt");
  });

  test('moves a "%" name to filename*, since agents may decode %xx in filename', () => {
    expect(contentDisposition('100%41.txt')).toBe(
      `attachment; filename="100_41.txt"; filename*=UTF-8''100%2541.txt`,
    );
  });

  test('keeps a device name out of the fallback too', () => {
    expect(contentDisposition('\uFF23\uFF2F\uFF2E.txt')).toStartWith(
      'attachment; filename="_CON.txt"; filename*=',
    );
  });

  test('gives a usable header for an empty name', () => {
    expect(contentDisposition('')).toBe('attachment; filename="file"');
  });

  test('throws a TypeError for a disposition type that is not a token', () => {
    expect(() => contentDisposition('a.txt', 'attachment; x')).toThrow(TypeError);
    expect(() => contentDisposition('a.txt', '')).toThrow(TypeError);
  });

  test('every header is valid Latin-1 and accepted by Headers', () => {
    for (const name of ['\u{1f600}.png', 'x\u0000y', '\u202E', '\u00ff\u0100']) {
      const header = contentDisposition(name);
      expect(() => new Headers({ 'content-disposition': header })).not.toThrow();
      expect(header).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});
