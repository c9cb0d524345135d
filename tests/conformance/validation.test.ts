import { describe, expect, test } from 'bun:test';
import { type AnySchema, App, isStandardSchema, typebox, validate } from '@charter/core';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { type } from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';
import { expectJson } from './support/json.ts';
import { expectProblem } from './support/problem.ts';
import { post } from './support/request.ts';
import { trackedBody } from '../support/tracked-body.ts';

/** The same contracts written with each supported schema library. */
interface Kit {
  params: AnySchema; // { id: number }
  query: AnySchema; // { limit: number, active: boolean, tag: string[] }
  headers: AnySchema; // { 'x-api-version': string, 'x-count': number }
  body: AnySchema; // { name: string, age: number }
  strings: AnySchema; // { code: string, flag: string }
}

const tb = {
  params: Type.Object({ id: Type.Number() }),
  query: Type.Object({ limit: Type.Number(), active: Type.Boolean(), tag: Type.Array(Type.String()) }),
  headers: Type.Object({ 'x-api-version': Type.String(), 'x-count': Type.Integer() }),
  body: Type.Object({ name: Type.String(), age: Type.Number() }),
  strings: Type.Object({ code: Type.String(), flag: Type.String() }),
};

const kits: Record<string, Kit> = {
  arktype: {
    params: type({ id: 'number' }),
    query: type({ limit: 'number', active: 'boolean', tag: 'string[]' }),
    headers: type({ 'x-api-version': 'string', 'x-count': 'number.integer' }),
    body: type({ name: 'string', age: 'number' }),
    strings: type({ code: 'string', flag: 'string' }),
  },
  zod: {
    params: z.object({ id: z.number() }),
    query: z.object({ limit: z.number(), active: z.boolean(), tag: z.array(z.string()) }),
    headers: z.object({ 'x-api-version': z.string(), 'x-count': z.number().int() }),
    body: z.object({ name: z.string(), age: z.number() }),
    strings: z.object({ code: z.string(), flag: z.string() }),
  },
  valibot: {
    params: v.object({ id: v.number() }),
    query: v.object({ limit: v.number(), active: v.boolean(), tag: v.array(v.string()) }),
    headers: v.object({ 'x-api-version': v.string(), 'x-count': v.pipe(v.number(), v.integer()) }),
    body: v.object({ name: v.string(), age: v.number() }),
    strings: v.object({ code: v.string(), flag: v.string() }),
  },
  'typebox (compiled)': {
    params: typebox(TypeCompiler.Compile(tb.params)),
    query: typebox(TypeCompiler.Compile(tb.query)),
    headers: typebox(TypeCompiler.Compile(tb.headers)),
    body: typebox(TypeCompiler.Compile(tb.body)),
    strings: typebox(TypeCompiler.Compile(tb.strings)),
  },
  'typebox (Value)': {
    params: typebox(tb.params, Value),
    query: typebox(tb.query, Value),
    headers: typebox(tb.headers, Value),
    body: typebox(tb.body, Value),
    strings: typebox(tb.strings, Value),
  },
};

function appFor(kit: Kit): App {
  const app = new App({ logger: false });
  const echo = (ctx: { params: unknown; query: unknown; headers: unknown; body: unknown }) => ({
    status: 200 as const,
    body: { params: ctx.params, query: ctx.query, body: ctx.body } as never,
  });
  app.get('/params/:id', { request: { params: kit.params }, responses: { 200: {} } }, echo);
  app.get('/query', { request: { query: kit.query }, responses: { 200: {} } }, echo);
  app.get('/strings', { request: { query: kit.strings }, responses: { 200: {} } }, echo);
  app.get('/headers', { request: { headers: kit.headers }, responses: { 200: {} } }, (ctx) => ({
    status: 200,
    body: {
      version: (ctx.headers as Record<string, unknown>)['x-api-version'],
      count: (ctx.headers as Record<string, unknown>)['x-count'],
    } as never,
  }));
  app.post('/body', { request: { body: kit.body }, responses: { 200: {} } }, echo);
  app.post(
    '/all/:id',
    {
      request: { params: kit.params, query: kit.query, headers: kit.headers, body: kit.body },
      responses: { 200: {} },
    },
    echo,
  );
  return app;
}

type Issue = { in: string; path: string[]; message: string };

