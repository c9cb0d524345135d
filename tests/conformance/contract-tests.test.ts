/**
 * `runContractTests(app)` (charter/client): one test per issue code, where the good route passes
 * and the bad one reports exactly that code, then the mock-mode walk over a to-do app.
 */
import { describe, expect, test } from 'bun:test';
import {
  CONTRACT_ISSUE_CODES,
  type ContractApp,
  type ContractIssueCode,
  type ContractReport,
  runContractTests,
} from '@charter/client';
import { App, type AppOptions, type Hooks, type RegisteredRoute, withHookTraits } from '@charter/core';
import { type } from 'arktype';
import * as z from 'zod';

const Todo = type({ id: 'number.integer', title: 'string', done: 'boolean' });
const NewTodo = type({ title: '0 < string <= 200', 'done?': 'boolean' });
const ok = () => ({ status: 200 as const });

/** A Standard Schema that cannot describe itself as JSON Schema (no `~standard.jsonSchema`). */
const opaque = {
  '~standard': {
    version: 1 as const,
    vendor: 'opaque',
    validate: (value: unknown) => ({ value }),
  },
};

function newApp(options: AppOptions = {}): App {
  return new App({ logger: false, ...options });
}

function codes(report: ContractReport): ContractIssueCode[] {
  return report.issues.map((issue) => issue.code);
}

/** Runs the contract tests and asserts the report holds exactly one issue, of this code, on this route. */
async function expectOnly(
  app: App,
  code: ContractIssueCode,
  route: { method: string; path: string },
  options?: Parameters<typeof runContractTests>[1],
) {
  const report = await runContractTests(app, options);
  expect(codes(report)).toEqual([code]);
  expect(report.ok).toBe(false);
  const issue = report.issues[0]!;
  expect(issue.route).toBe(route.path);
  expect(issue.method).toBe(route.method as never);
  return issue;
}

describe('runContractTests: report', () => {
  test('a clean app resolves ok with every route counted and no issue', async () => {
    const app = newApp();
    app.get(
      '/todos/:id',
      {
        operationId: 'getTodo',
        request: { params: type({ id: 'number.integer' }) },
        responses: { 200: { body: Todo } },
      },
      () => ({ status: 200, body: { id: 1, title: 't', done: false } }),
    );
    app.post(
      '/todos',
      { operationId: 'createTodo', request: { body: NewTodo }, responses: { 201: { body: Todo }, 409: {} } },
      () => ({ status: 201, body: { id: 1, title: 't', done: false } }),
    );
    app.healthcheck();
    const report = await runContractTests(app);
    expect(report).toEqual({ ok: true, checked: 3, issues: [] });
  });

  test('the codes are exported as a const list', () => {
    expect(CONTRACT_ISSUE_CODES).toContain('missing-operation-id');
    expect(new Set(CONTRACT_ISSUE_CODES).size).toBe(CONTRACT_ISSUE_CODES.length);
  });

  test('bad options and a non-App are refused with a TypeError', async () => {
    const app = newApp();
    await expect(runContractTests(app, { requireOperationId: 'no' as never })).rejects.toThrow(
      'runContractTests option requireOperationId must be a boolean',
    );
    await expect(runContractTests(app, { allowBodyOnSafeMethods: 1 as never })).rejects.toThrow(
      'allowBodyOnSafeMethods must be a boolean',
    );
    await expect(runContractTests({} as never)).rejects.toThrow('app must be a Charter App');
  });

  test('waits for async plugins before reading the routes', async () => {
    const app = newApp();
    app.register(async (scope) => {
      await Bun.sleep(1);
      scope.get('/late', { responses: { 200: {} } }, ok);
    });
    const report = await runContractTests(app);
    expect(report.checked).toBe(1);
    expect(codes(report)).toEqual(['missing-operation-id']);
  });
});

