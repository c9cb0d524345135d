/**
 * @module charter/node — the node:http adapter. Re-exports `@charter/node`.
 */
export * from '@charter/node';
