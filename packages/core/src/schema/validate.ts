import type { StandardIssue, StandardResult, StandardSchemaV1 } from './standard-schema.ts';

// biome-ignore lint/suspicious/noExplicitAny: the widest schema type, for constraints.
export type AnySchema = StandardSchemaV1<any, any>;

/** A validation issue with its path flattened to strings. */
export interface SchemaIssue {
  path: string[];
  message: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: SchemaIssue[] };

/** True for any object implementing Standard Schema v1. */
export function isStandardSchema(value: unknown): value is AnySchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** Validates a value with any Standard Schema. */
export async function validate<S extends AnySchema>(
  schema: S,
  input: unknown,
): Promise<ValidationResult<S extends StandardSchemaV1<unknown, infer O> ? O : unknown>> {
  if (!isStandardSchema(schema))
    throw new TypeError('validate() needs a Standard Schema (arktype, zod, valibot...)');
  return toResult(await schema['~standard'].validate(input));
}

/** Turns a Standard Schema result into the framework's result shape. */
// biome-ignore lint/suspicious/noExplicitAny: callers narrow the value type.
export function toResult(result: StandardResult<unknown>): ValidationResult<any> {
  if (result.issues === undefined) return { ok: true, value: (result as { value: unknown }).value };
  return { ok: false, issues: flattenIssues(result.issues) };
}

export function flattenIssues(issues: ReadonlyArray<StandardIssue>): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  for (const issue of issues) {
    const path: string[] = [];
    if (issue.path !== undefined) {
      for (const segment of issue.path) {
        const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
        path.push(typeof key === 'symbol' ? (key.description ?? '') : String(key));
      }
    }
    out.push({ path, message: issue.message });
  }
  return out;
}
