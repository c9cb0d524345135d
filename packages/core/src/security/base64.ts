/**
 * Base64 (RFC 4648 §4) and base64url (§5), one codec for every format that needs it: JWS (url, no
 * padding), PHC strings (standard, no padding), HTTP Basic credentials (standard, padded). The decoder
 * is strict: only the chosen alphabet, padding exactly as asked, no whitespace, and the unused low bits
 * of the last character must be zero (§3.5 allows refusing them), so every byte string has exactly one
 * accepted spelling and an encoded credential or signature cannot be altered into another that decodes
 * to the same bytes.
 */

/** Which RFC 4648 alphabet: `base64` (`+/`, §4) or `base64url` (`-_`, §5). */
export type Base64Alphabet = 'base64' | 'base64url';

const DIGITS: Readonly<Record<Base64Alphabet, string>> = {
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
};

/** Character code -> 6-bit value (or -1), per alphabet. */
const VALUES: Readonly<Record<Base64Alphabet, Int8Array>> = {
  base64: valueTable(DIGITS.base64),
  base64url: valueTable(DIGITS.base64url),
};

function valueTable(digits: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < digits.length; i++) table[digits.charCodeAt(i)] = i;
  return table;
}

/** Encodes bytes; `pad` adds `=` to a multiple of four characters (default false). */
export function encodeBase64(
  bytes: Uint8Array,
  alphabet: Base64Alphabet = 'base64',
  options: { pad?: boolean } = {},
): string {
  const digits = DIGITS[alphabet];
  const digit = (n: number): string => digits.charAt(n & 63);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const remaining = bytes.length - i;
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    // 1 byte gives 2 digits, 2 give 3, 3 give 4.
    out += digit(n >> 18) + digit(n >> 12);
    if (remaining > 1) out += digit(n >> 6);
    if (remaining > 2) out += digit(n);
  }
  if (options.pad === true) out += '='.repeat((4 - (out.length % 4)) % 4);
  return out;
}

/** Base64url without padding (RFC 4648 §5). */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes, 'base64url');
}

/**
 * Decodes canonical base64; undefined for anything else (never throws). With `padded: true` the text
 * must be padded to a multiple of four characters; otherwise it must carry no `=` at all.
 */
export function decodeBase64(
  text: string,
  alphabet: Base64Alphabet = 'base64',
  options: { padded?: boolean } = {},
): Uint8Array<ArrayBuffer> | undefined {
  let digits = text.length;
  if (options.padded === true) {
    if (text.length % 4 !== 0) return undefined;
    if (text.endsWith('==')) digits -= 2;
    else if (text.endsWith('=')) digits -= 1;
  }
  // A lone trailing character carries only 6 bits: never a whole byte.
  if (digits % 4 === 1) return undefined;
  const values = VALUES[alphabet];
  const out = new Uint8Array(Math.floor((digits * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let index = 0;
  for (let i = 0; i < digits; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (values[code] as number) : -1;
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

/** Decodes canonical unpadded base64url (RFC 4648 §5); undefined for anything else. */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  return decodeBase64(text, 'base64url');
}

/** True when `text` is `length` characters of the base64url alphabet (a token's shape, before any lookup). */
export function isBase64UrlOfLength(text: string, length: number): boolean {
  if (text.length !== length) return false;
  const values = VALUES.base64url;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || (values[code] as number) < 0) return false;
  }
  return true;
}
