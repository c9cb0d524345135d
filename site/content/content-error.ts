/**
 * The one error the content pipeline throws: a problem in a file of `content/`, found at start-up.
 * The message starts with `<file>:<line>: ` (or `<file>: ` when no line applies), like a compiler's.
 */

/** A content file that cannot be parsed, placed or rendered (bad front matter, broken link...). */
export class ContentError extends Error {
  override readonly name = 'ContentError';
  /** Path relative to `content/`: `docs/jwt.md`. */
  readonly file: string;
  /** 1-based line of the problem in the file, when known. */
  readonly line: number | undefined;

  constructor(file: string, line: number | undefined, message: string) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${message}`);
    this.file = file;
    this.line = line;
  }
}
