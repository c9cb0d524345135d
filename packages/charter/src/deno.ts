/**
 * @module charter/deno — the Deno.serve adapter. Re-exports `@charter/deno`.
 */
export * from '@charter/deno';
