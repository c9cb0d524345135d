import { BadRequestError } from '../errors/index.ts';

// Alternation of literals: linear-time.
const NEEDS_KEY_SCAN = /__proto__|constructor|prototype|\\u/;

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** True for keys that reach an object's prototype when merged: `__proto__`, `constructor`, `prototype`. */
export function isForbiddenObjectKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

// Deeper than this the key scan refuses rather than recursing on: a body cannot hide a key below it.
const MAX_SCAN_DEPTH = 512;

function assertNoForbiddenKeys(value: unknown, depth: number): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth > MAX_SCAN_DEPTH) {
    throw new BadRequestError(`The JSON body is nested deeper than ${MAX_SCAN_DEPTH} levels`);
  }
  if (Array.isArray(value)) {
    for (const item of value) assertNoForbiddenKeys(item, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) {
      throw new BadRequestError(`The JSON body contains the forbidden key "${key}"`);
    }
    assertNoForbiddenKeys((value as Record<string, unknown>)[key], depth + 1);
  }
}

/**
 * JSON.parse that refuses prototype-pollution keys (400). The scan runs only when the text
 * mentions one of them, so ordinary bodies pay nothing for it.
 */
export function safeJsonParse(input: string | Uint8Array): unknown {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`The body is not valid JSON: ${(error as Error).message}`);
  }
  // One scan decides whether the deep check is needed; `\u` escapes can spell a forbidden key
  // without its plain text appearing, so they force it too.
  if (NEEDS_KEY_SCAN.test(text)) {
    assertNoForbiddenKeys(value, 0);
  }
  return value;
}
