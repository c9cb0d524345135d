import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { resolveAppOptions } from '../app/options.ts';
import type { AnyRouteDefinition, Hooks } from '../types/index.ts';
import { compileRoute } from './compiled-route.ts';
import { responsePlan } from './respond.ts';

const noop = (): void => {};

function compile(
  layers: { global?: Hooks[]; scoped?: Hooks[] },
  request?: AnyRouteDefinition['request'],
): ReturnType<typeof compileRoute> {
  const definition = {
    method: 'POST',
    path: '/x',
    request,
    responses: { 200: { body: type({ ok: 'boolean' }) } },
    handler: () => ({ status: 200, body: { ok: true } }),
  } as unknown as AnyRouteDefinition;
  return compileRoute({
    definition,
    path: '/x',
    operationId: undefined,
    auth: undefined,
    globalLayers: layers.global ?? [],
    scopedLayers: layers.scoped ?? [],
    decorations: {},
    options: resolveAppOptions({}),
  });
}

describe('compileRoute: direct', () => {
  test('a route with no hooks is direct, with or without a body', () => {
    expect(compile({}).direct).toBe(true);
    expect(compile({}, { body: type({ a: 'string' }) }).direct).toBe(true);
  });

  test('global onRequest, onError, onSend and onResponse hooks leave a route direct (dispatch runs them)', () => {
    const global: Hooks[] = [{ onRequest: noop, onError: noop, onSend: noop, onResponse: noop }];
    expect(compile({ global }).direct).toBe(true);
    expect(compile({ scoped: [{ onError: noop, onSend: noop, onResponse: noop }] }).direct).toBe(true);
  });

  test('a hook of a step the route runs itself makes the route not direct', () => {
    expect(compile({ scoped: [{ onRequest: noop }] }).direct).toBe(false);
    expect(compile({ global: [{ preBody: noop }] }).direct).toBe(false);
    expect(compile({ scoped: [{ beforeHandle: noop }] }).direct).toBe(false);
    expect(compile({ scoped: [{ afterHandle: () => undefined }] }).direct).toBe(false);
    expect(compile({ scoped: [{ preBody: noop }] }, { body: type({ a: 'string' }) }).direct).toBe(false);
  });
});

