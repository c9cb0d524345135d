import type { StandardIssue, StandardResult, StandardSchemaV1 } from './standard-schema.ts';
import type { JsonSchema } from './json-schema.ts';

/**
 * TypeBox (0.34) schemas are JSON Schema but not Standard Schema. This wrapper makes them one
 * without importing TypeBox: pass a compiled check, or a schema with TypeBox's `Value` module.
 *
 * ```ts
 * import { TypeCompiler } from '@sinclair/typebox/compiler';
 * const User = typebox(TypeCompiler.Compile(Type.Object({ id: Type.Integer() })));
 * // Where code generation is forbidden (Cloudflare Workers): typebox(schema, Value)
 * ```
 */

interface TypeBoxError {
  readonly path: string;
  readonly message: string;
}

/** A TypeBox `TypeCheck` from `TypeCompiler.Compile(schema)`. */
export interface TypeBoxCompiledCheck<O> {
  Check(value: unknown): value is O;
  Errors(value: unknown): Iterable<TypeBoxError>;
  Schema(): object;
}

/** TypeBox's `Value` module (checks by interpretation, no code generation). */
export interface TypeBoxValueModule {
  Check(schema: object, value: unknown): boolean;
  Errors(schema: object, value: unknown): Iterable<TypeBoxError>;
}

/** A Standard Schema made from a TypeBox schema; `schema` keeps the original for OpenAPI. */
export interface TypeBoxStandardSchema<O> extends StandardSchemaV1<O, O> {
  readonly schema: object;
}

const MAX_ISSUES = 50;
const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
// Keywords whose values are data, not schemas: a `type` member inside them is no type keyword.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
// Keywords whose members are named schemas (draft 2020-12 §8.2.4, §10.2.2.4, §10.3.2): a property
// called `type` is a name, and its schema is what gets checked.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** Throws when a schema (at any depth) names a `type` outside JSON Schema's seven. */
function assertJsonTypes(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) assertJsonTypes(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (key === 'type') {
      const types = Array.isArray(value) ? value : [value];
      const bad = types.find((t) => typeof t !== 'string' || !JSON_TYPES.has(t));
      if (bad !== undefined) throw new Error(`TypeBox type "${String(bad)}" is not a JSON Schema type`);
      continue;
    }
    if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null) {
      for (const schema of Object.values(value)) assertJsonTypes(schema);
      continue;
    }
    assertJsonTypes(value);
  }
}

// RFC 6901 §4: `~1` is `/` and `~0` is `~` in a JSON Pointer segment.
function pointerToPath(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function typebox<O>(check: TypeBoxCompiledCheck<O>): TypeBoxStandardSchema<O>;
export function typebox<S extends { static: unknown }>(
  schema: S,
  value: TypeBoxValueModule,
): TypeBoxStandardSchema<S['static']>;
export function typebox(source: object, valueModule?: TypeBoxValueModule): TypeBoxStandardSchema<unknown> {
  let schema: object;
  let check: (value: unknown) => boolean;
  let errors: (value: unknown) => Iterable<TypeBoxError>;
  if (valueModule !== undefined) {
    schema = source;
    check = (value) => valueModule.Check(schema, value);
    errors = (value) => valueModule.Errors(schema, value);
  } else {
    const compiled = source as Partial<TypeBoxCompiledCheck<unknown>>;
    if (
      typeof compiled.Check !== 'function' ||
      typeof compiled.Errors !== 'function' ||
      typeof compiled.Schema !== 'function'
    ) {
      throw new TypeError(
        'typebox() takes a compiled check (TypeCompiler.Compile(schema)) or a schema and the Value module',
      );
    }
    schema = compiled.Schema.call(compiled);
    check = (value) => (compiled.Check as (v: unknown) => boolean).call(compiled, value);
    errors = (value) => (compiled.Errors as (v: unknown) => Iterable<TypeBoxError>).call(compiled, value);
  }
  // TypeBox marks schemas with symbol keys; a JSON round trip leaves the plain JSON Schema. TypeBox's
  // JavaScript types (Type.Date, Type.Uint8Array, Type.Undefined...) write a `type` that JSON Schema
  // does not have (draft 2020-12 §6.1.1 lists seven): those schemas cannot describe themselves.
  const json = (): JsonSchema => {
    const plain = JSON.parse(JSON.stringify(schema)) as JsonSchema;
    assertJsonTypes(plain);
    return plain;
  };
  return {
    schema,
    '~standard': {
      version: 1,
      vendor: 'typebox',
      validate(value: unknown): StandardResult<unknown> {
        if (check(value)) return { value };
        const issues: StandardIssue[] = [];
        for (const error of errors(value)) {
          issues.push({ path: pointerToPath(error.path), message: error.message });
          if (issues.length >= MAX_ISSUES) break;
        }
        if (issues.length === 0) issues.push({ message: 'Invalid value' });
        return { issues };
      },
      jsonSchema: { input: json, output: json },
    },
  };
}
