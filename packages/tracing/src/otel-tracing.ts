/**
 * `otelTracing()`: one OpenTelemetry SERVER span per request, following the semantic conventions for
 * HTTP server spans (stable, v1.23 and later) and continuing the caller's trace from a valid W3C
 * `traceparent` (Trace Context Level 1).
 */
import { type AnyContext, clientIp, type Hooks, isProductionEnv, originalRequest } from '@charter/core';
import {
  headerAttributes,
  methodAttributes,
  parseHost,
  redactQueryString,
  spanName,
  urlParts,
} from './attributes.ts';
import { errorTypeOf, exceptionFor } from './exception.ts';
import {
  type OtelTracingOptions,
  type ResolvedOtelTracingOptions,
  resolveOtelTracingOptions,
} from './options.ts';
import { OTEL_SPAN_KIND, OTEL_STATUS_CODE, type OtelAttributes, type OtelSpan } from './otel-types.ts';
import { parentContext } from './parent-context.ts';

/** One request as one `otelTracing()` instance follows it. */
interface Flight {
  /** When the request reached the first hook of this instance, in epoch milliseconds. */
  readonly startTime: number;
  span: OtelSpan | undefined;
  /** The tracer threw: this request is not traced (tracing never fails a request). */
  broken: boolean;
  failed: boolean;
  error: unknown;
  errorTime: number;
  /** Set once the span ended (or was never going to start): nothing may start another. */
  ended: boolean;
}

/** Wall-clock time with sub-millisecond precision, as OpenTelemetry `TimeInput` milliseconds. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

// The server span of each request, for `serverSpanOf`; the first instance to start one owns the slot.
const serverSpans = new WeakMap<Request, OtelSpan>();

/**
 * The server span `otelTracing()` started for a request, to start child spans under it or add
 * attributes: pass a hook's or handler's context, or the Request. Undefined before `preBody` (the span
 * starts there) or when no `otelTracing()` hook covers the request. The type parameter names the span
 * type your tracer returns (`serverSpanOf<Span>(ctx)` with `Span` from `@opentelemetry/api`).
 */
export function serverSpanOf<S = OtelSpan>(source: Request | { readonly request: Request }): S | undefined {
  const request = source instanceof Request ? source : source.request;
  return serverSpans.get(originalRequest(request)) as S | undefined;
}

/** The attributes known when the span starts (OpenTelemetry HTTP server span, "Attributes"). */
function requestAttributes(
  options: ResolvedOtelTracingOptions,
  request: Request,
  route: string | undefined,
): OtelAttributes {
  const { method, original } = methodAttributes(request.method);
  const { scheme, path, query } = urlParts(request.url);
  const attributes: OtelAttributes = {
    'http.request.method': method,
    'url.scheme': scheme,
    'url.path': path,
  };
  if (original !== undefined) attributes['http.request.method_original'] = original;
  if (route !== undefined) attributes['http.route'] = route;
  if (query !== undefined) attributes['url.query'] = options.redactQuery ? redactQueryString(query) : query;
  // The Host field names the server the client asked for (RFC 9110 §7.2); the URL's host when absent.
  const hostField = request.headers.get('host');
  const server = parseHost(hostField ?? urlHost(request.url), scheme);
  if (server !== undefined) {
    attributes['server.address'] = server.address;
    if (server.port !== undefined) attributes['server.port'] = server.port;
  }
  // Only the App's answer: the peer, or a forwarded address when the App trusts its proxy.
  const client = clientIp(request);
  if (client !== undefined) attributes['client.address'] = client;
  const userAgent = request.headers.get('user-agent');
  if (userAgent !== null) attributes['user_agent.original'] = userAgent;
  if (options.serviceName !== undefined) attributes['service.name'] = options.serviceName;
  Object.assign(
    attributes,
    headerAttributes('http.request.header.', options.includeRequestHeaders, request.headers),
  );
  return attributes;
}