describe('runContractTests: declarations', () => {
  test('missing-operation-id: a route without operationId', async () => {
    const app = newApp();
    app.get('/named', { operationId: 'named', responses: { 200: {} } }, ok);
    app.get('/anonymous', { responses: { 200: {} } }, ok);
    const issue = await expectOnly(app, 'missing-operation-id', { method: 'GET', path: '/anonymous' });
    expect(issue.message).toContain('no operationId');
  });

  test('missing-operation-id is not reported with requireOperationId: false, nor for openapi.exclude routes', async () => {
    const app = newApp();
    app.get('/anonymous', { responses: { 200: {} } }, ok);
    expect((await runContractTests(app, { requireOperationId: false })).ok).toBe(true);
    const excluded = newApp();
    excluded.get('/internal', { responses: { 200: {} }, openapi: { exclude: true } }, ok);
    expect(await runContractTests(excluded)).toEqual({ ok: true, checked: 1, issues: [] });
  });

  test('body-on-safe-method: GET, HEAD and DELETE declaring a body', async () => {
    for (const method of ['GET', 'DELETE', 'HEAD'] as const) {
      const app = newApp();
      app.post('/ok', { operationId: 'post', request: { body: NewTodo }, responses: { 200: {} } }, ok);
      app.route({
        method,
        path: '/bad',
        operationId: 'bad',
        request: { body: NewTodo },
        responses: { 200: {} },
        handler: ok,
      });
      const issue = await expectOnly(app, 'body-on-safe-method', { method, path: '/bad' });
      expect(issue.message).toContain(`a ${method} request body`);
      expect((await runContractTests(app, { allowBodyOnSafeMethods: true })).ok).toBe(true);
    }
  });

  test('no-success-response: only error statuses declared', async () => {
    const app = newApp();
    app.get('/redirect', { operationId: 'redirect', responses: { 302: {}, 404: {} } }, () => ({
      status: 302,
    }));
    app.get('/gone', { operationId: 'gone', responses: { 404: {}, 410: {} } }, () => ({ status: 410 }));
    const issue = await expectOnly(app, 'no-success-response', { method: 'GET', path: '/gone' });
    expect(issue.message).toContain('404, 410');
  });

  test('no-declared-response: an empty responses map (registration refuses one; checked anyway)', async () => {
    const app = newApp();
    app.get('/fine', { operationId: 'fine', responses: { 200: {} } }, ok);
    const good = app.registeredRoutes()[0] as RegisteredRoute;
    const empty: RegisteredRoute = {
      ...good,
      path: '/empty',
      operationId: 'empty',
      definition: { ...good.definition, path: '/empty', operationId: 'empty', responses: {} },
    };
    const fake: ContractApp = {
      ready: () => app.ready(),
      registeredRoutes: () => [good, empty],
      fetch: app.fetch,
      options: app.options,
    };
    const report = await runContractTests(fake);
    expect(codes(report)).toEqual(['no-declared-response']);
    expect(report.issues[0]?.route).toBe('/empty');
  });

  test('params-without-schema: path parameters and no request.params', async () => {
    const app = newApp();
    app.get(
      '/a/:id',
      { operationId: 'a', request: { params: type({ id: 'string' }) }, responses: { 200: {} } },
      ok,
    );
    app.get('/b/:id/*rest', { operationId: 'b', responses: { 200: {} } }, ok);
    const issue = await expectOnly(app, 'params-without-schema', { method: 'GET', path: '/b/:id/*rest' });
    expect(issue.message).toStartWith('the path parameters "id", "rest" have no request.params schema');
  });

  test('params-without-schema counts group prefix parameters', async () => {
    const app = newApp();
    app.group('/orgs/:org', {}, (g) => g.get('/info', { operationId: 'info', responses: { 200: {} } }, ok));
    const issue = await expectOnly(app, 'params-without-schema', { method: 'GET', path: '/orgs/:org/info' });
    expect(issue.message).toBe(
      'the path parameter "org" has no request.params schema, so the handler gets unchecked text',
    );
  });

  test('schema-not-describable: a schema without a JSON Schema form, unless openapi.jsonSchema gives one', async () => {
    const app = newApp();
    app.post(
      '/overridden',
      {
        operationId: 'overridden',
        request: { body: opaque },
        responses: { 200: { body: opaque } },
        openapi: { jsonSchema: { body: { type: 'object' }, responses: { 200: { type: 'object' } } } },
      },
      () => ({ status: 200, body: {} }),
    );
    app.post('/opaque', { operationId: 'opaque', request: { query: opaque }, responses: { 200: {} } }, ok);
    const issue = await expectOnly(app, 'schema-not-describable', { method: 'POST', path: '/opaque' });
    expect(issue.message).toStartWith(
      'request.query: a opaque schema without the Standard JSON Schema interface',
    );
  });

  test('schema-not-describable covers response bodies and response header schemas', async () => {
    const app = newApp();
    app.get(
      '/r',
      {
        operationId: 'r',
        responses: { 200: { body: opaque, headers: { 'x-n': { schema: opaque } } } },
      },
      () => ({ status: 200, body: {} }),
    );
    const report = await runContractTests(app);
    expect(codes(report)).toEqual(['schema-not-describable', 'schema-not-describable']);
    expect(report.issues.map((i) => i.message.split(':')[0])).toEqual([
      'responses[200].body',
      'responses[200].headers.x-n',
    ]);
  });

  test('duplicate-operation-id: operationIds equal ignoring case, reported on the later route', async () => {
    const app = newApp();
    app.get(
      '/users/:id',
      { operationId: 'getUser', request: { params: type({ id: 'string' }) }, responses: { 200: {} } },
      ok,
    );
    app.get('/users', { operationId: 'getUsers', responses: { 200: {} } }, ok);
    app.get(
      '/people/:id',
      { operationId: 'GetUser', request: { params: type({ id: 'string' }) }, responses: { 200: {} } },
      ok,
    );
    const issue = await expectOnly(app, 'duplicate-operation-id', { method: 'GET', path: '/people/:id' });
    expect(issue.message).toBe('operationId "GetUser" equals "getUser" (GET /users/:id) ignoring case');
  });
});

