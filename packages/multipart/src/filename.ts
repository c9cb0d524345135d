// The filename rules of fileField. RFC 7578 §4.2: the filename parameter is advisory and a receiver must
// not use it as a path; these rules refuse the names that would escape or confuse a directory anyway.
import { isControlCode } from './accept.ts';

/** Rules for the client's file name. */
export interface FilenameRules {
  /** Most characters (Unicode code points); default 255, the usual file-system name limit. */
  maxLength?: number;
  /** A pattern the whole name must match (no `g` or `y` flag: those make `test` stateful). */
  pattern?: RegExp;
}

/** `FilenameRules` with the default filled in. */
export interface ResolvedFilenameRules {
  readonly maxLength: number;
  readonly pattern: RegExp | undefined;
}

/** Default `filename.maxLength`: 255, NAME_MAX on common file systems (ext4, APFS, NTFS). */
export const DEFAULT_FILENAME_MAX_LENGTH = 255;

/** Checks `filename` rules; throws a TypeError or RangeError naming the option. */
export function resolveFilenameRules(rules: unknown): ResolvedFilenameRules {
  if (rules === undefined)
    return Object.freeze({ maxLength: DEFAULT_FILENAME_MAX_LENGTH, pattern: undefined });
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    throw new TypeError('fileField: filename must be an object { maxLength?, pattern? }');
  }
  const { maxLength, pattern } = rules as FilenameRules;
  if (maxLength !== undefined && (!Number.isSafeInteger(maxLength) || maxLength < 1)) {
    throw new RangeError(
      `fileField: filename.maxLength must be a positive integer, got ${String(maxLength)}`,
    );
  }
  if (pattern !== undefined) {
    if (!(pattern instanceof RegExp)) throw new TypeError('fileField: filename.pattern must be a RegExp');
    if (pattern.global || pattern.sticky) {
      throw new TypeError(
        'fileField: filename.pattern must not have the g or y flag (test() would keep state)',
      );
    }
  }
  return Object.freeze({ maxLength: maxLength ?? DEFAULT_FILENAME_MAX_LENGTH, pattern });
}

/**
 * Why a file name is refused, or undefined when it is acceptable. Always refused: an empty name, `.` and
 * `..`, a path separator (`/` or `\`), and control characters (C0, DEL, C1; NUL included). The messages
 * say what is wrong without repeating the name.
 */
export function filenameIssue(name: string, rules: ResolvedFilenameRules): string | undefined {
  if (name.length === 0) return 'The file has no name';
  if (name === '.' || name === '..') return 'The file name must not be "." or ".."';
  let length = 0;
  for (const char of name) {
    const code = char.codePointAt(0) as number;
    if (code === 0x2f || code === 0x5c) return 'The file name must not contain a path separator (/ or \\)';
    if (isControlCode(code)) return 'The file name must not contain control characters';
    length++;
  }
  if (length > rules.maxLength) return `The file name is longer than ${rules.maxLength} characters`;
  if (rules.pattern !== undefined && !rules.pattern.test(name)) {
    return 'The file name does not match the required pattern';
  }
  return undefined;
}