function urlHost(url: string): string {
  const start = url.indexOf('//');
  if (start === -1) return '';
  let end = start + 2;
  while (end < url.length && url[end] !== '/' && url[end] !== '?' && url[end] !== '#') end++;
  return url.slice(start + 2, end);
}

/**
 * Hooks that record one OpenTelemetry SERVER span per request.
 *
 * - onRequest notes the start time, preBody starts the span (named `{method} {route}`) so handlers
 *   can reach it with `serverSpanOf(ctx)`, onError keeps the error, and onResponse records the status
 *   and response headers and ends the span: exactly once per request, whatever path it took.
 * - Register it in `new App({ hooks })` to trace unmatched requests (404, 405, 400) too: `app.use`
 *   hooks do not see those (only their onRequest runs), so they get no span.
 * - A streamed response's span ends when the response is handed to the server, not when its last
 *   byte is sent.
 *
 * @since 1.3.7
 * @example app.use(otelTracing({ tracer: trace.getTracer('orders-api') }));
 */
export function otelTracing(options: OtelTracingOptions): Hooks {
  const resolved = resolveOtelTracingOptions(options);
  const { tracer, api, recordExceptions, includeResponseHeaders } = resolved;
  const flights = new WeakMap<Request, Flight>();

  const flightOf = (original: Request): Flight => {
    let flight = flights.get(original);
    if (flight === undefined) {
      flight = {
        startTime: now(),
        span: undefined,
        broken: false,
        failed: false,
        error: undefined,
        errorTime: 0,
        ended: false,
      };
      flights.set(original, flight);
    }
    return flight;
  };

  const startSpan = (
    flight: Flight,
    original: Request,
    ctx: AnyContext | undefined,
  ): OtelSpan | undefined => {
    if (flight.span !== undefined || flight.broken) return flight.span;
    const route = ctx?.route.path;
    try {
      const span = tracer.startSpan(
        spanName(original.method, route),
        {
          kind: OTEL_SPAN_KIND.SERVER,
          attributes: requestAttributes(resolved, original, route),
          startTime: flight.startTime,
        },
        parentContext(original.headers, api),
      );
      flight.span = span;
      if (!serverSpans.has(original)) serverSpans.set(original, span);
      return span;
    } catch {
      // A failing tracer must not fail the request: this request goes untraced.
      flight.broken = true;
      return undefined;
    }
  };

  return {
    onRequest(request) {
      flightOf(originalRequest(request));
    },
    preBody(ctx) {
      const original = originalRequest(ctx.request);
      const flight = flightOf(original);
      // A request that timed out was answered (and its span ended) while its work went on.
      if (!flight.ended) startSpan(flight, original, ctx as unknown as AnyContext);
    },
    onError(error, _ctx, request) {
      const flight = flightOf(originalRequest(request));
      if (flight.ended) return;
      flight.failed = true;
      flight.error = error;
      flight.errorTime = now();
    },
    onResponse(response, ctx, request) {
      const original = originalRequest(request);
      const flight = flightOf(original);
      if (flight.ended) return;
      flight.ended = true;
      const span = startSpan(flight, original, ctx);
      if (span === undefined) return;
      const status = response.status;
      const attributes: OtelAttributes = {
        'http.response.status_code': status,
        ...headerAttributes('http.response.header.', includeResponseHeaders, response.headers),
      };
      // Server spans: only 5xx is an error; a 4xx is the client's mistake (conventions, "Status").
      if (status >= 500) {
        attributes['error.type'] = flight.failed ? errorTypeOf(flight.error) : String(status);
        span.setStatus({ code: OTEL_STATUS_CODE.ERROR });
        if (flight.failed && recordExceptions) {
          const production = ctx?.route.production ?? isProductionEnv();
          span.recordException(exceptionFor(flight.error, production), flight.errorTime);
        }
      }
      span.setAttributes(attributes);
      span.end(now());
    },
  };
}
