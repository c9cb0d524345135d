/**
 * Compile-time conformance of route typing. Checked by `tsc --noEmit -p tsconfig.json`, never run.
 * Each `const _: Equal<A, B> = true` fails to compile when the inferred type drifts, and each
 * `// @ts-expect-error` fails when the compiler stops rejecting the line under it.
 */
import {
  App,
  type Context,
  defineRoute,
  type InferInput,
  type InferOutput,
  type PathParams,
  type RawHeaders,
  type RawQuery,
  type SchemaInput,
  type SchemaOutput,
  typebox,
} from '@charter/core';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { type } from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const app = new App({ logger: false });

// ---------------------------------------------------------------------------------------------
// ctx parts inferred from the request schemas (validated output types)
// ---------------------------------------------------------------------------------------------

app.route({
  method: 'POST',
  path: '/orgs/:org/users',
  request: {
    params: type({ org: 'string' }),
    query: type({ limit: 'number', 'cursor?': 'string' }),
    headers: type({ 'x-api-key': 'string' }),
    body: type({ name: 'string', age: 'number.integer' }),
  },
  responses: { 201: { body: type({ id: 'string' }) } },
  handler: (ctx) => {
    const params: Equal<typeof ctx.params, { org: string }> = true;
    const query: Equal<typeof ctx.query, { limit: number; cursor?: string }> = true;
    const headers: Equal<typeof ctx.headers, { 'x-api-key': string }> = true;
    const body: Equal<typeof ctx.body, { name: string; age: number }> = true;
    const request: Equal<typeof ctx.request, Request> = true;
    void [params, query, headers, body, request];
    return { status: 201, body: { id: ctx.body.name } };
  },
});

// A transforming schema gives the handler its output type.
app.get(
  '/items/:id',
  { request: { params: type({ id: 'string.numeric.parse' }) }, responses: { 200: {} } },
  (ctx) => {
    const id: Equal<typeof ctx.params.id, number> = true;
    void id;
    return { status: 200 };
  },
);

// zod
app.post(
  '/zod',
  {
    request: { query: z.object({ page: z.coerce.number() }), body: z.object({ tags: z.array(z.string()) }) },
    responses: { 200: {} },
  },
  (ctx) => {
    const query: Equal<typeof ctx.query, { page: number }> = true;
    const body: Equal<typeof ctx.body, { tags: string[] }> = true;
    void [query, body];
    return { status: 200 };
  },
);

// valibot
app.post(
  '/valibot',
  { request: { body: v.object({ ok: v.boolean(), note: v.optional(v.string()) }) }, responses: { 200: {} } },
  (ctx) => {
    const body: Equal<typeof ctx.body, { ok: boolean; note?: string | undefined }> = true;
    void body;
    return { status: 200 };
  },
);

// TypeBox, compiled and interpreted
const TbBody = Type.Object({ n: Type.Integer(), s: Type.String() });
app.post(
  '/typebox',
  {
    request: {
      body: typebox(TypeCompiler.Compile(TbBody)),
      query: typebox(Type.Object({ q: Type.String() }), Value),
    },
    responses: { 200: {} },
  },
  (ctx) => {
    const body: Equal<typeof ctx.body, { n: number; s: string }> = true;
    const query: Equal<typeof ctx.query, { q: string }> = true;
    void [body, query];
    return { status: 200 };
  },
);

// ---------------------------------------------------------------------------------------------
// Schema types: arktype's own inferIn/inferOut, else ~standard.types, else validate's result
// ---------------------------------------------------------------------------------------------

