// Parsing of the JOSE header and the claims set: a JSON object (RFC 7515 §4, RFC 7519 §7.2 step 10),
// refused when a member name repeats in one object or reaches an object's prototype when merged.
//
// RFC 7515 §4 and RFC 7519 §4 let a parser either refuse duplicate names or keep the last one; two
// parsers choosing differently could read different `alg` or `sub` values from one token, so they
// are refused here.
import { isForbiddenObjectKey } from '@charter/core';

interface Frame {
  readonly names: Set<string> | undefined; // undefined for an array
  expectName: boolean;
}

// A member name repeated in one object, or one of __proto__ / constructor / prototype; the text is
// already known to be valid JSON, so only strings and brackets need tracking.
function findBadName(text: string): string | undefined {
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      const start = i;
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1;
      i++;
      const top = stack[stack.length - 1];
      if (top?.names !== undefined && top.expectName) {
        // Decoding through JSON.parse makes "a" and "\u0061" the same name.
        const name = JSON.parse(text.slice(start, i)) as string;
        if (top.names.has(name) || isForbiddenObjectKey(name)) return name;
        top.names.add(name);
        top.expectName = false;
      }
      continue;
    }
    if (char === 0x7b /* { */) stack.push({ names: new Set(), expectName: true });
    else if (char === 0x5b /* [ */) stack.push({ names: undefined, expectName: false });
    else if (char === 0x7d /* } */ || char === 0x5d /* ] */) stack.pop();
    else if (char === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.names !== undefined) top.expectName = true;
    }
    i++;
  }
  return undefined;
}

/** Parses a JSON object; the reason as a string when it is not one (never throws). */
export function parseJsonObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a JSON object';
  const bad = findBadName(text);
  if (bad !== undefined) {
    return isForbiddenObjectKey(bad) ? `has the forbidden member "${bad}"` : `repeats the member "${bad}"`;
  }
  return value as Record<string, unknown>;
}
