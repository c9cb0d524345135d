/**
 * `otelTracing()` through real Apps (`app.request`) and the real OpenTelemetry SDK: span name, kind,
 * attributes, status, parentage from `traceparent`, redaction, header capture, exception events, and
 * exactly one ended span per request on every path.
 */
import { describe, expect, test } from 'bun:test';
import * as api from '@opentelemetry/api';
import { App, httpError, type Hooks } from '@charter/core';
import { otelTracing, serverSpanOf } from '@charter/tracing';
import { type } from 'arktype';
import { PARENT_ID, recorder, SpanKind, SpanStatusCode, TRACE_ID, TRACEPARENT } from './support/sdk.ts';

class LedgerUnavailable extends Error {}

type Placement = 'constructor' | 'use';

function tracedApp(
  placement: Placement,
  hooks: Hooks,
  options: ConstructorParameters<typeof App>[0] = {},
): App {
  const app = new App({ logger: false, ...options, ...(placement === 'constructor' ? { hooks } : {}) });
  if (placement === 'use') app.use(hooks);
  app.get(
    '/users/:id',
    {
      request: { params: type({ id: 'string' }) },
      responses: { 200: { body: type({ id: 'string' }) } },
    },
    (ctx) => {
      ctx.set.headers.set('x-cache', 'miss');
      return { status: 200, body: { id: ctx.params.id } };
    },
  );
  app.get(
    '/boom',
    {
      responses: { 200: { body: type({ ok: 'boolean' }) } },
    },
    () => {
      throw new LedgerUnavailable('ledger for account 12345 unreachable');
    },
  );
  app.get(
    '/unavailable',
    {
      responses: { 200: { body: type({ ok: 'boolean' }) }, 503: { description: 'down' } },
    },
    () => ({ status: 503 }),
  );
  app.get(
    '/teapot',
    {
      responses: { 200: { body: type({ ok: 'boolean' }) } },
    },
    () => {
      throw httpError({ status: 409, title: 'Conflict', detail: 'version mismatch' });
    },
  );
  return app;
}

describe('otelTracing span shape', () => {
  test('records one SERVER span named after the method and route, with the request attributes', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }));
    const res = await app.request('/users/42', {
      headers: { host: 'api.example:8443', 'user-agent': 'probe/1.0' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: '42' });
    const span = rec.only();
    expect(span.name).toBe('GET /users/:id');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'url.path': '/users/42',
      'http.route': '/users/:id',
      'server.address': 'api.example',
      'server.port': 8443,
      'user_agent.original': 'probe/1.0',
      'http.response.status_code': 200,
    });
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.ended).toBe(true);
    expect(span.duration[0] * 1e9 + span.duration[1]).toBeGreaterThanOrEqual(0);
  });

  test('falls back to the request URL host without a Host header, and adds service.name when given', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer, serviceName: 'users-api' }));
    await app.request('/users/1');
    expect(rec.only().attributes).toMatchObject({
      'server.address': 'charter.local',
      'server.port': 80,
      'service.name': 'users-api',
    });
  });

  test('records an unknown method as _OTHER with the original, and names the span HTTP', async () => {
    const rec = recorder();
    const app = tracedApp('constructor', otelTracing({ tracer: rec.tracer }));
    const res = await app.request('/users/1', { method: 'PURGE' });
    expect(res.status).toBe(405);
    const span = rec.only();
    expect(span.name).toBe('HTTP');
    expect(span.attributes['http.request.method']).toBe('_OTHER');
    expect(span.attributes['http.request.method_original']).toBe('PURGE');
    expect(span.attributes['http.route']).toBeUndefined();
  });
});

describe('otelTracing query redaction', () => {
  test('replaces every query value by default and keeps the names', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }));
    await app.request('/users/7?token=s3cr3t&email=ada%40example.com&flag');
    const attributes = rec.only().attributes;
    expect(attributes['url.query']).toBe('token=REDACTED&email=REDACTED&REDACTED');
    expect(JSON.stringify(attributes)).not.toContain('s3cr3t');
  });

  test('records the query as sent with redactQuery: false', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer, redactQuery: false }));
    await app.request('/users/7?page=2&sort=name');
    expect(rec.only().attributes['url.query']).toBe('page=2&sort=name');
  });

  test('records no url.query when the request has none', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }));
    await app.request('/users/7');
    expect('url.query' in rec.only().attributes).toBe(false);
  });
});

