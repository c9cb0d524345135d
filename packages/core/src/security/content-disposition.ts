// Content-Disposition for downloads (RFC 6266), with the RFC 8187 extended value for names that
// plain ASCII cannot carry.
import { sanitizeFilename } from './filenames.ts';
import { isHttpToken } from './header-guards.ts';

const encoder = new TextEncoder();

// attr-char (RFC 8187 §3.2.1): ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~".
function isAttrChar(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    '!#$&+-.^_`|~'.includes(String.fromCharCode(byte))
  );
}

/** The RFC 8187 value-chars of `text`: UTF-8 bytes, every one outside attr-char percent-encoded. */
function encodeExtValue(text: string): string {
  let out = '';
  for (const byte of encoder.encode(text)) {
    out += isAttrChar(byte)
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function isAsciiAlnum(char: string): boolean {
  return (char >= '0' && char <= '9') || (char >= 'A' && char <= 'Z') || (char >= 'a' && char <= 'z');
}

/**
 * The ASCII stand-in for one character of the name: itself when printable ASCII; else the letters
 * and digits of its compatibility decomposition (`é` -> `e`, `Ａ` -> `A`); else `_`. Only letters
 * and digits are taken from a decomposition: `℀` decomposes to `a/c`, and a separator must not
 * come back that way. `%` is replaced too: RFC 6266 Appendix D warns some agents decode `%xx` in
 * `filename`.
 */
function asciiFor(char: string): string {
  const code = char.charCodeAt(0);
  if (char.length === 1 && code >= 0x20 && code <= 0x7e) return char === '%' ? '_' : char;
  let kept = '';
  for (const part of char.normalize('NFKD')) if (isAsciiAlnum(part)) kept += part;
  return kept === '' ? '_' : kept;
}

/**
 * A Content-Disposition value for sending `filename` (RFC 6266 §4): the name is sanitised, then
 * sent as a quoted ASCII `filename` and, when that had to differ from it, as well as
 * `filename*=UTF-8''<percent-encoded>` (RFC 8187), which agents prefer (RFC 6266 §4.3).
 * `filename` comes first for agents that take the first parameter (RFC 6266 Appendix D).
 * `type` is `attachment` (default), `inline` or another token; a TypeError otherwise.
 */
export function contentDisposition(filename: string, type = 'attachment'): string {
  if (typeof type !== 'string' || !isHttpToken(type)) {
    throw new TypeError('contentDisposition type must be a token such as "attachment" or "inline"');
  }
  const name = sanitizeFilename(filename);
  let ascii = '';
  for (const char of name) ascii += asciiFor(char);
  // The stand-in is sanitised as well: `ＣＯＮ` folds to the device name `CON`.
  ascii = sanitizeFilename(ascii);
  // quoted-string (RFC 9110 §5.6.4): escape `"` and `\`. The sanitiser already maps both to `_`;
  // the escape keeps the header valid even so.
  const quoted = ascii.replace(/["\\]/g, (char) => `\\${char}`);
  const header = `${type}; filename="${quoted}"`;
  return ascii === name ? header : `${header}; filename*=UTF-8''${encodeExtValue(name)}`;
}
