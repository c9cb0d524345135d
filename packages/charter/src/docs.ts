/**
 * @module charter/docs — interactive API docs pages (Scalar API Reference, Swagger UI, Redoc) with
 * pinned, integrity-checked assets and their Content-Security-Policy. Re-exports `@charter/docs`.
 */
export * from '@charter/docs';
