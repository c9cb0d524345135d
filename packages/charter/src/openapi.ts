/**
 * @module charter/openapi — the OpenAPI 3.1 document derived from the routes, its YAML form, and the
 * discriminator helpers. Re-exports `@charter/openapi`.
 */
export * from '@charter/openapi';
