import type { AnySchema } from './validate.ts';

export type JsonSchema = Record<string, unknown>;

/** A schema that can describe itself as JSON Schema for OpenAPI and coercion. */
const JSON_SCHEMA_TARGET = 'draft-2020-12';

// arktype's Standard JSON Schema keeps what JSON Schema can say and drops the rest: a Date, a symbol
// key or an instanceof check becomes {}. Its fallback hooks let a caller refuse instead.
const refuse = (ctx: { code: string }): never => {
  throw new Error(`arktype cannot express this ${ctx.code} in JSON Schema`);
};
const ARKTYPE_STRICT = { fallback: { date: refuse, proto: refuse, domain: refuse, symbolKey: refuse } };

interface ArkNode {
  hasKind(kind: string): boolean;
  readonly branches?: readonly ArkNode[];
  readonly out?: { readonly expression: string };
  readonly flatMorphs?: readonly { readonly path: readonly unknown[]; readonly node: ArkNode }[];
}

/** Where an arktype type pipes into a function whose result arktype does not know (its output is `unknown`). */
function arktypeUnknownMorphOutputs(schema: unknown): string[] {
  const root = (schema as { internal?: ArkNode }).internal;
  if (root === undefined || typeof root.hasKind !== 'function') return [];
  const found: string[] = [];
  const branches = root.hasKind('union') ? (root.branches ?? []) : [root];
  for (const branch of branches) {
    if (branch.hasKind('morph') && branch.out?.expression === 'unknown') found.push('the root');
  }
  for (const { path, node } of root.flatMorphs ?? []) {
    if (node.out?.expression === 'unknown') found.push(path.map(String).join('.'));
  }
  return found;
}

/** What describing a schema as JSON Schema gave: the JSON Schema, or why there is none. */
export type JsonSchemaResult = { readonly schema: JsonSchema } | { readonly error: string };

/**
 * Describes a schema as JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) through the Standard
 * JSON Schema interface (`~standard.jsonSchema`: arktype 2.2+, zod 4.2+, Charter's TypeBox wrapper).
 * `direction` is `input` for requests (what the client sends) and `output` for responses. A schema
 * without the interface, or one the library cannot express (a morph, a custom predicate), gives an
 * `error` naming its vendor and the library's reason, never a silent `{}`. `strict` (default true)
 * also refuses what arktype would otherwise write as `{}` (a Date, an instanceof check, a morph
 * whose output type is unknown).
 */
export function describeJsonSchema(
  schema: AnySchema,
  direction: 'input' | 'output' = 'input',
  strict = true,
): JsonSchemaResult {
  const standard = schema['~standard'];
  const converter = standard.jsonSchema;
  if (converter === undefined || typeof converter[direction] !== 'function') {
    return {
      error:
        `a ${standard.vendor} schema without the Standard JSON Schema interface (~standard.jsonSchema) ` +
        "cannot describe itself; give its JSON Schema in the route's openapi.jsonSchema",
    };
  }
  try {
    if (strict && standard.vendor === 'arktype' && direction === 'output') {
      const unknown = arktypeUnknownMorphOutputs(schema);
      if (unknown.length > 0) {
        return {
          error:
            `the output of the arktype morph at ${unknown.join(', ')} has no declared type ` +
            '(declare it: .pipe(fn, OutType) or .to(OutType))',
        };
      }
    }
    const json = converter[direction](
      strict && standard.vendor === 'arktype'
        ? ({ target: JSON_SCHEMA_TARGET, libraryOptions: ARKTYPE_STRICT } as { target: string })
        : { target: JSON_SCHEMA_TARGET },
    );
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return { error: `the ${standard.vendor} schema's ${direction} JSON Schema is not an object` };
    }
    return { schema: json };
  } catch (error) {
    return {
      error: `the ${standard.vendor} schema has no ${direction} JSON Schema: ${(error as Error)?.message ?? String(error)}`,
    };
  }
}

/**
 * The JSON Schema a schema describes itself with, or undefined when it cannot. Lenient, unlike
 * `describeJsonSchema`: a part the library cannot express (an arktype Date) may be `{}`, which is
 * enough to plan query coercion of the other keys but not to document the schema.
 */
export function toJsonSchema(
  schema: AnySchema,
  direction: 'input' | 'output' = 'input',
): JsonSchema | undefined {
  const result = describeJsonSchema(schema, direction, false);
  return 'schema' in result ? result.schema : undefined;
}
