import type { JsonSchema } from '@charter/core';

/** A JSON value as JSON Schema documents hold them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A deep copy of a JSON value in which `visit` may replace any object node (children first are not visited). */
export function rewriteJson(
  value: unknown,
  visit: (node: Record<string, unknown>, isRoot: boolean) => unknown,
): unknown {
  const walk = (node: unknown, isRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, false));
    if (typeof node !== 'object' || node === null) return node;
    const replaced = visit(node as Record<string, unknown>, isRoot);
    if (replaced !== node) return replaced;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) out[key] = walk(child, false);
    return out;
  };
  return walk(value, true);
}

/**
 * A deep copy of a JSON value in which every `$ref` string is replaced by what `to` maps it to (`undefined`
 * keeps it). Nodes holding a `$ref` are walked too: draft 2020-12 allows keywords beside `$ref`.
 */
export function mapRefs(value: unknown, to: (ref: string) => string | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => mapRefs(item, to));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof child === 'string' ? (to(child) ?? child) : mapRefs(child, to);
  }
  return out;
}

/** Every `$ref` string in a JSON value. */
export function collectRefs(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') into.add(child);
      else collectRefs(child, into);
    }
  }
  return into;
}

/** JSON text with object keys sorted, so two equal schemas give the same text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as JsonSchema)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** OpenAPI 3.1 §4.8.7: component names match `^[a-zA-Z0-9.\-_]+$`. */
export const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/** `Name`, then `Name2`, `Name3`...: the candidates for a component name. */
export function numberedName(base: string, n: number): string {
  return n === 1 ? base : `${base}${n}`;
}

/** A component name made from free text: other characters become `_`. */
export function componentName(text: string): string {
  let out = '';
  for (const ch of text) out += /[A-Za-z0-9._-]/.test(ch) ? ch : '_';
  return out === '' ? 'Schema' : out;
}

/** `createTodo` gives `CreateTodo`; `list-items` gives `ListItems`. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}
