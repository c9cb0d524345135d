/**
 * @module charter/bun — the Bun.serve adapter. Re-exports `@charter/bun`.
 */
export * from '@charter/bun';
