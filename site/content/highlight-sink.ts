/**
 * The output side of the highlighters: runs of source text tagged with a token kind, merged and
 * written as `<span class="tok-<kind>">` elements around HTML-escaped text. Spans never nest, so
 * removing them and unescaping gives back the source exactly.
 */
import { escapeHtml } from './escape.ts';

/** The token kinds the highlighters emit; each is a `tok-<kind>` class in the stylesheet. */
export type TokenKind =
  | 'keyword'
  | 'string'
  | 'number'
  | 'comment'
  | 'type'
  | 'punctuation'
  | 'property'
  | 'variable';

/** Collects tagged runs of text and renders them as HTML. */
export class TokenSink {
  #html = '';
  #kind: TokenKind | undefined;
  #pending = '';

  /** Appends `text` with `kind` (`undefined` for plain text); adjacent runs of one kind merge. */
  push(kind: TokenKind | undefined, text: string): void {
    if (text === '') return;
    if (kind !== this.#kind) {
      this.#flush();
      this.#kind = kind;
    }
    this.#pending += text;
  }

  /** The HTML of everything pushed so far. */
  html(): string {
    this.#flush();
    return this.#html;
  }

  #flush(): void {
    if (this.#pending === '') return;
    const text = escapeHtml(this.#pending);
    this.#html += this.#kind === undefined ? text : `<span class="tok-${this.#kind}">${text}</span>`;
    this.#pending = '';
  }
}

/** ASCII letter, digit, `_` or `$`: the characters of an identifier after its first. */
export function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || (code >= 48 && code <= 57);
}

/** ASCII letter, `_` or `$`. */
export function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

/** ASCII digit. */
export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Index of the next `\n` at or after `from`, or the end of `text`. */
export function endOfLine(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline === -1 ? text.length : newline;
}