describe('runContractTests: examples', () => {
  function exampleApp(examples: unknown, responseExamples?: Record<string, unknown>): App {
    const app = newApp();
    app.post(
      '/todos/:list',
      {
        operationId: 'addTodo',
        request: {
          params: type({ list: 'number.integer' }),
          query: type({ 'notify?': 'boolean' }),
          headers: type({ 'x-tenant': 'string' }),
          body: NewTodo,
        },
        responses: {
          201: { body: Todo, ...(responseExamples === undefined ? {} : { examples: responseExamples }) },
          204: {},
        },
        examples: examples as never,
      },
      () => ({ status: 201, body: { id: 1, title: 't', done: false } }),
    );
    return app;
  }

  const good = {
    name: 'add',
    request: {
      params: { list: 3 },
      query: { notify: 'true' },
      headers: { 'X-Tenant': 'acme' },
      body: { title: 'Write docs' },
    },
    response: { status: 201, body: { id: 1, title: 'Write docs', done: false } },
  };

  test('valid examples pass, with text params and query converted as the pipeline does', async () => {
    const app = exampleApp([good, { response: { status: 204 } }], {
      plain: { id: 2, title: 'bare value', done: true },
      wrapped: { summary: 'Example Object', value: { id: 3, title: 'wrapped', done: false } },
    });
    expect(await runContractTests(app)).toEqual({ ok: true, checked: 1, issues: [] });
  });

  const bad: Array<[string, unknown, string]> = [
    [
      'params',
      { ...good, request: { ...good.request, params: { list: 'three' } } },
      'example "add": request.params: list',
    ],
    ['query', { ...good, request: { ...good.request, query: { notify: 'maybe' } } }, 'request.query: notify'],
    ['headers', { ...good, request: { ...good.request, headers: {} } }, 'request.headers: x-tenant'],
    ['body', { ...good, request: { ...good.request, body: { title: '' } } }, 'request.body: title'],
    ['response body', { ...good, response: { status: 201, body: { id: 'x' } } }, 'response.body (201): '],
    ['missing response', { name: 'no-response' }, 'example "no-response": it has no response'],
  ];
  for (const [what, example, message] of bad) {
    test(`invalid-example: a route example with a bad ${what}`, async () => {
      const issue = await expectOnly(exampleApp([example]), 'invalid-example', {
        method: 'POST',
        path: '/todos/:list',
      });
      expect(issue.message).toContain(message);
    });
  }

  test('invalid-example names an unnamed example by its index', async () => {
    const issue = await expectOnly(
      exampleApp([good, { response: { status: 201, body: {} } }]),
      'invalid-example',
      { method: 'POST', path: '/todos/:list' },
    );
    expect(issue.message).toStartWith('example #1: response.body (201)');
  });

  test('invalid-example: a response examples entry, bare or { value }, that fails the status schema', async () => {
    const app = exampleApp([good], {
      bare: { id: 1 },
      wrapped: { value: { id: 'x', title: 't', done: true } },
    });
    const report = await runContractTests(app);
    expect(codes(report)).toEqual(['invalid-example', 'invalid-example']);
    expect(report.issues[0]?.message).toStartWith('responses[201].examples "bare": ');
    expect(report.issues[1]?.message).toStartWith('responses[201].examples "wrapped": id');
  });

  test('example-undeclared-status: an example answering a status the route does not declare', async () => {
    const issue = await expectOnly(
      exampleApp([good, { name: 'teapot', response: { status: 418 } }]),
      'example-undeclared-status',
      { method: 'POST', path: '/todos/:list' },
    );
    expect(issue.message).toBe(
      'example "teapot" answers 418, which the route does not declare (declared: 201, 204)',
    );
  });
});

