// MCP `tools/call` argument checks against a tool's `inputSchema`: a subset of JSON Schema 2020-12
// (Core: draft-bhutton-json-schema-01; Validation: draft-bhutton-json-schema-validation-01), the
// default dialect since MCP 2025-11-25. Problems become JSON-RPC -32602 before the handler runs.
// Input is hostile: recursion follows the schema (depth-capped), never the value, and the problem
// list is capped, so a huge or deeply nested argument costs linear time and bounded stack.

import { isJsonObject, matchesJsonType } from '@charter/core';

/** Keywords `validateMcpInput` enforces. */
export const MCP_ENFORCED_KEYWORDS: readonly string[] = Object.freeze([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'prefixItems',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
]);

/** Keywords a tool may advertise to clients but `validateMcpInput` does not check. */
export const MCP_UNENFORCED_KEYWORDS: readonly string[] = Object.freeze([
  'pattern',
  'format',
  '$ref',
  '$dynamicRef',
  '$defs',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

const MAX_PROBLEMS = 20;
const MAX_SCHEMA_DEPTH = 64;
const MAX_EQUAL_DEPTH = 64;
const MAX_NAME_LENGTH = 64;
const MAX_LISTED_VALUES = 10;
const ROOT = 'arguments';
const MORE_PROBLEMS = '... and more problems';
const TYPE_NAMES: ReadonlySet<string> = new Set([
  'null',
  'boolean',
  'object',
  'array',
  'number',
  'integer',
  'string',
]);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

type SchemaObject = Record<string, unknown>;

/** Where a value (or a schema) sits: a linked list rendered only when a problem is reported. */
interface Path {
  readonly parent: Path | undefined;
  readonly key: string | number;
}

function child(parent: Path | undefined, key: string | number): Path {
  return { parent, key };
}

/** Own keyword only: a polluted `Object.prototype.maximum` must not change what a schema means. */
function own(schema: SchemaObject, keyword: string): unknown {
  return Object.hasOwn(schema, keyword) ? schema[keyword] : undefined;
}

/** The first 64 code points of a name, with an ellipsis when cut. */
function cutName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  let out = '';
  let count = 0;
  for (const char of name) {
    if (count === MAX_NAME_LENGTH) return `${out}…`;
    out += char;
    count++;
  }
  return out;
}

function quoteName(name: string): string {
  return JSON.stringify(cutName(name));
}

function renderPath(path: Path | undefined, root: string): string {
  const keys: (string | number)[] = [];
  for (let at = path; at !== undefined; at = at.parent) keys.push(at.key);
  return renderLocation(keys.reverse(), root);
}

/**
 * Where a problem is, as the messages write it: `root`, then `.name` for identifier-like keys,
 * `["odd key"]` (quoted, cut at 64 code points) for others, `[2]` for indices.
 */
export function renderLocation(keys: readonly (string | number)[], root: string): string {
  let out = root;
  for (const key of keys) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (key.length <= MAX_NAME_LENGTH && IDENTIFIER.test(key)) out += `.${key}`;
    else out += `[${quoteName(key)}]`;
  }
  return out;
}

/** The JSON type of a value, as named in a problem (never the value itself). */
function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : 'non-finite number';
  if (typeof value === 'object') return isJsonObject(value) ? 'object' : 'non-JSON object';
  return typeof value;
}

function typePhrase(name: unknown): string {
  if (name === 'null') return 'null';
  if (typeof name !== 'string') return 'of an unknown type';
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

function listPhrase(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

function plural(count: number, noun: string, nouns: string): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** Unicode code points, as JSON Schema counts string length (Validation §6.3.1, RFC 8259 §7). */
function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point; a lone surrogate counts as one.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * JSON instance equality (Core §4.2.2): key order is irrelevant, 0 equals -0. Nesting deeper than
 * 64 levels counts as unequal, so a hostile value cannot exhaust the stack.
 */
function jsonEqual(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (depth >= MAX_EQUAL_DEPTH) return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !jsonEqual(a[key], b[key], depth + 1)) return false;
  }
  return true;
}

/**
 * A cheap key that equal values always share (so bucketing never misses a duplicate); different
 * values usually differ, which keeps `uniqueItems` near-linear for arrays of primitives or records.
 */
