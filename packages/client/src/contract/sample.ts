/**
 * A small, bounded generator of sample values from JSON Schema (draft 2020-12, the dialect of
 * OpenAPI 3.1), for the contract tests' mock-mode requests. It aims at the common shapes: the
 * schema then validates the sample, so a shape it gets wrong is reported, never trusted.
 */
import type { JsonSchema } from '@charter/core';

/** A generated value, or why none could be made. */
export type SampleResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

/** Nesting depth (objects, arrays, `$ref` hops) before giving up: recursive schemas stop here. */
export const MAX_SAMPLE_DEPTH = 12;
/** Schema nodes visited per sample: a wide schema cannot make the generator run away. */
const MAX_NODES = 2000;
/** Largest array generated to satisfy `minItems`. */
const MAX_ITEMS = 100;

class GiveUp extends Error {}

// Canonical examples of the formats the spec names (JSON Schema 2020-12 validation §7.3).
const FORMATS: Readonly<Record<string, string>> = {
  uuid: '00000000-0000-4000-8000-000000000000',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  uri: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

class Generator {
  readonly #root: JsonSchema;
  #nodes = 0;

  constructor(root: JsonSchema) {
    this.#root = root;
  }

  value(node: unknown, depth: number): unknown {
    if (++this.#nodes > MAX_NODES) throw new GiveUp(`the schema has more than ${MAX_NODES} nodes`);
    if (depth > MAX_SAMPLE_DEPTH) throw new GiveUp(`the schema nests deeper than ${MAX_SAMPLE_DEPTH} levels`);
    if (node === true) return 'sample';
    if (!isObject(node)) throw new GiveUp('a subschema is not an object');
    if (typeof node.$ref === 'string') return this.value(this.#resolve(node.$ref), depth + 1);
    if (Object.hasOwn(node, 'const')) return node.const;
    if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = node[key];
      if (Array.isArray(branches) && branches.length > 0) return this.value(branches[0], depth + 1);
    }
    if (Array.isArray(node.allOf) && node.allOf.length > 0) return this.value(merge(node), depth + 1);
    switch (typeOf(node)) {
      case 'null':
        return null;
      case 'boolean':
        return true;
      case 'integer':
        return number(node, true);
      case 'number':
        return number(node, false);
      case 'string':
        return string(node);
      case 'array':
        return this.#array(node, depth);
      case 'object':
        return this.#object(node, depth);
      default:
        return 'sample';
    }
  }

  /** `#`, `#/$defs/Name` or `#/definitions/Name` (RFC 6901 pointers) within the schema itself. */
  #resolve(ref: string): unknown {
    if (ref === '#') return this.#root;
    if (!ref.startsWith('#/')) throw new GiveUp(`the $ref "${ref}" points outside the schema`);
    let target: unknown = this.#root;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      if (!isObject(target) || !Object.hasOwn(target, key))
        throw new GiveUp(`the $ref "${ref}" does not resolve`);
      target = target[key];
    }
    return target;
  }

  #array(node: JsonSchema, depth: number): unknown[] {
    const count = num(node.minItems) ?? 0;
    if (count > MAX_ITEMS) throw new GiveUp(`minItems ${count} is above ${MAX_ITEMS}`);
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const item = i < prefix.length ? prefix[i] : (node.items ?? true);
      const value = this.value(item, depth + 1);
      // uniqueItems: distinct strings and numbers by position, which most item schemas still accept.
      out.push(node.uniqueItems === true && i > 0 ? distinct(value, i) : value);
    }
    return out;
  }

  #object(node: JsonSchema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const properties = isObject(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? node.required : [];
    for (const name of required) {
      if (typeof name !== 'string' || name === '__proto__') continue;
      const schema = Object.hasOwn(properties, name)
        ? properties[name]
        : isObject(node.additionalProperties)
          ? node.additionalProperties
          : true;
      out[name] = this.value(schema, depth + 1);
    }
    return out;
  }
}

function typeOf(node: JsonSchema): string | undefined {
  const type = node.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const named = type.filter((t): t is string => typeof t === 'string');
    return named.find((t) => t !== 'null') ?? named[0];
  }
  // No `type`: guess from the keywords that only make sense for one type.
  if (isObject(node.properties) || Array.isArray(node.required)) return 'object';
  if (node.items !== undefined || node.prefixItems !== undefined) return 'array';
  if (node.format !== undefined || node.minLength !== undefined || node.maxLength !== undefined)
    return 'string';
  if (node.minimum !== undefined || node.maximum !== undefined) return 'number';
  return undefined;
}

