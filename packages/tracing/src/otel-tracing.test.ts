import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { type } from 'arktype';
import { otelTracing, serverSpanOf } from './otel-tracing.ts';
import type { OtelSpan } from './otel-types.ts';

function sdkTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('unit'), exporter };
}

describe('otelTracing', () => {
  test('checks its options when called', () => {
    expect(() => otelTracing({} as never)).toThrow(/tracer/);
    expect(() =>
      otelTracing({ tracer: sdkTracer().tracer, includeRequestHeaders: ['authorization'] }),
    ).toThrow(/credentials/);
  });

  test('returns hooks for the phases it uses and nothing else', () => {
    const hooks = otelTracing({ tracer: sdkTracer().tracer });
    expect(Object.keys(hooks).sort()).toEqual(['onError', 'onRequest', 'onResponse', 'preBody']);
  });
});

describe('serverSpanOf', () => {
  test('finds the span from the context and from the request, and the first instance owns it', async () => {
    const first = sdkTracer();
    const second = sdkTracer();
    const app = new App({
      logger: false,
      hooks: [otelTracing({ tracer: first.tracer }), otelTracing({ tracer: second.tracer })],
    });
    const seen: { fromCtx?: OtelSpan; fromRequest?: OtelSpan } = {};
    app.get('/x', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, (ctx) => {
      seen.fromCtx = serverSpanOf(ctx);
      seen.fromRequest = serverSpanOf(ctx.request);
      return { status: 200, body: { ok: true } };
    });
    expect((await app.request('/x')).status).toBe(200);
    const [span] = first.exporter.getFinishedSpans();
    expect(seen.fromCtx?.spanContext().spanId).toBe(span?.spanContext().spanId as string);
    expect(seen.fromRequest).toBe(seen.fromCtx as OtelSpan);
    expect(second.exporter.getFinishedSpans()).toHaveLength(1);
  });

  test('answers undefined for a request no otelTracing hook covers', async () => {
    const app = new App({ logger: false });
    let found: unknown = 'unset';
    app.get('/x', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, (ctx) => {
      found = serverSpanOf(ctx);
      return { status: 200, body: { ok: true } };
    });
    await app.request('/x');
    expect(found).toBeUndefined();
    expect(serverSpanOf(new Request('http://h/'))).toBeUndefined();
  });
});