{
  // The members an arktype schema is read through give the types its Standard Schema props give.
  const Ark = type({ id: 'string.numeric.parse', 'tags?': 'string[]' });
  const arkIn: Equal<SchemaInput<typeof Ark>, InferInput<typeof Ark>> = true;
  const arkOut: Equal<SchemaOutput<typeof Ark>, InferOutput<typeof Ark>> = true;
  const arkShape: Equal<SchemaOutput<typeof Ark>, { id: number; tags?: string[] }> = true;
  const Zod = z.object({ page: z.coerce.number<string>() });
  const zodIn: Equal<SchemaInput<typeof Zod>, { page: string }> = true;
  const zodOut: Equal<SchemaOutput<typeof Zod>, { page: number }> = true;
  const Valibot = v.pipe(v.string(), v.transform(Number));
  const valibotIn: Equal<SchemaInput<typeof Valibot>, string> = true;
  const valibotOut: Equal<SchemaOutput<typeof Valibot>, number> = true;
  // A Standard Schema that declares no `types`: its input is unknown, its output what validate gives.
  const Untyped = {
    '~standard': { version: 1, vendor: 'hand', validate: (value: unknown) => ({ value: String(value) }) },
  } as const;
  const untypedIn: Equal<SchemaInput<typeof Untyped>, unknown> = true;
  const untypedOut: Equal<SchemaOutput<typeof Untyped>, string> = true;
  void [arkIn, arkOut, arkShape, zodIn, zodOut, valibotIn, valibotOut, untypedIn, untypedOut];
  app.post('/untyped', { request: { body: Untyped }, responses: { 200: { body: Untyped } } }, (ctx) => {
    const body: Equal<typeof ctx.body, string> = true;
    void body;
    return { status: 200, body: ctx.body };
  });
}

// A schema's definition left unwrapped is no schema, in the request and in the responses.
app.post(
  '/unwrapped-request',
  // @ts-expect-error: params must be a Standard Schema (type({ id: 'string' })), not its definition
  { request: { params: { id: 'string' } }, responses: { 200: {} } },
  () => ({ status: 200 }),
);
app.get(
  '/unwrapped-response',
  // @ts-expect-error: a response body must be a Standard Schema too
  { responses: { 200: { body: { id: 'string' } } } },
  () => ({ status: 200, body: { id: 'x' } }),
);

// ---------------------------------------------------------------------------------------------
// Defaults without schemas: path params from the path, raw query and headers, no body
// ---------------------------------------------------------------------------------------------

app.get('/users/:id', { responses: { 200: {} } }, (ctx) => {
  const params: Equal<typeof ctx.params, { id: string }> = true;
  const query: Equal<typeof ctx.query, RawQuery> = true;
  const headers: Equal<typeof ctx.headers, RawHeaders> = true;
  const body: Equal<typeof ctx.body, undefined> = true;
  void [params, query, headers, body];
  return { status: 200 };
});

app.get('/orgs/:org/repos/:repo/files/*path', { responses: { 200: {} } }, (ctx) => {
  const params: Equal<typeof ctx.params, { org: string; repo: string; path: string }> = true;
  void params;
  // @ts-expect-error: no such path parameter
  void ctx.params.id;
  return { status: 200 };
});

app.get('/static', { responses: { 200: {} } }, (ctx) => {
  const params: Equal<typeof ctx.params, {}> = true;
  void params;
  return { status: 200 };
});

{
  const users: Equal<PathParams<'/users/:id'>, { id: string }> = true;
  const wide: Equal<PathParams<string>, Record<string, string>> = true;
  const context: Equal<Context<'/a/:b'>['params'], { b: string }> = true;
  void [users, wide, context];
}

// ---------------------------------------------------------------------------------------------
// Handler results are checked against the declared responses
// ---------------------------------------------------------------------------------------------

const UserBody = type({ id: 'string', name: 'string' });

app.get('/ok', { responses: { 200: { body: UserBody }, 404: {} } }, (ctx) =>
  ctx.query.x === undefined ? { status: 200, body: { id: '1', name: 'a' } } : { status: 404 },
);

app.get('/async-ok', { responses: { 200: { body: UserBody } } }, async () => ({
  status: 200,
  body: { id: '1', name: 'a' },
}));

app.get('/raw', { responses: { 200: {} }, acknowledgeNoResponseBodySchema: true }, () => new Response('raw'));

app.get('/headers-ok', { responses: { 204: {} } }, () => ({ status: 204, headers: { etag: '"1"' } }));

// @ts-expect-error: 201 is not a declared status
app.get('/undeclared', { responses: { 200: { body: UserBody } } }, () => ({
  status: 201,
  body: { id: '1', name: 'a' },
}));

