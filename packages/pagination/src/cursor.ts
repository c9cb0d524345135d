// Opaque cursors: the UTF-8 JSON text (RFC 8259 §8.1) of a value, in base64url without padding
// (RFC 4648 §5). A cursor is neither signed nor encrypted: a client can read it and forge one, so it
// only says where a page starts, never what the caller may see.
import {
  BadRequestError,
  decodeBase64Url,
  encodeBase64Url,
  isBase64UrlOfLength,
  isForbiddenObjectKey,
} from '@charter/core';
import { MAX_CURSOR_LENGTH } from './limits.ts';

const encoder = new TextEncoder();
// `fatal`: invalid UTF-8 is refused rather than turned into U+FFFD. `ignoreBOM`: a leading BOM stays in
// the text (and JSON.parse refuses it), so no second spelling of a cursor decodes to the same value.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Thrown by our own checks inside JSON.stringify, so the catch below can tell them from the engine's. */
class CursorValueError extends TypeError {}

/**
 * JSON.stringify quietly drops functions and symbols, turns NaN and Infinity into null and a Map into
 * `{}`: a cursor built from one would not decode to what was encoded. The replacer refuses those
 * instead. An object property whose value is undefined is left out, as JSON does (an absent optional
 * field); undefined at the top or in an array is refused. The first call is for the value itself.
 */
function strictReplacer(): (this: unknown, key: string, value: unknown) => unknown {
  let root = true;
  return function replacer(this: unknown, key: string, value: unknown): unknown {
    const where = root ? 'the value' : `the value at key ${JSON.stringify(key)}`;
    const inObject = !root && !Array.isArray(this);
    root = false;
    if (inObject && isForbiddenObjectKey(key)) {
      // decodeCursor strips these keys, so the value would not survive the round trip.
      throw new CursorValueError(`encodeCursor: the key ${JSON.stringify(key)} is not allowed in a cursor`);
    }
    switch (typeof value) {
      case 'undefined':
        if (inObject) return undefined;
        throw new CursorValueError(`encodeCursor: ${where} is undefined, which JSON cannot hold`);
      case 'function':
      case 'symbol':
      case 'bigint':
        throw new CursorValueError(`encodeCursor: ${where} is a ${typeof value}, which JSON cannot hold`);
      case 'number':
        if (Number.isFinite(value)) return value;
        throw new CursorValueError(`encodeCursor: ${where} is ${value}, which JSON cannot hold`);
      case 'object': {
        if (value === null || Array.isArray(value)) return value;
        const proto = Object.getPrototypeOf(value);
        if (proto === Object.prototype || proto === null) return value;
        const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
        throw new CursorValueError(
          `encodeCursor: ${where} is a ${typeof name === 'string' && name !== '' ? name : 'class instance'}; ` +
            'a cursor holds plain objects, arrays, strings, finite numbers, booleans and null',
        );
      }
      default:
        return value;
    }
  };
}

/**
 * Encodes a JSON value (plain objects, arrays, strings, finite numbers, booleans, null; a Date becomes
 * its ISO string) as an opaque base64url cursor. Throws a TypeError for anything JSON cannot hold
 * faithfully (undefined, functions, symbols, bigints, NaN, cycles, Maps and other class instances), for
 * the keys `__proto__`, `constructor` and `prototype`, and when the token would pass MAX_CURSOR_LENGTH.
 * @example const next = encodeCursor({ after: rows.at(-1)?.id });
 */
export function encodeCursor(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value, strictReplacer());
  } catch (error) {
    if (error instanceof CursorValueError) throw error;
    // The engine's own TypeError is a cycle (or a BigInt inside toJSON output); a toJSON may throw anything.
    throw new TypeError(`encodeCursor: the value is not JSON-serialisable: ${(error as Error)?.message}`, {
      cause: error,
    });
  }
  const token = encodeBase64Url(encoder.encode(json));
  if (token.length > MAX_CURSOR_LENGTH) {
    throw new TypeError(
      `encodeCursor: the cursor would be ${token.length} characters, over MAX_CURSOR_LENGTH (${MAX_CURSOR_LENGTH}); ` +
        'put less in it (the sort key and id of the last row are enough)',
    );
  }
  return token;
}

/**
 * Why `decodeBase64Url` refused a token, checked in reading order: padding or a character outside the
 * base64url alphabet (RFC 4648 §5) first, then the length, then the last character. Runs only on the
 * error path, so a good cursor is scanned once.
 */
function base64UrlProblem(token: string): string {
  for (let i = 0; i < token.length; i++) {
    const char = token.charAt(i);
    if (char === '=') return 'cursors carry no padding';
    if (!isBase64UrlOfLength(char, 1)) return `the character at position ${i + 1} is outside the alphabet`;
  }
  // RFC 4648 §4: four characters carry three bytes, so a length of 4n + 1 cannot be a whole byte count.
  if (token.length % 4 === 1) return 'its length is impossible';
  // §3.5: the unused bits of the last character must be zero; only a hand-edited token sets them.
  return 'its last character is not canonical';
}

// A JSON.parse reviver returning undefined deletes the property: prototype-pollution keys never reach
// the caller, at any depth (JSON.parse itself makes `__proto__` an own data property, never the prototype).
function stripForbiddenKeys(this: unknown, key: string, value: unknown): unknown {
  return !Array.isArray(this) && isForbiddenObjectKey(key) ? undefined : value;
}

/**
 * Decodes a cursor made by `encodeCursor`. A token longer than MAX_CURSOR_LENGTH, with characters outside
 * base64url, with padding or an impossible length, that is not UTF-8 or not JSON throws a BadRequestError
 * (400) saying which; the token itself is never echoed. The keys `__proto__`, `constructor` and
 * `prototype` are removed at every depth. `T` is not checked: validate the result as any client input.
 * @example const after = ctx.query.cursor === undefined ? undefined : decodeCursor<{ after: number }>(ctx.query.cursor);
 */
export function decodeCursor<T = unknown>(token: string): T {
  if (typeof token !== 'string') {
    throw new TypeError(
      `decodeCursor: the token must be a string, got ${token === null ? 'null' : typeof token}`,
    );
  }
  if (token.length > MAX_CURSOR_LENGTH) {
    throw new BadRequestError(`The cursor is longer than ${MAX_CURSOR_LENGTH} characters`);
  }
  if (token.length === 0) throw new BadRequestError('The cursor is empty');
  const bytes = decodeBase64Url(token);
  if (bytes === undefined) {
    throw new BadRequestError(`The cursor is not valid base64url: ${base64UrlProblem(token)}`);
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new BadRequestError('The cursor is not valid UTF-8');
  }
  try {
    return JSON.parse(text, stripForbiddenKeys) as T;
  } catch {
    // The engine's message may quote the text: say what was wrong without echoing the cursor.
    throw new BadRequestError('The cursor is not valid JSON');
  }
}
