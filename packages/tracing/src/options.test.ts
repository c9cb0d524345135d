import { describe, expect, test } from 'bun:test';
import { type OtelTracingOptions, resolveOtelTracingOptions } from './options.ts';
import type { OtelTracer } from './otel-types.ts';

const tracer = { startSpan: () => ({}) } as unknown as OtelTracer;

describe('resolveOtelTracingOptions', () => {
  test('fills the defaults: redacted query, exceptions recorded, no headers, no service name', () => {
    const resolved = resolveOtelTracingOptions({ tracer });
    expect(resolved).toMatchObject({
      redactQuery: true,
      recordExceptions: true,
      includeRequestHeaders: [],
      includeResponseHeaders: [],
      serviceName: undefined,
      api: undefined,
    });
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  test('lower-cases and de-duplicates the header lists', () => {
    const resolved = resolveOtelTracingOptions({
      tracer,
      includeRequestHeaders: ['X-Tenant', 'x-tenant', 'Accept'],
    });
    expect(resolved.includeRequestHeaders).toEqual(['x-tenant', 'accept']);
  });

  test('refuses credential headers in either list, whatever their case', () => {
    for (const name of ['Authorization', 'cookie', 'Set-Cookie', 'proxy-authorization']) {
      expect(() => resolveOtelTracingOptions({ tracer, includeRequestHeaders: [name] })).toThrow(
        /includeRequestHeaders lists ".*", which carries credentials/,
      );
      expect(() => resolveOtelTracingOptions({ tracer, includeResponseHeaders: [name] })).toThrow(
        /includeResponseHeaders lists/,
      );
    }
  });

  test('refuses a missing tracer and ill-typed options, naming the option', () => {
    const bad = (options: unknown) => () => resolveOtelTracingOptions(options as OtelTracingOptions);
    expect(bad(undefined)).toThrow(TypeError);
    expect(bad({})).toThrow(/tracer must be an OpenTelemetry Tracer/);
    expect(bad({ tracer: { startSpan: 1 } })).toThrow(/tracer/);
    expect(bad({ tracer, serviceName: '' })).toThrow(/serviceName/);
    expect(bad({ tracer, redactQuery: 'yes' })).toThrow(/redactQuery must be a boolean/);
    expect(bad({ tracer, recordExceptions: 1 })).toThrow(/recordExceptions must be a boolean/);
    expect(bad({ tracer, includeRequestHeaders: 'x-a' })).toThrow(/includeRequestHeaders must be an array/);
    expect(bad({ tracer, includeResponseHeaders: ['bad header'] })).toThrow(
      /includeResponseHeaders must hold header names/,
    );
    expect(bad({ tracer, api: {} })).toThrow(/api must be the @opentelemetry\/api module/);
  });
});
