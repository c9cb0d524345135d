// multipartObject(): a Standard Schema (v1) for a whole multipart/form-data body (RFC 7578), as the core
// parses it: a plain object whose values are strings and Files, a repeated name giving an array.
import {
  type AnySchema,
  flattenIssues,
  type InferInput,
  type InferOutput,
  type StandardIssue,
  type StandardResult,
  type StandardSchemaV1,
} from '@charter/core';
import { isEmptyFilePart } from './file-field.ts';
import { type FieldPlan, planField, validateField } from './multipart-field.ts';
import { objectJsonSchema } from './multipart-json-schema.ts';

/** The fields of a form: name to any Standard Schema. A name ending in `?` is an optional field. */
export type MultipartShape = Readonly<Record<string, AnySchema>>;

/** Options of `multipartObject`. */
export interface MultipartObjectOptions {
  /** Refuse fields the shape does not name (422); default true. When false they are left out of the value. */
  strict?: boolean;
}

type Key<K> = K extends `${infer Name}?` ? Name : K;
type IsOptional<K, S> = K extends `${string}?` ? true : undefined extends InferInput<S> ? true : false;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The value a shape's form has, through `Infer` (`InferInput` or `InferOutput`). */
type FormOf<S extends MultipartShape, Out extends boolean> = Simplify<
  {
    [K in keyof S as IsOptional<K, S[K]> extends true ? never : Key<K>]: Out extends true
      ? InferOutput<S[K]>
      : InferInput<S[K]>;
  } & {
    [K in keyof S as IsOptional<K, S[K]> extends true ? Key<K> : never]?: Out extends true
      ? InferOutput<S[K]>
      : InferInput<S[K]>;
  }
>;

/** A Standard Schema for a multipart/form-data body; `shape` and `strict` are what it was made with. */
export interface MultipartObjectSchema<S extends MultipartShape = MultipartShape>
  extends StandardSchemaV1<FormOf<S, false>, FormOf<S, true>> {
  readonly shape: S;
  readonly strict: boolean;
}

const MULTIPART_OBJECT = Symbol.for('charter.multipart.multipartObject');

type Outcome = { key: string; result: StandardResult<unknown>; present: boolean };

function plainObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof FormData !== 'undefined' && value instanceof FormData) {
    // A FormData validated directly: the same shape the core's parser gives (repeated names as arrays).
    const out: Record<string, unknown> = {};
    for (const [name, entry] of value) {
      if (name === '__proto__') continue;
      const previous = out[name];
      if (!Object.hasOwn(out, name)) out[name] = entry;
      else if (Array.isArray(previous)) previous.push(entry);
      else out[name] = [previous, entry];
    }
    return out;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return value as Record<string, unknown>;
}

function assemble(
  outcomes: readonly Outcome[],
  unknownIssues: readonly StandardIssue[],
): StandardResult<Record<string, unknown>> {
  const issues: StandardIssue[] = [...unknownIssues];
  const value: Record<string, unknown> = {};
  for (const { key, result, present } of outcomes) {
    if (result.issues !== undefined) {
      for (const issue of flattenIssues(result.issues)) {
        issues.push({ message: issue.message, path: [key, ...issue.path] });
      }
    } else {
      const out = (result as { value: unknown }).value;
      if (present || out !== undefined) value[key] = out;
    }
  }
  return issues.length > 0 ? { issues } : { value };
}

/**
 * A Standard Schema for a multipart/form-data body. Each field is checked by its own schema (fileField for
 * files; arktype, zod, valibot... for text), text converted to a number or boolean where the field's JSON
 * Schema asks for one, as query strings are. Unknown fields are refused unless `strict: false`; a field
 * sent more than once is refused unless its schema takes an array. Issue paths start with the field name.
 */
export function multipartObject<const S extends MultipartShape>(
  shape: S,
  options: MultipartObjectOptions = {},
): MultipartObjectSchema<S> {
  if (typeof shape !== 'object' || shape === null || Array.isArray(shape)) {
    throw new TypeError('multipartObject: the shape must be an object of field schemas');
  }
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('multipartObject: the options must be an object');
  }
  if (options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw new TypeError('multipartObject: strict must be a boolean');
  }
  const strict = options.strict ?? true;
  const plans: FieldPlan[] = Object.entries(shape).map(([key, schema]) => planField(key, schema));
  const names = new Set<string>();
  for (const plan of plans) {
    if (names.has(plan.name)) throw new TypeError(`multipartObject: field "${plan.name}" is declared twice`);
    names.add(plan.name);
  }
  const json = (direction: 'input' | 'output') => (opts: { readonly target: string }) =>
    objectJsonSchema(plans, strict, direction, opts);

  const schema = {
    shape,
    strict,
    '~standard': {
      version: 1 as const,
      vendor: 'charter',
      validate(
        input: unknown,
      ): StandardResult<Record<string, unknown>> | Promise<StandardResult<Record<string, unknown>>> {
        const form = plainObject(input);
        if (form === undefined) {
          return {
            issues: [{ message: 'Expected a multipart/form-data body (form fields)' }],
          };
        }
        const unknownIssues: StandardIssue[] = [];
        if (strict) {
          for (const key of Object.keys(form)) {
            if (!names.has(key)) unknownIssues.push({ message: 'Unknown field', path: [key] });
          }
        }
        const outcomes: (Outcome | Promise<Outcome>)[] = [];
        let pending = false;
        for (const plan of plans) {
          const raw = Object.hasOwn(form, plan.name) ? form[plan.name] : undefined;
          // An optional field sent as an empty file input (HTML's "no file selected") is absent.
          const present = raw !== undefined && !(plan.optional && isEmptyFilePart(raw));
          if (!present && plan.optionalKey) continue;
          const result = validateField(plan, present ? raw : undefined);
          if (result instanceof Promise) {
            pending = true;
            outcomes.push(result.then((r) => ({ key: plan.name, result: r, present })));
          } else outcomes.push({ key: plan.name, result, present });
        }
        if (!pending) return assemble(outcomes as Outcome[], unknownIssues);
        return Promise.all(outcomes).then((settled) => assemble(settled, unknownIssues));
      },
      jsonSchema: { input: json('input'), output: json('output') },
    },
  };
  Object.defineProperty(schema, MULTIPART_OBJECT, { value: true });
  return Object.freeze(schema) as unknown as MultipartObjectSchema<S>;
}

/** Whether a value is a schema made by `multipartObject`. */
export function isMultipartObjectSchema(value: unknown): value is MultipartObjectSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[MULTIPART_OBJECT] === true
  );
}
