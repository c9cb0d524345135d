/**
 * OpenAPI documents as YAML text (YAML 1.2.2, https://yaml.org/spec/1.2.2/): block style, two-space
 * indentation, keys in insertion order, one document ending with a newline. Every scalar is written so that a
 * YAML 1.2 parser and a YAML 1.1 parser both read back the value `JSON.parse(JSON.stringify(doc))` gives: a
 * string is plain only when an allowlist proves no schema can resolve it to anything else, single-quoted when it
 * needs no escape, a literal block when it is multi-line text, and double-quoted with escapes otherwise.
 * Everything is done by scanning characters; there is no regular expression.
 */

/** Columns per nesting level. */
const INDENT = 2;

/**
 * YAML 1.2.2 §7.4.2/§8.2.2: an implicit key is limited to 1024 characters up to its `:`; keys whose written form is
 * over 1000 UTF-16 units (a margin; never fewer units than characters) use the explicit `? key` / `: value` form.
 */
const MAX_IMPLICIT_KEY = 1000;

/**
 * Words that a YAML 1.1 (yes/no/on/off/y/n) or 1.2 (true/false/null) schema resolves to a boolean or null,
 * compared in lower case so that any spelling is quoted, even ones the schemas do not list (`tRUE`).
 */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'true',
  'false',
  'null',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
]);

/** One-character escapes of a double-quoted scalar (YAML 1.2.2 §5.7). */
const NAMED_ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x00, '\\0'],
  [0x07, '\\a'],
  [0x08, '\\b'],
  [0x09, '\\t'],
  [0x0a, '\\n'],
  [0x0b, '\\v'],
  [0x0c, '\\f'],
  [0x0d, '\\r'],
  [0x1b, '\\e'],
  [0x22, '\\"'],
  [0x5c, '\\\\'],
  [0x85, '\\N'],
  [0x2028, '\\L'],
  [0x2029, '\\P'],
]);

/** A rendered node: a scalar or empty collection written after `key: ` or `- `, or the lines of a collection. */
type Rendered =
  | { readonly kind: 'inline'; readonly text: string; readonly tail: readonly string[] }
  | { readonly kind: 'block'; readonly lines: readonly string[] };

/**
 * Serialises a JSON-compatible value (an OpenAPI document) as YAML; throws a TypeError naming the JSON path
 * for what JSON would silently drop or rewrite (undefined in an array, functions, symbols, non-finite numbers)
 * and for bigints and cycles.
 */
export function openapiToYAML(doc: unknown): string {
  const node = render(doc, '', '$', 0, new Set());
  const lines = node.kind === 'inline' ? [node.text, ...node.tail] : node.lines;
  return `${lines.join('\n')}\n`;
}

/**
 * Renders `input` (found under `key`, at JSON path `path`) with its block lines at column `indent`. Mirrors
 * JSON.stringify: `toJSON` is honoured and boxed primitives are unwrapped.
 */
function render(input: unknown, key: string, path: string, indent: number, ancestors: Set<object>): Rendered {
  let value = input;
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  switch (typeof value) {
    case 'string':
      return formatString(value, indent);
    case 'number':
      if (!Number.isFinite(value)) throw refusal(`the non-finite number ${value}`, path);
      return inline(formatNumber(value));
    case 'boolean':
      return inline(value ? 'true' : 'false');
    case 'object':
      if (value === null) return inline('null');
      if (ancestors.has(value)) throw refusal('a cycle', path);
      ancestors.add(value);
      try {
        return Array.isArray(value)
          ? renderSequence(value, path, indent, ancestors)
          : renderMapping(value as Record<string, unknown>, path, indent, ancestors);
      } finally {
        ancestors.delete(value);
      }
    default:
      // undefined, function, symbol, bigint
      throw refusal(`a value of type ${typeof value}`, path);
  }
}

function renderSequence(
  items: readonly unknown[],
  path: string,
  indent: number,
  ancestors: Set<object>,
): Rendered {
  if (items.length === 0) return inline('[]');
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (let index = 0; index < items.length; index++) {
    const child = render(items[index], String(index), `${path}[${index}]`, indent + INDENT, ancestors);
    if (child.kind === 'inline') {
      lines.push(`${pad}- ${child.text}`, ...child.tail);
    } else {
      // Compact nested collection (YAML 1.2.2 §8.2.1): `- ` takes the place of the child's first indentation.
      const [first = '', ...rest] = child.lines;
      lines.push(`${pad}- ${first.slice(indent + INDENT)}`, ...rest);
    }
  }
  return { kind: 'block', lines };
}

