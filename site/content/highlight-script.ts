/**
 * Highlighter for TypeScript and JavaScript (ECMA-262 §12 lexical grammar, simplified): one pass,
 * left to right, every step consumes at least one character, no regular expressions. Template
 * literals (§12.9.6) are strings whose `${...}` substitutions are highlighted as code, nested to any
 * depth. Regular expression literals are not recognised (telling them from division needs a parser);
 * their characters come out as punctuation and text.
 */
import { endOfLine, isDigit, isIdentifierPart, isIdentifierStart, type TokenSink } from './highlight-sink.ts';

/** Reserved words (ECMA-262 §12.7.2) and literals: keywords wherever they stand, except after `.`. */
const KEYWORDS: ReadonlySet<string> = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends ' +
    'false finally for function if import in instanceof let new null return super switch this throw true ' +
    'try typeof undefined var void while with yield'
  ).split(' '),
);

/**
 * Contextual keywords (TypeScript's among them): also ordinary names, so they count as keywords only
 * when not followed by `(` (a call: arktype's `type(...)`) or `:` (an object key), nor after `.`.
 */
const CONTEXTUAL_KEYWORDS: ReadonlySet<string> = new Set(
  (
    'abstract as asserts async declare from get implements infer interface is keyof module namespace of ' +
    'override private protected public readonly satisfies set static type unique using any boolean bigint ' +
    'never number object string symbol unknown'
  ).split(' '),
);

const PUNCTUATION = '{}[]();,.:?!=<>+-*/%&|^~@#';

/** Appends the highlighted `code` to `sink`. */
export function highlightScript(code: string, sink: TokenSink): void {
  // Brace depth inside each open `${` substitution, innermost last.
  const substitutions: number[] = [];
  let i = 0;
  while (i < code.length) {
    const char = code.charAt(i);
    const code0 = code.charCodeAt(i);
    if (char === '/' && code.charAt(i + 1) === '/') {
      const end = endOfLine(code, i);
      sink.push('comment', code.slice(i, end));
      i = end;
    } else if (char === '/' && code.charAt(i + 1) === '*') {
      const close = code.indexOf('*/', i + 2);
      const end = close === -1 ? code.length : close + 2;
      sink.push('comment', code.slice(i, end));
      i = end;
    } else if (char === '"' || char === "'") {
      const end = endOfQuoted(code, i);
      sink.push('string', code.slice(i, end));
      i = end;
    } else if (char === '`') {
      i = templateChunk(code, i + 1, sink, substitutions, '`');
    } else if (char === '}' && substitutions.length > 0 && substitutions.at(-1) === 0) {
      substitutions.pop();
      i = templateChunk(code, i + 1, sink, substitutions, '}');
    } else if (isIdentifierStart(code0)) {
      let end = i + 1;
      while (end < code.length && isIdentifierPart(code.charCodeAt(end))) end++;
      const word = code.slice(i, end);
      sink.push(wordKind(word, previousSignificant(code, i), nextSignificant(code, end)), word);
      i = end;
    } else if (isDigit(code0)) {
      let end = i + 1;
      // Covers 1_000, 0xff, 1e9, 1.5, 10n: digits, letters, `_` and `.` after a leading digit.
      while (end < code.length && (isIdentifierPart(code.charCodeAt(end)) || code.charAt(end) === '.')) end++;
      sink.push('number', code.slice(i, end));
      i = end;
    } else if (PUNCTUATION.includes(char)) {
      if (substitutions.length > 0 && (char === '{' || char === '}')) {
        const top = substitutions.length - 1;
        substitutions[top] = (substitutions[top] ?? 0) + (char === '{' ? 1 : -1);
      }
      sink.push('punctuation', char);
      i++;
    } else {
      sink.push(undefined, char);
      i++;
    }
  }
}

function wordKind(word: string, before: string, after: string): 'keyword' | 'type' | undefined {
  // `a.default`, `app.get`: a property name, whatever it is spelled like (but `...rest` is a spread).
  const isProperty = before === '.';
  if (!isProperty && KEYWORDS.has(word)) return 'keyword';
  if (!isProperty && CONTEXTUAL_KEYWORDS.has(word) && after !== '(' && after !== ':') return 'keyword';
  const first = word.charCodeAt(0);
  return first >= 65 && first <= 90 ? 'type' : undefined;
}

/** The character before `index`, skipping spaces and tabs; `''` at the start. */
function previousSignificant(code: string, index: number): string {
  let i = index - 1;
  while (i >= 0 && (code.charAt(i) === ' ' || code.charAt(i) === '\t')) i--;
  if (i < 0) return '';
  // A spread or rest (`...name`) is not a property access.
  return code.charAt(i) === '.' && code.charAt(i - 1) === '.' ? '' : code.charAt(i);
}

/** The character at or after `index`, skipping spaces and tabs; `''` at the end. */
function nextSignificant(code: string, index: number): string {
  let i = index;
  while (i < code.length && (code.charAt(i) === ' ' || code.charAt(i) === '\t')) i++;
  return code.charAt(i);
}

/** End (exclusive) of a `'...'` or `"..."` string starting at `start`; stops before an unescaped newline. */
function endOfQuoted(code: string, start: number): number {
  const quote = code.charAt(start);
  let i = start + 1;
  while (i < code.length) {
    const char = code.charAt(i);
    if (char === '\\') i += 2;
    else if (char === quote) return i + 1;
    else if (char === '\n') return i;
    else i++;
  }
  return code.length;
}

/**
 * Emits the template text from `from` (just after the opening `` ` `` or the `}` closing a
 * substitution) up to the closing `` ` `` or the next `${`; returns where scanning resumes.
 */
function templateChunk(
  code: string,
  from: number,
  sink: TokenSink,
  substitutions: number[],
  opener: '`' | '}',
): number {
  sink.push(opener === '`' ? 'string' : 'punctuation', opener);
  let i = from;
  while (i < code.length) {
    const char = code.charAt(i);
    if (char === '\\') {
      i += 2;
    } else if (char === '`') {
      sink.push('string', code.slice(from, i + 1));
      return i + 1;
    } else if (char === '$' && code.charAt(i + 1) === '{') {
      sink.push('string', code.slice(from, i));
      sink.push('punctuation', '${');
      substitutions.push(0);
      return i + 2;
    } else {
      i++;
    }
  }
  const end = Math.min(i, code.length);
  sink.push('string', code.slice(from, end));
  return end;
}
