/**
 * @module charter/cli — the `charter` command (`routes`, `openapi`, `check`, `doctor`, `dev`, `diff`,
 * `ai`) and its parts: the argument parser, runtime detection, the dev command builder, entry-path
 * guards, the OpenAPI diff and the AI catalogue builder. Re-exports `@charter/cli`; the package's
 * `charter` bin is this file, which runs the command when it is the main module.
 */
export * from '@charter/cli';
