/**
 * @module charter/docs
 * Interactive API docs pages (Scalar API Reference, Swagger UI, Redoc) loading version-pinned,
 * integrity-checked assets, the Content-Security-Policy each needs, and `mountDocs` for the route.
 */
export * from './assets.ts';
export * from './csp.ts';
export * from './docs-page.ts';
export * from './html.ts';
export * from './html-response.ts';
export * from './mount.ts';
export * from './redoc.ts';
export * from './render.ts';
export * from './scalar.ts';
export * from './swagger-ui.ts';
