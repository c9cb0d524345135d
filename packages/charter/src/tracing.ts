/**
 * @module charter/tracing — OpenTelemetry HTTP server spans: `otelTracing` returns the hooks that trace every request,
 * with W3C Trace Context propagation and private-by-default attributes. Re-exports `@charter/tracing`.
 */
export * from '@charter/tracing';
