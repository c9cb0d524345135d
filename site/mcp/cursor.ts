/**
 * `list_docs` cursors. A cursor is opaque to the client (MCP 2025-11-25 "Pagination"): here it is
 * the base64url (RFC 4648 §5) of `<offset>.<fingerprint>`, where the fingerprint is the first 64
 * bits of a SHA-256 over every page's path, title, description and Markdown, in reading order. A
 * cursor from another build of the site (pages added, moved or edited) no longer matches and is
 * refused, rather than silently skipping or repeating pages. Cursors are not secret and not
 * signed: they only select a page of a public list.
 */
import { decodeBase64Url, encodeBase64Url } from '@charter/core';
import type { Page } from '../content/types.ts';

/** Longest cursor examined; longer ones are refused without decoding. */
export const MAX_CURSOR_LENGTH = 128;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The fingerprint of a build of the content: 16 hex digits. */
export function contentFingerprint(pages: readonly Page[]): string {
  // Bun's own hasher: the site runs on Bun, and `node:crypto` would load Node's stream modules
  // with the executable (an ESM import of a built-in is evaluated at start, not on first use).
  const hash = new Bun.CryptoHasher('sha256');
  for (const page of pages) {
    // NUL separates fields: it cannot occur in a path or in front matter.
    hash.update(`${page.path}\0${page.title}\0${page.description}\0${page.markdown}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The cursor for the page list starting at `offset`. */
export function encodeListCursor(offset: number, fingerprint: string): string {
  return encodeBase64Url(encoder.encode(`${offset}.${fingerprint}`));
}

function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > 9) return false;
  for (const char of text) if (char < '0' || char > '9') return false;
  return true;
}

/**
 * The offset a cursor names, or undefined when it is malformed, was issued by another build
 * (fingerprint mismatch), or points outside the list (an issued cursor is always 0 < offset < total).
 */
export function decodeListCursor(cursor: string, fingerprint: string, total: number): number | undefined {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return undefined;
  const bytes = decodeBase64Url(cursor);
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return undefined;
  }
  const dot = text.indexOf('.');
  if (dot === -1) return undefined;
  const digits = text.slice(0, dot);
  if (!isDigits(digits) || (digits.length > 1 && digits[0] === '0')) return undefined;
  if (text.slice(dot + 1) !== fingerprint) return undefined;
  const offset = Number(digits);
  return offset > 0 && offset < total ? offset : undefined;
}
