// Hexadecimal digits (RFC 4648 §8 base16), shared by the percent-decoders (RFC 3986 §2.1), the IP
// parsers and the digest encoders, so each reads and writes hex the same way.

/** The value of one hex digit's char code (`0-9`, `a-f`, `A-F`), or -1 for any other character. */
export function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** Bytes as lowercase hex, two digits per byte (RFC 4648 §8). */
export function encodeHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}
