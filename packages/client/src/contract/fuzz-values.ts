/**
 * Values for the contract fuzzer: a seeded random source, random values a JSON Schema admits, and
 * the invalid values tried in each field (wrong type, empty, too long, control characters).
 */
import type { JsonSchema } from '@charter/core';
import { checkJsonSchema } from './json-schema-check.ts';
import { sampleFromJsonSchema } from './sample.ts';

/** A deterministic pseudo-random source (mulberry32): the same seed gives the same sequence. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A 32-bit FNV-1a hash of a seed and a text: one stream per route, whatever order routes come in. */
export function seedFor(seed: number, text: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const MAX_DEPTH = 8;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Resolves a `#/...` pointer against the document. */
function resolve(root: unknown, ref: string): unknown {
  let target: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(target) || !Object.hasOwn(target, key)) return undefined;
    target = target[key];
  }
  return target;
}

class ValueMaker {
  constructor(
    readonly random: Random,
    readonly root: unknown,
  ) {}

  value(schema: unknown, depth: number): unknown {
    if (!isObject(schema) || depth > MAX_DEPTH) return 'x';
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
      return this.value(resolve(this.root, schema.$ref), depth + 1);
    }
    if (Object.hasOwn(schema, 'const')) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.random.pick(schema.enum);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches) && branches.length > 0)
        return this.value(this.random.pick(branches), depth + 1);
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      // The first branch that describes the value, with the node's own keywords over it.
      const { allOf, ...own } = schema;
      return this.value({ ...(isObject(allOf[0]) ? allOf[0] : {}), ...own }, depth + 1);
    }
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    const type =
      types.length > 0 ? this.random.pick(types) : isObject(schema.properties) ? 'object' : 'string';
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return this.random.chance(0.5);
      case 'integer':
      case 'number':
        return this.#number(schema, type === 'integer');
      case 'array':
        return this.#array(schema, depth);
      case 'object':
        return this.#object(schema, depth);
      default:
        return this.#string(schema);
    }
  }

  #number(schema: JsonSchema, integer: boolean): number {
    let min = num(schema.minimum) ?? (num(schema.exclusiveMinimum) ?? -1001) + (integer ? 1 : 0.5);
    let max = num(schema.maximum) ?? (num(schema.exclusiveMaximum) ?? 1001) - (integer ? 1 : 0.5);
    if (max < min) max = min;
    if (max - min > 2000) max = min + 2000;
    const step = num(schema.multipleOf);
    if (step !== undefined && step > 0) {
      const first = Math.ceil(min / step);
      const last = Math.max(first, Math.floor(max / step));
      return this.random.int(first, Math.min(last, first + 100)) * step;
    }
    if (integer) {
      min = Math.ceil(min);
      return this.random.int(min, Math.max(min, Math.floor(max)));
    }
    return Math.round((min + this.random.next() * (max - min)) * 100) / 100;
  }

  #string(schema: JsonSchema): string {
    // Formats and patterns: the canonical sample, which the sampler knows how to build.
    if (schema.format !== undefined || schema.pattern !== undefined) {
      const sample = sampleFromJsonSchema(schema);
      if (sample.ok && typeof sample.value === 'string') return sample.value;
    }
    const min = num(schema.minLength) ?? 0;
    const max = Math.max(min, Math.min(num(schema.maxLength) ?? min + 12, min + 12));
    const length = this.random.int(Math.max(min, 1), Math.max(max, 1));
    let out = '';
    for (let i = 0; i < length; i++) out += this.random.pick([...ALPHABET]);
    return out;
  }

  #array(schema: JsonSchema, depth: number): unknown[] {
    const min = num(schema.minItems) ?? 0;
    const max = Math.max(min, Math.min(num(schema.maxItems) ?? min + 3, min + 3));
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const count = this.random.int(min, max);
    const out: unknown[] = [];
    for (let i = 0; i < count; i++)
      out.push(this.value(i < prefix.length ? prefix[i] : schema.items, depth + 1));
    return out;
  }

  #object(schema: JsonSchema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const [name, property] of Object.entries(properties)) {
      if (name === '__proto__') continue;
      if (required.has(name) || this.random.chance(0.5)) out[name] = this.value(property, depth + 1);
    }
    return out;
  }
}

/**
 * A random value `schema` admits, checked against it; the sampler's canonical value when the random
 * one misses (a shape the maker does not know); undefined when neither fits.
 */
export function validValue(schema: unknown, random: Random, root: unknown): { value: unknown } | undefined {
  const made = new ValueMaker(random, root).value(schema, 0);
  if (checkJsonSchema(schema, made, root).length === 0) return { value: made };
  const components = isObject(root) && isObject(root.components) ? root.components : undefined;
  const sample = sampleFromJsonSchema(isObject(schema) ? { ...schema, components } : (schema as boolean));
  if (sample.ok && checkJsonSchema(schema, sample.value, root).length === 0) return { value: sample.value };
  return undefined;
}

/** One way of getting a field wrong, with a name for the finding. */
export interface Mutation {
  readonly label: string;
  readonly value: unknown;
}

/** The primary JSON type a (resolved) schema names, for picking a wrong one. */
function primaryType(schema: unknown, root: unknown, depth = 0): string | undefined {
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
    return primaryType(resolve(root, schema.$ref), root, depth + 1);
  }
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type) && typeof schema.type[0] === 'string') return schema.type[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return typeof schema.enum[0];
  return undefined;
}

/** Invalid values for a field of this schema: wrong type, empty, too long, control characters. */
export function invalidValues(schema: unknown, root: unknown, random: Random): Mutation[] {
  const type = primaryType(schema, root);
  const maxLength = isObject(schema) ? num(schema.maxLength) : undefined;
  const long = 'x'.repeat(Math.min((maxLength ?? 4096) + 1, 70_000));
  const out: Mutation[] = [
    {
      label: 'wrong type',
      value: type === 'string' ? random.int(2, 99) : type === 'object' ? 'text' : 'not-a-value',
    },
    { label: 'empty', value: '' },
    { label: 'too long', value: long },
    { label: 'control characters', value: `a\u0000b\u0007c\u001b` },
  ];
  if (type === 'object') out.push({ label: 'wrong type (array)', value: [] });
  if (type === 'integer') out.push({ label: 'wrong type (fraction)', value: 1.5 });
  return out;
}
