import type { AnySchema } from './validate.ts';

export type JsonSchema = Record<string, unknown>;

/** A schema that can describe itself as JSON Schema for OpenAPI and coercion. */
const JSON_SCHEMA_TARGET = 'draft-2020-12';

/**
 * The JSON Schema a schema describes itself with, or undefined when it cannot: the Standard JSON
 * Schema interface (`~standard.jsonSchema`, arktype 2.2+, zod 4.2+, Charter's TypeBox wrapper).
 * `direction` is `input` for requests (what the client sends) and `output` for responses.
 */
export function toJsonSchema(
  schema: AnySchema,
  direction: 'input' | 'output' = 'input',
): JsonSchema | undefined {
  const converter = schema['~standard'].jsonSchema;
  if (converter === undefined || typeof converter[direction] !== 'function') return undefined;
  try {
    return converter[direction]({ target: JSON_SCHEMA_TARGET });
  } catch {
    // Some schemas (morphs, custom predicates) have no JSON Schema form; callers fall back.
    return undefined;
  }
}
