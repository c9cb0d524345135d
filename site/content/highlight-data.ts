/**
 * Highlighters for JSON (RFC 8259), HTTP/1.1 messages (RFC 9112 §2.1: start line, header fields,
 * blank line, body) and POSIX shell (simplified). Each is one left-to-right pass in which every step
 * consumes at least one character.
 */
import { endOfLine, isDigit, isIdentifierPart, type TokenSink } from './highlight-sink.ts';

const JSON_PUNCTUATION = '{}[]:,';

/** JSON: strings (object member names as `property`), numbers, `true`/`false`/`null`, punctuation. */
export function highlightJson(code: string, sink: TokenSink): void {
  let i = 0;
  while (i < code.length) {
    const char = code.charAt(i);
    if (char === '"') {
      const end = endOfJsonString(code, i);
      let after = end;
      while (after < code.length && (code.charAt(after) === ' ' || code.charAt(after) === '\t')) after++;
      sink.push(code.charAt(after) === ':' ? 'property' : 'string', code.slice(i, end));
      i = end;
    } else if (isDigit(code.charCodeAt(i)) || (char === '-' && isDigit(code.charCodeAt(i + 1)))) {
      let end = i + 1;
      while (end < code.length && isNumberPart(code.charAt(end))) end++;
      sink.push('number', code.slice(i, end));
      i = end;
    } else if (isIdentifierPart(code.charCodeAt(i))) {
      let end = i + 1;
      while (end < code.length && isIdentifierPart(code.charCodeAt(end))) end++;
      const word = code.slice(i, end);
      sink.push(word === 'true' || word === 'false' || word === 'null' ? 'keyword' : undefined, word);
      i = end;
    } else {
      sink.push(JSON_PUNCTUATION.includes(char) ? 'punctuation' : undefined, char);
      i++;
    }
  }
}

function isNumberPart(char: string): boolean {
  return (
    isDigit(char.charCodeAt(0)) ||
    char === '.' ||
    char === 'e' ||
    char === 'E' ||
    char === '+' ||
    char === '-'
  );
}

/** End (exclusive) of a JSON string starting at `start`; an unterminated string stops at the line end. */
function endOfJsonString(code: string, start: number): number {
  let i = start + 1;
  while (i < code.length) {
    const char = code.charAt(i);
    if (char === '\\') i += 2;
    else if (char === '"') return i + 1;
    else if (char === '\n') return i;
    else i++;
  }
  return code.length;
}

const HTTP_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
  'QUERY',
]);

/**
 * HTTP messages: the start line (method and version as keywords, status code as a number), header
 * field names as `property`, and the body after the blank line highlighted as JSON. A later start
 * line (a response after its request) begins a new message.
 */
export function highlightHttp(code: string, sink: TokenSink): void {
  let state: 'start' | 'headers' | 'body' = 'start';
  let i = 0;
  while (i <= code.length) {
    const end = endOfLine(code, i);
    const line = code.slice(i, end);
    if (state === 'body' && isStartLine(line)) state = 'start';
    if (state === 'start') {
      if (line.trim() !== '') {
        startLine(line, sink);
        state = 'headers';
      } else {
        sink.push(undefined, line);
      }
    } else if (state === 'headers') {
      const colon = line.indexOf(':');
      if (line.trim() === '') {
        sink.push(undefined, line);
        state = 'body';
      } else if (colon > 0) {
        sink.push('property', line.slice(0, colon));
        sink.push('punctuation', ':');
        sink.push(undefined, line.slice(colon + 1));
      } else {
        sink.push(undefined, line);
      }
    } else {
      highlightJson(line, sink);
    }
    if (end === code.length) break;
    sink.push(undefined, '\n');
    i = end + 1;
  }
}

function isStartLine(line: string): boolean {
  if (line.startsWith('HTTP/')) return true;
  const space = line.indexOf(' ');
  return space > 0 && HTTP_METHODS.has(line.slice(0, space));
}

function startLine(line: string, sink: TokenSink): void {
  const parts = line.split(' ');
  parts.forEach((part, index) => {
    if (index > 0) sink.push(undefined, ' ');
    const isVersion = part.startsWith('HTTP/');
    const isStatus = index === 1 && parts[0]?.startsWith('HTTP/') === true && part.length === 3;
    if (isVersion || (index === 0 && HTTP_METHODS.has(part))) sink.push('keyword', part);
    else if (isStatus && [...part].every((char) => isDigit(char.charCodeAt(0)))) sink.push('number', part);
    else sink.push(undefined, part);
  });
}

const SHELL_KEYWORDS: ReadonlySet<string> = new Set(
  'if then else elif fi for while until do done case esac in function select return export local readonly set unset'.split(
    ' ',
  ),
);

/** Characters that end a shell word (besides whitespace). */
const SHELL_SPECIAL = `'"$|&;<>(){}\\\``;

/** POSIX shell: comments, quoted strings, `$variables`, keywords, numbers and operators. */
export function highlightShell(code: string, sink: TokenSink): void {
  let i = 0;
  while (i < code.length) {
    const char = code.charAt(i);
    const atWordStart = i === 0 || isSpace(code.charAt(i - 1)) || SHELL_SPECIAL.includes(code.charAt(i - 1));
    if (char === '#' && atWordStart) {
      const end = endOfLine(code, i);
      sink.push('comment', code.slice(i, end));
      i = end;
    } else if (char === "'") {
      // POSIX §2.2.2: no escapes inside single quotes.
      const close = code.indexOf("'", i + 1);
      const end = close === -1 ? code.length : close + 1;
      sink.push('string', code.slice(i, end));
      i = end;
    } else if (char === '"') {
      let end = i + 1;
      while (end < code.length && code.charAt(end) !== '"') end += code.charAt(end) === '\\' ? 2 : 1;
      end = Math.min(end + 1, code.length);
      sink.push('string', code.slice(i, end));
      i = end;
    } else if (char === '$') {
      const end = endOfVariable(code, i);
      sink.push(end === i + 1 ? 'punctuation' : 'variable', code.slice(i, end));
      i = end;
    } else if (char === '\\') {
      sink.push('punctuation', code.slice(i, i + 2));
      i += 2;
    } else if (SHELL_SPECIAL.includes(char)) {
      sink.push('punctuation', char);
      i++;
    } else if (isSpace(char)) {
      sink.push(undefined, char);
      i++;
    } else {
      let end = i + 1;
      while (end < code.length && !isSpace(code.charAt(end)) && !SHELL_SPECIAL.includes(code.charAt(end)))
        end++;
      const word = code.slice(i, end);
      sink.push(shellWordKind(word), word);
      i = end;
    }
  }
}

function shellWordKind(word: string): 'keyword' | 'number' | undefined {
  if (SHELL_KEYWORDS.has(word)) return 'keyword';
  return [...word].every((char) => isDigit(char.charCodeAt(0))) ? 'number' : undefined;
}

/** End of `$NAME`, `${...}`, `$1` or `$?` starting at `start`; `start + 1` when `$` stands alone. */
function endOfVariable(code: string, start: number): number {
  const next = code.charAt(start + 1);
  if (next === '{') {
    const close = code.indexOf('}', start + 2);
    const newline = endOfLine(code, start);
    return close === -1 || close > newline ? start + 1 : close + 1;
  }
  if ('?!#*@$-'.includes(next) && next !== '') return start + 2;
  let end = start + 1;
  while (end < code.length && isIdentifierPart(code.charCodeAt(end)) && code.charAt(end) !== '$') end++;
  return end;
}

function isSpace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}
