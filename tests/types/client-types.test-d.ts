/**
 * Compile-time conformance of the typed client. Checked by `tsc --noEmit -p tsconfig.json`, never run.
 * Each `const _: Equal<A, B> = true` fails to compile when the inferred type drifts, and each
 * `// @ts-expect-error` fails when the compiler stops rejecting the line under it.
 */
import {
  type Client,
  type ClientResponse,
  createClient,
  createInProcessClient,
  type InputOf,
  type QueryInput,
  type HeadersInput,
  type RawBody,
  type ResponseOf,
  UnexpectedStatusError,
} from '@charter/client';
import { App, defineRoute, type OperationsOf, typebox } from '@charter/core';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type } from 'arktype';
import * as z from 'zod';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const User = type({ id: 'number.integer', name: 'string' });
const Problem = type({ title: 'string', status: 'number' });

const app = new App({ logger: false })
  .get(
    '/users/:id',
    {
      operationId: 'getUser',
      request: { params: type({ id: 'number.integer' }), query: type({ 'expand?': 'boolean' }) },
      responses: { 200: { body: User }, 404: { body: Problem } },
    },
    (ctx) => ({ status: 200, body: { id: ctx.params.id, name: 'Ada' } }),
  )
  .post(
    '/users',
    {
      operationId: 'createUser',
      request: { body: type({ name: 'string', 'age?': 'number' }), headers: type({ 'x-api-key': 'string' }) },
      responses: { 201: { body: User }, 409: {} },
    },
    (ctx) => ({ status: 201, body: { id: 1, name: ctx.body.name } }),
  )
  .delete('/users/:id', { operationId: 'deleteUser', responses: { 204: {} } }, () => ({ status: 204 }))
  .get('/health', { operationId: 'health', responses: { 200: {} } }, () => ({ status: 200 }))
  .get(
    '/search',
    {
      operationId: 'search',
      request: { query: type({ q: 'string', 'limit?': 'number' }) },
      responses: { 200: { body: User.array() } },
    },
    () => ({ status: 200, body: [] }),
  )
  .get('/files/*path', { operationId: 'getFile', responses: { 200: {} } }, () => ({ status: 200 }))
  .head('/users/:id', { operationId: 'headUser', responses: { 200: { body: User } } }, () => ({
    status: 200,
    body: { id: 1, name: 'a' },
  }))
  .get('/no-id', { responses: { 200: {} } }, () => ({ status: 200 }));

const client = createClient(app, { baseUrl: 'https://api.example.com' });

// ---------------------------------------------------------------------------------------------
// Operation names: one method per literal operationId, nothing else
// ---------------------------------------------------------------------------------------------

{
  const names: Equal<
    keyof typeof client,
    'getUser' | 'createUser' | 'deleteUser' | 'health' | 'search' | 'getFile' | 'headUser'
  > = true;
  const same: Equal<typeof client, Client<typeof app>> = true;
  const inProcess: Equal<ReturnType<typeof createInProcessClient<typeof app>>, Client<typeof app>> = true;
  void [names, same, inProcess];
  // @ts-expect-error: a route without operationId is no method
  void client.noId;
  // @ts-expect-error: no such operation
  void client.getUsers;
}

// ---------------------------------------------------------------------------------------------
// Inputs: what is required, what is optional, and their types
// ---------------------------------------------------------------------------------------------

type Ops = OperationsOf<typeof app>;

{
  const getUser: Equal<
    InputOf<Ops['getUser']>,
    {
      params: { id: number };
      query?: { expand?: boolean };
      headers?: HeadersInput;
      body?: undefined;
    }
  > = true;
  const deleteUser: Equal<
    InputOf<Ops['deleteUser']>,
    {
      params: { readonly id: string | number };
      query?: QueryInput;
      headers?: HeadersInput;
      body?: unknown;
    }
  > = true;
  const health: Equal<
    InputOf<Ops['health']>,
    { params?: Readonly<Record<string, never>>; query?: QueryInput; headers?: HeadersInput; body?: undefined }
  > = true;
  const createBody: Equal<InputOf<Ops['createUser']>['body'], { name: string; age?: number } | RawBody> =
    true;
  const file: Equal<InputOf<Ops['getFile']>['params'], { readonly path: string | number }> = true;
  void [getUser, deleteUser, health, createBody, file];
}

