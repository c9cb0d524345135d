/**
 * A Charter app that uses every part of the contract the OpenAPI document describes: named and
 * reused schemas, arktype and TypeBox schemas, a discriminated union, path (also wildcard), query and
 * header parameters, several request media types, response headers and examples, three security
 * schemes with scopes, a deprecated route, callbacks, webhooks and route `meta`. The tests check its
 * document with outside tools (an OpenAPI 3.1 schema validator, Redocly's linter, openapi-typescript)
 * and open its docs pages in a browser. Run it with `bun examples/contract-app.ts` (PORT, default
 * 3000; HOST, default 127.0.0.1) and read its document at /openapi.json or its docs page at /docs.
 */
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type } from 'arktype';
import {
  App,
  type AppOptions,
  apiKeyScheme,
  ConflictError,
  httpBearerScheme,
  NotFoundError,
  oauth2Scheme,
  typebox,
} from 'charter';
import { serve } from 'charter/bun';
import { discriminatedUnion, type OpenAPIMountOptions } from 'charter/openapi';
import { buildPageLinks, decodeCursor, encodeCursor, paginationQuery } from 'charter/pagination';

export const User = type({
  id: 'string.uuid',
  name: '0 < string <= 100',
  email: 'string.email',
  'role?': "'admin' | 'member'",
});
export const NewUser = type({
  name: '0 < string <= 100',
  email: 'string.email',
  'role?': "'admin' | 'member'",
  'callbackUrl?': 'string.url',
});
const UserPage = type({ items: User.array(), 'nextCursor?': 'string' });
const UserParams = type({ id: 'string.uuid' });

const Cat = type({ kind: "'cat'", name: 'string', livesLeft: '0 <= number.integer <= 9' });
const Dog = type({ kind: "'dog'", name: 'string', goodBoy: 'boolean' });
export const Pet = discriminatedUnion('kind', { cat: Cat, dog: Dog }, { names: { cat: 'Cat', dog: 'Dog' } });

const Health = typebox(
  TypeCompiler.Compile(
    Type.Object({
      status: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
      uptimeSeconds: Type.Number(),
    }),
  ),
);

const UserEvent = type({ event: "'user.created' | 'user.deleted'", user: User, at: 'string.date.iso' });

const notFound = { 404: { description: 'No such resource' } } as const;

/** The document options: info, servers, the named schemas and the webhooks subscribers receive. */
export const contractOpenAPI: OpenAPIMountOptions = {
  info: {
    title: 'Contract example',
    version: '1.0.0',
    summary: 'Every OpenAPI feature Charter derives from routes',
    description: 'Users, pets and files, described once by their routes.',
    license: { name: 'MIT', identifier: 'MIT' },
    contact: { name: 'Charter', url: 'https://charter.dev' },
  },
  servers: [{ url: 'https://api.charter.dev/v1', description: 'Production' }],
  schemas: { User, UserEvent },
  tags: [
    { name: 'users', description: 'People with an account' },
    { name: 'pets', description: 'Their animals' },
  ],
  webhooks: {
    userDeleted: {
      method: 'POST',
      operationId: 'onUserDeleted',
      summary: 'A user was deleted',
      tags: ['users'],
      request: { body: UserEvent },
      responses: { 204: { description: 'Received' }, 400: { description: 'Rejected' } },
    },
  },
};

