// Base64url without padding (RFC 4648 §5), as JWS uses it (RFC 7515 §2, Appendix C).
//
// The decoder is strict: only the URL-safe alphabet, no `=` padding, no whitespace, and the unused
// low bits of the last character must be zero (RFC 4648 §3.5 allows refusing them). So every byte
// string has exactly one accepted spelling, and a token cannot be altered into a different string
// that still verifies (signature malleability).

import { encodeBase64Url } from '@charter/core';

/** Encodes bytes as base64url without padding (the core's encoder, RFC 4648 §5). */
export { encodeBase64Url };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

// Character code -> 6-bit value, or -1 outside the alphabet.
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/** Decodes canonical unpadded base64url; `undefined` for anything else (never throws). */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  // A lone trailing character carries only 6 bits: never a whole byte.
  if (text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let index = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (VALUES[code] as number) : -1;
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (buffer >> bits) & 0xff;
    }
  }
  // Leftover bits (2 or 4) must be zero for the encoding to be canonical.
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Encodes UTF-8 text as base64url. */
export function encodeBase64UrlText(text: string): string {
  return encodeBase64Url(encoder.encode(text));
}

/** Decodes base64url to UTF-8 text; `undefined` when either layer is invalid (never throws). */
export function decodeBase64UrlText(text: string): string | undefined {
  const bytes = decodeBase64Url(text);
  if (bytes === undefined) return undefined;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}
