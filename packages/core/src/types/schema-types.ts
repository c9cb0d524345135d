import type { InferOutput, StandardTypes } from '../schema/index.ts';

/**
 * A schema as a route's types accept it: any object with a Standard Schema `~standard` member, whose
 * type is not compared with `StandardSchemaProps`, so the compiler computes only the types each
 * position reads (`SchemaInput`, `SchemaOutput`). arktype declares `~standard` from both its input
 * and its output type: comparing it computed both for every schema of every route (issue 18,
 * `bun bench/types/check.ts`). An object without `~standard` (a definition left unwrapped) is
 * refused here; registration checks the rest (`isStandardSchema`).
 */
export interface DeclaredSchema {
  readonly '~standard': unknown;
}

/** The `types` member of a schema's Standard Schema props (`never` when the library leaves it out). */
type DeclaredTypes<S> = S extends { readonly '~standard': { readonly types?: StandardTypes | undefined } }
  ? NonNullable<S['~standard']['types']>
  : never;

/**
 * The type a schema accepts (`InferInput`). A schema that declares its input type as its own
 * `inferIn` member (arktype, the same type its `~standard.types.input` gives) is read through it, so
 * the compiler computes that type alone (see `DeclaredSchema`); any other from `~standard.types`,
 * `unknown` when the library declares no `types`.
 */
export type SchemaInput<S> = S extends { readonly inferIn: unknown }
  ? S['inferIn']
  : [DeclaredTypes<S>] extends [never]
    ? unknown
    : DeclaredTypes<S>['input'];

/**
 * The type a schema produces after validation (`InferOutput`), read as `SchemaInput` is: from an
 * `inferOut` member (arktype), else `~standard.types`, else the result of `validate`.
 */
export type SchemaOutput<S> = S extends { readonly inferOut: unknown }
  ? S['inferOut']
  : [DeclaredTypes<S>] extends [never]
    ? InferOutput<S>
    : DeclaredTypes<S>['output'];
