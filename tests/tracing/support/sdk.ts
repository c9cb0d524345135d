/** A real OpenTelemetry SDK tracer whose finished spans are kept in memory for the tests to read. */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export { SpanKind, SpanStatusCode, trace };

export interface Recorder {
  readonly tracer: ReturnType<BasicTracerProvider['getTracer']>;
  spans(): ReadableSpan[];
  /** The only finished span; fails when there is not exactly one. */
  only(): ReadableSpan;
}

export function recorder(): Recorder {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('charter-tracing-test');
  return {
    tracer,
    spans: () => exporter.getFinishedSpans(),
    only() {
      const spans = exporter.getFinishedSpans();
      if (spans.length !== 1) throw new Error(`expected exactly one finished span, got ${spans.length}`);
      return spans[0]!;
    },
  };
}

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const PARENT_ID = '00f067aa0ba902b7';
export const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;
