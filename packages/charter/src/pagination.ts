/**
 * @module charter/pagination — cursor pagination: the `limit`/`cursor` query schema, opaque cursors
 * and RFC 8288 `Link` headers. Re-exports `@charter/pagination`.
 */
export * from '@charter/pagination';
