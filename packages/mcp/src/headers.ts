/**
 * MCP 2026-07-28 header mirroring (basic/transports "Standard headers", "Custom headers from tool
 * parameters", "Value encoding"; server/tools `x-mcp-header`; SEP-2243): the Base64 sentinel encoding of
 * header values, registration-time validation of `x-mcp-header` annotations, and the request-time
 * checks of `Mcp-Name` and `Mcp-Param-*`. The caller answers every failure with JSON-RPC -32020
 * (HeaderMismatch) and HTTP 400.
 */
import { decodeBase64, encodeBase64, isHttpToken } from '@charter/core';

// The sentinel is matched exactly and in lower case, as the conformance suite does
// (`/^=\?base64\?(.*)\?=$/`): `=?BASE64?...?=` or a value missing either end is a literal.
const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const PARAM_HEADER_PREFIX = 'Mcp-Param-';
const ANNOTATION = 'x-mcp-header';
const HEADER_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);

// `ignoreBOM` keeps a leading U+FEFF in the value instead of swallowing it as a byte-order mark.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/** A tool input property mirrored into an `Mcp-Param-<header>` request header by `x-mcp-header`. */
export interface McpHeaderParam {
  /** The annotation value as declared, e.g. `Region` for `Mcp-Param-Region`. */
  readonly header: string;
  /** `header` lower-cased (no `Mcp-Param-` prefix): header names are case-insensitive (RFC 9110 §5.1). */
  readonly lower: string;
  /** Property names from the root schema down to the annotated property, through `properties` only. */
  readonly path: readonly string[];
  /** The annotated property's JSON Schema `type`. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/**
 * True when `value` can travel as itself: visible ASCII and inner spaces only. RFC 9110 §5.5 lets a
 * field value neither start nor end with whitespace (recipients strip it as OWS), and the suite counts
 * HTAB, other controls, DEL and non-ASCII as needing Base64.
 */
function isPlainHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return value.length === 0 || (value.charCodeAt(0) !== 0x20 && value.charCodeAt(value.length - 1) !== 0x20);
}

/**
 * Encodes a value for `Mcp-Name` / `Mcp-Param-*`: itself when plain visible ASCII, otherwise
 * `=?base64?<padded Base64 of the UTF-8 bytes>?=`. Lone surrogates become U+FFFD (UTF-8 cannot carry them).
 */
export function encodeMcpHeaderValue(value: string): string {
  // A literal that already looks like the sentinel is wrapped too, or the receiver would decode it.
  // The prefix test ignores case so that a receiver matching case-insensitively cannot misread it either.
  if (isPlainHeaderValue(value) && value.slice(0, SENTINEL_PREFIX.length).toLowerCase() !== SENTINEL_PREFIX) {
    return value;
  }
  return SENTINEL_PREFIX + encodeBase64(utf8Encoder.encode(value), 'base64', { pad: true }) + SENTINEL_SUFFIX;
}

/**
 * Decodes an `Mcp-Name` / `Mcp-Param-*` value: the sentinel's UTF-8 text, or the value itself. Undefined
 * for a malformed sentinel (non-canonical or unpadded Base64, invalid UTF-8) and for characters a plain
 * value cannot hold (controls, non-ASCII, leading or trailing space).
 */
