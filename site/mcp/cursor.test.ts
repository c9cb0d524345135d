import { describe, expect, test } from 'bun:test';
import { encodeBase64Url } from '@charter/core';
import { contentFingerprint, decodeListCursor, encodeListCursor, MAX_CURSOR_LENGTH } from './cursor.ts';
import { CORPUS_PAGES, makePage } from './test-corpus.ts';

const fingerprint = contentFingerprint(CORPUS_PAGES);
const raw = (text: string) => encodeBase64Url(new TextEncoder().encode(text));

describe('contentFingerprint', () => {
  test('is 16 hex digits, stable for the same pages', () => {
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(contentFingerprint([...CORPUS_PAGES])).toBe(fingerprint);
  });

  test('changes when a page is edited, added or moved', () => {
    const [first, ...rest] = CORPUS_PAGES;
    const edited = makePage({ path: first?.path as string, title: 'Other', description: 'x', text: 'x' });
    expect(contentFingerprint([edited, ...rest])).not.toBe(fingerprint);
    expect(contentFingerprint(CORPUS_PAGES.slice(1))).not.toBe(fingerprint);
    expect(contentFingerprint([...rest, first as (typeof CORPUS_PAGES)[number]])).not.toBe(fingerprint);
  });
});

describe('list cursors', () => {
  test('round-trip an offset inside the list', () => {
    const cursor = encodeListCursor(3, fingerprint);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(cursor, fingerprint, 10)).toBe(3);
  });

  test('refuse a cursor from another build of the content', () => {
    const other = contentFingerprint(CORPUS_PAGES.slice(1));
    expect(decodeListCursor(encodeListCursor(3, other), fingerprint, 10)).toBeUndefined();
  });

  test('refuse offsets outside the list, and malformed or oversized cursors', () => {
    for (const cursor of [
      encodeListCursor(0, fingerprint),
      encodeListCursor(10, fingerprint),
      raw(`-1.${fingerprint}`),
      raw(`03.${fingerprint}`),
      raw(`3${fingerprint}`),
      raw(`1e1.${fingerprint}`),
      raw(`9999999999.${fingerprint}`),
      raw(`3.${fingerprint}.`),
      'not base64!',
      '',
      raw('x'.repeat(200)),
      'A'.repeat(MAX_CURSOR_LENGTH + 1),
      encodeBase64Url(new Uint8Array([0xff, 0xfe, 0x2e])),
    ]) {
      expect(decodeListCursor(cursor, fingerprint, 10)).toBeUndefined();
    }
  });
});
