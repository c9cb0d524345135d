import { describe, expect, test } from 'bun:test';
import * as api from '@opentelemetry/api';
import { OTEL_SPAN_KEY, parentContext, remoteSpanContext } from './parent-context.ts';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('remoteSpanContext', () => {
  test('builds a remote span context with the trace state from valid headers', () => {
    const context = remoteSpanContext(new Headers({ traceparent: TRACEPARENT, tracestate: 'rojo=1' }));
    expect(context).toMatchObject({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
    expect(context?.traceState?.serialize()).toBe('rojo=1');
  });

  test('drops an invalid tracestate but keeps the parent, and ignores tracestate without a parent', () => {
    expect(
      remoteSpanContext(new Headers({ traceparent: TRACEPARENT, tracestate: 'BAD' }))?.traceState,
    ).toBeUndefined();
    expect(remoteSpanContext(new Headers({ traceparent: 'garbage', tracestate: 'rojo=1' }))).toBeUndefined();
  });
});

describe('parentContext', () => {
  test('stores the caller span under the key @opentelemetry/api reads', () => {
    const context = parentContext(new Headers({ traceparent: TRACEPARENT }), undefined);
    expect(OTEL_SPAN_KEY as symbol).toBe(Symbol.for('OpenTelemetry Context Key SPAN'));
    expect(api.trace.getSpanContext(context as api.Context)?.spanId).toBe('00f067aa0ba902b7');
    expect(api.trace.getSpan(context as api.Context)?.isRecording()).toBe(false);
  });

  test('is an empty root context without a valid traceparent', () => {
    const context = parentContext(new Headers({ traceparent: TRACEPARENT.replace('-01', '-zz') }), undefined);
    expect(api.trace.getSpan(context as api.Context)).toBeUndefined();
    expect(context.setValue(OTEL_SPAN_KEY, 1).getValue(OTEL_SPAN_KEY)).toBe(1);
    expect(context.getValue(OTEL_SPAN_KEY)).toBeUndefined();
    expect(
      context.setValue(OTEL_SPAN_KEY, 1).deleteValue(OTEL_SPAN_KEY).getValue(OTEL_SPAN_KEY),
    ).toBeUndefined();
  });

  test('uses the api option when given', () => {
    const context = parentContext(new Headers({ traceparent: TRACEPARENT }), api);
    expect(api.trace.getSpanContext(context as api.Context)?.traceId).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(parentContext(new Headers(), api)).toBe(api.ROOT_CONTEXT);
  });
});
