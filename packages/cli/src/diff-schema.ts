/**
 * Compares two JSON Schemas (OpenAPI 3.1 schema objects) for what breaks a client. The direction
 * matters: a request schema may accept more than before but not less (the client's old requests must
 * still pass); a response schema may promise more than before but not less (the client's reading of
 * the old answers must still hold).
 */

/** One difference found. */
export interface SchemaChange {
  readonly breaking: boolean;
  readonly code: string;
  /** Where in the schema: `body.items[].name`, `query.limit`... */
  readonly at: string;
  readonly message: string;
}

export type Direction = 'request' | 'response';

/** Resolves local `$ref`s (`#/components/...`) of one document. */
export type RefResolver = (ref: string) => unknown;

/** A resolver for `#/...` JSON Pointers (RFC 6901) into `document`; other references resolve to undefined. */
export function refResolver(document: unknown): RefResolver {
  return (ref) => {
    if (!ref.startsWith('#/')) return undefined;
    let node: unknown = document;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  };
}

type Schema = Record<string, unknown>;

const MAX_DEPTH = 24;

/** `value` with its `$ref` chain followed (at most 16 hops, so a reference loop ends). */
export function deref(value: unknown, resolve: RefResolver): unknown {
  let node = value;
  for (let hops = 0; hops < 16; hops++) {
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as Schema).$ref;
    if (typeof ref !== 'string') return node;
    node = resolve(ref);
  }
  return undefined;
}

const asSchema = (value: unknown): Schema | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;

/** The JSON types a schema allows, or undefined for "anything" (no `type`, no properties or items). */
function typesOf(schema: Schema): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === 'string'));
  if (asSchema(schema.properties) !== undefined) return new Set(['object']);
  if (schema.items !== undefined) return new Set(['array']);
  return undefined;
}

/** True when every type of `narrow` is allowed by `wide` (`integer` is a `number`). */
function typesCovered(narrow: Set<string>, wide: Set<string> | undefined): boolean {
  if (wide === undefined) return true;
  for (const t of narrow) if (!wide.has(t) && !(t === 'integer' && wide.has('number'))) return false;
  return true;
}

/** The allowed values of an `enum` or `const`, as JSON text; undefined when the schema has neither. */
function valuesOf(schema: Schema): Set<string> | undefined {
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map((v) => JSON.stringify(v)));
  if (Object.hasOwn(schema, 'const')) return new Set([JSON.stringify(schema.const)]);
  return undefined;
}

const requiredOf = (schema: Schema): Set<string> =>
  new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);

const typeText = (types: Set<string> | undefined): string =>
  types === undefined ? 'any' : [...types].sort().join(' | ');

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;

interface Walk {
  readonly direction: Direction;
  readonly oldRef: RefResolver;
  readonly newRef: RefResolver;
  readonly out: SchemaChange[];
  /** Pairs of schema objects already compared (recursive schemas). */
  readonly seen: WeakMap<object, WeakSet<object>>;
}

function add(walk: Walk, breaking: boolean, code: string, at: string, message: string): void {
  walk.out.push({ breaking, code, at, message });
}

/**
 * `schema` with the members of its `allOf` merged in (their properties, required names, and type when
 * the schema has none): what an instance must satisfy, in one object to compare.
 */