async function expectValidationProblem(res: Response): Promise<Issue[]> {
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    issues: Issue[];
  };
  expect(body.type).toBe('https://charter.dev/errors/validation');
  expect(body.title).toBe('Validation Failed');
  expect(body.status).toBe(422);
  expect(typeof body.detail).toBe('string');
  expect(Array.isArray(body.issues)).toBe(true);
  for (const issue of body.issues) {
    expect(Object.keys(issue).sort()).toEqual(['in', 'message', 'path']);
    expect(typeof issue.message).toBe('string');
    expect(issue.message.length).toBeGreaterThan(0);
    expect(Array.isArray(issue.path)).toBe(true);
  }
  return body.issues;
}

/** A POST init with this body and Content-Type (or other headers). */
const postInit = (body: BodyInit, headers: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers,
  body,
});
const json = (body: BodyInit, headers: Record<string, string> = {}): RequestInit =>
  postInit(body, { 'content-type': 'application/json', ...headers });
const urlencoded = (body: string): RequestInit =>
  postInit(body, { 'content-type': 'application/x-www-form-urlencoded' });

/** The distinct `in:path` of the issues, sorted (TypeBox may report two messages for one path). */
function locations(issues: Issue[]): string[] {
  return [...new Set(issues.map((i) => `${i.in}:${i.path.join('.')}`))].sort();
}

for (const [name, kit] of Object.entries(kits)) {
  describe(`validation with ${name}`, () => {
    const app = appFor(kit);

    test('coerces a path parameter to the number the schema asks for', async () => {
      await expectJson(await app.request('/params/42'), 200, { params: { id: 42 }, query: {} });
    });

    test('rejects a path parameter that is not a number with a 422 params issue', async () => {
      const issues = await expectValidationProblem(await app.request('/params/abc'));
      expect(locations(issues)).toEqual(['params:id']);
    });

    test('coerces query values to numbers, booleans and arrays where the schema asks', async () => {
      await expectJson(await app.request('/query?limit=10&active=true&tag=a'), 200, {
        params: {},
        query: { limit: 10, active: true, tag: ['a'] },
      });
    });

    test('keeps repeated query keys as an array and converts false', async () => {
      await expectJson(await app.request('/query?limit=-2.5&active=false&tag=a&tag=b'), 200, {
        params: {},
        query: { limit: -2.5, active: false, tag: ['a', 'b'] },
      });
    });

    test('does not coerce query values where the schema asks for strings', async () => {
      await expectJson(await app.request('/strings?code=007&flag=true'), 200, {
        params: {},
        query: { code: '007', flag: 'true' },
      });
    });

    test('rejects query values that do not convert, naming each key', async () => {
      const issues = await expectValidationProblem(await app.request('/query?limit=ten&active=maybe&tag=a'));
      expect(locations(issues)).toEqual(['query:active', 'query:limit']);
    });

    test('refuses query text that is not percent-encoded UTF-8 with a 400 naming the parameter', async () => {
      for (const [target, detail] of [
        [
          '/strings?code=%C3%28&flag=x',
          'The value of query parameter "code" is not valid percent-encoded UTF-8 (RFC 3986 §2.1)',
        ],
        [
          '/strings?code=1&flag=50%',
          'The value of query parameter "flag" is not valid percent-encoded UTF-8 (RFC 3986 §2.1)',
        ],
        [
          '/strings?code=1&flag=x&%FF=1',
          'The query parameter name "%FF" is not valid percent-encoded UTF-8 (RFC 3986 §2.1)',
        ],
      ] as const) {
        const body = await expectProblem(await app.request(target), 400, 'bad-request');
        expect(body.detail).toBe(detail);
      }
      // Escapes that are UTF-8 decode as usual (the good path).
      await expectJson(await app.request('/strings?code=caf%C3%A9&flag=100%25'), 200, {
        params: {},
        query: { code: 'café', flag: '100%' },
      });
    });

    test('rejects a missing required query key', async () => {
      const issues = await expectValidationProblem(await app.request('/query?active=true&tag=a'));
      expect(locations(issues)).toEqual(['query:limit']);
    });

    test('validates and coerces headers', async () => {
      await expectJson(
        await app.request('/headers', { headers: { 'X-Api-Version': '2', 'X-Count': '5' } }),
        200,
        {
          version: '2',
          count: 5,
        },
      );
    });

    test('rejects missing or invalid headers with 422 header issues', async () => {
      const issues = await expectValidationProblem(
        await app.request('/headers', { headers: { 'x-count': '1.5' } }),
      );
      expect(locations(issues)).toEqual(['headers:x-api-version', 'headers:x-count']);
    });

    test('validates a JSON body', async () => {
      await expectJson(await app.request('/body', json('{"name":"Ada","age":36}')), 200, {
        params: {},
        query: {},
        body: { name: 'Ada', age: 36 },
      });
    });

    test('does not coerce body values', async () => {
      const issues = await expectValidationProblem(
        await app.request('/body', json('{"name":"Ada","age":"36"}')),
      );
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ in: 'body', path: ['age'] });
    });

    test('rejects an empty body where the schema requires one', async () => {
      const issues = await expectValidationProblem(await app.request('/body', { method: 'POST' }));
      expect(issues.every((i) => i.in === 'body')).toBe(true);
    });

    test('validates a urlencoded form body', async () => {
      const kitApp = new App({ logger: false });
      kitApp.post('/form', { request: { body: kit.strings }, responses: { 200: {} } }, (ctx) => ({
        status: 200,
        body: ctx.body as never,
      }));
      await expectJson(await kitApp.request('/form', urlencoded('code=007&flag=on')), 200, {
        code: '007',
        flag: 'on',
      });
    });

    test('reports params, query and headers issues together before reading the body', async () => {
      const issues = await expectValidationProblem(
        await app.request('/all/x?limit=1&active=true&tag=a', json('{not json', { 'x-api-version': '1' })),
      );
      expect(locations(issues)).toEqual(['headers:x-count', 'params:id']);
    });

    test('gives every part to the handler once all are valid', async () => {
      await expectJson(
        await app.request(
          '/all/7?limit=3&active=true&tag=x&tag=y',
          json('{"name":"Bo","age":2}', { 'x-api-version': 'v', 'x-count': '1' }),
        ),
        200,
        {
          params: { id: 7 },
          query: { limit: 3, active: true, tag: ['x', 'y'] },
          body: { name: 'Bo', age: 2 },
        },
      );
    });
  });
}

