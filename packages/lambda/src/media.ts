/**
 * Text or binary: a buffered Lambda response carries its body in a JSON string, as text or as base64
 * with `isBase64Encoded: true`. The rule follows the one the ALB documents for request bodies (text/*,
 * application/json, application/javascript and application/xml as they are; everything else base64),
 * widened to the structured-syntax suffixes of RFC 6839 and a few text formats an API sends.
 */
import { Buffer } from 'node:buffer';

const TEXT_TYPES = new Set([
  'application/json',
  'application/javascript',
  'application/ecmascript',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/yaml',
  'application/graphql',
]);

/**
 * Whether a response body goes out as text. Text when its media type is `text/*`, one of TEXT_TYPES,
 * ends in `+json` or `+xml` (RFC 6839 §3.1, §4.1: problem documents, JSON-LD, SVG), or the Content-Type
 * names a charset; never when a Content-Encoding (gzip, br) made it bytes. Everything else (images,
 * application/octet-stream, PDF, no Content-Type) is binary.
 */
export function isTextual(contentType: string | null, contentEncoding: string | null): boolean {
  if (contentEncoding !== null && contentEncoding.trim().toLowerCase() !== 'identity') return false;
  if (contentType === null) return false;
  const lower = contentType.toLowerCase();
  const semicolon = lower.indexOf(';');
  const essence = (semicolon < 0 ? lower : lower.slice(0, semicolon)).trim();
  if (essence.startsWith('text/')) return true;
  if (TEXT_TYPES.has(essence)) return true;
  if (essence.endsWith('+json') || essence.endsWith('+xml')) return true;
  return semicolon >= 0 && /(?:^|;)\s*charset\s*=/.test(lower.slice(semicolon));
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as a JSON-safe string: text when the rule says so and it is UTF-8, else base64. */
export function encodeBody(bytes: Uint8Array, textual: boolean): { body: string; isBase64Encoded: boolean } {
  if (bytes.byteLength === 0) return { body: '', isBase64Encoded: false };
  if (textual) {
    try {
      return { body: fatalDecoder.decode(bytes), isBase64Encoded: false };
    } catch {
      // Declared as text but not UTF-8 (a Latin-1 page): base64 keeps every byte.
    }
  }
  return {
    body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    isBase64Encoded: true,
  };
}
