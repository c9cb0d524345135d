import { describe, expect, test } from 'bun:test';
import { parseContentLength, readBodyLimited } from './body-limit.ts';

describe('parseContentLength', () => {
  test('reads 1*DIGIT values (RFC 9110 §8.6), leading zeros included', () => {
    expect(parseContentLength('0')).toBe(0);
    expect(parseContentLength('16')).toBe(16);
    expect(parseContentLength('007')).toBe(7);
    expect(parseContentLength(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  test('refuses what Number() would also read: hex, exponents, signs, fractions, blanks, lists', () => {
    for (const value of [
      '',
      '0x10',
      '1e3',
      '+5',
      '-1',
      '1.0',
      ' 5',
      '5 ',
      '5, 5',
      'Infinity',
      '9007199254740993',
    ]) {
      expect(parseContentLength(value)).toBeUndefined();
    }
    expect(parseContentLength(null)).toBeUndefined();
  });
});

describe('readBodyLimited', () => {
  test('refuses an in-process body longer than its Content-Length says when it passes the limit', async () => {
    const request = new Request('http://x/', {
      method: 'POST',
      headers: { 'content-length': '5' },
      body: 'x'.repeat(5000),
    });
    await expect(readBodyLimited(request, 1000)).rejects.toMatchObject({ status: 413 });
  });

  test('reads a body whose Content-Length is right and within the limit', async () => {
    const request = new Request('http://x/', {
      method: 'POST',
      headers: { 'content-length': '3' },
      body: 'abc',
    });
    expect(new TextDecoder().decode(await readBodyLimited(request, 3))).toBe('abc');
  });

  test('resolves the bytes of a body within the limit', async () => {
    const request = new Request('http://charter.local/', { method: 'POST', body: 'hello' });
    expect(new TextDecoder().decode(await readBodyLimited(request, 5))).toBe('hello');
  });

  test('refuses a body over the limit with a 413 problem error', async () => {
    const request = new Request('http://charter.local/', { method: 'POST', body: 'hello!' });
    await expect(readBodyLimited(request, 5)).rejects.toMatchObject({ status: 413 });
  });
});