describe('validation: body reading', () => {
  test('never reads the body of a route that declares no request.body', async () => {
    const app = new App({ logger: false });
    let body: unknown = 'unset';
    app.post(
      '/x',
      { request: { query: type({ 'q?': 'string' }) }, responses: { 200: { body: type('string') } } },
      (ctx) => {
        body = ctx.body;
        return { status: 200, body: 'done' };
      },
    );
    const t = trackedBody('{"a":1}');
    const res = await app.fetch(post('/x?q=1', t.body));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('done');
    expect(t.pulled()).toBe(false);
    expect(body).toBeUndefined();
  });

  test('does not check the Content-Type of a route that declares no body', async () => {
    const app = new App({ logger: false });
    app.post('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    const res = await app.request('/x', postInit('a,b', { 'content-type': 'text/csv' }));
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });

  test('reads the body of a route that declares one', async () => {
    const app = new App({ logger: false });
    app.post(
      '/x',
      { request: { body: type({ a: 'number' }) }, responses: { 200: { body: type({ a: 'number' }) } } },
      (ctx) => ({
        status: 200,
        body: ctx.body,
      }),
    );
    const t = trackedBody('{"a":1}');
    const res = await app.fetch(post('/x', t.body));
    await expectJson(res, 200, { a: 1 });
    expect(t.pulled()).toBe(true);
  });
});

describe('validation: content types', () => {
  const app = new App({ logger: false });
  app.post(
    '/json',
    { request: { body: type({ a: 'string' }) }, responses: { 200: { body: type({ a: 'string' }) } } },
    (ctx) => ({
      status: 200,
      body: ctx.body,
    }),
  );
  app.post(
    '/csv',
    {
      request: { body: type('string'), contentTypes: ['text/csv'] },
      responses: { 200: { body: type('string') } },
    },
    (ctx) => ({ status: 200, body: ctx.body }),
  );

  test('answers 415 for a Content-Type outside the allowed list', async () => {
    const body = await expectProblem(
      await app.request('/json', postInit('{"a":"x"}', { 'content-type': 'text/plain' })),
      415,
      'unsupported-media-type',
    );
    expect(String(body.detail)).toContain('text/plain');
  });

  test('answers 415 for a body without a Content-Type', async () => {
    const res = await app.request('/json', { method: 'POST', body: new TextEncoder().encode('{"a":"x"}') });
    const body = await expectProblem(res, 415, 'unsupported-media-type');
    expect(String(body.detail)).toContain('Content-Type');
  });

  test('accepts a JSON Content-Type with parameters and in any case', async () => {
    await expectJson(
      await app.request('/json', json('{"a":"x"}', { 'content-type': 'Application/JSON; charset=utf-8' })),
      200,
      { a: 'x' },
    );
  });

  test('honours a route contentTypes list', async () => {
    const ok = await app.request('/csv', postInit('a,b', { 'content-type': 'text/csv' }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await ok.text()).toBe('a,b');
    await expectProblem(await app.request('/csv', json('"a"')), 415, 'unsupported-media-type');
  });

  test('honours the app allowedContentTypes', async () => {
    const only = new App({ logger: false, allowedContentTypes: ['application/json'] });
    only.post('/x', { request: { body: type({ 'a?': 'string' }) }, responses: { 204: {} } }, () => ({
      status: 204,
    }));
    await expectProblem(await only.request('/x', urlencoded('a=1')), 415, 'unsupported-media-type');
    const res = await only.request('/x', json('{"a":"1"}'));
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });
});

describe('validation: JSON safety', () => {
  const app = new App({ logger: false });
  app.post(
    '/x',
    { request: { body: type('object') }, responses: { 200: { body: type('object') } } },
    (ctx) => ({
      status: 200,
      body: ctx.body,
    }),
  );

  test('answers 400 for malformed JSON', async () => {
    const body = await expectProblem(await app.request('/x', json('{"a":')), 400, 'bad-request');
    expect(String(body.detail)).toContain('not valid JSON');
  });

  test('answers 400 for a body that is not valid UTF-8', async () => {
    await expectProblem(
      await app.request('/x', json(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))),
      400,
      'bad-request',
    );
  });

  const forbidden: [string, string][] = [
    ['__proto__', '{"__proto__":{"admin":true}}'],
    ['constructor', '{"constructor":{"prototype":{"admin":true}}}'],
    ['prototype', '{"a":[{"prototype":1}]}'],
    ['nested __proto__', '{"a":{"b":{"__proto__":{"x":1}}}}'],
    ['\\u-escaped __proto__', '{"\\u005f\\u005fproto\\u005f\\u005f":{"admin":true}}'],
    ['\\u-escaped constructor', '{"\\u0063onstructor":1}'],
    ['\\u-escaped prototype', '{"a":{"prot\\u006ftype":1}}'],
  ];
  for (const [label, text] of forbidden) {
    test(`answers 400 for a JSON body with a ${label} key`, async () => {
      const body = await expectProblem(await app.request('/x', json(text)), 400, 'bad-request');
      expect(String(body.detail)).toContain('forbidden key');
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });
  }

  test('accepts those words as values and as parts of longer keys', async () => {
    await expectJson(
      await app.request('/x', json('{"note":"__proto__ constructor prototype","constructorName":"\\u0041"}')),
      200,
      { note: '__proto__ constructor prototype', constructorName: 'A' },
    );
  });
});

describe('validation: form bodies', () => {
  test('parses a urlencoded form, repeated keys as arrays', async () => {
    const app = new App({ logger: false });
    app.post(
      '/f',
      { request: { body: type({ name: 'string', tag: 'string[]' }) }, responses: { 200: {} } },
      (ctx) => ({ status: 200, body: ctx.body as never }),
    );
    await expectJson(await app.request('/f', urlencoded('name=Ada+L&tag=a&tag=b')), 200, {
      name: 'Ada L',
      tag: ['a', 'b'],
    });
  });

  test('rejects an invalid urlencoded form with a 422 body issue', async () => {
    const app = new App({ logger: false });
    app.post('/f', { request: { body: type({ name: 'string' }) }, responses: { 200: {} } }, () => ({
      status: 200,
    }));
    const issues = await expectValidationProblem(await app.request('/f', urlencoded('other=1')));
    expect(locations(issues)).toEqual(['body:name']);
  });

  test('parses a multipart form with fields and files', async () => {
    const app = new App({ logger: false });
    app.post(
      '/m',
      { request: { body: type({ title: 'string', file: 'File' }) }, responses: { 200: {} } },
      async (ctx) => ({
        status: 200,
        body: { title: ctx.body.title, name: ctx.body.file.name, text: await ctx.body.file.text() } as never,
      }),
    );
    const form = new FormData();
    form.set('title', 'Report');
    form.set('file', new File(['hello'], 'a.txt', { type: 'text/plain' }));
    await expectJson(await app.request('/m', { method: 'POST', body: form }), 200, {
      title: 'Report',
      name: 'a.txt',
      text: 'hello',
    });
  });
});

describe('isStandardSchema', () => {
  test('is true for arktype, zod, valibot and wrapped TypeBox schemas', () => {
    for (const kit of Object.values(kits)) expect(isStandardSchema(kit.body)).toBe(true);
  });

  test('is false for values that are not Standard Schemas', () => {
    for (const value of [
      null,
      undefined,
      42,
      'string',
      {},
      { '~standard': {} },
      { '~standard': { version: 2, validate: () => ({ value: 1 }) } },
      { '~standard': { version: 1 } },
      tb.body,
      () => true,
    ]) {
      expect(isStandardSchema(value)).toBe(false);
    }
  });
});

describe('validate', () => {
  for (const [name, kit] of Object.entries(kits)) {
    test(`returns { ok: true, value } for valid input with ${name}`, async () => {
      expect(await validate(kit.body, { name: 'a', age: 1 })).toEqual({
        ok: true,
        value: { name: 'a', age: 1 },
      });
    });

    test(`returns { ok: false, issues } with paths for invalid input with ${name}`, async () => {
      const result = await validate(kit.body, { name: 1, age: 1 });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.issues).toEqual([{ path: ['name'], message: expect.any(String) }]);
      expect(Object.keys(result)).toEqual(['ok', 'issues']);
    });
  }

  test('returns the transformed output of a schema', async () => {
    expect(await validate(type('string.numeric.parse'), '12')).toEqual({ ok: true, value: 12 });
  });

  test('throws for a value that is not a Standard Schema', async () => {
    await expect(validate({} as AnySchema, 1)).rejects.toThrow('Standard Schema');
  });

  test('works with async schemas', async () => {
    const schema = z.string().refine(async (s) => s === 'yes', 'must be yes');
    expect(await validate(schema, 'yes')).toEqual({ ok: true, value: 'yes' });
    expect(await validate(schema, 'no')).toEqual({
      ok: false,
      issues: [{ path: [], message: 'must be yes' }],
    });
  });
});