export function decodeMcpHeaderValue(raw: string): string | undefined {
  if (!isPlainHeaderValue(raw)) return undefined;
  if (
    raw.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length ||
    !raw.startsWith(SENTINEL_PREFIX) ||
    !raw.endsWith(SENTINEL_SUFFIX)
  ) {
    return raw;
  }
  // RFC 4648 §4 alphabet, padding required (the suite rejects `SGVsbG8`), zero pad bits (§3.5).
  const bytes = decodeBase64(raw.slice(SENTINEL_PREFIX.length, -SENTINEL_SUFFIX.length), 'base64', {
    padded: true,
  });
  if (bytes === undefined) return undefined;
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** True when a mirrored header (`Mcp-Name`) is present and decodes to exactly `expected`. */
export function mirrorsValue(raw: string | null, expected: string): boolean {
  return raw !== null && decodeMcpHeaderValue(raw) === expected;
}

// Keywords whose value is a subschema or an array of subschemas (JSON Schema 2020-12 core §10 and
// validation §8.2.4, plus draft-07 spellings). An annotation under any of them is refused.
const SUBSCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'unevaluatedItems',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
] as const;
// Keywords whose value maps names to subschemas. Only `properties`, followed from the root, may lead
// to an annotation.
const SCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
  '$defs',
  'definitions',
] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901 pointer segment, for error messages. */
function pointerSegment(name: string): string {
  return `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

interface CollectState {
  readonly where: string;
  readonly params: McpHeaderParam[];
  readonly seen: Map<string, string>;
  readonly ancestors: Set<object>;
}

/**
 * Finds and validates every `x-mcp-header` annotation of a tool input schema (registration time).
 * Throws a `TypeError` starting with `where` for a header that is not an RFC 9110 token, a duplicate
 * (case-insensitive), a property type other than exactly string/integer/boolean, or an annotation not
 * reached from the root through `properties` alone.
 */
export function collectMcpHeaderParams(
  inputSchema: Record<string, unknown>,
  where: string,
): readonly McpHeaderParam[] {
  const state: CollectState = { where, params: [], seen: new Map(), ancestors: new Set() };
  visitSchema(inputSchema, '', [], state);
  return Object.freeze(state.params);
}

/** `path` is the property path when `schema` was reached through `properties` chains, else undefined. */
function visitSchema(
  schema: unknown,
  pointer: string,
  path: readonly string[] | undefined,
  state: CollectState,
): void {
  if (!isPlainObject(schema)) return; // boolean schemas and malformed values carry no annotation
  if (state.ancestors.has(schema)) {
    throw new TypeError(
      `${state.where}: the input schema refers to itself at ${pointer}; it must be a JSON tree`,
    );
  }
  state.ancestors.add(schema);
  if (Object.hasOwn(schema, ANNOTATION)) addParam(schema, pointer || '/', path, state);
  for (const keyword of SUBSCHEMA_KEYWORDS) {
    const value = schema[keyword];
    const at = pointer + pointerSegment(keyword);
    if (Array.isArray(value)) value.forEach((item, i) => visitSchema(item, `${at}/${i}`, undefined, state));
    else visitSchema(value, at, undefined, state);
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = schema[keyword];
    if (!isPlainObject(map)) continue;
    for (const [name, sub] of Object.entries(map)) {
      const subPath = keyword === 'properties' && path !== undefined ? [...path, name] : undefined;
      visitSchema(sub, pointer + pointerSegment(keyword) + pointerSegment(name), subPath, state);
    }
  }
  state.ancestors.delete(schema);
}

function addParam(
  schema: Record<string, unknown>,
  pointer: string,
  path: readonly string[] | undefined,
  state: CollectState,
): void {
  const { where } = state;
  // Clients mirror only properties they can find by walking `properties` from the arguments root;
  // an annotation inside a combinator, array item or definition has no single argument to mirror.
  if (path === undefined || path.length === 0) {
    throw new TypeError(
      `${where}: "${ANNOTATION}" at ${pointer} must sit on a property reached from the root through "properties" only`,
    );
  }
  const header = schema[ANNOTATION];
  // The header name is `Mcp-Param-` + the annotation, so the annotation must be a token (RFC 9110 §5.6.2).
  if (typeof header !== 'string' || !isHttpToken(header)) {
    throw new TypeError(
      `${where}: "${ANNOTATION}" at ${pointer} must be a non-empty RFC 9110 token (tchar only)`,
    );
  }
  const type = schema.type;
  // `number` is refused: a float has no single text form to compare (SEP-2243); a type list or a
  // missing type would leave the header's syntax undecided.
  if (typeof type !== 'string' || !HEADER_TYPES.has(type)) {
    throw new TypeError(
      `${where}: "${ANNOTATION}" "${header}" at ${pointer} needs "type" to be exactly "string", "integer" or "boolean"`,
    );
  }
  const lower = header.toLowerCase();
  const previous = state.seen.get(lower);
  if (previous !== undefined) {
    throw new TypeError(
      `${where}: "${ANNOTATION}" "${header}" at ${pointer} duplicates the one at ${previous} (header names are case-insensitive, RFC 9110 §5.1)`,
    );
  }
  state.seen.set(lower, pointer);
  state.params.push(Object.freeze({ header, lower, path: Object.freeze([...path]), type } as McpHeaderParam));
}

/** The argument at `path`, or undefined when a step is missing or not a plain object. */
function argumentAt(args: unknown, path: readonly string[]): unknown {
  let current = args;
  for (const name of path) {
    if (!isPlainObject(current) || !Object.hasOwn(current, name)) return undefined;
    current = current[name];
  }
  return current;
}

/**
 * The exact integer a JSON number literal (RFC 8259 §6) denotes, in canonical decimal; `null` for a
 * fraction or a magnitude beyond 16 digits (no safe integer has more), `undefined` for anything that is
 * not a JSON number (`0x2A`, `+42`, `042`, ` 42`, `Infinity`, empty). Exact, so no rounding can make
 * `9007199254740993` equal `9007199254740992`.
 */
function canonicalInteger(literal: string): string | null | undefined {
  let i = 0;
  const isDigit = (at: number): boolean =>
    at < literal.length && literal.charCodeAt(at) >= 0x30 && literal.charCodeAt(at) <= 0x39;
  const digitsFrom = (start: number): number => {
    let end = start;
    while (isDigit(end)) end++;
    return end;
  };
  if (literal[i] === '-') i++;
  if (!isDigit(i)) return undefined;
  const intEnd = literal[i] === '0' ? i + 1 : digitsFrom(i);
  let digits = literal.slice(i, intEnd);
  i = intEnd;
  let fractionLength = 0;
  if (literal[i] === '.') {
    const end = digitsFrom(i + 1);
    if (end === i + 1) return undefined;
    digits += literal.slice(i + 1, end);
    fractionLength = end - i - 1;
    i = end;
  }
  let exponent = 0;
  if (literal[i] === 'e' || literal[i] === 'E') {
    const sign = literal[i + 1] === '-' || literal[i + 1] === '+' ? 1 : 0;
    const end = digitsFrom(i + 1 + sign);
    if (end === i + 1 + sign) return undefined;
    exponent = Number(literal.slice(i + 1, end)); // may be ±Infinity for absurd exponents: still decides
    i = end;
  }
  if (i !== literal.length) return undefined;
  let start = 0;
  while (start < digits.length && digits[start] === '0') start++;
  let end = digits.length;
  exponent -= fractionLength;
  while (end > start && digits[end - 1] === '0') {
    end--;
    exponent++;
  }
  if (start === end) return '0'; // -0 and 0e999 are zero
  if (exponent < 0 || end - start + exponent > 16) return null;
  return (literal[0] === '-' ? '-' : '') + digits.slice(start, end) + '0'.repeat(exponent);
}

function checkParam(
  headers: Headers,
  param: McpHeaderParam,
  args: unknown,
  required: boolean,
): string | undefined {
  const name = PARAM_HEADER_PREFIX + param.header;
  const value = argumentAt(args, param.path);
  const raw = headers.get(PARAM_HEADER_PREFIX + param.lower);
  // Clients omit the header for a null or absent value and must send it otherwise (SEP-2243).
  if (value === undefined || value === null) {
    return raw === null
      ? undefined
      : `The ${name} header is present but the argument it mirrors is absent or null.`;
  }
  if (raw === null) {
    return required
      ? `The ${name} header is missing but the arguments carry the value it mirrors.`
      : undefined;
  }
  const decoded = decodeMcpHeaderValue(raw);
  if (decoded === undefined) {
    return `The ${name} header value has characters a header cannot carry or a malformed Base64 sentinel.`;
  }
  const mismatch = `The ${name} header does not match the argument it mirrors.`;
  switch (param.type) {
    case 'string':
      if (typeof value !== 'string')
        return `The ${name} header mirrors a string property but the argument is not a string.`;
      return decoded === value ? undefined : mismatch;
    case 'boolean':
      if (typeof value !== 'boolean')
        return `The ${name} header mirrors a boolean property but the argument is not a boolean.`;
      if (decoded !== 'true' && decoded !== 'false') return `The ${name} header must be "true" or "false".`;
      return (decoded === 'true') === value ? undefined : mismatch;
    case 'integer': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
        return `The ${name} header mirrors an integer property but the argument is not an integer within ±(2^53−1).`;
      }
      const header = canonicalInteger(decoded);
      if (header === undefined) return `The ${name} header must be a decimal number.`;
      return header === String(value) ? undefined : mismatch;
    }
  }
}

/**
 * Checks the `Mcp-Param-*` headers of a `tools/call` against its arguments (request time); returns a
 * problem sentence naming the header (never its value) or undefined. A header that is sent must agree
 * with the argument in every era: a gateway routing by it must see the value the tool runs with. With
 * `required` (the 2026-07-28 era) a header is also due for every present argument; legacy clients
 * predate `x-mcp-header`, so there a missing header is no problem. A `Mcp-Param-*` header the tool
 * does not declare is ignored: RFC 9110 §5.1 has recipients ignore fields they do not recognise, and a
 * client working from an older `tools/list` may still mirror an annotation since removed.
 */
export function checkMcpParamHeaders(
  headers: Headers,
  params: readonly McpHeaderParam[],
  args: unknown,
  required = true,
): string | undefined {
  for (const param of params) {
    const problem = checkParam(headers, param, args, required);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