function bucketKey(value: unknown, depth: number): string {
  if (value === null) return 'z';
  switch (typeof value) {
    case 'boolean':
      return value ? 't' : 'f';
    case 'number':
      // String(-0) is "0": 0 and -0 share a bucket, as JSON equality wants.
      return `n${value}`;
    case 'string':
      return depth === 0 ? `s${value}` : `s${value.length}:${value.slice(0, 16)}`;
    case 'object':
      break;
    default:
      return `x${typeof value}`;
  }
  if (Array.isArray(value)) {
    if (depth >= 2) return `a${value.length}`;
    let key = `a${value.length}[`;
    const shown = Math.min(value.length, 8);
    for (let i = 0; i < shown; i++) key += `${bucketKey(value[i], depth + 1)},`;
    return `${key}]`;
  }
  if (!isJsonObject(value)) return 'x';
  const names = Object.keys(value);
  if (depth >= 2 || names.length > 16) return `o${names.length}`;
  names.sort();
  let key = 'o{';
  for (const name of names)
    key += `${name.length}:${name.slice(0, 32)}=${bucketKey(value[name], depth + 1)},`;
  return `${key}}`;
}

/** Index of the first earlier item equal to a later one, or undefined when all items differ. */
function findDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < items.length; i++) {
    const key = bucketKey(items[i], 0);
    const bucket = buckets.get(key);
    if (bucket === undefined) {
      buckets.set(key, [i]);
      continue;
    }
    for (const j of bucket) if (jsonEqual(items[j], items[i], 0)) return [j, i];
    bucket.push(i);
  }
  return undefined;
}

/** Schema constants (`enum`, `const`) are public in `tools/list`, so short primitives may be shown. */
function showConstant(value: unknown): string | undefined {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string' && codePointLength(value) <= MAX_NAME_LENGTH) return JSON.stringify(value);
  return undefined;
}

/** Collects at most 20 problems; the 21st only marks that more exist and stops the walk. */
class Problems {
  readonly list: string[] = [];
  full = false;