// The argument may be left out only when nothing in it is required.
void client.health();
void client.health({ query: { a: 'b', n: 1, flags: [true, false], at: new Date() } });
// @ts-expect-error: params are required by /users/:id
void client.getUser();
// @ts-expect-error: params are required even when the rest is optional
void client.getUser({});
void client.getUser({ params: { id: 1 } });
// @ts-expect-error: the params schema takes a number
void client.getUser({ params: { id: 'x' } });
// @ts-expect-error: the query schema takes a boolean
void client.getUser({ params: { id: 1 }, query: { expand: 'yes' } });
// @ts-expect-error: a GET sends no body
void client.getUser({ params: { id: 1 }, body: { a: 1 } });
void client.deleteUser({ params: { id: 'u1' } });
void client.deleteUser({ params: { id: 7 } });
// @ts-expect-error: path params without a schema take strings or numbers
void client.deleteUser({ params: { id: true } });
// @ts-expect-error: no such path parameter
void client.deleteUser({ params: { userId: 1 } });

// A declared body and a required header make the argument required.
// @ts-expect-error: body and headers are required
void client.createUser();
// @ts-expect-error: the x-api-key header is required
void client.createUser({ body: { name: 'Ada' } });
void client.createUser({ body: { name: 'Ada' }, headers: { 'x-api-key': 'k' } });
void client.createUser({ body: { name: 'Ada' }, headers: { 'x-api-key': 'k', authorization: 'Bearer t' } });
void client.createUser({ body: new FormData(), headers: { 'x-api-key': 'k' } });
// @ts-expect-error: the body schema wants a string name
void client.createUser({ body: { name: 1 }, headers: { 'x-api-key': 'k' } });
// @ts-expect-error: header values are strings
void client.createUser({ body: { name: 'Ada' }, headers: { 'x-api-key': 1 } });

// A query schema that does not accept {} makes the query required.
// @ts-expect-error: q is required
void client.search();
// @ts-expect-error: q is required
void client.search({ query: { limit: 1 } });
void client.search({ query: { q: 'ada', limit: 5 } });

// Wildcard params take a `/`-separated string.
void client.getFile({ params: { path: 'a/b/c.txt' } });

// ---------------------------------------------------------------------------------------------
// Responses: a union keyed by status that narrows
// ---------------------------------------------------------------------------------------------

async function responses(): Promise<void> {
  const res = await client.getUser({ params: { id: 1 } });
  const statuses: Equal<typeof res.status, 200 | 404> = true;
  const headers: Equal<typeof res.headers, Headers> = true;
  void [statuses, headers];
  if (res.status === 200) {
    const body: Equal<typeof res.body, { id: number; name: string }> = true;
    void body;
    void res.body.name;
  } else {
    const body: Equal<typeof res.body, { title: string; status: number }> = true;
    void body;
    // @ts-expect-error: the 404 body has no name
    void res.body.name;
  }
  // @ts-expect-error: not narrowed yet, the body may be a problem
  void res.body.name;

  const created = await client.createUser({ body: { name: 'a' }, headers: { 'x-api-key': 'k' } });
  if (created.status === 201) void created.body.id;
  if (created.status === 409) {
    const body: Equal<typeof created.body, unknown> = true;
    void body;
  }
  // @ts-expect-error: 200 is not a declared status of createUser
  if (created.status === 200) void created;

  const deleted = await client.deleteUser({ params: { id: 1 } });
  const noContent: Equal<typeof deleted, ClientResponse<204, undefined>> = true;
  const head: Equal<Awaited<ReturnType<typeof client.headUser>>, ClientResponse<200, undefined>> = true;
  const health: Equal<ResponseOf<Ops['health']>, ClientResponse<200, unknown>> = true;
  void [noContent, head, health];

  try {
    await client.health();
  } catch (error) {
    if (error instanceof UnexpectedStatusError) {
      const status: Equal<typeof error.status, number> = true;
      void status;
    }
  }
}
void responses;

// ---------------------------------------------------------------------------------------------
// zod and TypeBox schemas, route() and transforms
// ---------------------------------------------------------------------------------------------

const Item = Type.Object({ sku: Type.String(), qty: Type.Integer() });
const libraries = new App({ logger: false })
  .post(
    '/zod/:org',
    {
      operationId: 'zodCreate',
      request: {
        params: z.object({ org: z.string() }),
        query: z.object({ dryRun: z.boolean().optional() }),
        body: z.object({ title: z.string(), tags: z.array(z.string()) }),
      },
      responses: { 201: { body: z.object({ id: z.string() }) }, 400: {} },
    },
    () => ({ status: 201, body: { id: 'x' } }),
  )
  .put(
    '/typebox/:sku',
    {
      operationId: 'typeboxPut',
      request: { body: typebox(TypeCompiler.Compile(Item)) },
      responses: { 200: { body: typebox(TypeCompiler.Compile(Item)) } },
    },
    (ctx) => ({ status: 200, body: ctx.body }),
  )
  .route({
    method: 'GET',
    path: '/parsed/:n',
    operationId: 'parsed',
    request: { params: type({ n: 'string.numeric.parse' }) },
    responses: { 200: { body: type({ n: 'string.numeric.parse' }) } },
    handler: (ctx) => ({ status: 200, body: { n: String(ctx.params.n) } }),
  });

