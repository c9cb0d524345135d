import { type JsonSchema, toJsonSchema } from './json-schema.ts';
import type { AnySchema, SchemaIssue } from './validate.ts';

/**
 * Params, query strings and headers arrive as text. Where a schema asks for a number, an integer,
 * a boolean or an array, the text is converted before validation, as users expect from
 * `?limit=10&active=true&tag=a`. The plan is decided once per route, from the schema's JSON Schema.
 */
export type Coercion = 'number' | 'integer' | 'boolean' | { array: Coercion | undefined };

/** Per key, how to convert its text; `undefined` when the schema cannot describe itself. */
export type CoercionPlan = ReadonlyMap<string, Coercion>;

// Linear-time (no nested quantifiers): an optional sign, digits, optional fraction and exponent.
const NUMERIC = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
// Where only an integer is acceptable, only integer notation converts to an accepted value: `1e2` and
// `5.0` stay text and fail the schema, rather than being read as 100 and 5.
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * A plan as `planCoercion` makes it: the Map, with its entries also kept as two arrays, since the
 * per-request loop over arrays allocates nothing where iterating a Map makes an iterator and an
 * entry pair per key.
 */
class PlannedCoercion extends Map<string, Coercion> {
  readonly names: string[] = [];
  readonly steps: Coercion[] = [];
}

export function planCoercion(schema: AnySchema): CoercionPlan | undefined {
  const json = toJsonSchema(schema, 'input');
  if (json === undefined) return undefined;
  const plan = new PlannedCoercion();
  const properties = json.properties;
  if (typeof properties !== 'object' || properties === null) return plan;
  for (const [key, sub] of Object.entries(properties as Record<string, JsonSchema>)) {
    const coercion = coercionFor(sub);
    if (coercion === undefined) continue;
    plan.set(key, coercion);
    plan.names.push(key);
    plan.steps.push(coercion);
  }
  return plan;
}

/**
 * The JSON types a schema admits, from `type`, its `anyOf`/`oneOf` branches and its `const`/`enum`
 * values (empty when the schema says nothing, i.e. anything goes). Shared by the coercion planners.
 */
export function jsonSchemaTypes(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  typesOf(schema, types);
  return types;
}

function typesOf(schema: JsonSchema, out: Set<string>): void {
  const type = schema.type;
  if (typeof type === 'string') out.add(type);
  else if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') out.add(t);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches) typesOf(branch as JsonSchema, out);
  }
  const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
  for (const value of values) out.add(typeof value === 'number' ? 'number' : typeof value);
}

function coercionFor(schema: JsonSchema): Coercion | undefined {
  const types = jsonSchemaTypes(schema);
  // Text is acceptable as it is: converting would change what the schema accepts.
  if (types.has('string') || types.size === 0) return undefined;
  if (types.has('array')) {
    const items = schema.items;
    return {
      array: typeof items === 'object' && items !== null ? coercionFor(items as JsonSchema) : undefined,
    };
  }
  if (types.has('number')) return 'number';
  if (types.has('integer')) return 'integer';
  if (types.has('boolean')) return 'boolean';
  return undefined;
}

function convert(value: unknown, coercion: Coercion | undefined): unknown {
  if (coercion === undefined) return value;
  if (typeof coercion === 'object') {
    const list = Array.isArray(value) ? value : [value];
    return coercion.array === undefined ? list : list.map((item) => convert(item, coercion.array));
  }
  if (typeof value !== 'string') return value;
  if (coercion === 'number') return NUMERIC.test(value) ? Number(value) : value;
  if (coercion === 'integer') {
    if (INTEGER.test(value)) return Number(value);
    // A number that is not whole converts, so the refusal says "must be an integer" (`1.5` is a
    // number, just not an integer) rather than "must be a number (was a string)".
    if (NUMERIC.test(value) && !Number.isInteger(Number(value))) return Number(value);
    return value;
  }
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}

/** Applies a plan to a map of raw values, returning a new object (the input is left as it was). */
export function applyCoercion(values: Record<string, unknown>, plan: CoercionPlan): Record<string, unknown> {
  if (plan.size === 0) return values;
  const out: Record<string, unknown> = { ...values };
  if (plan instanceof PlannedCoercion) {
    const { names, steps } = plan;
    for (let i = 0; i < names.length; i++) {
      const key = names[i]!;
      const value = out[key];
      if (value !== undefined) out[key] = convert(value, steps[i]);
    }
    return out;
  }
  for (const [key, coercion] of plan) {
    if (out[key] !== undefined) out[key] = convert(out[key], coercion);
  }
  return out;
}

// The libraries' type-mismatch messages name the expected type ("Expected number but received",
// "expected number, received string", "must be a number"). Word-bounded, so linear-time.
const WANTS_ARRAY = /\barray\b/i;
const WANTS_NUMBER = /\b(?:number|integer)\b/i;
const WANTS_BOOLEAN = /\bboolean\b/i;

function convertForMessage(value: string, message: string): unknown {
  if (WANTS_ARRAY.test(message)) return [value];
  if (WANTS_NUMBER.test(message) && NUMERIC.test(value)) return Number(value);
  if (WANTS_BOOLEAN.test(message)) {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
  }
  return undefined;
}

/**
 * For schemas without a JSON Schema form (valibot, custom ones): after a failed validation,
 * convert the text values whose issue says a number, boolean or array was expected, including
 * elements of arrays. The caller validates again (a single value may need two rounds: wrapped
 * into an array, then its element converted). Returns undefined when nothing changed.
 */
export function coerceFromIssues(
  values: Record<string, unknown>,
  issues: readonly SchemaIssue[],
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const issue of issues) {
    const [key, index] = issue.path;
    if (key === undefined) continue;
    const current = (out ?? values)[key];
    if (issue.path.length === 1 && typeof current === 'string') {
      const converted = convertForMessage(current, issue.message);
      if (converted === undefined) continue;
      out ??= { ...values };
      out[key] = converted;
    } else if (issue.path.length === 2 && Array.isArray(current) && index !== undefined) {
      const i = Number(index);
      const element = current[i];
      if (typeof element !== 'string') continue;
      const converted = convertForMessage(element, issue.message);
      if (converted === undefined || Array.isArray(converted)) continue;
      out ??= { ...values };
      const copy = [...current];
      copy[i] = converted;
      out[key] = copy;
    }
  }
  return out;
}
