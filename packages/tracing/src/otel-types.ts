/**
 * The parts of the OpenTelemetry JavaScript API (`@opentelemetry/api` 1.x) this module calls, declared
 * structurally: the package has no runtime dependency, and any Tracer that provides these members works
 * (the SDK's, a vendor's, or a test double).
 */

/** An attribute value (OpenTelemetry "AttributeValue"): a primitive or a homogeneous array. */
export type OtelAttributeValue = string | number | boolean | readonly string[] | readonly number[];

/** A set of span attributes. */
export type OtelAttributes = Record<string, OtelAttributeValue | undefined>;

/** A time: milliseconds since the Unix epoch (fractions allowed), as `@opentelemetry/api` TimeInput accepts. */
export type OtelTime = number;

/** The W3C `tracestate` of a span context (the API's TraceState interface). */
export interface OtelTraceState {
  set(key: string, value: string): OtelTraceState;
  unset(key: string): OtelTraceState;
  get(key: string): string | undefined;
  serialize(): string;
}

/** The identity of a span (the API's SpanContext). */
export interface OtelSpanContext {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** 16 lower-case hex digits. */
  spanId: string;
  /** Bit 0 is `sampled` (W3C Trace Context §3.2.2.5). */
  traceFlags: number;
  /** True when the context came from another process (a `traceparent` header). */
  isRemote?: boolean;
  traceState?: OtelTraceState;
}

/** An OpenTelemetry Context (immutable key-value map keyed by symbols). */
export interface OtelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OtelContext;
  deleteValue(key: symbol): OtelContext;
}

/** Span kinds, numbered as in the API's `SpanKind` enum. */
export const OTEL_SPAN_KIND = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 } as const;

/** Span status codes, numbered as in the API's `SpanStatusCode` enum. */
export const OTEL_STATUS_CODE = { UNSET: 0, OK: 1, ERROR: 2 } as const;

/** What `tracer.startSpan` is given (the subset of the API's SpanOptions used here). */
export interface OtelSpanOptions {
  kind?: number;
  attributes?: OtelAttributes;
  startTime?: OtelTime;
}

/** An exception as `span.recordException` takes it (the API's Exception, object form). */
export interface OtelException {
  name: string;
  message?: string;
  stack?: string;
}

/** The span members this module calls. */
export interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttribute(key: string, value: OtelAttributeValue): unknown;
  setAttributes(attributes: OtelAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  updateName(name: string): unknown;
  recordException(exception: OtelException, time?: OtelTime): unknown;
  end(endTime?: OtelTime): unknown;
}

/**
 * The tracer `otelTracing` needs: `startSpan(name, options, context)`, as `trace.getTracer(name)` of
 * `@opentelemetry/api` returns it.
 */
export interface OtelTracer {
  startSpan(name: string, options?: OtelSpanOptions, context?: OtelContext): OtelSpan;
}

/**
 * The optional `api` option: the members of the `@opentelemetry/api` module used to build the parent
 * context (`import * as api from '@opentelemetry/api'` satisfies it).
 */
export interface OtelApi {
  readonly ROOT_CONTEXT: OtelContext;
  readonly trace: {
    setSpanContext(context: OtelContext, spanContext: OtelSpanContext): OtelContext;
  };
}
