/**
 * Reading a JSON-RPC body: UTF-8 (RFC 8259 §8.1), JSON with the core's prototype-key guard, and a
 * nesting cap, so that a hostile body becomes a -32700 error rather than a crash or a stack
 * overflow further down (validators and handlers walk what they are given).
 */
import { safeJsonParse } from '@charter/core';
import { JSON_RPC_ERROR_CODES } from './codes.ts';
import type { JsonRpcErrorObject } from './message.ts';

/** Default nesting cap of a JSON-RPC body: deep enough for any real arguments. */
export const JSON_RPC_MAX_DEPTH = 64;

const decoder = new TextDecoder('utf-8', { fatal: true });

// The literal alternation the core's guard scans with (linear time); `\u` escapes can spell a key.
const MAY_HOLD_FORBIDDEN_KEY = /__proto__|constructor|prototype|\\u/;

/** The parsed body, or the parse error to answer with (id null: the id could not be read). */
export type ParsedBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: JsonRpcErrorObject };

function parseError(detail: string): ParsedBody {
  return { ok: false, error: { code: JSON_RPC_ERROR_CODES.parseError, message: `Parse error: ${detail}` } };
}

/** Whether a parsed JSON value nests deeper than `max` levels (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Decodes and parses a body: -32700 for what is not JSON, -32600 for a prototype key; each with a sentence saying what was wrong. */
export function parseJsonRpcBody(bytes: Uint8Array, maxDepth: number = JSON_RPC_MAX_DEPTH): ParsedBody {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return parseError('the body is not valid UTF-8');
  }
  if (text.trim().length === 0) return parseError('the body is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // A RangeError is the engine's own recursion limit on absurd nesting.
    return parseError(
      error instanceof RangeError
        ? 'the JSON is nested too deeply'
        : `The body is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (nestsDeeperThan(value, maxDepth))
    return parseError(`the JSON is nested deeper than ${maxDepth} levels`);
  if (MAY_HOLD_FORBIDDEN_KEY.test(text)) {
    // Valid JSON, but a key that reaches an object's prototype when merged: the core's guard
    // refuses it, as an invalid request (-32600) rather than a parse error.
    try {
      safeJsonParse(text);
    } catch (error) {
      const message = `Invalid Request: ${(error as Error).message}`;
      return { ok: false, error: { code: JSON_RPC_ERROR_CODES.invalidRequest, message } };
    }
  }
  return { ok: true, value };
}
