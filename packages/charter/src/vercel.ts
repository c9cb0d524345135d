/**
 * @module charter/vercel — the Vercel Functions adapter (web handlers and the Node `(req, res)` form).
 * Re-exports `@charter/vercel`.
 */
export * from '@charter/vercel';
