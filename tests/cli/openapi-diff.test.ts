/** diffOpenAPI: which changes between two OpenAPI documents break a client, rule by rule. */
import { describe, expect, test } from 'bun:test';
import { diffOpenAPI } from '@charter/cli';

type Op = Record<string, unknown>;
const doc = (paths: Record<string, Record<string, Op>>, extra: Record<string, unknown> = {}) => ({
  openapi: '3.1.1',
  info: { title: 't', version: '1' },
  paths,
  ...extra,
});
const json = (schema: unknown) => ({ 'application/json': { schema } });
const ok = (schema: unknown = { type: 'object' }) => ({ 200: { description: 'ok', content: json(schema) } });
const codes = (before: unknown, after: unknown) => {
  const { breaking, nonBreaking } = diffOpenAPI(before, after);
  return {
    breaking: breaking.map((c) => `${c.code} ${c.operation} ${c.at}`.trim()),
    nonBreaking: nonBreaking.map((c) => `${c.code} ${c.operation} ${c.at}`.trim()),
  };
};

describe('diffOpenAPI: operations', () => {
  test('identical documents have no change', () => {
    const d = doc({ '/a': { get: { responses: ok() } } });
    expect(codes(d, structuredClone(d))).toEqual({ breaking: [], nonBreaking: [] });
  });

  test('a removed operation breaks; an added one does not', () => {
    const before = doc({ '/a': { get: { responses: ok() }, delete: { responses: ok() } } });
    const after = doc({ '/a': { get: { responses: ok() } }, '/b': { post: { responses: ok() } } });
    expect(codes(before, after)).toEqual({
      breaking: ['operation-removed DELETE /a'],
      nonBreaking: ['operation-added POST /b'],
    });
  });

  test('a renamed path parameter is the same operation', () => {
    const p = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
    const before = doc({ '/u/{id}': { get: { parameters: [p('id')], responses: ok() } } });
    const after = doc({ '/u/{userId}': { get: { parameters: [p('userId')], responses: ok() } } });
    expect(codes(before, after)).toEqual({ breaking: [], nonBreaking: [] });
  });
});

describe('diffOpenAPI: parameters', () => {
  const q = (name: string, required = false, schema: unknown = { type: 'string' }) => ({
    name,
    in: 'query',
    required,
    schema,
  });
  const withParams = (...parameters: unknown[]) => doc({ '/a': { get: { parameters, responses: ok() } } });

  test('a new required parameter breaks; a new optional one does not', () => {
    expect(codes(withParams(), withParams(q('tenant', true), q('page')))).toEqual({
      breaking: ['required-parameter-added GET /a query.tenant'],
      nonBreaking: ['optional-parameter-added GET /a query.page'],
    });
  });

  test('a parameter that became required breaks; a removed one does not', () => {
    expect(codes(withParams(q('a'), q('b')), withParams(q('a', true))).breaking).toEqual([
      'parameter-became-required GET /a query.a',
    ]);
    expect(codes(withParams(q('a'), q('b')), withParams(q('a', true))).nonBreaking).toEqual([
      'parameter-removed GET /a query.b',
    ]);
  });

  test('header parameters match whatever their case', () => {
    const h = (name: string) => ({ name, in: 'header', schema: { type: 'string' } });
    expect(codes(withParams(h('X-Trace')), withParams(h('x-trace')))).toEqual({
      breaking: [],
      nonBreaking: [],
    });
  });

  test('a changed type, a narrowed enum or a stricter constraint breaks', () => {
    expect(
      codes(withParams(q('n', false, { type: 'string' })), withParams(q('n', false, { type: 'integer' })))
        .breaking,
    ).toEqual(['type-changed GET /a query.n']);
    expect(
      codes(
        withParams(q('s', false, { type: 'string', enum: ['a', 'b'] })),
        withParams(q('s', false, { type: 'string', enum: ['a'] })),
      ).breaking,
    ).toEqual(['enum-narrowed GET /a query.s']);
    expect(
      codes(
        withParams(q('l', false, { type: 'integer', maximum: 100 })),
        withParams(q('l', false, { type: 'integer', maximum: 50, minimum: 1 })),
      ).breaking,
    ).toEqual(['constraint-narrowed GET /a query.l', 'constraint-narrowed GET /a query.l']);
  });

  test('accepting more (integer to number, a wider enum, a looser bound) does not break', () => {
    expect(
      codes(withParams(q('n', false, { type: 'integer' })), withParams(q('n', false, { type: 'number' })))
        .breaking,
    ).toEqual([]);
    expect(
      codes(
        withParams(q('s', false, { type: 'string', enum: ['a'] })),
        withParams(q('s', false, { type: 'string', enum: ['a', 'b'] })),
      ).breaking,
    ).toEqual([]);
    expect(
      codes(
        withParams(q('l', false, { type: 'integer', maximum: 10 })),
        withParams(q('l', false, { type: 'integer', maximum: 20 })),
      ).breaking,
    ).toEqual([]);
  });

  test('parameters by $ref are followed', () => {
    const components = { parameters: { Tenant: q('tenant', true) } };
    const before = doc({ '/a': { get: { responses: ok() } } }, { components });
    const after = doc(
      { '/a': { get: { parameters: [{ $ref: '#/components/parameters/Tenant' }], responses: ok() } } },
      { components },
    );
    expect(codes(before, after).breaking).toEqual(['required-parameter-added GET /a query.tenant']);
  });
});