describe('responsePlan', () => {
  const security = [['x-frame-options', 'DENY']] as const;

  test('a string body is JSON text only when the declared content type is JSON', () => {
    expect(responsePlan(200, undefined, 'application/json', security).stringAsJson).toBe(true);
    expect(
      responsePlan(200, undefined, 'Application/Problem+JSON; charset=utf-8', security).stringAsJson,
    ).toBe(true);
    expect(responsePlan(200, undefined, 'text/csv', security).stringAsJson).toBe(false);
    expect(responsePlan(200, undefined, undefined, security).stringAsJson).toBe(false);
  });

  test('the header sets carry the content type and the security headers', () => {
    const sets = responsePlan(200, undefined, 'text/csv', security).headersFor;
    expect(sets.json.headers.get('content-type')).toBe('text/csv');
    expect(sets.text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(sets.empty.headers.get('content-type')).toBeNull();
    for (const set of [sets.json, sets.text, sets.empty]) {
      expect(set.headers.get('x-frame-options')).toBe('DENY');
      // The wire form holds the same fields as the Headers, in its iteration order.
      expect(set.lines).toEqual([...set.headers].flat());
    }
    expect(responsePlan(204, undefined, undefined, []).headersFor.empty.lines).toEqual([]);
    expect(responsePlan(200, undefined, undefined, []).headersFor.json.headers.get('content-type')).toBe(
      'application/json',
    );
  });
});

describe('compileRoute: response plans shared per App (issue 18, start-up)', () => {
  const route = (
    path: string,
    responses: Record<number, { body?: unknown; contentType?: string }>,
  ): AnyRouteDefinition =>
    ({
      method: 'GET',
      path,
      responses,
      handler: () => ({ status: 200, body: {} }),
    }) as unknown as AnyRouteDefinition;
  const compileWith = (definition: AnyRouteDefinition, options: ReturnType<typeof resolveAppOptions>) =>
    compileRoute({
      definition,
      path: definition.path,
      operationId: undefined,
      auth: undefined,
      globalLayers: [],
      scopedLayers: [],
      decorations: {},
      options,
    });

  test('routes of one App answer a status and content type on the same header sets, each with its own schema', () => {
    const options = resolveAppOptions({});
    const a = type({ a: 'string' });
    const b = type({ b: 'string' });
    const first = compileWith(route('/a', { 200: { body: a }, 404: {} }), options).responses;
    const second = compileWith(route('/b', { 200: { body: b }, 404: {} }), options).responses;
    expect(second.get(200)?.headersFor).toBe(first.get(200)?.headersFor as never);
    expect(second.get(200)?.initFor).toBe(first.get(200)?.initFor as never);
    expect(first.get(200)?.schema).toBe(a);
    expect(second.get(200)?.schema).toBe(b);
    // Without a schema the whole plan is the shared one.
    expect(second.get(404)).toBe(first.get(404) as never);
    expect(Object.isFrozen(second.get(200))).toBe(true);
    expect(Object.keys(second.get(200) ?? {})).toEqual(Object.keys(responsePlan(200, b, undefined, [])));
  });

  test('another status shares the header sets with inits of its own; another content type or App gets its own sets', async () => {
    const options = resolveAppOptions({});
    const plain = compileWith(
      route('/a', { 200: {}, 201: {}, 202: { contentType: 'text/csv' }, 204: {} }),
      options,
    );
    const plan = (status: number) => plain.responses.get(status);
    expect(plan(201)?.headersFor).toBe(plan(200)?.headersFor as never);
    expect(plan(201)?.initFor).not.toBe(plan(200)?.initFor as never);
    for (const status of [200, 201, 204]) {
      const shared = plan(status);
      const own = responsePlan(status, undefined, undefined, options.security.responseHeaders);
      expect(shared?.status).toBe(status);
      expect(Object.keys(shared ?? {})).toEqual(Object.keys(own));
      expect(shared?.stringAsJson).toBe(own.stringAsJson);
      for (const kind of ['empty', 'json', 'text'] as const) {
        expect(shared?.initFor[kind].status).toBe(status);
        expect(shared?.initFor[kind].headers).toBe(shared?.headersFor[kind].headers as never);
        expect(shared?.headersFor[kind].lines).toEqual(own.headersFor[kind].lines);
        expect(Object.isFrozen(shared?.initFor[kind])).toBe(true);
      }
    }
    // A Response built on a shared init answers its own status, and changing it leaves the set alone.
    const created = new Response('{}', plan(201)?.initFor.json);
    created.headers.set('x-extra', '1');
    expect(created.status).toBe(201);
    expect(new Response('{}', plan(200)?.initFor.json).headers.get('x-extra')).toBeNull();
    expect(plan(202)?.headersFor).not.toBe(plan(200)?.headersFor as never);
    expect(plan(202)?.headersFor.json.headers.get('content-type')).toBe('text/csv');
    expect(plan(200)?.headersFor.json.headers.get('content-type')).toBe('application/json');
    const other = resolveAppOptions({ secureHeaders: false });
    const otherPlain = compileWith(route('/a', { 200: {} }), other).responses.get(200);
    expect(otherPlain?.headersFor).not.toBe(plan(200)?.headersFor as never);
    expect(otherPlain?.headersFor.json.headers.get('x-content-type-options')).toBeNull();
    expect(plan(200)?.headersFor.json.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('compileRoute: coercion planned on first use (issue 18, start-up)', () => {
  /** A Standard Schema of `{ n: integer }` that counts how often its JSON Schema is asked for. */
  function countingSchema() {
    const calls = { jsonSchema: 0 };
    const schema = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value: unknown) => {
          const n = (value as { n?: unknown }).n;
          return Number.isInteger(n)
            ? { value: { n } }
            : { issues: [{ message: 'n must be an integer', path: ['n'] }] };
        },
        jsonSchema: {
          input: () => {
            calls.jsonSchema++;
            return { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
          },
          output: () => ({ type: 'object' }),
        },
      },
    };
    return { schema, calls };
  }

  test('registration converts no schema; the first request plans once, and the text is converted', async () => {
    const { schema, calls } = countingSchema();
    const app = new App({ logger: false });
    app.get('/items/:n', { request: { params: schema as never }, responses: { 200: {} } }, (ctx) => ({
      status: 200,
      body: { n: (ctx.params as { n: number }).n },
    }));
    app.get('/other', { request: { query: schema as never }, responses: { 200: {} } }, (ctx) => ({
      status: 200,
      body: ctx.query,
    }));
    expect(calls.jsonSchema).toBe(0);
    const first = await app.request('/items/12');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ n: 12 });
    expect(calls.jsonSchema).toBe(1);
    const bad = await app.request('/items/1.5');
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect(((await bad.json()) as { issues: unknown[] }).issues).toEqual([
      { in: 'params', path: ['n'], message: 'n must be an integer' },
    ]);
    expect(calls.jsonSchema).toBe(1);
    // Each route plans its own part, once.
    expect((await app.request('/other?n=3')).status).toBe(200);
    expect((await app.request('/other?n=4')).status).toBe(200);
    expect(calls.jsonSchema).toBe(2);
  });

  /** The params plan of a GET /x/:n route whose params schema is `params`. */
  const paramsPlan = (params: unknown) =>
    compileRoute({
      definition: {
        method: 'GET',
        path: '/x/:n',
        request: { params },
        responses: { 200: {} },
        handler: () => ({ status: 200 }),
      } as unknown as AnyRouteDefinition,
      path: '/x/:n',
      operationId: undefined,
      auth: undefined,
      globalLayers: [],
      scopedLayers: [],
      decorations: {},
      options: resolveAppOptions({}),
    }).params;

  test('a plan without JSON Schema stays the coerce-from-issues path', async () => {
    const { schema } = countingSchema();
    const plan = paramsPlan({ '~standard': { ...schema['~standard'], jsonSchema: undefined } });
    expect(plan?.location).toBe('params');
    // Read twice: the lazy plan stays absent once it has looked.
    expect(plan?.coercion).toBeUndefined();
    expect(plan?.coercion).toBeUndefined();
    const planned = paramsPlan(schema);
    const firstRead = planned?.coercion;
    expect(firstRead).toEqual(new Map([['n', 'integer']]));
    // A later read gives the same plan: it is made once.
    expect(planned?.coercion).toBe(firstRead as never);
  });
});
