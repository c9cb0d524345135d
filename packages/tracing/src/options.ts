/**
 * Options of `otelTracing()`: checked once, when the hooks are made, with errors naming the option.
 */
import { isHttpToken } from '@charter/core';
import type { OtelApi, OtelTracer } from './otel-types.ts';

/** Options of `otelTracing()`. */
export interface OtelTracingOptions {
  /**
   * The tracer that starts the server spans, e.g. `trace.getTracer('my-api')` from `@opentelemetry/api`.
   * Required; it must provide `startSpan(name, options, context)` (see `OtelTracer`).
   */
  tracer: OtelTracer;
  /**
   * Adds a `service.name` span attribute with this value. In OpenTelemetry the service name belongs to
   * the Resource of your TracerProvider, and that is where backends look first: set it there. This
   * attribute only helps when several services share one provider. Default: no attribute.
   */
  serviceName?: string;
  /**
   * Request headers recorded as `http.request.header.<name>` (lower case, a one-element array holding
   * the field value). Default none. `authorization`, `cookie`, `set-cookie` and `proxy-authorization`
   * are refused with a TypeError: they carry credentials.
   */
  includeRequestHeaders?: readonly string[];
  /** Response headers recorded as `http.response.header.<name>`; same rules. Default none. */
  includeResponseHeaders?: readonly string[];
  /**
   * Records the error of a request answered 5xx as an `exception` span event. In a production App (its
   * `production` option; `NODE_ENV=production` for unmatched requests) the message is replaced by
   * `REDACTED` and the stack keeps only its frames, as the App keeps such detail out of responses.
   * Default true.
   */
  recordExceptions?: boolean;
  /**
   * `url.query` redaction. `true` (default) records the parameter names with every value replaced by
   * `REDACTED` (`?q=cats&token=abc` gives `q=REDACTED&token=REDACTED`); `false` records the query as
   * sent, secrets included (unsafe: tokens, e-mail addresses and signatures travel in queries).
   */
  redactQuery?: boolean;
  /**
   * The `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`), used to build the
   * parent context from `traceparent` with `api.trace.setSpanContext(api.ROOT_CONTEXT, ...)`. Default:
   * a built-in Context under the API's registered span key, which API 1.x tracers read the same way.
   */
  api?: OtelApi;
}

/** `otelTracing` options with every default filled in. */
export interface ResolvedOtelTracingOptions {
  readonly tracer: OtelTracer;
  readonly serviceName: string | undefined;
  readonly includeRequestHeaders: readonly string[];
  readonly includeResponseHeaders: readonly string[];
  readonly recordExceptions: boolean;
  readonly redactQuery: boolean;
  readonly api: OtelApi | undefined;
}

/** Headers that carry credentials: never recorded, even when listed. */
export const NEVER_RECORDED_HEADERS: readonly string[] = Object.freeze([
  'authorization',
  'cookie',
  'set-cookie',
  'proxy-authorization',
]);

// A field name is a token (RFC 9110 §5.1); 256 characters is far beyond any real one.
const isHeaderName = (name: string): boolean => name.length <= 256 && isHttpToken(name);

function headerList(option: string, value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) throw new TypeError(`otelTracing: ${option} must be an array of header names`);
  const names = new Set<string>();
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'string' || !isHeaderName(entry)) {
      throw new TypeError(
        `otelTracing: ${option} must hold header names (RFC 9110 tokens), got ${JSON.stringify(entry)}`,
      );
    }
    const name = entry.toLowerCase();
    if (NEVER_RECORDED_HEADERS.includes(name)) {
      throw new TypeError(
        `otelTracing: ${option} lists "${name}", which carries credentials and is never recorded`,
      );
    }
    names.add(name);
  }
  return Object.freeze([...names]);
}

function isTracer(value: unknown): value is OtelTracer {
  return typeof value === 'object' && value !== null && typeof (value as OtelTracer).startSpan === 'function';
}

function isApi(value: unknown): value is OtelApi {
  if (typeof value !== 'object' || value === null) return false;
  const api = value as OtelApi;
  return typeof api.ROOT_CONTEXT?.getValue === 'function' && typeof api.trace?.setSpanContext === 'function';
}

/** Validates `otelTracing` options (a TypeError naming the option) and fills defaults. */
export function resolveOtelTracingOptions(options: OtelTracingOptions): ResolvedOtelTracingOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('otelTracing: options must be an object with a tracer');
  }
  if (!isTracer(options.tracer)) {
    throw new TypeError('otelTracing: tracer must be an OpenTelemetry Tracer (an object with startSpan)');
  }
  const serviceName = options.serviceName;
  if (serviceName !== undefined && (typeof serviceName !== 'string' || serviceName.length === 0)) {
    throw new TypeError('otelTracing: serviceName must be a non-empty string');
  }
  const recordExceptions = options.recordExceptions ?? true;
  if (typeof recordExceptions !== 'boolean')
    throw new TypeError('otelTracing: recordExceptions must be a boolean');
  const redactQuery = options.redactQuery ?? true;
  if (typeof redactQuery !== 'boolean') throw new TypeError('otelTracing: redactQuery must be a boolean');
  if (options.api !== undefined && !isApi(options.api)) {
    throw new TypeError(
      'otelTracing: api must be the @opentelemetry/api module (with ROOT_CONTEXT and trace.setSpanContext)',
    );
  }
  return Object.freeze({
    tracer: options.tracer,
    serviceName,
    includeRequestHeaders: headerList('includeRequestHeaders', options.includeRequestHeaders),
    includeResponseHeaders: headerList('includeResponseHeaders', options.includeResponseHeaders),
    recordExceptions,
    redactQuery,
    api: options.api,
  });
}