describe('diffOpenAPI: request bodies', () => {
  const body = (schema: unknown, required = true, content?: Record<string, unknown>) =>
    doc({ '/a': { post: { requestBody: { required, content: content ?? json(schema) }, responses: ok() } } });
  const obj = (
    properties: Record<string, unknown>,
    required: string[] = [],
    extra: Record<string, unknown> = {},
  ) => ({
    type: 'object',
    properties,
    required,
    ...extra,
  });

  test('a new required field, or a field that became required, breaks', () => {
    const before = body(obj({ name: { type: 'string' }, nick: { type: 'string' } }, ['name']));
    const after = body(
      obj({ name: { type: 'string' }, nick: { type: 'string' }, pw: { type: 'string' } }, [
        'name',
        'nick',
        'pw',
      ]),
    );
    expect(codes(before, after).breaking).toEqual([
      'property-became-required POST /a request body (application/json).nick',
      'required-property-added POST /a request body (application/json).pw',
    ]);
  });

  test('a removed field breaks only when the new schema refuses unknown fields', () => {
    const before = body(obj({ a: { type: 'string' }, b: { type: 'string' } }));
    expect(codes(before, body(obj({ a: { type: 'string' } }))).breaking).toEqual([]);
    expect(
      codes(before, body(obj({ a: { type: 'string' } }, [], { additionalProperties: false }))).breaking,
    ).toEqual(['property-removed POST /a request body (application/json).b']);
  });

  test('nested objects and array items are compared too', () => {
    const before = body(
      obj({ tags: { type: 'array', items: { type: 'string' } }, meta: obj({ n: { type: 'integer' } }) }),
    );
    const after = body(
      obj({ tags: { type: 'array', items: { type: 'integer' } }, meta: obj({ n: { type: 'string' } }) }),
    );
    expect(codes(before, after).breaking).toEqual([
      'type-changed POST /a request body (application/json).tags[]',
      'type-changed POST /a request body (application/json).meta.n',
    ]);
  });

  test('a body that became required, a new required body, a removed media type, a removed body break', () => {
    expect(codes(body({ type: 'object' }, false), body({ type: 'object' }, true)).breaking).toEqual([
      'request-body-became-required POST /a request body',
    ]);
    const none = doc({ '/a': { post: { responses: ok() } } });
    expect(codes(none, body({ type: 'object' })).breaking).toEqual([
      'required-request-body-added POST /a request body',
    ]);
    expect(codes(body({ type: 'object' }), none).breaking).toEqual([
      'request-body-removed POST /a request body',
    ]);
    const two = body(null, true, {
      ...json({ type: 'object' }),
      'text/plain': { schema: { type: 'string' } },
    });
    expect(codes(two, body({ type: 'object' })).breaking).toEqual([
      'media-type-removed POST /a request body (text/plain)',
    ]);
  });

  test('recursive schemas terminate', () => {
    const components = {
      schemas: { Node: obj({ child: { $ref: '#/components/schemas/Node' }, v: { type: 'string' } }) },
    };
    const recursive = doc(
      {
        '/a': {
          post: { requestBody: { content: json({ $ref: '#/components/schemas/Node' }) }, responses: ok() },
        },
      },
      { components },
    );
    expect(codes(recursive, structuredClone(recursive))).toEqual({ breaking: [], nonBreaking: [] });
  });
});

