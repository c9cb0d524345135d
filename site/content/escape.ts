/**
 * HTML escaping for the site's renderers (HTML Living Standard §13.1.2 "Text" and §13.1.2.3
 * "Attributes"). Everything the site puts in a document goes through one of these.
 */

import { escapeHtml } from '@charter/core';

/** Escapes `& < > " '` so the text is inert in element content and in quoted attribute values. */
export { escapeHtml };

/**
 * Like `escapeHtml`, but keeps character references that are already well formed (`&copy;`, `&#65;`,
 * `&#x41;`) so that Markdown text such as `&copy;` shows the character, as CommonMark §2.5 asks. A
 * character reference can never open a tag, so keeping one is safe.
 */
export function escapeHtmlKeepingReferences(text: string): string {
  let out = '';
  let last = 0;
  let i = text.indexOf('&');
  while (i !== -1) {
    const length = referenceLength(text, i);
    if (length > 0) {
      out += escapeHtml(text.slice(last, i)) + text.slice(i, i + length);
      last = i + length;
    }
    i = text.indexOf('&', Math.max(i + 1, last));
  }
  return last === 0 ? escapeHtml(text) : out + escapeHtml(text.slice(last));
}

/** The few named references the plain-text extraction decodes; others stay as written. */
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '\u00a9',
  reg: '\u00ae',
  hellip: '\u2026',
  mdash: '\u2014',
  ndash: '\u2013',
  colon: ':',
  Tab: '\t',
  NewLine: '\n',
};

/**
 * Decodes numeric character references and a few named ones (`&amp;`, `&lt;`, `&colon;`...).
 * Used for plain text and for checking link destinations, where `&#106;avascript:` must be read as
 * the browser would read it.
 */
export function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const length = text.charAt(i) === '&' ? referenceLength(text, i) : 0;
    if (length === 0) {
      out += text.charAt(i);
      i++;
      continue;
    }
    const body = text.slice(i + 1, i + length - 1);
    const decoded = body.startsWith('#') ? decodeNumeric(body.slice(1)) : NAMED_REFERENCES[body];
    out += decoded ?? text.slice(i, i + length);
    i += length;
  }
  return out;
}

/** Reverses `escapeHtml` exactly (the five references it emits, nothing else). */
export function unescapeHtml(html: string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    const reference = html.charAt(i) === '&' ? UNESCAPES.find(([ref]) => html.startsWith(ref, i)) : undefined;
    if (reference === undefined) {
      out += html.charAt(i);
      i++;
    } else {
      out += reference[1];
      i += reference[0].length;
    }
  }
  return out;
}

/** The references `escapeHtml` emits, and the characters they stand for. */
const UNESCAPES: readonly (readonly [string, string])[] = [
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&quot;', '"'],
  ['&#39;', "'"],
];

/** Length of a well-formed character reference starting at `text[start] === '&'`, or 0. */
function referenceLength(text: string, start: number): number {
  let i = start + 1;
  if (text.charAt(i) === '#') {
    i++;
    const hex = text.charAt(i) === 'x' || text.charAt(i) === 'X';
    if (hex) i++;
    const digitsStart = i;
    while (i < text.length && i - digitsStart < 7 && isDigit(text.charCodeAt(i), hex)) i++;
    if (i === digitsStart || text.charAt(i) !== ';') return 0;
    return i + 1 - start;
  }
  const nameStart = i;
  while (i < text.length && i - nameStart < 32 && isAlphanumeric(text.charCodeAt(i))) i++;
  if (i === nameStart || text.charAt(i) !== ';') return 0;
  return i + 1 - start;
}

function decodeNumeric(body: string): string | undefined {
  const hex = body.startsWith('x') || body.startsWith('X');
  const code = Number.parseInt(hex ? body.slice(1) : body, hex ? 16 : 10);
  // CommonMark §2.5: invalid code points (0, surrogates, beyond U+10FFFF) become U+FFFD.
  if (!Number.isFinite(code)) return undefined;
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

function isDigit(code: number, hex: boolean): boolean {
  if (code >= 48 && code <= 57) return true;
  if (!hex) return false;
  return (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}