/** `allOf` flattened into one schema: properties and `required` merged, other keywords first-wins. */
function merge(node: JsonSchema): JsonSchema {
  const merged: JsonSchema = {};
  const properties: Record<string, unknown> = {};
  const required: unknown[] = [];
  for (const branch of [{ ...node, allOf: undefined }, ...(node.allOf as unknown[])]) {
    if (!isObject(branch)) continue;
    for (const [key, value] of Object.entries(branch)) {
      if (value === undefined || key === 'allOf') continue;
      if (key === 'properties' && isObject(value)) Object.assign(properties, value);
      else if (key === 'required' && Array.isArray(value)) required.push(...value);
      else if (!Object.hasOwn(merged, key)) merged[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

function distinct(value: unknown, index: number): unknown {
  if (typeof value === 'string') return `${value}${index}`;
  if (typeof value === 'number') return value + index;
  return value;
}

/** A number within minimum/maximum (inclusive or exclusive) and multipleOf; 1 when it fits. */
function number(node: JsonSchema, integer: boolean): number {
  const minimum = num(node.minimum);
  const maximum = num(node.maximum);
  const exclusiveMin = num(node.exclusiveMinimum);
  const exclusiveMax = num(node.exclusiveMaximum);
  const step = num(node.multipleOf);
  const fits = (n: number): boolean =>
    (minimum === undefined || n >= minimum) &&
    (maximum === undefined || n <= maximum) &&
    (exclusiveMin === undefined || n > exclusiveMin) &&
    (exclusiveMax === undefined || n < exclusiveMax) &&
    (!integer || Number.isInteger(n)) &&
    (step === undefined || step <= 0 || Number.isInteger(n / step));
  if (fits(1)) return 1;
  const unit = step !== undefined && step > 0 ? step : integer ? 1 : undefined;
  // The smallest admissible value above the lower bounds, else the largest below the upper ones.
  const lows = [minimum, exclusiveMin].filter((n): n is number => n !== undefined);
  const highs = [maximum, exclusiveMax].filter((n): n is number => n !== undefined);
  const candidates: number[] = [];
  if (lows.length > 0) {
    const low = Math.max(...lows);
    if (unit === undefined) {
      const high = highs.length > 0 ? Math.min(...highs) : undefined;
      candidates.push(low, high === undefined ? low + 1 : (low + high) / 2);
    } else {
      const first = Math.ceil(low / unit) * unit;
      candidates.push(first, first + unit);
    }
  }
  if (highs.length > 0) {
    const high = Math.min(...highs);
    if (unit === undefined) candidates.push(high, high - 1);
    else {
      const last = Math.floor(high / unit) * unit;
      candidates.push(last, last - unit);
    }
  }
  if (unit !== undefined && candidates.length === 0) candidates.push(unit);
  const found = candidates.find(fits);
  if (found === undefined) throw new GiveUp('no number satisfies the bounds');
  return found;
}

/** A string of the format, else `sample` cut or padded to minLength/maxLength. */
function string(node: JsonSchema): string {
  const min = num(node.minLength) ?? 0;
  const max = num(node.maxLength);
  if (max !== undefined && max < min) throw new GiveUp('maxLength is below minLength');
  const format = typeof node.format === 'string' ? FORMATS[node.format] : undefined;
  if (format !== undefined && format.length >= min && (max === undefined || format.length <= max))
    return format;
  const length = Math.min(Math.max(6, min), max ?? Number.POSITIVE_INFINITY);
  if (length > 10_000) throw new GiveUp(`minLength ${min} is too large`);
  return length <= 6 ? 'sample'.slice(0, length) : `sample${'a'.repeat(length - 6)}`;
}

/** A sample value of a JSON Schema, or the reason there is none. Never throws. */
export function sampleFromJsonSchema(schema: JsonSchema | boolean): SampleResult {
  const root = isObject(schema) ? schema : {};
  try {
    return { ok: true, value: new Generator(root).value(schema, 0) };
  } catch (error) {
    if (error instanceof GiveUp) return { ok: false, reason: error.message };
    return {
      ok: false,
      reason: `the schema could not be sampled: ${(error as Error)?.message ?? String(error)}`,
    };
  }
}