const lib = createInProcessClient(libraries);

async function librariesTypes(): Promise<void> {
  const zodInput: Equal<
    InputOf<OperationsOf<typeof libraries>['zodCreate']>,
    {
      params: { org: string };
      query?: { dryRun?: boolean | undefined };
      headers?: HeadersInput;
      body: { title: string; tags: string[] } | RawBody;
    }
  > = true;
  void zodInput;
  // @ts-expect-error: tags must be strings
  void lib.zodCreate({ params: { org: 'o' }, body: { title: 't', tags: [1] } });
  const z201 = await lib.zodCreate({ params: { org: 'o' }, body: { title: 't', tags: [] } });
  if (z201.status === 201) {
    const body: Equal<typeof z201.body, { id: string }> = true;
    void body;
  }

  // @ts-expect-error: qty must be a number
  void lib.typeboxPut({ params: { sku: 's' }, body: { sku: 's', qty: '1' } });
  const tb = await lib.typeboxPut({ params: { sku: 's' }, body: { sku: 's', qty: 1 } });
  const tbBody: Equal<typeof tb.body, { sku: string; qty: number }> = true;
  void tbBody;

  // Inputs take the schema's input type, responses its output type.
  const parsed = await lib.parsed({ params: { n: '12' } });
  const parsedIn: Equal<InputOf<OperationsOf<typeof libraries>['parsed']>['params'], { n: string }> = true;
  const parsedOut: Equal<typeof parsed.body, { n: number }> = true;
  void [parsedIn, parsedOut];
}
void librariesTypes;

// ---------------------------------------------------------------------------------------------
// Groups (prefix params) and registerRoutes with defineRoute
// ---------------------------------------------------------------------------------------------

const getOrder = defineRoute({
  method: 'GET',
  path: '/orders/:orderId',
  operationId: 'getOrder',
  responses: { 200: { body: type({ id: 'string' }) } },
  handler: (ctx) => ({ status: 200, body: { id: ctx.params.orderId } }),
});
const cancelOrder = defineRoute({
  method: 'POST',
  path: '/orders/:orderId/cancel',
  operationId: 'cancelOrder',
  request: { body: type({ reason: 'string' }) },
  responses: { 202: {} },
  handler: () => ({ status: 202 }),
});

const composed = new App({ logger: false })
  .registerRoutes([getOrder, cancelOrder])
  .group('/orgs/:org', {}, (g) =>
    g.get('/members/:member', { operationId: 'getMember', responses: { 200: {} } }, () => ({ status: 200 })),
  );

const composedClient = createInProcessClient(composed);
{
  const names: Equal<keyof typeof composedClient, 'getOrder' | 'cancelOrder' | 'getMember'> = true;
  const member: Equal<
    InputOf<OperationsOf<typeof composed>['getMember']>['params'],
    { readonly org: string | number; readonly member: string | number }
  > = true;
  void [names, member];
}
void composedClient.getOrder({ params: { orderId: 'o1' } });
void composedClient.cancelOrder({ params: { orderId: 'o1' }, body: { reason: 'late' } });
// @ts-expect-error: the group prefix's :org param is required too
void composedClient.getMember({ params: { member: 'm' } });
void composedClient.getMember({ params: { org: 'acme', member: 'm' } });
// @ts-expect-error: the body is required
void composedClient.cancelOrder({ params: { orderId: 'o1' } });

// Group paths in the type follow the run-time joining: a trailing slash and a route path of `/`.
const slashed = new App({ logger: false }).group('/api/', {}, (g) =>
  g
    .get('/', { operationId: 'root', responses: { 200: {} } }, () => ({ status: 200 }))
    .get('/x/:id', { operationId: 'item', responses: { 200: {} } }, () => ({ status: 200 })),
);
{
  const root: Equal<OperationsOf<typeof slashed>['root']['path'], '/api'> = true;
  const item: Equal<OperationsOf<typeof slashed>['item']['path'], '/api/x/:id'> = true;
  void [root, item];
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

createClient(app, { baseUrl: new URL('https://x.example/api'), headers: { authorization: 'Bearer t' } });
createClient(app, {
  baseUrl: 'https://x.example',
  fetch: (request) => fetch(request),
  validateResponses: true,
});
createInProcessClient(app, { headers: [['x-a', '1']] });
// @ts-expect-error: baseUrl is required over HTTP
createClient(app, {});
// @ts-expect-error: not a Charter App
createClient({}, { baseUrl: 'https://x.example' });
