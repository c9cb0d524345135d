/**
 * @module charter/client — the typed client derived from the route definitions (no code generation)
 * and the contract tests. Re-exports `@charter/client`.
 */
export * from '@charter/client';