function flattenAllOf(schema: Schema, resolve: RefResolver, depth = 0): Schema {
  if (!Array.isArray(schema.allOf) || depth > 8) return schema;
  const { allOf, ...own } = schema;
  const merged: Schema = { ...own };
  const properties: Schema = {};
  const required = new Set<string>(requiredOf(own));
  for (const member of [...(allOf as unknown[]), own]) {
    const part = asSchema(deref(member, resolve));
    if (part === undefined) continue;
    const flat = part === own ? own : flattenAllOf(part, resolve, depth + 1);
    Object.assign(properties, asSchema(flat.properties) ?? {});
    for (const name of requiredOf(flat)) required.add(name);
    if (merged.type === undefined && flat.type !== undefined) merged.type = flat.type;
    if (flat.additionalProperties === false) merged.additionalProperties = false;
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/** The variants of a `oneOf` or `anyOf`, each keyed by its `$ref` or its JSON text. */
function variantsOf(schema: Schema): Map<string, string> | undefined {
  const list = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : undefined;
  if (list === undefined) return undefined;
  const out = new Map<string, string>();
  for (const variant of list) {
    const ref = asSchema(variant)?.$ref;
    const key = typeof ref === 'string' ? ref : JSON.stringify(variant);
    out.set(
      key,
      typeof ref === 'string'
        ? ref.slice(ref.lastIndexOf('/') + 1)
        : key.length > 60
          ? `${key.slice(0, 57)}...`
          : key,
    );
  }
  return out;
}

function compareVariants(walk: Walk, before: Schema, after: Schema, at: string): void {
  const oldVariants = variantsOf(before);
  const newVariants = variantsOf(after);
  if (oldVariants === undefined || newVariants === undefined) return;
  const request = walk.direction === 'request';
  for (const [key, name] of oldVariants) {
    if (!newVariants.has(key)) {
      add(
        walk,
        request,
        'variant-removed',
        at,
        request ? `no longer accepts the variant ${name}` : `no longer returns the variant ${name}`,
      );
    }
  }
  for (const [key, name] of newVariants) {
    if (!oldVariants.has(key)) {
      add(
        walk,
        !request,
        'variant-added',
        at,
        request ? `also accepts the variant ${name}` : `may now return the variant ${name}`,
      );
    }
  }
}

function compare(walk: Walk, oldValue: unknown, newValue: unknown, at: string, depth: number): void {
  if (depth > MAX_DEPTH) return;
  const rawBefore = asSchema(deref(oldValue, walk.oldRef));
  const rawAfter = asSchema(deref(newValue, walk.newRef));
  if (rawBefore === undefined || rawAfter === undefined) return;
  const before = flattenAllOf(rawBefore, walk.oldRef);
  const after = flattenAllOf(rawAfter, walk.newRef);
  const pairs = walk.seen.get(rawBefore) ?? new WeakSet<object>();
  if (pairs.has(rawAfter)) return;
  pairs.add(rawAfter);
  walk.seen.set(rawBefore, pairs);
  compareVariants(walk, before, after, at);
  const request = walk.direction === 'request';

  // Types: a request may accept more types, a response may return fewer.
  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  if (oldTypes !== undefined || newTypes !== undefined) {
    const ok = request
      ? oldTypes === undefined
        ? newTypes === undefined
        : typesCovered(oldTypes, newTypes)
      : newTypes === undefined
        ? oldTypes === undefined
        : typesCovered(newTypes, oldTypes);
    if (!ok) {
      add(walk, true, 'type-changed', at, `type changed from ${typeText(oldTypes)} to ${typeText(newTypes)}`);
      return;
    }
  }

  // Allowed values: a request enum may gain values, a response enum may lose them.
  const oldValues = valuesOf(before);
  const newValues = valuesOf(after);
  if (request && newValues !== undefined) {
    const lost = oldValues === undefined ? ['(any value)'] : [...oldValues].filter((v) => !newValues.has(v));
    if (lost.length > 0) add(walk, true, 'enum-narrowed', at, `no longer accepts ${lost.join(', ')}`);
  } else if (!request && oldValues !== undefined) {
    const gained =
      newValues === undefined ? ['(any value)'] : [...newValues].filter((v) => !oldValues.has(v));
    if (gained.length > 0) add(walk, true, 'enum-widened', at, `may now return ${gained.join(', ')}`);
  }

  // Bounds and patterns: requests must not become stricter.
  if (request) {
    for (const key of LOWER_BOUNDS) {
      const o = before[key];
      const n = after[key];
      if (typeof n === 'number' && (typeof o !== 'number' || n > o)) {
        add(
          walk,
          true,
          'constraint-narrowed',
          at,
          `${key} ${o === undefined ? 'added' : `raised from ${o}`} to ${n}`,
        );
      }
    }
    for (const key of UPPER_BOUNDS) {
      const o = before[key];
      const n = after[key];
      if (typeof n === 'number' && (typeof o !== 'number' || n < o)) {
        add(
          walk,
          true,
          'constraint-narrowed',
          at,
          `${key} ${o === undefined ? 'added' : `lowered from ${o}`} to ${n}`,
        );
      }
    }
    if (typeof after.pattern === 'string' && after.pattern !== before.pattern) {
      add(
        walk,
        true,
        'constraint-narrowed',
        at,
        `pattern ${before.pattern === undefined ? 'added' : 'changed'}`,
      );
    }
  }

  compareObjects(walk, before, after, at, depth);
  if (before.items !== undefined || after.items !== undefined) {
    compare(walk, before.items, after.items, `${at}[]`, depth + 1);
  }
}

function compareObjects(walk: Walk, before: Schema, after: Schema, at: string, depth: number): void {
  const oldProps = asSchema(before.properties) ?? {};
  const newProps = asSchema(after.properties) ?? {};
  const oldRequired = requiredOf(before);
  const newRequired = requiredOf(after);
  const path = (name: string): string => (at === '' ? name : `${at}.${name}`);
  if (walk.direction === 'request') {
    for (const name of newRequired) {
      if (oldRequired.has(name)) continue;
      if (Object.hasOwn(oldProps, name)) {
        add(walk, true, 'property-became-required', path(name), 'is now required');
      } else {
        add(walk, true, 'required-property-added', path(name), 'new required field');
      }
    }
    for (const name of Object.keys(oldProps)) {
      if (Object.hasOwn(newProps, name)) continue;
      // Sent by old clients: refused only when the new schema closes the object.
      const closed = after.additionalProperties === false || after.unevaluatedProperties === false;
      add(
        walk,
        closed,
        'property-removed',
        path(name),
        closed ? 'removed (and unknown fields are refused)' : 'removed',
      );
    }
    for (const name of Object.keys(newProps)) {
      if (!Object.hasOwn(oldProps, name) && !newRequired.has(name)) {
        add(walk, false, 'optional-property-added', path(name), 'new optional field');
      }
    }
  } else {
    for (const name of Object.keys(oldProps)) {
      if (!Object.hasOwn(newProps, name))
        add(walk, true, 'property-removed', path(name), 'no longer returned');
      else if (oldRequired.has(name) && !newRequired.has(name)) {
        add(walk, true, 'property-became-optional', path(name), 'may now be missing (was always present)');
      }
    }
    for (const name of Object.keys(newProps)) {
      if (!Object.hasOwn(oldProps, name)) add(walk, false, 'property-added', path(name), 'new field');
    }
  }
  for (const name of Object.keys(oldProps)) {
    if (Object.hasOwn(newProps, name)) compare(walk, oldProps[name], newProps[name], path(name), depth + 1);
  }
}

/** The differences between `before` and `after`, read as `direction` schemas, each located under `at`. */
export function diffSchemas(
  before: unknown,
  after: unknown,
  options: { direction: Direction; at: string; oldRef: RefResolver; newRef: RefResolver },
): SchemaChange[] {
  const walk: Walk = { ...options, out: [], seen: new WeakMap() };
  compare(walk, before, after, options.at, 0);
  return walk.out;
}
