// Base64url without padding (RFC 4648 §5), as JWS uses it (RFC 7515 §2, Appendix C).
//
// The decoder is strict: only the URL-safe alphabet, no `=` padding, no whitespace, and the unused
// low bits of the last character must be zero (RFC 4648 §3.5 allows refusing them). So every byte
// string has exactly one accepted spelling, and a token cannot be altered into a different string
// that still verifies (signature malleability).

import { decodeBase64Url, encodeBase64Url } from '@charter/core';

/** The core's strict codec (RFC 4648 §5, no padding, canonical only). */
export { decodeBase64Url, encodeBase64Url };

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
