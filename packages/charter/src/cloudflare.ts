/**
 * @module charter/cloudflare — the Cloudflare Workers adapter. Re-exports `@charter/cloudflare`.
 */
export * from '@charter/cloudflare';