describe('diffOpenAPI: responses', () => {
  const responses = (r: Record<string, unknown>) => doc({ '/a': { get: { responses: r } } });
  const User = (props: Record<string, unknown>, required: string[]) => ({
    type: 'object',
    properties: props,
    required,
  });

  test('a removed status breaks; an added one does not', () => {
    expect(codes(responses({ ...ok(), 404: { description: 'x' } }), responses(ok()))).toEqual({
      breaking: ['response-status-removed GET /a response 404'],
      nonBreaking: [],
    });
    expect(codes(responses(ok()), responses({ ...ok(), 410: { description: 'x' } })).nonBreaking).toEqual([
      'response-status-added GET /a response 410',
    ]);
  });

  test('a field removed or no longer always present breaks; a new field does not', () => {
    const before = responses(
      ok(
        User({ id: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } }, [
          'id',
          'email',
          'name',
        ]),
      ),
    );
    const after = responses(
      ok(User({ id: { type: 'string' }, name: { type: 'string' }, avatar: { type: 'string' } }, ['id'])),
    );
    expect(codes(before, after)).toEqual({
      breaking: [
        'property-removed GET /a response 200 (application/json).email',
        'property-became-optional GET /a response 200 (application/json).name',
      ],
      nonBreaking: ['property-added GET /a response 200 (application/json).avatar'],
    });
  });

  test('a response that may return a new type or enum value breaks; returning less does not', () => {
    const s = (schema: unknown) => responses(ok(schema));
    expect(codes(s({ type: 'string' }), s({ type: ['string', 'null'] })).breaking).toEqual([
      'type-changed GET /a response 200 (application/json)',
    ]);
    expect(
      codes(s({ type: 'string', enum: ['a'] }), s({ type: 'string', enum: ['a', 'b'] })).breaking,
    ).toEqual(['enum-widened GET /a response 200 (application/json)']);
    expect(codes(s({ type: ['string', 'null'] }), s({ type: 'string' })).breaking).toEqual([]);
    expect(
      codes(s({ type: 'string', enum: ['a', 'b'] }), s({ type: 'string', enum: ['a'] })).breaking,
    ).toEqual([]);
  });

  test('a removed response media type breaks', () => {
    const before = responses({
      200: {
        description: 'ok',
        content: { ...json({ type: 'object' }), 'text/csv': { schema: { type: 'string' } } },
      },
    });
    expect(codes(before, responses(ok())).breaking).toEqual([
      'media-type-removed GET /a response 200 (text/csv)',
    ]);
  });
});

describe('diffOpenAPI: compositions', () => {
  const post = (schema: unknown, components: Record<string, unknown> = {}) =>
    doc(
      { '/a': { post: { requestBody: { content: json(schema) }, responses: ok(schema) } } },
      { components: { schemas: components } },
    );
  const Base = {
    type: 'object',
    properties: { id: { type: 'string' }, at: { type: 'string' } },
    required: ['id', 'at'],
  };

  test('allOf members are merged: a field removed from a shared base is seen in the response', () => {
    const before = post(
      { allOf: [{ $ref: '#/components/schemas/Base' }], properties: { n: { type: 'integer' } } },
      { Base },
    );
    const slimBase = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
    const after = post(
      { allOf: [{ $ref: '#/components/schemas/Base' }], properties: { n: { type: 'integer' } } },
      { Base: slimBase },
    );
    expect(codes(before, after).breaking).toEqual([
      'property-removed POST /a response 200 (application/json).at',
    ]);
  });

  test('a oneOf losing a variant breaks requests; gaining one breaks responses', () => {
    const cat = { $ref: '#/components/schemas/Cat' };
    const dog = { $ref: '#/components/schemas/Dog' };
    const pets = { Cat: { type: 'object' }, Dog: { type: 'object' } };
    expect(codes(post({ oneOf: [cat, dog] }, pets), post({ oneOf: [cat] }, pets))).toEqual({
      breaking: ['variant-removed POST /a request body (application/json)'],
      nonBreaking: ['variant-removed POST /a response 200 (application/json)'],
    });
    expect(codes(post({ oneOf: [cat] }, pets), post({ oneOf: [cat, dog] }, pets))).toEqual({
      breaking: ['variant-added POST /a response 200 (application/json)'],
      nonBreaking: ['variant-added POST /a request body (application/json)'],
    });
  });
});

describe('diffOpenAPI: security and input', () => {
  test('an operation that now requires authentication breaks, through the document default too', () => {
    const open = doc({ '/a': { get: { responses: ok() } } });
    const locked = doc({ '/a': { get: { responses: ok(), security: [{ bearer: [] }] } } });
    const lockedByDefault = doc({ '/a': { get: { responses: ok() } } }, { security: [{ bearer: [] }] });
    const optional = doc({ '/a': { get: { responses: ok(), security: [{}, { bearer: [] }] } } });
    expect(codes(open, locked).breaking).toEqual(['authentication-required GET /a security']);
    expect(codes(open, lockedByDefault).breaking).toEqual(['authentication-required GET /a security']);
    expect(codes(open, optional).breaking).toEqual([]);
    expect(codes(locked, open).breaking).toEqual([]);
  });

  test('documents that are not OpenAPI 3 are refused with a TypeError naming which one', () => {
    const d = doc({});
    expect(() => diffOpenAPI(null, d)).toThrow('the old document is not an OpenAPI document');
    expect(() => diffOpenAPI(d, { swagger: '2.0' })).toThrow('the new document is not an OpenAPI 3 document');
    expect(() => diffOpenAPI([], d)).toThrow(TypeError);
  });

  test('odd shapes (no paths, non-object operations, dangling $refs) give no crash', () => {
    const odd = { openapi: '3.0.3', paths: { '/a': { get: 'nope', parameters: 'x' }, '/b': null } };
    const dangling = doc({ '/a': { get: { responses: { 200: { $ref: '#/components/responses/None' } } } } });
    expect(() => diffOpenAPI(odd, dangling)).not.toThrow();
    expect(() => diffOpenAPI({ openapi: '3.1.0' }, { openapi: '3.1.0' })).not.toThrow();
  });
});
