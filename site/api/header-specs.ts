/**
 * Response header declarations whose schema is made the first time something reads it. Nothing
 * validates a response header against its schema: only the OpenAPI document reads them, and it is
 * generated on first use, long after the first page. Until then arktype, whose own start-up would be
 * most of the site's, is not even loaded. Reading `schema` gives the very object an eager
 * `type('string')` would (arktype interns its types), so the OpenAPI document is the same.
 */
import type { AnySchema, ResponseHeaderSpec } from '@charter/core';

/** arktype, loaded on first call (`require`: synchronous; a bundle evaluates it only then). */
export function arktype(): typeof import('arktype') {
  return require('arktype') as typeof import('arktype');
}

/** The site's named header schemas (`header-schemas.ts`, which loads arktype), on first call. */
export function headerSchemas(): typeof import('./header-schemas.ts') {
  return require('./header-schemas.ts') as typeof import('./header-schemas.ts');
}

/** `{ description, schema }`, the schema made by `schema()` when first read and then kept. */
export function lazyHeader(description: string, schema: () => AnySchema): ResponseHeaderSpec {
  let made: AnySchema | undefined;
  return {
    description,
    get schema(): AnySchema {
      made ??= schema();
      return made;
    },
  };
}

/** A free-form text header field: arktype's `type('string')`. */
export function textHeader(description: string): ResponseHeaderSpec {
  return lazyHeader(description, () => arktype().type('string'));
}