describe('validation: async schemas', () => {
  const taken = new Set(['ada']);
  const zBody = z.object({ user: z.string().refine(async (u) => !taken.has(u), 'user is taken') });
  const vQuery = v.objectAsync({
    page: v.pipeAsync(
      v.number(),
      v.checkAsync(async (n) => n > 0, 'page must be positive'),
    ),
  });
  const app = new App({ logger: false });
  app.post('/users', { request: { body: zBody, query: vQuery }, responses: { 201: {} } }, (ctx) => ({
    status: 201,
    body: { user: ctx.body.user, page: ctx.query.page } as never,
  }));

  test('accepts input that passes async checks', async () => {
    await expectJson(await app.request('/users?page=2', json('{"user":"bo"}')), 201, { user: 'bo', page: 2 });
  });

  test('rejects a body failing an async check with 422', async () => {
    const issues = await expectValidationProblem(await app.request('/users?page=1', json('{"user":"ada"}')));
    expect(issues).toEqual([{ in: 'body', path: ['user'], message: 'user is taken' }]);
  });

  test('rejects a query failing an async check with 422', async () => {
    const issues = await expectValidationProblem(await app.request('/users?page=0', json('{"user":"bo"}')));
    expect(issues).toEqual([{ in: 'query', path: ['page'], message: 'page must be positive' }]);
  });
});

