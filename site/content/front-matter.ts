/**
 * Front matter of a content page. The grammar is deliberately tiny, so it is parsed by hand rather
 * than with a YAML library:
 *
 * ```text
 * file         = open *line close body
 * open         = "---" EOL                     ; the very first line of the file (a UTF-8 BOM is skipped)
 * close        = "---" (EOL / end of file)
 * line         = blank / entry
 * blank        = *WSP EOL
 * entry        = key ":" *WSP value *WSP EOL
 * key          = "title" / "description" / "order"   ; each exactly once, no other key
 * value        = quoted / bare
 * quoted       = DQUOTE *( char-except-DQUOTE-and-backslash / "\" DQUOTE / "\" "\" ) DQUOTE
 * bare         = 1*char                        ; taken verbatim after trimming spaces and tabs
 * order        = ["-"] 1*DIGIT                 ; bare, a safe integer
 * EOL          = LF / CRLF
 * ```
 *
 * `title` and `description` must not be empty. The body is everything after the closing line, with
 * leading blank lines removed.
 */
import { ContentError } from './content-error.ts';
import type { FrontMatter } from './types.ts';

/** A parsed file: its front matter and the Markdown after it. */
export interface ParsedFrontMatter {
  readonly frontMatter: FrontMatter;
  /** The Markdown body without the front matter block. */
  readonly body: string;
  /** 1-based line of the file on which `body` starts (for error messages about the body). */
  readonly bodyLine: number;
}

const KEYS = ['title', 'description', 'order'] as const;
type Key = (typeof KEYS)[number];

/** Parses the `---` front matter block at the start of `text`; throws `ContentError` naming `file:line`. */
export function parseFrontMatter(text: string, file: string): ParsedFrontMatter {
  const source = text.startsWith('\ufeff') ? text.slice(1) : text;
  const lines = source.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines[0] !== '---') {
    throw new ContentError(file, 1, "missing front matter: the file must start with a '---' line");
  }
  const values = new Map<Key, Entry>();
  let close = -1;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const lineNumber = index + 1;
    if (line === '---') {
      close = index;
      break;
    }
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon === -1) {
      throw new ContentError(file, lineNumber, `expected 'key: value', got ${JSON.stringify(line)}`);
    }
    const key = line.slice(0, colon);
    if (!isKey(key)) {
      throw new ContentError(
        file,
        lineNumber,
        `unknown front matter key ${JSON.stringify(key)} (allowed: ${KEYS.join(', ')})`,
      );
    }
    const previous = values.get(key);
    if (previous !== undefined) {
      throw new ContentError(file, lineNumber, `duplicate key '${key}' (first set on line ${previous.line})`);
    }
    values.set(key, { ...parseValue(line.slice(colon + 1), file, lineNumber), line: lineNumber });
  }
  if (close === -1) {
    throw new ContentError(file, 1, "front matter is never closed: add a '---' line after it");
  }
  const closeLine = close + 1;
  for (const key of KEYS) {
    if (!values.has(key)) throw new ContentError(file, closeLine, `missing front matter key '${key}'`);
  }
  const title = requireText(values, 'title', file);
  const description = requireText(values, 'description', file);
  const order = parseOrder(values, file);
  let bodyIndex = close + 1;
  while (bodyIndex < lines.length && (lines[bodyIndex] ?? '').trim() === '') bodyIndex++;
  const body = lines.slice(bodyIndex).join('\n');
  return { frontMatter: { title, description, order }, body, bodyLine: bodyIndex + 1 };
}

interface Entry {
  readonly value: string;
  readonly quoted: boolean;
  readonly line: number;
}

function isKey(key: string): key is Key {
  return (KEYS as readonly string[]).includes(key);
}

function parseValue(raw: string, file: string, line: number): { value: string; quoted: boolean } {
  const value = raw.trim();
  if (!value.startsWith('"')) return { value, quoted: false };
  let out = '';
  for (let i = 1; i < value.length; i++) {
    const char = value.charAt(i);
    if (char === '"') {
      if (i !== value.length - 1) {
        throw new ContentError(file, line, 'unexpected text after the closing quote');
      }
      return { value: out, quoted: true };
    }
    if (char === '\\') {
      const next = value.charAt(i + 1);
      if (next !== '"' && next !== '\\') {
        throw new ContentError(file, line, `unsupported escape '\\${next}' (only \\" and \\\\)`);
      }
      out += next;
      i++;
      continue;
    }
    out += char;
  }
  throw new ContentError(file, line, 'unterminated quoted string');
}

function requireText(values: Map<Key, Entry>, key: Key, file: string): string {
  const entry = values.get(key);
  if (entry === undefined || entry.value === '') {
    throw new ContentError(file, entry?.line, `'${key}' must not be empty`);
  }
  return entry.value;
}

function parseOrder(values: Map<Key, Entry>, file: string): number {
  const entry = values.get('order');
  const raw = entry?.value ?? '';
  const digits = raw.startsWith('-') ? raw.slice(1) : raw;
  let valid = digits.length > 0 && entry?.quoted === false;
  for (let i = 0; i < digits.length && valid; i++) {
    const code = digits.charCodeAt(i);
    valid = code >= 48 && code <= 57;
  }
  const order = Number(raw);
  if (!valid || !Number.isSafeInteger(order)) {
    throw new ContentError(file, entry?.line, `'order' must be an integer, got ${JSON.stringify(raw)}`);
  }
  return order === 0 ? 0 : order; // '-0' reads as 0
}
