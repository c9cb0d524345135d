import {
  type AnySchema,
  describeJsonSchema,
  type InferInput,
  type InferOutput,
  isStandardSchema,
  type JsonSchema,
  type StandardResult,
  type StandardSchemaV1,
} from '@charter/core';
import { COMPONENT_NAME, componentName, pascalCase } from './json-walk.ts';

/** OpenAPI 3.1 §4.8.25: which property tells the branches of a `oneOf`/`anyOf` apart. */
export interface Discriminator {
  readonly propertyName: string;
  /** Property value to a schema name or `$ref`; values not listed name the schema directly. */
  readonly mapping?: Readonly<Record<string, string>>;
}

/** A validated Discriminator Object, for a route's `openapi.jsonSchema` or hand-written components. */
export function discriminator(options: {
  propertyName: string;
  mapping?: Record<string, string>;
}): Discriminator {
  if (typeof options !== 'object' || options === null) throw new TypeError('discriminator() takes options');
  const { propertyName, mapping } = options;
  if (typeof propertyName !== 'string' || propertyName === '') {
    throw new TypeError('discriminator(): propertyName must be a non-empty string');
  }
  if (mapping === undefined) return Object.freeze({ propertyName });
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) {
    throw new TypeError('discriminator(): mapping must map property values to schema names or $refs');
  }
  for (const [value, target] of Object.entries(mapping)) {
    if (typeof target !== 'string' || target === '') {
      throw new TypeError(`discriminator(): mapping.${value} must be a schema name or a $ref`);
    }
  }
  return Object.freeze({ propertyName, mapping: Object.freeze({ ...mapping }) });
}

export interface DiscriminatedUnionOptions<Tag extends string> {
  /** Component name of each branch in `components/schemas`; default the tag value in PascalCase. */
  names?: Partial<Record<Tag, string>>;
}

/** A Standard Schema over tagged branches; the OpenAPI module emits `oneOf` plus a discriminator. */
export interface DiscriminatedUnion<B extends Record<string, AnySchema>>
  extends StandardSchemaV1<InferInput<B[keyof B]>, InferOutput<B[keyof B]>> {
  readonly propertyName: string;
  readonly branches: Readonly<B>;
  /** Tag value to component name. */
  readonly names: Readonly<Record<string, string>>;
}

const unions = new WeakSet<object>();

/** Whether a schema was made by `discriminatedUnion` (the generator emits refs and a mapping for it). */
export function isDiscriminatedUnion(
  schema: unknown,
): schema is DiscriminatedUnion<Record<string, AnySchema>> {
  return typeof schema === 'object' && schema !== null && unions.has(schema);
}

function issue(message: string, path?: PropertyKey[]): StandardResult<never> {
  return { issues: [path === undefined ? { message } : { message, path }] };
}

/**
 * A union told apart by one property: `discriminatedUnion('kind', { cat: Cat, dog: Dog })`. Validation
 * reads `kind` and runs only that branch, so an error names the right fields; the OpenAPI document
 * gets each branch in `components/schemas` and `oneOf` with a discriminator mapping (OpenAPI 3.1 §4.8.25).
 */
export function discriminatedUnion<const Tag extends string, B extends Record<Tag, AnySchema>>(
  propertyName: string,
  branches: B,
  options: DiscriminatedUnionOptions<Tag & keyof B> = {},
): DiscriminatedUnion<B> {
  if (typeof propertyName !== 'string' || propertyName === '') {
    throw new TypeError('discriminatedUnion(): the property name must be a non-empty string');
  }
  if (typeof branches !== 'object' || branches === null || Object.keys(branches).length === 0) {
    throw new TypeError('discriminatedUnion(): branches must map at least one tag value to a schema');
  }
  const tags = Object.keys(branches);
  const names: Record<string, string> = {};
  for (const tag of tags) {
    const branch = (branches as Record<string, AnySchema>)[tag];
    if (!isStandardSchema(branch)) {
      throw new TypeError(`discriminatedUnion(): branch "${tag}" is not a Standard Schema`);
    }
    const name = (options.names as Record<string, string | undefined> | undefined)?.[tag];
    if (name !== undefined && (typeof name !== 'string' || !COMPONENT_NAME.test(name))) {
      throw new TypeError(`discriminatedUnion(): names.${tag} must match ^[A-Za-z0-9._-]+$`);
    }
    names[tag] = name ?? componentName(pascalCase(tag) || tag);
  }
  const expected = tags.map((t) => JSON.stringify(t)).join(', ');
  const describe = (direction: 'input' | 'output'): JsonSchema => ({
    oneOf: tags.map((tag) => {
      const result = describeJsonSchema((branches as Record<string, AnySchema>)[tag] as AnySchema, direction);
      if ('error' in result) throw new Error(`branch "${tag}": ${result.error}`);
      const { $schema: _dialect, ...schema } = result.schema;
      return schema;
    }),
    discriminator: { propertyName },
  });
  const union: DiscriminatedUnion<B> = {
    propertyName,
    branches: Object.freeze({ ...branches }),
    names: Object.freeze(names),
    '~standard': {
      version: 1,
      vendor: 'charter',
      validate(value: unknown) {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          return issue(`Expected an object with a "${propertyName}" property`);
        }
        const tag = (value as Record<string, unknown>)[propertyName];
        if (typeof tag !== 'string' || !Object.hasOwn(branches, tag)) {
          return issue(`"${propertyName}" must be one of ${expected}`, [propertyName]);
        }
        return (branches as Record<string, AnySchema>)[tag]?.['~standard'].validate(value) as StandardResult<
          InferOutput<B[keyof B]>
        >;
      },
      jsonSchema: { input: () => describe('input'), output: () => describe('output') },
    },
  };
  unions.add(union);
  return union;
}
