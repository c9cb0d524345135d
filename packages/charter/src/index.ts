/**
 * @module charter — everything in one import: the runtime-neutral core (contracts, routing, errors,
 * security helpers, auth) re-exported from `@charter/core`, plus the runtime-neutral feature modules,
 * which are also their own subpaths (`charter/banner`, `charter/jwt`, `charter/jwk`, `charter/session`, `charter/hashing`,
 * `charter/openapi`, `charter/docs`, `charter/client`, `charter/pagination`, `charter/mcp`, `charter/a2a`,
 * `charter/streaming`, `charter/websocket`, `charter/multipart`, `charter/tracing`, `charter/redis`).
 * Runtime adapters are only
 * subpaths (`charter/bun`, `charter/node`).
 *
 * `App` here is the core App plus the routes derived from the contract (the `openapi` and `docs`
 * options); it is declared in `@charter/app` because it composes feature modules, which the core never
 * imports.
 */
export * from '@charter/core';
export * from '@charter/a2a';
export * from '@charter/banner';
export * from '@charter/client';
export * from '@charter/docs';
export * from '@charter/hashing';
export * from '@charter/jwk';
export * from '@charter/jwt';
export * from '@charter/mcp';
export * from '@charter/multipart';
export * from '@charter/openapi';
export * from '@charter/pagination';
export * from '@charter/redis';
export * from '@charter/session';
export * from '@charter/streaming';
export * from '@charter/tracing';
export * from '@charter/websocket';
export { App, type AppOptions, createApp, type DocsRouteOptions } from '@charter/app';
