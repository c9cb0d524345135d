// One field of a multipartObject: what is decided once (name, optional, array or not, text coercion) and
// its validation. Text coercion reuses the core's query-string rules (planCoercion / applyCoercion).
import {
  type AnySchema,
  applyCoercion,
  type Coercion,
  coerceFromIssues,
  flattenIssues,
  isStandardSchema,
  type JsonSchema,
  jsonSchemaTypes,
  planCoercion,
  type StandardResult,
  toJsonSchema,
} from '@charter/core';
import { isFileFieldSchema } from './file-field.ts';

/** What a field is, decided when the form schema is made. */
export interface FieldPlan {
  /** The field name (the shape key without a trailing `?`). */
  readonly name: string;
  readonly schema: AnySchema;
  /** May be absent: the key ends in `?`, the fileField is optional, or the schema accepts undefined. */
  readonly optional: boolean;
  /** The key ends in `?`: an absent field is not validated at all. */
  readonly optionalKey: boolean;
  /** The schema takes one value only (its JSON Schema has no array type): a repeated field is refused. */
  readonly single: boolean;
  /** Text conversion: a core Coercion, `none`, or `issues` (no JSON Schema: convert where issues ask). */
  readonly coercion: Coercion | 'none' | 'issues';
}

// Rounds of conversion for a schema without a JSON Schema: scalar, or array then element (as the core does).
const MAX_COERCION_ROUNDS = 3;
const SLOT = 'value';

/** Whether a schema accepts `undefined`, asked once; an async or throwing schema counts as "no". */
function acceptsUndefined(schema: AnySchema): boolean {
  try {
    const result = schema['~standard'].validate(undefined);
    if (result instanceof Promise) {
      result.catch(() => {});
      return false;
    }
    return result.issues === undefined;
  } catch {
    return false;
  }
}

/** The core's coercion for one field, planned from a one-property object schema around its JSON Schema. */
function coercionOf(json: JsonSchema): Coercion | 'none' {
  const wrapper = {
    '~standard': {
      version: 1 as const,
      vendor: 'charter',
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: () => ({ type: 'object', properties: { [SLOT]: json } }),
        output: () => ({ type: 'object', properties: { [SLOT]: json } }),
      },
    },
  };
  return planCoercion(wrapper)?.get(SLOT) ?? 'none';
}

/** Decides how a shape entry is validated; throws a TypeError for a bad name or a non-schema. */
export function planField(key: string, schema: unknown): FieldPlan {
  const marked = key.endsWith('?');
  const name = marked ? key.slice(0, -1) : key;
  if (name.length === 0) throw new TypeError(`multipartObject: "${key}" is not a field name`);
  // The core's form parser drops a `__proto__` field (it could reach a prototype), so it never arrives.
  if (name === '__proto__') throw new TypeError('multipartObject: a field cannot be named "__proto__"');
  if (!isStandardSchema(schema)) {
    throw new TypeError(
      `multipartObject: field "${name}" needs a Standard Schema (fileField(), arktype, zod...)`,
    );
  }
  if (isFileFieldSchema(schema)) {
    return Object.freeze({
      name,
      schema,
      optional: marked || schema.fileField.optional,
      optionalKey: marked,
      single: true,
      coercion: 'none' as const,
    });
  }
  const json = toJsonSchema(schema, 'input');
  const types = json === undefined ? new Set<string>() : jsonSchemaTypes(json);
  return Object.freeze({
    name,
    schema,
    optional: marked || acceptsUndefined(schema),
    optionalKey: marked,
    single: types.size > 0 && !types.has('array'),
    coercion: json === undefined ? ('issues' as const) : coercionOf(json),
  });
}

type Result = StandardResult<unknown>;

function required(result: Result, plan: FieldPlan): Result {
  if (result.issues === undefined || isFileFieldSchema(plan.schema)) return result;
  return { issues: [{ message: 'The field is required' }] };
}

function coerceAndRetry(plan: FieldPlan, raw: unknown, round: number): Result | Promise<Result> {
  const settle = (result: Result): Result | Promise<Result> => {
    if (result.issues === undefined || round >= MAX_COERCION_ROUNDS) return result;
    const issues = flattenIssues(result.issues).map((issue) => ({
      path: [SLOT, ...issue.path],
      message: issue.message,
    }));
    const coerced = coerceFromIssues({ [SLOT]: raw }, issues);
    return coerced === undefined ? result : coerceAndRetry(plan, coerced[SLOT], round + 1);
  };
  const result = plan.schema['~standard'].validate(raw);
  return result instanceof Promise ? result.then(settle) : settle(result);
}

/** Validates one field's raw value (a string, a File, an array of them, or undefined when absent). */
export function validateField(plan: FieldPlan, raw: unknown): Result | Promise<Result> {
  const standard = plan.schema['~standard'];
  if (raw === undefined) {
    const result = standard.validate(undefined);
    return result instanceof Promise ? result.then((r) => required(r, plan)) : required(result, plan);
  }
  if (plan.single && Array.isArray(raw)) {
    return { issues: [{ message: `The field was sent ${raw.length} times; it takes one value` }] };
  }
  if (plan.coercion === 'issues') return coerceAndRetry(plan, raw, 0);
  if (plan.coercion === 'none') return standard.validate(raw);
  const coerced = applyCoercion({ [SLOT]: raw }, new Map([[SLOT, plan.coercion]]))[SLOT];
  return standard.validate(coerced);
}
