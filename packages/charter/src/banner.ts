/**
 * @module charter/banner — the startup banner the runtime adapters print when `serve()` listens:
 * `formatStartupBanner(options)` returns its text, `printStartupBanner(options)` prints it. Re-exports
 * `@charter/banner`.
 */
export * from '@charter/banner';
