/**
 * @module charter/multipart — multipart/form-data bodies: `fileField` and `multipartObject` schemas for uploads (size,
 * type, filename and magic-byte checks) that also describe themselves to OpenAPI. Re-exports `@charter/multipart`.
 */
export * from '@charter/multipart';