describe('otelTracing header capture', () => {
  test('records only the listed request and response headers, lower-cased, as arrays', async () => {
    const rec = recorder();
    const hooks = otelTracing({
      tracer: rec.tracer,
      includeRequestHeaders: ['X-Tenant', 'accept'],
      includeResponseHeaders: ['X-Cache', 'content-type'],
    });
    const app = tracedApp('use', hooks);
    await app.request('/users/1', {
      headers: { 'x-tenant': 'acme', 'x-other': 'no', authorization: 'Bearer t' },
    });
    const attributes = rec.only().attributes;
    expect(attributes['http.request.header.x-tenant']).toEqual(['acme']);
    expect(attributes['http.response.header.x-cache']).toEqual(['miss']);
    expect(attributes['http.response.header.content-type']).toEqual(['application/json']);
    expect('http.request.header.accept' in attributes).toBe(false);
    expect(
      Object.keys(attributes).some((key) => key.includes('x-other') || key.includes('authorization')),
    ).toBe(false);
  });

  test('refuses to be built with a credential header listed', () => {
    const rec = recorder();
    expect(() => otelTracing({ tracer: rec.tracer, includeRequestHeaders: ['Cookie'] })).toThrow(TypeError);
    expect(() => otelTracing({ tracer: rec.tracer, includeResponseHeaders: ['set-cookie'] })).toThrow(
      /set-cookie.*credentials/,
    );
  });
});

describe('otelTracing W3C trace context', () => {
  test('makes the server span a child of the caller span named by a valid traceparent', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }));
    await app.request('/users/1', {
      headers: { traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' },
    });
    const span = rec.only();
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.spanContext().spanId).not.toBe(PARENT_ID);
    expect(span.spanContext().traceState?.serialize()).toBe('rojo=00f067aa0ba902b7');
  });

  test('does the same through the api option', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer, api }));
    await app.request('/users/1', { headers: { traceparent: TRACEPARENT } });
    expect(rec.only().parentSpanContext?.spanId).toBe(PARENT_ID);
  });

  test('starts a new trace when traceparent is malformed', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }));
    const malformed = [
      TRACEPARENT.toUpperCase(),
      `00-${'0'.repeat(32)}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `ff-${TRACE_ID}-${PARENT_ID}-01`,
      `${TRACEPARENT}-extra`,
      `00-${TRACE_ID}-${PARENT_ID}`,
    ];
    for (const traceparent of malformed) await app.request('/users/1', { headers: { traceparent } });
    const spans = rec.spans();
    expect(spans).toHaveLength(malformed.length);
    for (const span of spans) {
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.spanContext().traceId).not.toBe(TRACE_ID);
    }
  });

  test('lets the handler reach the server span to parent its own spans', async () => {
    const rec = recorder();
    const app = new App({ logger: false });
    app.use(otelTracing({ tracer: rec.tracer }));
    app.get(
      '/orders',
      {
        responses: { 200: { body: type({ ok: 'boolean' }) } },
      },
      (ctx) => {
        const server = serverSpanOf<api.Span>(ctx);
        if (server === undefined) throw new Error('no server span');
        server.setAttribute('app.orders.count', 3);
        rec.tracer.startSpan('load orders', {}, api.trace.setSpan(api.ROOT_CONTEXT, server)).end();
        return { status: 200, body: { ok: true } };
      },
    );
    expect((await app.request('/orders', { headers: { traceparent: TRACEPARENT } })).status).toBe(200);
    const [child, server] = rec.spans();
    expect(server?.name).toBe('GET /orders');
    expect(server?.attributes['app.orders.count']).toBe(3);
    expect(child?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    expect(child?.spanContext().traceId).toBe(TRACE_ID);
  });
});

describe('otelTracing errors', () => {
  test('marks a thrown error ERROR with its class as error.type and records the exception event', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }));
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    const span = rec.only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toBeUndefined();
    expect(span.attributes['error.type']).toBe('LedgerUnavailable');
    expect(span.attributes['http.response.status_code']).toBe(500);
    expect(span.events).toHaveLength(1);
    expect(span.events[0]?.name).toBe('exception');
    expect(span.events[0]?.attributes).toMatchObject({
      'exception.type': 'LedgerUnavailable',
      'exception.message': 'ledger for account 12345 unreachable',
    });
  });

  test('redacts the exception message in a production App', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }), {
      production: true,
      behindProxy: 'none',
    });
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('12345');
    const event = rec.only().events[0];
    expect(event?.attributes?.['exception.type']).toBe('LedgerUnavailable');
    expect(event?.attributes?.['exception.message']).toBe('REDACTED');
    expect(JSON.stringify(event)).not.toContain('12345');
  });

  test('records no exception event with recordExceptions: false, but still marks the span', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer, recordExceptions: false }));
    await app.request('/boom');
    const span = rec.only();
    expect(span.events).toHaveLength(0);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('LedgerUnavailable');
  });

  test('uses the status code as error.type for a 5xx answered without a throw', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }));
    expect((await app.request('/unavailable')).status).toBe(503);
    const span = rec.only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('503');
    expect(span.events).toHaveLength(0);
  });

  test('leaves 4xx answers UNSET, with no error.type and no exception event', async () => {
    const rec = recorder();
    const app = tracedApp('use', otelTracing({ tracer: rec.tracer }));
    expect((await app.request('/teapot')).status).toBe(409);
    const span = rec.only();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect('error.type' in span.attributes).toBe(false);
    expect(span.events).toHaveLength(0);
  });

  test('never fails a request when the tracer throws', async () => {
    const broken = {
      startSpan(): never {
        throw new Error('exporter misconfigured');
      },
    };
    const app = tracedApp('constructor', otelTracing({ tracer: broken }));
    const res = await app.request('/users/5');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: '5' });
  });
});