export function createContractApp(options: AppOptions = {}) {
  const users = new Map<string, typeof User.infer>();
  const app = new App({
    title: 'Contract example',
    version: '1.0.0',
    logger: false,
    securitySchemes: {
      bearerAuth: httpBearerScheme({ bearerFormat: 'JWT', description: 'A JWT from the token endpoint' }),
      oauth: oauth2Scheme({
        flows: {
          clientCredentials: {
            tokenUrl: 'https://auth.example.com/oauth/token',
            scopes: { 'users:read': 'Read users', 'users:write': 'Change users' },
          },
        },
      }),
      apiKey: apiKeyScheme({ in: 'header', name: 'x-api-key' }),
    },
    openapi: contractOpenAPI,
    ...options,
  });

  app.group('/users', { tags: ['users'] }, (g) =>
    g
      .get(
        '/',
        {
          operationId: 'listUsers',
          summary: 'List users, a page at a time',
          request: {
            query: type({
              'limit?': '1 <= number.integer <= 100',
              'cursor?': 'string <= 4096',
              'role?': "'admin' | 'member'",
            }),
          },
          responses: {
            200: {
              body: UserPage,
              headers: { link: { description: 'RFC 8288 links to the next page' } },
              examples: { empty: { summary: 'No users yet', value: { items: [] } } },
            },
            422: { description: 'A query parameter is invalid' },
          },
        },
        (ctx) => {
          const all = [...users.values()].filter(
            (u) => ctx.query.role === undefined || u.role === ctx.query.role,
          );
          return { status: 200, body: { items: all.slice(0, ctx.query.limit ?? 20) } };
        },
      )
      .post(
        '/',
        {
          operationId: 'createUser',
          summary: 'Create a user',
          description: 'Calls `callbackUrl` once the account is ready.',
          auth: { scheme: 'oauth', scopes: ['users:write'] },
          request: { body: NewUser, contentTypes: ['application/json', 'application/x-www-form-urlencoded'] },
          responses: {
            201: { body: User, headers: { location: { description: 'URL of the new user' } } },
            401: { description: 'No or bad credentials' },
            409: { description: 'The e-mail address is taken' },
            422: { description: 'The body is invalid' },
          },
          examples: [
            {
              name: 'ada',
              summary: 'A new member',
              request: { body: { name: 'Ada', email: 'ada@example.com' } },
              response: {
                status: 201,
                body: { id: '0b4e7f3c-5d2a-4c1b-9a8e-3f6d2c1b0a99', name: 'Ada', email: 'ada@example.com' },
              },
            },
          ],
          callbacks: {
            userReady: {
              '{$request.body#/callbackUrl}': {
                method: 'POST',
                summary: 'The account is ready',
                request: { body: UserEvent },
                responses: { 204: { description: 'Acknowledged' }, 410: { description: 'Unsubscribed' } },
              },
            },
          },
          meta: { rateLimit: { windowMs: 60000, max: 10 }, audit: true },
        },
        (ctx) => {
          if ([...users.values()].some((u) => u.email === ctx.body.email))
            throw new ConflictError('That e-mail is taken');
          const user = {
            id: crypto.randomUUID(),
            name: ctx.body.name,
            email: ctx.body.email,
            role: ctx.body.role,
          };
          users.set(user.id, user);
          return { status: 201, body: user, headers: { location: `/users/${user.id}` } };
        },
      )
      .get(
        '/:id',
        {
          operationId: 'getUser',
          summary: 'Read one user',
          auth: { scheme: 'bearerAuth' },
          request: { params: UserParams },
          responses: { 200: { body: User }, 401: { description: 'No or bad token' }, ...notFound },
        },
        (ctx) => {
          const user = users.get(ctx.params.id);
          if (user === undefined) throw new NotFoundError('No such user');
          return { status: 200, body: user };
        },
      )
      .delete(
        '/:id',
        {
          operationId: 'deleteUser',
          summary: 'Delete a user (use the admin API instead)',
          deprecated: true,
          auth: { scheme: 'oauth', scopes: ['users:write'] },
          request: { params: UserParams, headers: type({ 'if-match?': 'string' }) },
          responses: {
            204: { description: 'Deleted' },
            401: { description: 'No or bad credentials' },
            ...notFound,
          },
        },
        (ctx) => {
          if (!users.delete(ctx.params.id)) throw new NotFoundError('No such user');
          return { status: 204 };
        },
      ),
  );

  const pets: object[] = [];
  app.get(
    '/pets',
    {
      operationId: 'listPets',
      summary: 'List pets, a page at a time',
      tags: ['pets'],
      request: { query: paginationQuery({ maxLimit: 50 }) },
      responses: {
        200: {
          body: type({ items: 'object[]' }),
          headers: { link: { description: 'RFC 8288 next link' } },
          examples: { firstPage: { value: { items: [{ kind: 'dog', name: 'Rex', goodBoy: true }] } } },
        },
        400: { description: 'The cursor is not one this API issued' },
        422: { description: 'The page size is out of range' },
      },
    },
    (ctx) => {
      const start = ctx.query.cursor === undefined ? 0 : decodeCursor<{ at: number }>(ctx.query.cursor).at;
      // One row more than the page tells whether a next page exists.
      const rows = pets.slice(start, start + ctx.query.limit + 1);
      const hasNext = rows.length > ctx.query.limit;
      const { linkHeader } = buildPageLinks({
        url: ctx.request.url,
        next: hasNext ? encodeCursor({ at: start + ctx.query.limit }) : undefined,
      });
      return {
        status: 200,
        body: { items: rows.slice(0, ctx.query.limit) as object[] },
        headers: linkHeader === undefined ? undefined : { link: linkHeader },
      };
    },
  );

  app.post(
    '/pets',
    {
      operationId: 'createPet',
      summary: 'Register a pet',
      tags: ['pets'],
      auth: { scheme: 'apiKey' },
      request: { body: Pet },
      responses: {
        201: { body: Pet },
        401: { description: 'No or bad API key' },
        422: { description: 'Invalid pet' },
      },
      examples: [
        {
          name: 'tom',
          request: { body: { kind: 'cat', name: 'Tom', livesLeft: 9 } },
          response: { status: 201, body: { kind: 'cat', name: 'Tom', livesLeft: 9 } },
        },
      ],
    },
    (ctx) => {
      pets.push(ctx.body);
      return { status: 201, body: ctx.body };
    },
  );

  app.get(
    '/files/*path',
    {
      operationId: 'readFile',
      summary: 'Read a file by its path',
      request: { params: type({ path: '0 < string <= 1024' }) },
      responses: {
        200: {
          description: 'The file',
          contentType: 'text/plain',
          examples: { readme: { value: 'hello\n' } },
        },
        ...notFound,
      },
    },
    (ctx) => {
      if (ctx.params.path !== 'readme.txt') throw new NotFoundError('No such file');
      return { status: 200, body: 'hello\n' };
    },
  );

  app.get(
    '/status',
    {
      operationId: 'getStatus',
      summary: 'Service status',
      meta: { public: true },
      responses: {
        200: { body: Health, examples: { healthy: { value: { status: 'pass', uptimeSeconds: 3600 } } } },
        429: { description: 'Too many requests' },
        503: { description: 'Not ready' },
      },
    },
    () => ({
      status: 200,
      body: { status: 'pass' as const, uptimeSeconds: Math.round(performance.now() / 1000) },
    }),
  );

  return app;
}

if (import.meta.main) {
  const server = await serve(createContractApp({ docs: true }), {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  const url = server.url;
  console.log(`Contract example listening on ${url}
Try:
  curl ${url}/openapi.json     # the OpenAPI 3.1 document derived from the routes (/openapi.yaml too)
  open ${url}/docs             # the interactive docs page
  curl ${url}/status
  curl ${url}/users            # {"items":[]}
  curl -i -X POST ${url}/users -H 'content-type: application/json' \\
    -d '{"name":"Ada","email":"ada@example.com"}'   # 401: the route needs an OAuth scope`);
}
