/**
 * @module charter/fastly — the Fastly Compute adapter (a `fetch` event listener). Re-exports
 * `@charter/fastly`.
 */
export * from '@charter/fastly';
