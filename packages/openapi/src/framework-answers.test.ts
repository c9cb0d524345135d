import { describe, expect, test } from 'bun:test';
import { App, type AppOptions, bearer, httpBearerScheme, rateLimit } from '@charter/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { type } from 'arktype';
import { generateOpenAPI } from './generate.ts';
import { PROBLEM_DETAILS_SCHEMA, VALIDATION_PROBLEM_DETAILS_SCHEMA } from './problem.ts';
import type { OpenAPIDocument, Operation } from './types.ts';

const info = { title: 'T', version: '1' };
const PROBLEM = { $ref: '#/components/schemas/ProblemDetails' };
const VALIDATION_PROBLEM = { $ref: '#/components/schemas/ValidationProblemDetails' };

function newApp(options: AppOptions = {}): App {
  return new App({ logger: false, ...options });
}

function operation(doc: OpenAPIDocument, path = '/x', method = 'get'): Operation {
  const op = (doc.paths[path] as Record<string, Operation> | undefined)?.[method];
  if (op === undefined) throw new Error(`no operation ${method} ${path}`);
  return op;
}

async function expectValid(doc: OpenAPIDocument): Promise<void> {
  const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
}

describe('framework answers in the document', () => {
  test('a route without schemas lists 400, the timeout (408) and 431 as problem documents, nothing more', async () => {
    const app = newApp();
    app.get('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    const doc = generateOpenAPI(app, { info });
    const responses = operation(doc).responses;
    expect(Object.keys(responses)).toEqual(['204', '400', '408', '431']);
    for (const status of ['400', '408', '431']) {
      expect(responses[status]?.content).toEqual({ 'application/problem+json': { schema: PROBLEM } });
      expect(responses[status]?.description).toBeString();
    }
    expect(doc.components?.schemas).toEqual({ ProblemDetails: PROBLEM_DETAILS_SCHEMA });
    await expectValid(doc);
  });

  test('a route with a body adds 413, 415 and 422 with the validation problem schema', async () => {
    const app = newApp({ bodyLimitBytes: 1000 });
    app.post('/x', { request: { body: type({ a: 'string' }) }, responses: { 201: {} } }, () => ({
      status: 201,
    }));
    const doc = generateOpenAPI(app, { info });
    const responses = operation(doc, '/x', 'post').responses;
    // 403: the App's cross-origin guard refuses a browser's cross-site POST that no CORS policy admits.
    expect(Object.keys(responses)).toEqual(['201', '400', '403', '408', '413', '415', '422', '431']);
    expect(responses['413']?.description).toContain('1000 bytes');
    expect(responses['422']?.content).toEqual({ 'application/problem+json': { schema: VALIDATION_PROBLEM } });
    expect(doc.components?.schemas?.ValidationProblemDetails).toEqual(VALIDATION_PROBLEM_DETAILS_SCHEMA);
    await expectValid(doc);
  });

  test('a route that validates only its query gets 422 but neither 413 nor 415', () => {
    const app = newApp();
    app.get('/x', { request: { query: type({ 'q?': 'string' }) }, responses: { 204: {} } }, () => ({
      status: 204,
    }));
    expect(Object.keys(operation(generateOpenAPI(app, { info })).responses)).toEqual([
      '204',
      '400',
      '408',
      '422',
      '431',
    ]);
  });

  test('the timeout status follows requestTimeoutStatus, and is absent without a timeout', () => {
    const slow = newApp({ requestTimeoutStatus: 504 });
    slow.get('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    expect(Object.keys(operation(generateOpenAPI(slow, { info })).responses)).toEqual([
      '204',
      '400',
      '431',
      '504',
    ]);
    const untimed = newApp({ requestTimeoutMs: 0 });
    untimed.get('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    expect(Object.keys(operation(generateOpenAPI(untimed, { info })).responses)).toEqual([
      '204',
      '400',
      '431',
    ]);
  });

  test('load shedding adds 503 with Retry-After', () => {
    const app = newApp({ requestTimeoutMs: 0, loadShedding: true });
    app.get('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    const responses = operation(generateOpenAPI(app, { info })).responses;
    expect(responses['503']?.headers?.['Retry-After']?.schema).toEqual({ type: 'integer', minimum: 0 });
  });

  test('a rate limit over the route adds 429 with Retry-After and the RateLimit fields, all required', async () => {
    const app = newApp();
    app.use(rateLimit({ windowMs: 60_000, max: 10 }));
    app.get('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    const doc = generateOpenAPI(app, { info });
    const limited = operation(doc).responses['429'];
    expect(limited?.content).toEqual({ 'application/problem+json': { schema: PROBLEM } });
    expect(Object.keys(limited?.headers ?? {})).toEqual(['Retry-After', 'RateLimit', 'RateLimit-Policy']);
    for (const header of Object.values(limited?.headers ?? {})) expect(header.required).toBe(true);
    await expectValid(doc);
  });

  test('a rate limit without its fields documents Retry-After alone; one on another route adds nothing here', () => {
    const app = newApp();
    app.get(
      '/x',
      { responses: { 204: {} }, hooks: rateLimit({ windowMs: 1000, max: 1, headers: false }) },
      () => ({ status: 204 }),
    );
    app.get('/y', { responses: { 204: {} } }, () => ({ status: 204 }));
    const doc = generateOpenAPI(app, { info });
    expect(Object.keys(operation(doc).responses['429']?.headers ?? {})).toEqual(['Retry-After']);
    expect(operation(doc, '/y').responses['429']).toBeUndefined();
  });

  test('auth over the route adds 401 with WWW-Authenticate, and 403 when it requires scopes', async () => {
    const app = newApp({ securitySchemes: { bearer: httpBearerScheme() } });
    const hooks = bearer({ verify: () => ({ sub: 'u', scopes: ['a'] }) });
    app.get('/x', { auth: { scheme: 'bearer' }, hooks, responses: { 204: {} } }, () => ({ status: 204 }));
    app.get('/y', { auth: { scheme: 'bearer', scopes: ['a'] }, hooks, responses: { 204: {} } }, () => ({
      status: 204,
    }));
    app.get('/z', { responses: { 204: {} } }, () => ({ status: 204 }));
    const doc = generateOpenAPI(app, { info });
    const x = operation(doc).responses;
    expect(x['401']?.headers?.['WWW-Authenticate']?.schema).toEqual({ type: 'string' });
    expect(x['403']).toBeUndefined();
    expect(operation(doc, '/y').responses['403']?.headers?.['WWW-Authenticate']).toBeDefined();
    expect(operation(doc, '/z').responses['401']).toBeUndefined();
    await expectValid(doc);
  });

  test('a declared status keeps its description and headers; the framework adds its problem and missing headers', () => {
    const app = newApp();
    app.use(rateLimit({ windowMs: 60_000, max: 10 }));
    app.get(
      '/x',
      {
        responses: {
          204: {},
          429: {
            description: 'Slow down',
            body: type({ retry: 'number' }),
            headers: { 'retry-after': { description: 'Mine', schema: type('string') } },
          },
        },
      },
      () => ({ status: 204 }),
    );
    const limited = operation(generateOpenAPI(app, { info })).responses['429'];
    expect(limited?.description).toBe('Slow down');
    expect(Object.keys(limited?.content ?? {})).toEqual(['application/json', 'application/problem+json']);
    expect(limited?.headers?.['retry-after']?.description).toBe('Mine');
    expect(limited?.headers?.['Retry-After']).toBeUndefined();
    expect(Object.keys(limited?.headers ?? {})).toEqual(['retry-after', 'RateLimit', 'RateLimit-Policy']);
  });

  test('a declared 422 problem keeps its own schema; the framework does not replace it', () => {
    const app = newApp();
    const Mine = type({ title: 'string', status: 'number', mine: 'string' });
    app.post(
      '/x',
      {
        request: { body: type({ a: 'string' }) },
        responses: { 201: {}, 422: { body: Mine, contentType: 'application/problem+json' } },
      },
      () => ({ status: 201 }),
    );
    const content = operation(generateOpenAPI(app, { info }), '/x', 'post').responses['422']?.content;
    expect(Object.keys(content ?? {})).toEqual(['application/problem+json']);
    expect(content?.['application/problem+json']?.schema).toMatchObject({
      type: 'object',
      required: ['mine', 'status', 'title'],
    });
  });
});

describe('scalar bodies: the document lists the media type each value is sent in', () => {
  const cases = [
    ['a string', type('string'), ['text/plain']],
    ['an enum of strings', type("'a' | 'b'"), ['text/plain']],
    ['a number', type('number'), ['application/json']],
    ['a boolean', type('boolean'), ['application/json']],
    ['null', type('null'), ['application/json']],
    ['a string or a number', type('string | number'), ['application/json', 'text/plain']],
    ['an object', type({ a: 'string' }), ['application/json']],
  ] as const;

  for (const [name, schema, types] of cases) {
    test(`${name}: ${types.join(' and ')}`, () => {
      const app = newApp();
      app.get('/x', { responses: { 200: { body: schema } } }, () => ({ status: 200, body: 'a' }));
      expect(Object.keys(operation(generateOpenAPI(app, { info })).responses['200']?.content ?? {})).toEqual([
        ...types,
      ]);
    });
  }

  test('what is sent matches: a string as text/plain, a number, boolean or null as JSON', async () => {
    const app = newApp();
    const values: Record<string, unknown> = { s: 'héllo', n: 42, b: false, z: null, u: 'x' };
    const schemas = {
      s: type('string'),
      n: type('number'),
      b: type('boolean'),
      z: type('null'),
      u: type('string | number'),
    };
    for (const [name, body] of Object.entries(schemas)) {
      app.get(`/${name}`, { responses: { 200: { body } } }, () => ({
        status: 200,
        body: values[name] as never,
      }));
    }
    const doc = generateOpenAPI(app, { info });
    for (const name of Object.keys(schemas)) {
      const res = await app.request(`/${name}`);
      const sent = res.headers.get('content-type') ?? '';
      const listed = Object.keys(operation(doc, `/${name}`).responses['200']?.content ?? {});
      expect(listed).toContain(sent.split(';')[0] as string);
      const text = await res.text();
      const value = sent.startsWith('text/plain') ? text : JSON.parse(text);
      expect(value).toEqual(values[name]);
    }
  });

  test('a declared contentType is the only one listed, whatever the schema', () => {
    const app = newApp();
    app.get('/x', { responses: { 200: { body: type('string'), contentType: 'text/markdown' } } }, () => ({
      status: 200,
      body: '# a',
    }));
    expect(Object.keys(operation(generateOpenAPI(app, { info })).responses['200']?.content ?? {})).toEqual([
      'text/markdown',
    ]);
  });

  test('examples go under the media type they are sent in', () => {
    const app = newApp();
    app.get(
      '/x',
      { responses: { 200: { body: type('string | number'), examples: { word: 'hi', count: 3 } } } },
      () => ({ status: 200, body: 'hi' }),
    );
    const content = operation(generateOpenAPI(app, { info })).responses['200']?.content;
    expect(content?.['text/plain']?.examples).toEqual({ word: { value: 'hi' } });
    expect(content?.['application/json']?.examples).toEqual({ count: { value: 3 } });
  });
});