/** A header-only authenticator for the mock-mode auth case: `x-user` authenticates. */
const headerAuth: Hooks = withHookTraits(
  {
    preBody(ctx) {
      if (ctx.request.headers.get('x-user') === null) return;
      ctx.state.user = { sub: 'u1', scopes: [], claims: {} };
      ctx.state.auth = { scheme: 'bearer', credentials: 'token' };
    },
  },
  { authenticates: true },
);

/** The to-do example app (examples/todo-app.ts) with examples, in mock mode. */
function mockTodoApp(options: AppOptions = {}): App {
  const app = newApp({ mockMode: true, hooks: headerAuth, ...options });
  const sample = { id: 1, title: 'Write docs', done: false };
  app.get(
    '/todos',
    {
      operationId: 'listTodos',
      request: { query: type({ 'done?': 'boolean', 'limit?': '1 <= number.integer <= 100' }) },
      responses: { 200: { body: Todo.array(), examples: { one: { value: [sample] } } } },
    },
    () => ({ status: 200, body: [] }),
  );
  app.post(
    '/todos',
    {
      operationId: 'createTodo',
      request: { body: NewTodo },
      responses: {
        201: { body: Todo, headers: { 'x-count': { schema: type('number.integer') } } },
        409: {},
      },
      examples: [
        {
          name: 'created',
          request: { body: { title: 'Write docs' } },
          response: { status: 201, body: sample, headers: { 'x-count': '1' } },
        },
      ],
    },
    () => ({ status: 201, body: sample }),
  );
  app.get(
    '/todos/:id',
    {
      operationId: 'getTodo',
      request: { params: type({ id: 'number.integer' }) },
      responses: { 200: { body: Todo }, 404: {} },
      examples: [{ request: { params: { id: 1 } }, response: { status: 200, body: sample } }],
    },
    () => ({ status: 200, body: sample }),
  );
  app.delete(
    '/todos/:id',
    {
      operationId: 'deleteTodo',
      request: { params: type({ id: 'number.integer' }) },
      responses: { 204: {} },
    },
    () => ({ status: 204 }),
  );
  app.healthcheck();
  return app;
}

