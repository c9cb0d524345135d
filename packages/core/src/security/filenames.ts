// Client-supplied file names and relative paths: path traversal (CWE-22), hidden and device names,
// and characters that make a name display differently from what it is (bidi overrides, CVE-2021-42574).
import { BadRequestError } from '../errors/index.ts';
import { hexValue } from './hex.ts';

/** What `sanitizeFilename` returns when nothing usable is left. */
export const FALLBACK_FILENAME = 'file';

/** The longest name, in UTF-8 bytes, most file systems store (ext4, APFS, NTFS in UTF-16 units). */
export const MAX_FILENAME_BYTES = 255;

// Removed outright, as they are invisible or rewrite the display order:
// - \p{Cc}: C0 controls (NUL, CR, LF...), DEL and the C1 controls.
// - \p{Cf}: format characters, among them the bidi embeddings, overrides and isolates
//   (U+202A-U+202E, U+2066-U+2069), the marks U+200E, U+200F, U+061C, the zero-width space and
//   joiners (U+200B-U+200D), the word joiner U+2060, the BOM U+FEFF, the soft hyphen U+00AD and
//   the tag characters U+E0000-U+E007F.
// - \p{Cs}: lone surrogates, which have no UTF-8 encoding.
// - \p{Zl}, \p{Zp}: U+2028 and U+2029, line breaks to many renderers and log readers.
// - U+034F and the Hangul fillers U+115F, U+1160, U+3164, U+FFA0: letters that draw nothing.
// One character class under the global flag: linear, no backtracking.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u034F\u115F\u1160\u3164\uFFA0]/gu;

// Path separators, and the characters Windows refuses in names (":" also opens NTFS streams).
const RESERVED_CHARS = /[/\\<>:"|?*]/g;

// Windows device names, reserved with any extension and any case ("nul.txt"), digits 0-9 and ¹²³.
const WINDOWS_DEVICE =
  /^(?:CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])$/i;

// Longest extension kept whole when a long name is shortened.
const MAX_EXTENSION_BYTES = 32;

const encoder = new TextEncoder();

function isTrimmable(code: number): boolean {
  // "." or whitespace: Windows drops them at the end of a name; at the start a dot hides the file
  // (`.htaccess`, `.env`) and is how `.` and `..` are spelled.
  return code === 0x2e || /\s/.test(String.fromCharCode(code));
}

function trimEnds(name: string, leading: boolean): string {
  let start = 0;
  let end = name.length;
  if (leading) while (start < end && isTrimmable(name.charCodeAt(start))) start++;
  while (end > start && isTrimmable(name.charCodeAt(end - 1))) end--;
  return name.slice(start, end);
}

function isWindowsDevice(name: string): boolean {
  const dot = name.indexOf('.');
  const stem = dot === -1 ? name : name.slice(0, dot);
  return WINDOWS_DEVICE.test(trimEnds(stem, false));
}

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** The longest prefix of `text` within `budget` UTF-8 bytes, cut between code points. */
function cutToBytes(text: string, budget: number): string {
  let used = 0;
  let out = '';
  for (const char of text) {
    const size = utf8Length(char);
    if (used + size > budget) break;
    used += size;
    out += char;
  }
  return out;
}

function shorten(name: string): string {
  if (utf8Length(name) <= MAX_FILENAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  let extension = dot > 0 ? name.slice(dot) : '';
  if (utf8Length(extension) > MAX_EXTENSION_BYTES) extension = '';
  const stem = extension === '' ? name : name.slice(0, dot);
  return cutToBytes(stem, MAX_FILENAME_BYTES - utf8Length(extension)) + extension;
}

/**
 * A file name safe to store and to show: no path separators or Windows-reserved characters (`_`
 * in their place), no leading dots or whitespace (no hidden files, no `..`), no trailing dots or
 * whitespace, no control, bidi or invisible format characters, no Windows device name (`CON`
 * becomes `_CON`), at most 255 UTF-8 bytes (the extension kept when it is short), never empty
 * (`file`). Idempotent.
 */
export function sanitizeFilename(name: string): string {
  let out = String(name).replace(INVISIBLE, '').replace(RESERVED_CHARS, '_');
  out = trimEnds(out, true);
  if (out !== '' && isWindowsDevice(out)) out = `_${out}`;
  // Shortening can end the name in a dot or space again, or (for "CON" followed by spaces and
  // more text) leave a bare device name; the last two steps settle both.
  out = trimEnds(shorten(out), true);
  if (out === '') return FALLBACK_FILENAME;
  return isWindowsDevice(out) ? `_${out}` : out;
}

const ENCODED_SPECIAL = new Set([0x00, 0x25, 0x2e, 0x2f, 0x3a, 0x5c, 0xc0, 0xc1]);

/** Why `path` is unsafe, or undefined. */
function unsafeReason(path: string): string | undefined {
  if (path.length === 0) return 'it is empty';
  const first = path.charCodeAt(0);
  if (first === 0x2f || first === 0x5c) return 'it is absolute';
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return 'it contains a control character';
    // `C:\x`, `C:x` (drive-relative), `file:...`, `name::$DATA` (NTFS stream): all refused.
    if (c === 0x3a) return 'it contains ":" (a drive letter, scheme or stream)';
    if (c === 0x25 && i + 2 < path.length) {
      const high = hexValue(path.charCodeAt(i + 1));
      const low = hexValue(path.charCodeAt(i + 2));
      // A second decode would turn these into ".", "/", "\", ":", NUL or another escape;
      // %C0/%C1 start overlong UTF-8 forms of the same.
      if (high >= 0 && low >= 0 && ENCODED_SPECIAL.has(high * 16 + low)) {
        return 'it contains a percent-encoded dot, separator, colon, NUL or percent sign';
      }
    }
  }
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    const c = i < path.length ? path.charCodeAt(i) : 0x2f;
    if (c !== 0x2f && c !== 0x5c) continue;
    if (isDotSegment(path, start, i)) return 'it has a ".." segment';
    start = i + 1;
  }
  return undefined;
}

/** True for a segment of dots and spaces holding two dots or more: `..`, `...`, `.. ` (Windows trims the spaces). */
function isDotSegment(path: string, start: number, end: number): boolean {
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x2e) dots++;
    else if (c !== 0x20) return false;
  }
  return dots >= 2;
}

/**
 * Throws a 400 unless `p` is a relative path that stays below its base: refuses empty paths,
 * absolute forms (`/x`, `\x`, `C:\x`, `C:x`, `\\server`), `..` segments with either separator,
 * control characters (NUL included), any `:`, and percent-encoded dots, separators and `%`. The
 * checks run on `p` and on its NFKC form, which folds look-alikes such as U+FF0F (fullwidth
 * solidus) and U+2024 (one dot leader) into `/` and `.`. The detail names `where`, never the path.
 */
export function assertSafeRelativePath(p: string, where = 'path'): void {
  if (typeof p !== 'string') throw new BadRequestError(`The ${where} is not a string`);
  const folded = p.normalize('NFKC');
  const reason = unsafeReason(p) ?? (folded === p ? undefined : unsafeReason(folded));
  if (reason !== undefined) throw new BadRequestError(`The ${where} is not a safe relative path: ${reason}`);
}
