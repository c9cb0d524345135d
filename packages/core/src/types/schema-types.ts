import type { AnySchema, InferOutput } from '../schema/index.ts';

/** The `types` member of a schema's Standard Schema props (`never` when the library leaves it out). */
type DeclaredTypes<S extends AnySchema> = NonNullable<S['~standard']['types']>;

/**
 * The type a schema accepts (`InferInput`), for a type known to be a schema: read with indexed
 * accesses rather than matched against `StandardSchemaV1<I, O>`, so no instantiation of the Standard
 * Schema interfaces is built and compared for each schema of each route (issue 18: a few percent of
 * the type-checking cost of a large app). `unknown` when the library declares no `types`.
 */
export type SchemaInput<S extends AnySchema> = [DeclaredTypes<S>] extends [never]
  ? unknown
  : DeclaredTypes<S>['input'];

/**
 * The type a schema produces after validation (`InferOutput`), read as `SchemaInput` is; from the
 * result of `validate` when the library declares no `types`.
 */
export type SchemaOutput<S extends AnySchema> = [DeclaredTypes<S>] extends [never]
  ? InferOutput<S>
  : DeclaredTypes<S>['output'];