describe('validation: coercion for schemas without a JSON Schema form (valibot)', () => {
  const app = new App({ logger: false });
  app.get(
    '/n',
    { request: { query: v.object({ limit: v.number(), active: v.boolean() }) }, responses: { 200: {} } },
    (ctx) => ({ status: 200, body: ctx.query as never }),
  );
  app.get(
    '/arr',
    { request: { query: v.object({ tag: v.array(v.string()) }) }, responses: { 200: {} } },
    (ctx) => ({
      status: 200,
      body: ctx.query as never,
    }),
  );
  app.get(
    '/min',
    {
      request: { query: v.object({ limit: v.pipe(v.number(), v.minValue(1, 'limit must be at least 1')) }) },
      responses: { 200: {} },
    },
    (ctx) => ({ status: 200, body: ctx.query as never }),
  );

  test('converts numbers and booleans', async () => {
    await expectJson(await app.request('/n?limit=5&active=false'), 200, { limit: 5, active: false });
  });

  test('wraps a single value into the array the schema asks for', async () => {
    await expectJson(await app.request('/arr?tag=a'), 200, { tag: ['a'] });
    await expectJson(await app.request('/arr?tag=a&tag=b'), 200, { tag: ['a', 'b'] });
  });

  test('reports the issue of the converted value, not a type error for text that did convert', async () => {
    const issues = await expectValidationProblem(await app.request('/min?limit=0'));
    expect(issues).toEqual([{ in: 'query', path: ['limit'], message: 'limit must be at least 1' }]);
  });
});