  add(path: Path | undefined, sentence: string): void {
    if (this.list.length >= MAX_PROBLEMS) {
      this.full = true;
      return;
    }
    this.list.push(`${renderPath(path, ROOT)} ${sentence}`);
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isBound(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Validation §6.2.1. Exact for integers; otherwise the quotient is compared to its rounding with a
 * tolerance of a few ulps, so decimal steps such as 0.3 / 0.1 = 2.9999999999999996 pass. An
 * overflowing quotient is not a multiple (the JSON-Schema-Test-Suite "float division = inf" case).
 */
function isMultipleOf(value: number, step: number): boolean {
  if (Number.isInteger(value) && Number.isInteger(step)) return value % step === 0;
  const quotient = value / step;
  if (!Number.isFinite(quotient)) return false;
  return Math.abs(quotient - Math.round(quotient)) <= 8 * Number.EPSILON * Math.abs(quotient);
}

function checkNumber(schema: SchemaObject, value: number, path: Path | undefined, out: Problems): void {
  // Negated comparisons so that NaN (not JSON, but a direct caller may pass it) fails every bound.
  const minimum = own(schema, 'minimum');
  if (isBound(minimum) && !(value >= minimum)) out.add(path, `must be at least ${minimum}`);
  const maximum = own(schema, 'maximum');
  if (isBound(maximum) && !(value <= maximum)) out.add(path, `must be at most ${maximum}`);
  // 2020-12 numeric forms (Validation §6.2.3, §6.2.5); the draft-04 boolean form is ignored here and
  // refused by assertMcpInputSchema.
  const exclusiveMinimum = own(schema, 'exclusiveMinimum');
  if (isBound(exclusiveMinimum) && !(value > exclusiveMinimum)) {
    out.add(path, `must be greater than ${exclusiveMinimum}`);
  }
  const exclusiveMaximum = own(schema, 'exclusiveMaximum');
  if (isBound(exclusiveMaximum) && !(value < exclusiveMaximum)) {
    out.add(path, `must be less than ${exclusiveMaximum}`);
  }
  const step = own(schema, 'multipleOf');
  if (isBound(step) && step > 0 && !isMultipleOf(value, step)) out.add(path, `must be a multiple of ${step}`);
}

function checkString(schema: SchemaObject, value: string, path: Path | undefined, out: Problems): void {
  const minLength = own(schema, 'minLength');
  const maxLength = own(schema, 'maxLength');
  // UTF-16 length bounds the code-point count from above, so most strings skip the count.
  if (isCount(minLength) && value.length < minLength * 2) {
    const length = codePointLength(value);
    if (length < minLength) {
      out.add(path, `must be at least ${plural(minLength, 'character', 'characters')} long, got ${length}`);
    }
  }
  if (isCount(maxLength) && value.length > maxLength) {
    const length = codePointLength(value);
    if (length > maxLength) {
      out.add(path, `must be at most ${plural(maxLength, 'character', 'characters')} long, got ${length}`);
    }
  }
}

function checkArray(
  schema: SchemaObject,
  value: readonly unknown[],
  path: Path | undefined,
  depth: number,
  out: Problems,
): void {
  const minItems = own(schema, 'minItems');
  if (isCount(minItems) && value.length < minItems) {
    out.add(path, `must have at least ${plural(minItems, 'item', 'items')}, got ${value.length}`);
  }
  const maxItems = own(schema, 'maxItems');
  if (isCount(maxItems) && value.length > maxItems) {
    out.add(path, `must have at most ${plural(maxItems, 'item', 'items')}, got ${value.length}`);
  }
  if (own(schema, 'uniqueItems') === true && !out.full) {
    const duplicate = findDuplicate(value);
    if (duplicate !== undefined) {
      out.add(path, `must not contain equal items, but items ${duplicate[0]} and ${duplicate[1]} are equal`);
    }
  }
  // Core §10.3.1.1-2: prefixItems checks positions; items checks every position after them.
  const prefixItems = own(schema, 'prefixItems');
  const prefix = Array.isArray(prefixItems) ? prefixItems : [];
  const covered = Math.min(prefix.length, value.length);
  for (let i = 0; i < covered && !out.full; i++)
    validateNode(prefix[i], value[i], child(path, i), depth + 1, out);
  const items = own(schema, 'items');
  if (items === undefined || items === true || value.length <= prefix.length) return;
  if (items === false) {
    out.add(path, `must have at most ${plural(prefix.length, 'item', 'items')}, got ${value.length}`);
    return;
  }
  // One loop, not one stack frame per item: a 10^6-item array costs no more stack than one item.
  for (let i = prefix.length; i < value.length && !out.full; i++) {
    validateNode(items, value[i], child(path, i), depth + 1, out);
  }
}

function checkObject(
  schema: SchemaObject,
  value: SchemaObject,
  path: Path | undefined,
  depth: number,
  out: Problems,
): void {
  const required = own(schema, 'required');
  if (Array.isArray(required)) {
    for (const name of required) {
      if (typeof name === 'string' && !Object.hasOwn(value, name)) {
        out.add(path, `must have the property ${quoteName(name)}`);
      }
    }
  }
  const propertiesKeyword = own(schema, 'properties');
  const properties = isJsonObject(propertiesKeyword) ? propertiesKeyword : undefined;
  if (properties !== undefined) {
    for (const name of Object.keys(properties)) {
      if (out.full) return;
      if (Object.hasOwn(value, name))
        validateNode(properties[name], value[name], child(path, name), depth + 1, out);
    }
  }
  // Core §10.3.2.3: additionalProperties covers names matched by neither `properties` nor
  // `patternProperties`. Patterns are not evaluated here, so with `patternProperties` present we
  // cannot tell which names are "additional" and leave the keyword unenforced rather than refuse
  // names the tool accepts.
  const additional = own(schema, 'additionalProperties');
  if (additional !== undefined && additional !== true && own(schema, 'patternProperties') === undefined) {
    for (const name of Object.keys(value)) {
      if (out.full) return;
      if (properties !== undefined && Object.hasOwn(properties, name)) continue;
      if (additional === false) out.add(path, `has the unexpected property ${quoteName(name)}`);
      else validateNode(additional, value[name], child(path, name), depth + 1, out);
    }
  }
  const minProperties = own(schema, 'minProperties');
  const maxProperties = own(schema, 'maxProperties');
  if (isCount(minProperties) || isCount(maxProperties)) {
    const count = Object.keys(value).length;
    if (isCount(minProperties) && count < minProperties) {
      out.add(path, `must have at least ${plural(minProperties, 'property', 'properties')}, got ${count}`);
    }
    if (isCount(maxProperties) && count > maxProperties) {
      out.add(path, `must have at most ${plural(maxProperties, 'property', 'properties')}, got ${count}`);
    }
  }
}

/** Returns false when the type is wrong: further keywords would only repeat the same mistake. */
function checkTypeAndConstants(
  schema: SchemaObject,
  value: unknown,
  path: Path | undefined,
  out: Problems,
): boolean {
  const type = own(schema, 'type');
  const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
  if (names.length > 0 && !names.some((name) => matchesJsonType(name, value))) {
    out.add(path, `must be ${listPhrase(names.map(typePhrase))}, got ${typeOfValue(value)}`);
    return false;
  }
  if (Object.hasOwn(schema, 'const') && !jsonEqual(schema.const, value, 0)) {
    const shown = showConstant(schema.const);
    out.add(
      path,
      shown === undefined ? 'must equal the constant value given by the schema' : `must equal ${shown}`,
    );
  }
  const allowed = own(schema, 'enum');
  if (Array.isArray(allowed) && !allowed.some((candidate) => jsonEqual(candidate, value, 0))) {
    const shown = allowed.length <= MAX_LISTED_VALUES ? allowed.map(showConstant) : [];
    if (shown.length > 0 && shown.every((text) => text !== undefined)) {
      out.add(path, `must be one of ${shown.join(', ')}`);
    } else {
      out.add(path, `must be one of the ${plural(allowed.length, 'value', 'values')} listed in the schema`);
    }
  }
  return true;
}

function validateNode(
  schema: unknown,
  value: unknown,
  path: Path | undefined,
  depth: number,
  out: Problems,
): void {
  if (out.full) return;
  // Recursion follows the schema: a cyclic or absurdly deep schema stops here instead of looping.
  if (depth > MAX_SCHEMA_DEPTH) {
    out.add(path, `cannot be checked: schema too deep (more than ${MAX_SCHEMA_DEPTH} nested levels)`);
    return;
  }
  // Core §4.3.2: `true` accepts every instance, `false` none.
  if (schema === true) return;
  if (schema === false) {
    out.add(path, 'is not allowed');
    return;
  }
  if (!isJsonObject(schema)) {
    out.add(path, `cannot be checked: its schema is not a JSON Schema object or boolean`);
    return;
  }
  if (!checkTypeAndConstants(schema, value, path, out)) return;
  if (typeof value === 'number') checkNumber(schema, value, path, out);
  else if (typeof value === 'string') checkString(schema, value, path, out);
  else if (Array.isArray(value)) checkArray(schema, value, path, depth, out);
  else if (isJsonObject(value)) checkObject(schema, value, path, depth, out);
}

/**
 * Checks `tools/call` arguments against a tool's `inputSchema`; returns one sentence per problem
 * (at most 20, then "... and more problems"), or an empty array when the value is valid.
 */
export function validateMcpInput(schema: unknown, value: unknown): string[] {
  const out = new Problems();
  validateNode(schema, value, undefined, 0, out);
  return out.full ? [...out.list, MORE_PROBLEMS] : out.list;
}

// ---- Registration-time schema shape check ----

interface ShapeWalk {
  readonly where: string;
  /** Schemas on the current branch: meeting one again means the schema is cyclic. */
  readonly active: Set<object>;
  /** Schemas already checked, with their height, so a shared subschema is checked once. */
  readonly done: Map<object, number>;
}

function refuse(walk: ShapeWalk, path: Path | undefined, sentence: string): never {
  throw new TypeError(`${renderPath(path, walk.where)} ${sentence}`);
}

function showSchemaValue(value: unknown): string {
  return showConstant(value) ?? typeOfValue(value);
}

function checkTypeKeyword(walk: ShapeWalk, type: unknown, path: Path): void {
  const names = typeof type === 'string' ? [type] : type;
  const known = 'one of null, boolean, object, array, number, integer, string';
  if (!Array.isArray(names) || names.length === 0) {
    refuse(
      walk,
      path,
      `must be a type name or a non-empty array of them (${known}), got ${showSchemaValue(type)}`,
    );
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (typeof name !== 'string' || !TYPE_NAMES.has(name)) {
      refuse(walk, path, `must name known types (${known}), got ${showSchemaValue(name)}`);
    }
    if (seen.has(name)) refuse(walk, path, `must not repeat the type ${JSON.stringify(name)}`);
    seen.add(name);
  }
}

function checkKeywordShapes(walk: ShapeWalk, schema: SchemaObject, path: Path | undefined): void {
  if (Object.hasOwn(schema, 'type')) checkTypeKeyword(walk, schema.type, child(path, 'type'));
  if (Object.hasOwn(schema, 'enum') && !Array.isArray(schema.enum)) {
    refuse(walk, child(path, 'enum'), `must be an array, got ${typeOfValue(schema.enum)}`);
  }
  for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const bound = own(schema, keyword);
    if (bound !== undefined && !isBound(bound)) {
      refuse(
        walk,
        child(path, keyword),
        `must be a finite number (JSON Schema 2020-12), got ${typeOfValue(bound)}`,
      );
    }
  }
  const step = own(schema, 'multipleOf');
  if (step !== undefined && !(isBound(step) && step > 0)) {
    refuse(walk, child(path, 'multipleOf'), 'must be a number greater than 0');
  }
  for (const keyword of [
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minProperties',
    'maxProperties',
  ]) {
    const count = own(schema, keyword);
    if (count !== undefined && !isCount(count))
      refuse(walk, child(path, keyword), 'must be a non-negative integer');
  }
  const unique = own(schema, 'uniqueItems');
  if (unique !== undefined && typeof unique !== 'boolean') {
    refuse(walk, child(path, 'uniqueItems'), `must be a boolean, got ${typeOfValue(unique)}`);
  }
  const required = own(schema, 'required');
  if (required !== undefined) {
    if (!Array.isArray(required))
      refuse(walk, child(path, 'required'), `must be an array, got ${typeOfValue(required)}`);
    const seen = new Set<string>();
    for (let i = 0; i < required.length; i++) {
      const name: unknown = required[i];
      if (typeof name !== 'string')
        refuse(walk, child(child(path, 'required'), i), 'must be a property name string');
      if (seen.has(name))
        refuse(walk, child(path, 'required'), `must not repeat the name ${quoteName(name)}`);
      seen.add(name);
    }
  }
  const properties = own(schema, 'properties');
  if (properties !== undefined && !isJsonObject(properties)) {
    refuse(walk, child(path, 'properties'), `must be an object of schemas, got ${typeOfValue(properties)}`);
  }
  const prefixItems = own(schema, 'prefixItems');
  if (prefixItems !== undefined && !Array.isArray(prefixItems)) {
    refuse(walk, child(path, 'prefixItems'), `must be an array of schemas, got ${typeOfValue(prefixItems)}`);
  }
}

/** Returns the height of the schema tree below `schema` (0 for a leaf). */
function checkShape(walk: ShapeWalk, schema: unknown, path: Path | undefined, depth: number): number {
  if (typeof schema === 'boolean') return 0;
  if (!isJsonObject(schema)) {
    refuse(walk, path, `must be a JSON Schema (an object or a boolean), got ${typeOfValue(schema)}`);
  }
  if (walk.active.has(schema))
    refuse(walk, path, 'refers back to itself: a cyclic schema cannot be sent as JSON');
  const height = walk.done.get(schema);
  if (height !== undefined || depth > MAX_SCHEMA_DEPTH) {
    if (depth + (height ?? 0) > MAX_SCHEMA_DEPTH) {
      refuse(walk, path, `is nested too deep (more than ${MAX_SCHEMA_DEPTH} levels)`);
    }
    if (height !== undefined) return height;
  }
  walk.active.add(schema);
  checkKeywordShapes(walk, schema, path);
  const below: [unknown, Path][] = [];
  const properties = own(schema, 'properties');
  if (isJsonObject(properties)) {
    const at = child(path, 'properties');
    for (const name of Object.keys(properties)) below.push([properties[name], child(at, name)]);
  }
  const prefixItems = own(schema, 'prefixItems');
  if (Array.isArray(prefixItems))
    prefixItems.forEach((item, i) => below.push([item, child(child(path, 'prefixItems'), i)]));
  for (const keyword of ['items', 'additionalProperties']) {
    if (Object.hasOwn(schema, keyword)) below.push([schema[keyword], child(path, keyword)]);
  }
  let tallest = 0;
  for (const [sub, at] of below) tallest = Math.max(tallest, 1 + checkShape(walk, sub, at, depth + 1));
  walk.active.delete(schema);
  walk.done.set(schema, tallest);
  return tallest;
}

/**
 * Registration-time check of a tool's `inputSchema` or `outputSchema`: throws a TypeError starting
 * with `where` unless it is an object-rooted schema whose enforced keywords are well formed.
 */
export function assertMcpInputSchema(schema: unknown, where: string): void {
  if (!isJsonObject(schema))
    throw new TypeError(`${where} must be a JSON Schema object, got ${typeOfValue(schema)}`);
  // MCP tool schemas describe the `arguments` object (and `structuredContent`), so the root is an object.
  if (own(schema, 'type') !== 'object') {
    throw new TypeError(`${where} must have "type": "object" at its root, as MCP requires`);
  }
  checkShape({ where, active: new Set(), done: new Map() }, schema, undefined, 0);
}
