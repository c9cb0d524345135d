import { describe, expect, test } from 'bun:test';
import { encodeBody, isTextual } from './media.ts';

describe('isTextual', () => {
  test('text for text/*, the JSON/XML/JS/form/NDJSON types, +json and +xml, and a charset parameter', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'TEXT/CSV',
      'application/json',
      'application/xml',
      'application/javascript',
      'application/x-www-form-urlencoded',
      'application/x-ndjson',
      'application/problem+json',
      'image/svg+xml',
      'application/octet-stream; charset=utf-8',
    ]) {
      expect({ type, text: isTextual(type, null) }).toEqual({ type, text: true });
    }
  });

  test('binary for other types, no type, and any Content-Encoding but identity', () => {
    for (const type of [
      'image/png',
      'application/pdf',
      'application/octet-stream',
      'font/woff2',
      'application/zip',
    ]) {
      expect({ type, text: isTextual(type, null) }).toEqual({ type, text: false });
    }
    expect(isTextual(null, null)).toBe(false);
    expect(isTextual('text/plain', 'br')).toBe(false);
    expect(isTextual('text/plain', ' Identity ')).toBe(true);
  });
});

describe('encodeBody', () => {
  test('UTF-8 text as it is, other bytes base64, nothing as an empty text body', () => {
    const text = new TextEncoder().encode('héllo ✓');
    expect(encodeBody(text, true)).toEqual({ body: 'héllo ✓', isBase64Encoded: false });
    expect(encodeBody(text, false)).toEqual({
      body: btoa(String.fromCharCode(...text)),
      isBase64Encoded: true,
    });
    expect(encodeBody(new Uint8Array([0xff, 0xfe, 0x00]), true)).toEqual({
      body: '//4A',
      isBase64Encoded: true,
    });
    expect(encodeBody(new Uint8Array(0), false)).toEqual({ body: '', isBase64Encoded: false });
  });
});