describe('runContractTests: mock mode', () => {
  test('the to-do app in mock mode answers every route within its contract', async () => {
    const report = await runContractTests(mockTodoApp());
    expect(report).toEqual({ ok: true, checked: 5, issues: [] });
  });

  test('without mock mode no route is requested', async () => {
    const app = mockTodoApp({ mockMode: false });
    app.get('/no-example', { operationId: 'noExample', responses: { 200: { body: Todo } } }, () => ({
      status: 200,
      body: { id: 1, title: 't', done: false },
    }));
    expect((await runContractTests(app)).ok).toBe(true);
  });

  test('mock-undeclared-status: a route with a body and no example answers 501', async () => {
    const app = mockTodoApp();
    app.get(
      '/stats',
      { operationId: 'stats', responses: { 200: { body: type({ count: 'number' }) } } },
      () => ({
        status: 200,
        body: { count: 1 },
      }),
    );
    const issue = await expectOnly(app, 'mock-undeclared-status', { method: 'GET', path: '/stats' });
    expect(issue.message).toContain('mock mode answered 501');
    expect(issue.message).toContain('declares no example to answer with');
    expect(issue.message).toContain('(declared: 200)');
  });

  test('mock-invalid-response: an answer whose body fails the status schema', async () => {
    const app = mockTodoApp();
    // A hook that rewrites the answer after validation: the contract is broken on the wire.
    app.get(
      '/broken',
      {
        operationId: 'broken',
        responses: { 200: { body: Todo, examples: { one: { id: 1, title: 't', done: false } } } },
        hooks: { onSend: () => Response.json({ id: 'one' }) },
      },
      () => ({ status: 200, body: { id: 1, title: 't', done: false } }),
    );
    const issue = await expectOnly(app, 'mock-invalid-response', { method: 'GET', path: '/broken' });
    expect(issue.message).toStartWith('the 200 response body: ');
    expect(issue.message).toContain('id: id must be a number');
  });

  test('mock-invalid-response: a declared response header that fails its schema', async () => {
    const app = mockTodoApp();
    app.get(
      '/paged',
      {
        operationId: 'paged',
        responses: { 200: { headers: { 'x-total': { schema: type('number.integer') } } } },
        examples: [{ response: { status: 200, headers: { 'x-total': 'many' } } }],
      },
      () => ({ status: 200 }),
    );
    const issue = await expectOnly(app, 'mock-invalid-response', { method: 'GET', path: '/paged' });
    expect(issue.message).toStartWith('the 200 response header "x-total": ');
  });

  test('mock-no-request: no example and a schema whose sample does not validate', async () => {
    const app = mockTodoApp();
    app.get(
      '/codes',
      { operationId: 'codes', request: { query: type({ code: /^[A-Z]{3}$/ }) }, responses: { 204: {} } },
      () => ({ status: 204 }),
    );
    const issue = await expectOnly(app, 'mock-no-request', { method: 'GET', path: '/codes' });
    expect(issue.message).toStartWith('no valid request could be built: request.query: code');
  });

  test('mock-no-request: no example and a schema with no JSON Schema to sample', async () => {
    const app = mockTodoApp();
    app.post(
      '/opaque',
      {
        operationId: 'opaque',
        request: { body: opaque },
        responses: { 204: {} },
        openapi: {
          jsonSchema: {
            body: { type: 'object', required: ['a'], properties: { a: { type: 'string', pattern: '^x$' } } },
          },
        },
      },
      () => ({ status: 204 }),
    );
    // The override is describable (no schema-not-describable) and its sample validates against the opaque schema.
    expect((await runContractTests(app)).ok).toBe(true);
    const bare = mockTodoApp();
    bare.post(
      '/opaque',
      { operationId: 'opaque', request: { body: opaque }, responses: { 204: {} } },
      () => ({
        status: 204,
      }),
    );
    const report = await runContractTests(bare);
    expect(codes(report)).toEqual(['schema-not-describable', 'mock-no-request']);
    expect(report.issues[1]?.message).toContain('no example, and no JSON Schema to sample');
  });

  test('a route with auth answering 401 to the anonymous mock request conforms', async () => {
    const app = mockTodoApp();
    app.get(
      '/me',
      {
        operationId: 'me',
        auth: { scheme: 'bearerAuth' },
        responses: { 200: { body: type({ id: 'string' }) } },
      },
      () => ({ status: 200, body: { id: 'u1' } }),
    );
    expect(await runContractTests(app)).toEqual({ ok: true, checked: 6, issues: [] });
    // Without auth, the same refusal is an undeclared status.
    const open = mockTodoApp();
    open.get(
      '/me',
      {
        operationId: 'me',
        responses: { 200: {} },
        hooks: { preBody: () => new Response(null, { status: 401 }) },
      },
      ok,
    );
    const issue = await expectOnly(open, 'mock-undeclared-status', { method: 'GET', path: '/me' });
    expect(issue.message).toContain('answered 401');
  });

  test('samples fill params, query and body from the request JSON Schemas', async () => {
    const seen: unknown[] = [];
    const app = mockTodoApp();
    app.put(
      '/lists/:listId/items/:itemId',
      {
        operationId: 'putItem',
        request: {
          params: type({ listId: 'string.uuid', itemId: '1 <= number.integer <= 9' }),
          query: z.object({ tags: z.array(z.string()).min(2), at: z.iso.datetime() }),
          body: type({ email: 'string.email', count: 'number > 10', nested: { flag: 'boolean' } }),
        },
        responses: { 204: {} },
        hooks: {
          beforeHandle: (ctx) => {
            seen.push({ params: ctx.params, query: ctx.query, body: ctx.body });
          },
        },
      },
      () => ({ status: 204 }),
    );
    expect((await runContractTests(app)).issues).toEqual([]);
    expect(seen).toHaveLength(1);
    const request = seen[0] as {
      params: Record<string, unknown>;
      query: Record<string, unknown>;
      body: Record<string, unknown>;
    };
    expect(request.params.itemId).toBe(1);
    expect((request.query.tags as string[]).length).toBe(2);
    expect(request.query.at).toBe('2024-01-01T00:00:00Z');
    expect(request.body).toMatchObject({ nested: { flag: true } });
    expect(request.body.count as number).toBeGreaterThan(10);
  });
});