app.route({
  method: 'GET',
  path: '/undeclared-route',
  responses: { 200: {} },
  // @ts-expect-error: 500 is not a declared status
  handler: () => ({ status: 500 }),
});

app.get('/wrong-body', { responses: { 200: { body: UserBody } } }, () => ({
  status: 200,
  // @ts-expect-error: name must be a string
  body: { id: '1', name: 2 },
}));

// @ts-expect-error: the 200 schema requires a body
app.get('/missing-body', { responses: { 200: { body: UserBody } } }, () => ({ status: 200 }));

app.get(
  '/wrong-body-for-status',
  { responses: { 200: { body: UserBody }, 400: { body: type({ error: 'string' }) } } },
  // @ts-expect-error: the 400 body has the wrong shape
  () => ({ status: 400, body: { id: '1', name: 'a' } }),
);

// @ts-expect-error: the async result has an undeclared status
app.get('/async-undeclared', { responses: { 200: {} } }, async () => ({ status: 202 }));

app.post('/ctx-body-typed', { request: { body: type({ n: 'number' }) }, responses: { 200: {} } }, (ctx) => {
  // @ts-expect-error: n is a number, not a string
  const s: string = ctx.body.n;
  void s;
  return { status: 200 };
});

// ---------------------------------------------------------------------------------------------
// defineRoute keeps literals, and shorthands infer the same as route()
// ---------------------------------------------------------------------------------------------

const getUser = defineRoute({
  method: 'GET',
  path: '/users/:id',
  operationId: 'getUser',
  request: { query: type({ expand: 'boolean' }) },
  responses: { 200: { body: UserBody }, 404: {} },
  handler: (ctx) => {
    const params: Equal<typeof ctx.params, { id: string }> = true;
    const query: Equal<typeof ctx.query, { expand: boolean }> = true;
    void [params, query];
    return { status: 200, body: { id: ctx.params.id, name: 'n' } };
  },
});
{
  const method: Equal<typeof getUser.method, 'GET'> = true;
  const path: Equal<typeof getUser.path, '/users/:id'> = true;
  const statuses: Equal<keyof typeof getUser.responses, 200 | 404> = true;
  void [method, path, statuses];
}
app.route(getUser);
app.registerRoutes([getUser]);

defineRoute({
  method: 'GET',
  path: '/define-undeclared',
  responses: { 200: {} },
  // @ts-expect-error: defineRoute checks the handler result too
  handler: () => ({ status: 418 }),
});

const contract = {
  request: { params: type({ id: 'string' }), body: type({ v: 'number' }) },
  responses: { 200: { body: type({ v: 'number' }) } },
};
type ShorthandCtx = Parameters<
  Parameters<typeof app.post<'/s/:id', typeof contract.request, typeof contract.responses>>[2]
>[0];
app.route({
  method: 'POST',
  path: '/s/:id',
  ...contract,
  handler: (ctx) => {
    const same: Equal<typeof ctx, ShorthandCtx> = true;
    const body: Equal<typeof ctx.body, { v: number }> = true;
    void [same, body];
    return { status: 200, body: ctx.body };
  },
});
for (const shorthand of [app.post, app.put, app.patch] as const) {
  shorthand('/s2/:id', contract, (ctx) => {
    const same: Equal<typeof ctx, ShorthandCtx> = true;
    void same;
    return { status: 200, body: { v: ctx.body.v } };
  });
}
app.get('/g/:id', { responses: { 200: {} } }, (ctx) => {
  const params: Equal<typeof ctx.params, { id: string }> = true;
  void params;
  return { status: 200 };
});
app.delete('/d/:id', { responses: { 204: {} } }, (ctx) => {
  const params: Equal<typeof ctx.params, { id: string }> = true;
  void params;
  return { status: 204 };
});
app.head('/h/:id', { responses: { 200: {} } }, (ctx) => {
  const params: Equal<typeof ctx.params, { id: string }> = true;
  void params;
  return { status: 200 };
});

// Groups and plugins give the same inference.
app.group('/api', {}, (g) => {
  g.get('/things/:thingId', { responses: { 200: {} } }, (ctx) => {
    const params: Equal<typeof ctx.params, { thingId: string }> = true;
    void params;
    return { status: 200 };
  });
});
