/**
 * @module charter — the runtime-neutral core: contracts, routing, errors. Re-exports `@charter/core`.
 */
export * from '@charter/core';
