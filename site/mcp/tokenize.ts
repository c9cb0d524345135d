/**
 * The tokeniser shared by the search index and its queries. A word is a run of Unicode letters,
 * digits and combining marks; runs joined by a single `_` or `-` form one compound word
 * (`search_docs`, `rate-limit`). Each word yields its whole form, lower-cased (so `createMcpHandler`
 * matches exactly), and, when it has several parts, each part too: the `_`/`-` pieces, each split
 * again at camelCase boundaries (`createMcpHandler` -> `create`, `mcp`, `handler`). Terms are
 * NFKC-normalised and lower-cased. Plain scanning plus one character-class regex with a single
 * quantifier: linear in the input.
 */

/** Longest term kept, in code points; longer words are cut (on both the index and the query side). */
export const MAX_TERM_LENGTH = 64;

/** One term of a text and where it came from (UTF-16 offsets into the text, end exclusive). */
export interface Token {
  readonly term: string;
  readonly start: number;
  readonly end: number;
  /** A part of a compound or camelCase word, rather than the whole word. */
  readonly part: boolean;
}

/** One word of a query: its whole term and, for a compound word, its part terms (else empty). */
export interface QueryWord {
  readonly whole: string;
  readonly parts: readonly string[];
}

// One quantifier over one character class: no backtracking blow-up is possible.
const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;

/** The index term of a piece of text: NFKC, lower case, at most MAX_TERM_LENGTH code points. */
export function normalizeTerm(text: string): string {
  const term = text.normalize('NFKC').toLowerCase();
  if (term.length <= MAX_TERM_LENGTH) return term;
  return Array.from(term).slice(0, MAX_TERM_LENGTH).join('');
}

const DIGIT = /^\p{N}$/u;

function isUpper(char: string): boolean {
  return char !== char.toLowerCase();
}

function isLower(char: string): boolean {
  return char !== char.toUpperCase();
}

/**
 * The camelCase pieces of one run, as offsets: a boundary falls between a lower-case and an
 * upper-case letter (`create|Mcp`), and before the last capital of an acronym that starts a word
 * (`HTTP|Server`), and between a digit and a capital (`base64|Url`). Digits stay with the letters
 * before them (`base64`, `sha256`).
 */
function camelPieces(text: string, start: number, end: number): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  let pieceStart = start;
  let prev = '';
  let i = start;
  while (i < end) {
    const code = text.codePointAt(i) as number;
    const char = String.fromCodePoint(code);
    const width = char.length;
    const nextChar = i + width < end ? String.fromCodePoint(text.codePointAt(i + width) as number) : '';
    const boundary =
      prev !== '' &&
      isUpper(char) &&
      (isLower(prev) || DIGIT.test(prev) || (isUpper(prev) && nextChar !== '' && isLower(nextChar)));
    if (boundary && i > pieceStart) {
      pieces.push([pieceStart, i]);
      pieceStart = i;
    }
    prev = char;
    i += width;
  }
  pieces.push([pieceStart, end]);
  return pieces;
}

/** The word runs of a text, grouped into words (runs joined by exactly one `_` or `-`). */
function words(text: string): Array<Array<[number, number]>> {
  const groups: Array<Array<[number, number]>> = [];
  let current: Array<[number, number]> | undefined;
  let lastEnd = -2;
  for (const match of text.matchAll(WORD_RUN)) {
    const start = match.index;
    const end = start + match[0].length;
    const joined =
      current !== undefined && start === lastEnd + 1 && (text[lastEnd] === '_' || text[lastEnd] === '-');
    if (joined) (current as Array<[number, number]>).push([start, end]);
    else {
      current = [[start, end]];
      groups.push(current);
    }
    lastEnd = end;
  }
  return groups;
}

/**
 * Every term of a text with its offsets, in text order: for each word its whole term, then its
 * parts when it has more than one.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const runs of words(text)) {
    const first = runs[0] as [number, number];
    const last = runs[runs.length - 1] as [number, number];
    const start = first[0];
    const end = last[1];
    const pieces = runs.flatMap(([s, e]) => camelPieces(text, s, e));
    tokens.push({ term: normalizeTerm(text.slice(start, end)), start, end, part: false });
    if (pieces.length > 1) {
      for (const [s, e] of pieces)
        tokens.push({ term: normalizeTerm(text.slice(s, e)), start: s, end: e, part: true });
    }
  }
  return tokens;
}

/** The words of a query, in order, without repeats, at most `maxWords` of them. */
export function queryWords(query: string, maxWords: number): QueryWord[] {
  const out: QueryWord[] = [];
  const seen = new Set<string>();
  let current: { whole: string; parts: string[] } | undefined;
  for (const token of tokenize(query)) {
    if (token.part) {
      current?.parts.push(token.term);
      continue;
    }
    if (seen.has(token.term)) {
      current = undefined;
      continue;
    }
    if (out.length >= maxWords) break;
    seen.add(token.term);
    current = { whole: token.term, parts: [] };
    out.push(current);
  }
  return out;
}
