/**
 * @module charter/tracing
 * OpenTelemetry tracing for Charter: `otelTracing()` hooks that record one SERVER span per request
 * under the HTTP semantic conventions, continuing the caller's W3C Trace Context. No runtime
 * dependency: bring your own `@opentelemetry/api` tracer.
 */
export { KNOWN_HTTP_METHODS, TRACE_REDACTED, redactQueryString } from './attributes.ts';
export {
  NEVER_RECORDED_HEADERS,
  type OtelTracingOptions,
  type ResolvedOtelTracingOptions,
  resolveOtelTracingOptions,
} from './options.ts';
export { otelTracing, serverSpanOf } from './otel-tracing.ts';
export type {
  OtelApi,
  OtelAttributes,
  OtelAttributeValue,
  OtelContext,
  OtelException,
  OtelSpan,
  OtelSpanContext,
  OtelSpanOptions,
  OtelTime,
  OtelTraceState,
  OtelTracer,
} from './otel-types.ts';
export {
  MAX_TRACESTATE_MEMBERS,
  parseTraceParent,
  parseTraceState,
  type TraceParent,
  TraceStateList,
} from './trace-context.ts';