function renderMapping(
  object: Record<string, unknown>,
  path: string,
  indent: number,
  ancestors: Set<object>,
): Rendered {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const key of Object.keys(object)) {
    const member = object[key];
    // JSON.stringify omits undefined members; so do we (the value JSON would give has no such key).
    if (member === undefined) continue;
    const child = render(member, key, `${path}${formatPathKey(key)}`, indent + INDENT, ancestors);
    const keyText = formatKey(key);
    if (keyText.length > MAX_IMPLICIT_KEY) {
      lines.push(`${pad}? ${keyText}`);
      if (child.kind === 'inline') lines.push(`${pad}: ${child.text}`, ...child.tail);
      else lines.push(`${pad}:`, ...child.lines);
    } else if (child.kind === 'inline') {
      lines.push(`${pad}${keyText}: ${child.text}`, ...child.tail);
    } else {
      lines.push(`${pad}${keyText}:`, ...child.lines);
    }
  }
  return lines.length === 0 ? inline('{}') : { kind: 'block', lines };
}

function inline(text: string): Rendered {
  return { kind: 'inline', text, tail: [] };
}

function refusal(what: string, path: string): TypeError {
  return new TypeError(`openapiToYAML: cannot serialise ${what} at ${path}`);
}

/** `.name` for identifier-like keys, `["..."]` otherwise, so the path can be pasted into JavaScript. */
function formatPathKey(key: string): string {
  let identifier = key.length > 0;
  for (let i = 0; i < key.length && identifier; i++) {
    const c = key.charCodeAt(i);
    identifier = isAsciiLetter(c) || c === 0x5f || c === 0x24 || (i > 0 && isDigit(c));
  }
  return identifier ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * Numbers in a form both YAML 1.1 and 1.2 resolve to the same double: JavaScript's shortest round-trip digits,
 * with the YAML 1.1 float shape (a `.` in the mantissa and a signed exponent) when an exponent is needed.
 * `-0` becomes `0`, as in JSON.
 */
function formatNumber(value: number): string {
  const text = String(value);
  const e = text.indexOf('e');
  if (e === -1) return text;
  const mantissa = text.slice(0, e);
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}${text.slice(e)}`;
}

/** A mapping key: plain, single-quoted or double-quoted (never a block scalar: keys are one line). */
function formatKey(key: string): string {
  if (isPlainSafe(key)) return key;
  if (isSingleQuotable(key)) return singleQuote(key);
  return doubleQuote(key);
}

/**
 * A string value whose block-scalar lines (if any) sit at column `indent`. At the top level (`indent` 0) a
 * literal block would put its text at column 0, where `---` and `...` mean document markers, so it is quoted.
 */
function formatString(value: string, indent: number): Rendered {
  if (isPlainSafe(value)) return inline(value);
  if (indent > 0 && value.includes('\n') && isLiteralSafe(value)) return literalBlock(value, indent);
  if (isSingleQuotable(value)) return inline(singleQuote(value));
  return inline(doubleQuote(value));
}

/**
 * The allowlist for plain scalars (YAML 1.2.2 §7.3.3). The first character is an ASCII letter, `_`, `/`, `$`
 * or a non-ASCII character, which rules out every indicator (§5.3), document marker, number, `.inf`/`.nan`,
 * timestamp, `~` and the YAML 1.1 merge key `<<`; the reserved words are refused in any case, and so are
 * bare exponents like `e0`. Afterwards only
 * printable characters are allowed (no tab, no Unicode space, no trailing space), a `:` must be followed by a
 * non-space (`: ` and a final `:` start a mapping) and a `#` must not follow a space (` #` starts a comment).
 */
function isPlainSafe(value: string): boolean {
  if (value.length === 0 || RESERVED_WORDS.has(value.toLowerCase())) return false;
  const first = value.charCodeAt(0);
  if (!(isAsciiLetter(first) || first === 0x5f || first === 0x2f || first === 0x24 || first >= 0x80))
    return false;
  if (value.charCodeAt(value.length - 1) === 0x20 || isBareExponent(value)) return false;
  for (let i = 0; i < value.length; ) {
    const cp = value.codePointAt(i) as number;
    if (!isPlainChar(cp)) return false;
    if (cp === 0x3a) {
      const next = value.charCodeAt(i + 1);
      if (Number.isNaN(next) || next === 0x20) return false;
    }
    if (cp === 0x23 && value.charCodeAt(i - 1) === 0x20) return false;
    i += cp > 0xffff ? 2 : 1;
  }
  return true;
}

/**
 * `e0`, `E+12`: the `yaml` package's YAML 1.1 float pattern makes the mantissa optional, so an `e` or `E`
 * followed only by number characters is read as a number. Any such string is quoted.
 */
function isBareExponent(value: string): boolean {
  const first = value.charCodeAt(0);
  if (first !== 0x65 && first !== 0x45) return false;
  let digits = false;
  for (let i = 1; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (isDigit(c)) digits = true;
    else if (!(c === 0x2b || c === 0x2d || c === 0x2e || c === 0x5f)) return false;
  }
  return digits;
}

/**
 * A literal block scalar (YAML 1.2.2 §8.1.2) reproduces multi-line text exactly when every character is
 * printable (no escapes needed, no `\r` that would be read as a line break) and the first line starts with a
 * character other than space or tab, so the parser's indentation detection (§8.1.1.1) finds our indentation.
 */
function isLiteralSafe(value: string): boolean {
  const first = value.charCodeAt(0);
  if (Number.isNaN(first) || first === 0x20 || first === 0x09 || first === 0x0a) return false;
  for (let i = 0; i < value.length; ) {
    const cp = value.codePointAt(i) as number;
    if (cp !== 0x0a && cp !== 0x09 && !isPrintable(cp)) return false;
    i += cp > 0xffff ? 2 : 1;
  }
  return true;
}

/**
 * `|-`, `|` or `|+` by the number of final line breaks (strip, clip, keep; YAML 1.2.2 §8.1.1.2), then the
 * lines at column `indent`. Empty lines are written empty so no trailing spaces count as content.
 */
function literalBlock(value: string, indent: number): Rendered {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x0a) end--;
  const breaks = value.length - end;
  const chomping = breaks === 0 ? '-' : breaks === 1 ? '' : '+';
  const pad = ' '.repeat(indent);
  const body = value.slice(0, end).split('\n');
  // Keep chomping: the extra final breaks are empty lines of the scalar.
  for (let i = 1; i < breaks; i++) body.push('');
  return {
    kind: 'inline',
    text: `|${chomping}`,
    tail: body.map((line) => (line === '' ? '' : `${pad}${line}`)),
  };
}

