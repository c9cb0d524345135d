/**
 * @module charter — everything in one import: the runtime-neutral core (contracts, routing, errors,
 * security helpers, auth) re-exported from `@charter/core`, plus the runtime-neutral feature modules,
 * which are also their own subpaths (`charter/jwt`, `charter/jwk`, `charter/session`, `charter/hashing`).
 * Runtime adapters are only subpaths (`charter/bun`, `charter/node`).
 */
export * from '@charter/core';
export * from '@charter/hashing';
export * from '@charter/jwk';
export * from '@charter/jwt';
export * from '@charter/session';
