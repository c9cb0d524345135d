/**
 * Escaping for the docs pages: text and attribute values in HTML, and JSON embedded in a
 * `<script type="application/json">` data block that nothing can break out of (HTML Living Standard
 * §4.12.1.3 "Restrictions for contents of script elements").
 */

/** A JSON value as `JSON.stringify` writes it without loss. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object: the configuration bag a docs UI receives. */
export type JsonObject = { [key: string]: JsonValue };

/** Escapes text for an HTML text node or a quoted attribute value (the core's, re-exported for the renderers). */
export { escapeHtml } from '@charter/core';

/**
 * `JSON.stringify(value)` made safe to place inside a `<script>` element: `<`, `>` and `&` become
 * `\u003c`, `\u003e`, `\u0026`, so neither `</script>` nor `<!--` (which switches the tokenizer into
 * the "script data escaped" states, HTML §13.2.5) can appear; U+2028 and U+2029 become escapes too,
 * since older JavaScript engines end a string literal at them. JSON.parse reads the escapes back.
 */
export function jsonForScript(value: JsonValue): string {
  const json = JSON.stringify(value);
  let out = '';
  for (const char of json) {
    if (char === '<') out += '\\u003c';
    else if (char === '>') out += '\\u003e';
    else if (char === '&') out += '\\u0026';
    else if (char === '\u2028') out += '\\u2028';
    else if (char === '\u2029') out += '\\u2029';
    else out += char;
  }
  return out;
}

const MAX_JSON_DEPTH = 64;

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'a class'}`;
  return `a ${typeof value}`;
}

function checkJson(value: unknown, where: string, depth: number, seen: Set<object>): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    // JSON.stringify would write NaN and Infinity as null: refuse rather than change the value.
    if (!Number.isFinite(value)) throw new TypeError(`${where} must be a finite number, got ${value}`);
    return;
  }
  if (typeof value !== 'object') {
    throw new TypeError(
      `${where} must be JSON (null, boolean, number, string, array or plain object), got ${describe(value)}`,
    );
  }
  if (depth > MAX_JSON_DEPTH) throw new TypeError(`${where} nests deeper than ${MAX_JSON_DEPTH} levels`);
  if (seen.has(value)) throw new TypeError(`${where} refers to itself (a cycle cannot be written as JSON)`);
  seen.add(value);
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkJson(item, `${where}[${index}]`, depth + 1, seen));
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      // An undefined member is left out by JSON.stringify, as an optional option would be.
      if (item !== undefined) checkJson(item, `${where}.${key}`, depth + 1, seen);
    }
  } else {
    throw new TypeError(`${where} must be JSON (plain objects only), got ${describe(value)}`);
  }
  seen.delete(value);
}

/**
 * Checks that `value` is a JSON object that `JSON.stringify` writes without dropping or changing
 * anything (no functions, undefined array items, symbols, bigints, non-finite numbers, class instances or
 * cycles), and throws a TypeError naming `option` and the offending member otherwise.
 */
export function assertJsonObject(value: unknown, option: string): asserts value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !isPlainObject(value)) {
    throw new TypeError(`${option} must be a plain JSON object, got ${describe(value)}`);
  }
  checkJson(value, option, 0, new Set());
}

/** True when `text` has a C0 control character, DEL or a C1 control character. */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}
