/**
 * Which link and image destinations a page may carry. The check reads the destination the way a
 * browser's URL parser will (WHATWG URL Standard §4.4 "URL parsing": leading and trailing C0 controls
 * and spaces are stripped, ASCII tab and newline removed anywhere, the scheme is ASCII-case-insensitive),
 * so `java\tscript:`, ` JaVaScRiPt:` or `&#106;avascript:` cannot slip through as a "relative" URL.
 */
import { decodeReferences } from './escape.ts';

/** Schemes a link or image may use; anything else (`javascript:`, `data:`, `vbscript:`...) is refused. */
export const ALLOWED_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto']);

/** A destination that passed the check, with what the renderer needs to know about it. */
export interface SafeUrl {
  /** The destination as it will be written (still to be attribute-escaped). */
  readonly href: string;
  /** `http`, `https`, `mailto`, or `undefined` for a relative URL or a `#fragment`. */
  readonly scheme: string | undefined;
}

/** Checks a Markdown link destination; `undefined` means "render the text without a link". */
export function safeUrl(destination: string): SafeUrl | undefined {
  // CommonMark §6.3: character references in destinations are decoded before use.
  const href = stripTabsAndNewlines(trimControlsAndSpaces(decodeReferences(destination)));
  for (let i = 0; i < href.length; i++) {
    const code = href.charCodeAt(i);
    // Other control characters have no business in a link and only serve to confuse parsers.
    if (code < 0x20 || code === 0x7f) return undefined;
  }
  const scheme = schemeOf(href);
  if (scheme === undefined) return { href, scheme };
  return ALLOWED_SCHEMES.has(scheme) ? { href, scheme } : undefined;
}

/**
 * The lower-cased scheme of a URL string, or `undefined` when it has none. URL Standard §4.4 "scheme
 * start state": an ASCII alpha, then ASCII alphanumerics, `+`, `-`, `.`, then `:`.
 */
export function schemeOf(url: string): string | undefined {
  if (!isAsciiAlpha(url.charCodeAt(0))) return undefined;
  for (let i = 1; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 58 /* : */) return url.slice(0, i).toLowerCase();
    if (!isAsciiAlpha(code) && !isDigit(code) && code !== 43 && code !== 45 && code !== 46) return undefined;
  }
  return undefined;
}

function trimControlsAndSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

function stripTabsAndNewlines(text: string): string {
  let out = '';
  for (const char of text) if (char !== '\t' && char !== '\n' && char !== '\r') out += char;
  return out;
}

function isAsciiAlpha(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