/** Single quotes need no escapes (only `''` for `'`) but cannot hold line breaks or non-printable text. */
function isSingleQuotable(value: string): boolean {
  for (let i = 0; i < value.length; ) {
    const cp = value.codePointAt(i) as number;
    if (!isPrintable(cp)) return false;
    i += cp > 0xffff ? 2 : 1;
  }
  return true;
}

function singleQuote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Double-quoted with YAML escapes (YAML 1.2.2 §5.7): named escapes where YAML has them, `\xNN` for other C0
 * and C1 controls and DEL, `\uXXXX` for U+FEFF, U+FFFE, U+FFFF and lone surrogates. A lone surrogate is kept
 * as an escape, like JSON.stringify does, rather than refused: the YAML then reads back to the same string as
 * the JSON document (parsers that insist on Unicode scalar values may reject it).
 */
function doubleQuote(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; ) {
    const cp = value.codePointAt(i) as number;
    i += cp > 0xffff ? 2 : 1;
    const named = NAMED_ESCAPES.get(cp);
    if (named !== undefined) out += named;
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) out += `\\x${hex(cp, 2)}`;
    else if (isPrintable(cp)) out += String.fromCodePoint(cp);
    else out += `\\u${hex(cp, 4)}`;
  }
  return `${out}"`;
}

function hex(cp: number, width: number): string {
  return cp.toString(16).toUpperCase().padStart(width, '0');
}

/**
 * Characters that may appear unescaped in any scalar: YAML's c-printable (§5.1) without U+0085, U+2028 and
 * U+2029 (line breaks in YAML 1.1), U+FEFF (a byte order mark) and the surrogates (`codePointAt` returns a lone
 * surrogate's own code unit; pairs arrive as one code point above U+FFFF). Tab and line feed are not included.
 */
function isPrintable(cp: number): boolean {
  if (cp >= 0x20 && cp <= 0x7e) return true;
  if (cp < 0xa0) return false;
  if (cp <= 0xd7ff) return cp !== 0x2028 && cp !== 0x2029;
  if (cp <= 0xdfff) return false;
  if (cp <= 0xfffd) return cp !== 0xfeff;
  return cp >= 0x10000 && cp <= 0x10ffff;
}

/**
 * Plain scalars also refuse every character JavaScript's `trim()` removes (no-break and other Unicode spaces),
 * so no parser that trims with it can shorten the string.
 */
function isPlainChar(cp: number): boolean {
  if (!isPrintable(cp)) return false;
  return !(
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
