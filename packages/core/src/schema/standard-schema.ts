/**
 * The Standard Schema v1 interface (https://standardschema.dev), restated here so the core has
 * no dependency on any validation library. arktype, zod, valibot and others implement it.
 */

/** A schema any Standard Schema library can produce. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  readonly types?: StandardTypes<Input, Output> | undefined;
  /** Standard JSON Schema extension (arktype 2.2+, zod 4.2+, Charter's TypeBox wrapper). */
  readonly jsonSchema?: StandardJsonSchemaConverter | undefined;
}

export interface StandardTypes<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

export type StandardResult<Output> = StandardSuccess<Output> | StandardFailure;

export interface StandardSuccess<Output> {
  readonly value: Output;
  readonly issues?: undefined;
}

export interface StandardFailure {
  readonly issues: ReadonlyArray<StandardIssue>;
}

export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | StandardPathSegment> | undefined;
}

export interface StandardPathSegment {
  readonly key: PropertyKey;
}

/** The Standard JSON Schema converter: `input`/`output` give a JSON Schema for a target dialect. */
export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/** The type a schema accepts. */
export type InferInput<S> = S extends StandardSchemaV1<infer I, unknown> ? I : unknown;
/** The type a schema produces after validation (and any transform). */
export type InferOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : unknown;
