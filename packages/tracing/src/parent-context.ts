/**
 * The parent context of a server span: the caller's span, from a valid W3C `traceparent`, as an
 * OpenTelemetry Context a tracer's `startSpan(name, options, context)` understands.
 */
import type { OtelApi, OtelContext, OtelSpanContext } from './otel-types.ts';
import { parseTraceParent, parseTraceState } from './trace-context.ts';

/**
 * The key under which `@opentelemetry/api` 1.x keeps the active span in a Context. The API makes its
 * keys with `Symbol.for(description)` so that several copies of the API share them; this module uses
 * the same registered symbol when no `api` option is given.
 */
export const OTEL_SPAN_KEY: unique symbol = Symbol.for('OpenTelemetry Context Key SPAN') as never;

/** An immutable Context (the API's interface) holding symbol-keyed values. */
class MinimalContext implements OtelContext {
  readonly #values: ReadonlyMap<symbol, unknown>;

  constructor(values: ReadonlyMap<symbol, unknown> = new Map()) {
    this.#values = values;
  }

  getValue(key: symbol): unknown {
    return this.#values.get(key);
  }

  setValue(key: symbol, value: unknown): OtelContext {
    const next = new Map(this.#values);
    next.set(key, value);
    return new MinimalContext(next);
  }

  deleteValue(key: symbol): OtelContext {
    const next = new Map(this.#values);
    next.delete(key);
    return new MinimalContext(next);
  }
}

/**
 * A span known only by its context (the caller's, in another process): what the API calls a
 * non-recording span. Tracers read `spanContext()` from it; every other call does nothing.
 */
class RemoteSpan {
  readonly #context: OtelSpanContext;
  constructor(context: OtelSpanContext) {
    this.#context = context;
  }
  spanContext(): OtelSpanContext {
    return this.#context;
  }
  setAttribute(): this {
    return this;
  }
  setAttributes(): this {
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(): this {
    return this;
  }
  updateName(): this {
    return this;
  }
  end(): void {}
  isRecording(): boolean {
    return false;
  }
  recordException(): void {}
}

/**
 * The caller's span context, from the request's `traceparent` and `tracestate` headers; undefined when
 * `traceparent` is absent or invalid (the server span then starts a new trace).
 */
export function remoteSpanContext(headers: Headers): OtelSpanContext | undefined {
  const parent = parseTraceParent(headers.get('traceparent'));
  if (parent === undefined) return undefined;
  const traceState = parseTraceState(headers.get('tracestate'));
  const context: OtelSpanContext = {
    traceId: parent.traceId,
    spanId: parent.parentId,
    traceFlags: parent.traceFlags,
    isRemote: true,
  };
  if (traceState !== undefined) context.traceState = traceState;
  return context;
}

/**
 * The Context to start the server span in: the caller's span when there is one, else an empty
 * (root) context, so the span never joins whatever happens to be active in this process.
 */
export function parentContext(headers: Headers, api: OtelApi | undefined): OtelContext {
  const remote = remoteSpanContext(headers);
  if (api !== undefined) {
    return remote === undefined ? api.ROOT_CONTEXT : api.trace.setSpanContext(api.ROOT_CONTEXT, remote);
  }
  const root = new MinimalContext();
  return remote === undefined ? root : root.setValue(OTEL_SPAN_KEY, new RemoteSpan(remote));
}
