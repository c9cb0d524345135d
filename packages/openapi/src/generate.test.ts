import { describe, expect, test } from 'bun:test';
import { apiKeyScheme, App, type AppOptions, httpBearerScheme, oauth2Scheme, typebox } from '@charter/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { scope, type } from 'arktype';
import * as z from 'zod';
import { discriminatedUnion } from './discriminator.ts';
import { OpenAPIError } from './errors.ts';
import {
  type GenerateOpenAPIOptions,
  generateOpenAPI,
  OPENAPI_VERSION,
  type WebhookDefinition,
} from './generate.ts';
import { PROBLEM_DETAILS_SCHEMA } from './problem.ts';
import type { OpenAPIDocument } from './types.ts';

const info = { title: 'Generated', version: '2.1.0' };
// Route handlers are never called here: only the contracts are read.
const unused = (): never => {
  throw new Error('not called');
};

function newApp(options: AppOptions = {}): App {
  return new App({ logger: false, ...options });
}

function route(app: App, method: string, path: string, contract: Record<string, unknown> = {}): App {
  app.route({ method, path, responses: { 204: {} }, handler: unused, ...contract } as never);
  return app;
}

async function validateDocument(doc: unknown): Promise<{ valid: boolean; errors: unknown }> {
  const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
  return { valid: result.valid, errors: result.errors };
}

/** An app using most of what the generator describes. */
function richApp(): { app: App; options: GenerateOpenAPIOptions } {
  const User = type({ id: 'string.uuid', name: '0 < string <= 100', 'email?': 'string.email' });
  const Cat = type({ kind: "'cat'", lives: '0 <= number.integer <= 9' });
  const Dog = type({ kind: "'dog'", goodBoy: 'boolean' });
  const Pet = discriminatedUnion('kind', { cat: Cat, dog: Dog });
  const Category: z.ZodType = z.object({
    name: z.string(),
    get children() {
      return z.array(Category);
    },
  });
  const Tree = scope({ tree: { value: 'number', 'children?': 'tree[]' } }).export().tree;
  const Health = typebox(
    TypeCompiler.Compile(Type.Object({ status: Type.Union([Type.Literal('pass'), Type.Literal('fail')]) })),
  );
  const Event = type({ event: "'user.created'", user: User });

  const app = newApp({
    securitySchemes: {
      bearer: httpBearerScheme({ bearerFormat: 'JWT', requirePayloadAuth: true }),
      oauth: oauth2Scheme({
        flows: {
          clientCredentials: {
            tokenUrl: 'https://auth.example.com/token',
            scopes: { 'users:write': 'Change users' },
          },
        },
      }),
    },
  });
  app.group('/users', { tags: ['users'] }, (g) => {
    g.get(
      '/',
      {
        operationId: 'listUsers',
        summary: 'List users',
        request: { query: type({ 'limit?': '1 <= number.integer <= 100', 'cursor?': 'string' }) },
        responses: {
          200: {
            body: type({ items: User.array() }),
            headers: { link: { description: 'RFC 8288 links' } },
            examples: { empty: { summary: 'No users', value: { items: [] } } },
          },
          422: {},
        },
      },
      unused,
    );
    g.post(
      '/',
      {
        operationId: 'createUser',
        auth: { scheme: 'oauth', scopes: ['users:write'] },
        request: { body: User, headers: type({ 'idempotency-key?': 'string' }) },
        responses: { 201: { body: User, headers: { location: {} } }, 409: { description: 'Taken' } },
        examples: [
          {
            name: 'ada',
            request: { body: { id: '0b4e7f3c-5d2a-4c1b-9a8e-3f6d2c1b0a99', name: 'Ada' } },
            response: { status: 201, body: { id: '0b4e7f3c-5d2a-4c1b-9a8e-3f6d2c1b0a99', name: 'Ada' } },
          },
        ],
        callbacks: {
          ready: {
            '{$request.body#/callbackUrl}': {
              method: 'POST',
              request: { body: Event },
              responses: { 204: {} },
            },
          },
        },
        meta: { audit: true, rateLimit: { max: 10 } },
      },
      unused,
    );
    g.get(
      '/:id',
      {
        operationId: 'getUser',
        deprecated: true,
        auth: { scheme: 'bearer' },
        request: { params: type({ id: 'string.uuid' }) },
        responses: { 200: { body: User }, 404: {} },
      },
      unused,
    );
  });
  route(app, 'POST', '/pets', {
    operationId: 'createPet',
    tags: ['pets'],
    request: { body: Pet },
    responses: { 201: { body: Pet } },
  });
  route(app, 'GET', '/files/*path', {
    operationId: 'readFile',
    responses: { 200: { contentType: 'text/plain' }, 404: {} },
  });
  route(app, 'PUT', '/categories', {
    operationId: 'putCategories',
    request: { body: Category },
    responses: { 200: { body: Tree } },
  });
  route(app, 'GET', '/health', { operationId: 'health', responses: { 200: { body: Health } } });
  route(app, 'GET', '/internal', { operationId: 'internal', openapi: { exclude: true } });
  const webhooks: Record<string, WebhookDefinition> = {
    userCreated: {
      method: 'POST',
      operationId: 'onUserCreated',
      tags: ['users'],
      auth: { scheme: 'bearer' },
      request: { body: Event },
      responses: { 204: {}, 410: {} },
    },
  };
  return {
    app,
    options: {
      info: { ...info, license: { name: 'MIT', identifier: 'MIT' } },
      servers: [{ url: 'https://api.example.com/v2', description: 'Production' }],
      schemas: { User },
      tags: [{ name: 'pets', description: 'Animals' }],
      webhooks,
    },
  };
}

describe('generateOpenAPI: the document', () => {
  test('a document using most features is valid OpenAPI 3.1 for an outside validator', async () => {
    const { app, options } = richApp();
    const doc = generateOpenAPI(app, options);
    expect(doc.openapi).toBe(OPENAPI_VERSION);
    expect(OPENAPI_VERSION.startsWith('3.1.')).toBe(true);
    expect(await validateDocument(doc)).toEqual({ valid: true, errors: undefined });
  });

  test('the validator refuses the document once it is broken (the check can fail)', async () => {
    const { app, options } = richApp();
    const doc = structuredClone(generateOpenAPI(app, options)) as unknown as Record<string, any>;
    delete doc.info.version;
    expect((await validateDocument(doc)).valid).toBe(false);
    const badParam = structuredClone(generateOpenAPI(app, options)) as unknown as Record<string, any>;
    delete badParam.paths['/users/{id}'].get.parameters[0].required;
    expect((await validateDocument(badParam)).valid).toBe(false);
  });

  test('the document is plain JSON: it survives a JSON round trip unchanged', () => {
    const { app, options } = richApp();
    const doc = generateOpenAPI(app, options);
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  test('generating twice gives equal documents that share no objects', () => {
    const { app, options } = richApp();
    const first = generateOpenAPI(app, options);
    const second = generateOpenAPI(app, options);
    expect(second).toEqual(first);
    (first.info as { title: string }).title = 'changed';
    (first.paths['/pets']?.post?.responses['201'] as { description: string }).description = 'changed';
    expect(generateOpenAPI(app, options)).toEqual(second);
    expect(options.info.title).toBe(info.title);
  });

  test('members come in the order the specification lists them: openapi, info, servers, paths, webhooks, components, tags', () => {
    const { app, options } = richApp();
    expect(Object.keys(generateOpenAPI(app, options))).toEqual([
      'openapi',
      'info',
      'servers',
      'paths',
      'webhooks',
      'components',
      'tags',
    ]);
  });

  test('an app without routes gives openapi, info and empty paths only', () => {
    expect(generateOpenAPI(newApp(), { info })).toEqual({ openapi: OPENAPI_VERSION, info, paths: {} });
  });

  test('extensions become top-level x- members', () => {
    const doc = generateOpenAPI(newApp(), { info, extensions: { 'x-logo': { url: '/logo.svg' } } });
    expect(doc['x-logo']).toEqual({ url: '/logo.svg' });
  });

  test('an extension name not starting with x- is an OpenAPIError naming it', () => {
    expect(() => generateOpenAPI(newApp(), { info, extensions: { logo: 1 } as never })).toThrow(
      'extensions: "logo" must start with "x-"',
    );
  });
});

describe('generateOpenAPI: info and servers', () => {
  test('copies info with all its members', () => {
    const full = {
      title: 'T',
      version: '1',
      summary: 'S',
      description: 'D',
      termsOfService: 'https://example.com/tos',
      contact: { name: 'C', email: 'c@example.com' },
      license: { name: 'MIT', identifier: 'MIT' },
    };
    const doc = generateOpenAPI(newApp(), { info: full });
    expect(doc.info).toEqual(full);
    expect(doc.info).not.toBe(full);
  });

  test('refuses missing options or info, and a title or version that is not a non-empty string (§4.8.2)', () => {
    const app = newApp();
    expect(() => generateOpenAPI(app, undefined as never)).toThrow('generateOpenAPI() takes options');
    expect(() => generateOpenAPI(app, {} as never)).toThrow('info is required');
    expect(() => generateOpenAPI(app, { info: { version: '1' } as never })).toThrow(
      'info.title must be a non-empty string',
    );
    expect(() => generateOpenAPI(app, { info: { title: '', version: '1' } })).toThrow('info.title');
    expect(() => generateOpenAPI(app, { info: { title: 'T', version: 1 as never } })).toThrow(
      'info.version must be a non-empty string',
    );
    expect(() => generateOpenAPI(app, { info: { title: 'T', version: '' } })).toThrow(OpenAPIError);
  });

  test('lists servers (copied); an empty list gives no servers member', () => {
    const servers = [{ url: 'https://a.example.com' }, { url: '/v1', description: 'Relative' }];
    const doc = generateOpenAPI(newApp(), { info, servers });
    expect(doc.servers).toEqual(servers);
    expect(doc.servers?.[0]).not.toBe(servers[0]);
    expect(generateOpenAPI(newApp(), { info, servers: [] })).not.toHaveProperty('servers');
  });

  test('refuses a server without a url, naming its index', () => {
    expect(() => generateOpenAPI(newApp(), { info, servers: [{ url: 'https://a' }, { url: '' }] })).toThrow(
      'servers[1].url must be a non-empty string',
    );
    expect(() => generateOpenAPI(newApp(), { info, servers: [{} as never] })).toThrow(OpenAPIError);
  });
});

describe('generateOpenAPI: paths', () => {
  test('route paths become templates: :id to {id}, with group prefixes applied', () => {
    const app = newApp();
    app.group('/v1', {}, (g) => {
      g.group('/orgs', {}, (orgs) => {
        orgs.get('/:org/members', { responses: { 204: {} } }, unused);
      });
    });
    route(app, 'GET', '/users/:id');
    expect(Object.keys(generateOpenAPI(app, { info }).paths)).toEqual([
      '/v1/orgs/{org}/members',
      '/users/{id}',
    ]);
  });

  test('routes on the same path with different methods share one Path Item, methods in lower case', () => {
    const app = newApp();
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'])
      route(app, method, '/items/:id');
    const item = generateOpenAPI(app, { info }).paths['/items/{id}'];
    expect(Object.keys(item ?? {}).sort()).toEqual(['delete', 'get', 'head', 'options', 'patch', 'put']);
  });

  test('two templates that differ only in parameter names are an OpenAPIError naming both (§4.8.8)', () => {
    const app = newApp();
    route(app, 'GET', '/files/:name');
    route(app, 'GET', '/files/*path');
    const run = () => generateOpenAPI(app, { info });
    expect(run).toThrow(OpenAPIError);
    expect(run).toThrow(
      'Route GET /files/*path: the path /files/{path} differs from /files/{name} only in parameter names',
    );
  });

  test('a parameter and a wildcard of the same name on the same method are an OpenAPIError, not one lost operation', () => {
    const app = newApp();
    route(app, 'GET', '/files/:name', { operationId: 'oneFile' });
    route(app, 'GET', '/files/*name', { operationId: 'nestedFile' });
    expect(() => generateOpenAPI(app, { info })).toThrow(OpenAPIError);
  });

  test('routes with openapi.exclude are left out, with their tags and schemas', () => {
    const Shared = type({ a: 'string' });
    const app = newApp();
    route(app, 'GET', '/public', { tags: ['public'], responses: { 200: { body: Shared } } });
    route(app, 'GET', '/secret', {
      tags: ['secret'],
      openapi: { exclude: true },
      responses: { 200: { body: Shared } },
    });
    route(app, 'GET', '/also-in', { openapi: { exclude: false } });
    const doc = generateOpenAPI(app, { info });
    expect(Object.keys(doc.paths)).toEqual(['/public', '/also-in']);
    expect(doc.tags).toEqual([{ name: 'public' }]);
    // Used once in the document, so not made a component (only the framework's problem documents are).
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(['ProblemDetails']);
  });
});

describe('generateOpenAPI: tags', () => {
  test('lists the tags the operations use, in order of first use, once each', () => {
    const app = newApp();
    app.group('/a', { tags: ['alpha'] }, (g) => {
      g.get('/1', { tags: ['one'], responses: { 204: {} } }, unused);
      g.get('/2', { tags: ['one'], responses: { 204: {} } }, unused);
    });
    route(app, 'GET', '/b', { tags: ['beta'] });
    expect(generateOpenAPI(app, { info }).tags).toEqual([
      { name: 'alpha' },
      { name: 'one' },
      { name: 'beta' },
    ]);
  });

  test('the tags option comes first with its descriptions, even for tags no route uses', () => {
    const app = route(newApp(), 'GET', '/b', { tags: ['beta', 'gamma'] });
    const doc = generateOpenAPI(app, {
      info,
      tags: [
        { name: 'gamma', description: 'Third' },
        { name: 'unused', description: 'Listed anyway' },
      ],
    });
    expect(doc.tags).toEqual([
      { name: 'gamma', description: 'Third' },
      { name: 'unused', description: 'Listed anyway' },
      { name: 'beta' },
    ]);
  });

  test('no tag anywhere gives no tags member', () => {
    expect(generateOpenAPI(route(newApp(), 'GET', '/x'), { info })).not.toHaveProperty('tags');
  });

  test('tags used only by a webhook are listed too', () => {
    const doc = generateOpenAPI(newApp(), {
      info,
      webhooks: { ping: { method: 'POST', tags: ['events'], responses: { 204: {} } } },
    });
    expect(doc.tags).toEqual([{ name: 'events' }]);
  });
});

describe('generateOpenAPI: security schemes', () => {
  test('lists the App securitySchemes under components.securitySchemes, payload-auth extension kept', () => {
    const app = newApp({
      securitySchemes: {
        bearer: httpBearerScheme({ bearerFormat: 'JWT', requirePayloadAuth: true }),
        key: apiKeyScheme({ in: 'query', name: 'api_key', description: 'A key' }),
      },
    });
    expect(generateOpenAPI(app, { info }).components?.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', 'x-charter-require-payload-auth': true },
      key: { type: 'apiKey', description: 'A key', name: 'api_key', in: 'query' },
    });
  });

  test('the generator option securitySchemes replaces the App ones', () => {
    const app = newApp({ securitySchemes: { bearer: httpBearerScheme() } });
    const doc = generateOpenAPI(app, { info, securitySchemes: { basic: { type: 'http', scheme: 'basic' } } });
    expect(doc.components?.securitySchemes).toEqual({ basic: { type: 'http', scheme: 'basic' } });
  });

  test('no scheme gives no components.securitySchemes', () => {
    expect(generateOpenAPI(newApp(), { info, securitySchemes: {} })).not.toHaveProperty('components');
  });

  test('an invalid hand-written scheme is refused with an error naming it', () => {
    const run = () =>
      generateOpenAPI(newApp(), { info, securitySchemes: { broken: { type: 'http' } as never } });
    expect(run).toThrow();
    expect(run).toThrow('broken');
  });
});

describe('generateOpenAPI: ProblemDetails', () => {
  test('the ProblemDetails component is present when an error response uses it, and is the RFC 9457 schema', () => {
    const doc = generateOpenAPI(route(newApp(), 'GET', '/x', { responses: { 200: {}, 404: {} } }), { info });
    expect(doc.components?.schemas?.ProblemDetails).toEqual(PROBLEM_DETAILS_SCHEMA);
  });

  test('present on every route: the framework answers 400 and 431 on its own', () => {
    const doc = generateOpenAPI(
      route(newApp(), 'GET', '/x', { responses: { 200: {}, 400: { body: type({ e: 'string' }) } } }),
      { info },
    );
    expect(doc.components?.schemas?.ProblemDetails).toEqual(PROBLEM_DETAILS_SCHEMA);
    // The declared 400 keeps its JSON body; the framework's own 400 problem is listed beside it.
    expect(Object.keys(doc.paths['/x']?.get?.responses['400']?.content ?? {})).toEqual([
      'application/json',
      'application/problem+json',
    ]);
    expect(doc.components?.schemas?.ValidationProblemDetails).toBeUndefined();
  });

  test('a named schema called ProblemDetails is kept, and error responses refer to it', () => {
    const Mine = type({ title: 'string', status: 'number', code: 'string' });
    const doc = generateOpenAPI(route(newApp(), 'GET', '/x', { responses: { 404: {} } }), {
      info,
      schemas: { ProblemDetails: Mine },
    });
    expect(doc.components?.schemas?.ProblemDetails).toMatchObject({
      properties: { code: { type: 'string' } },
    });
  });
});

describe('generateOpenAPI: webhooks', () => {
  const Event = type({ id: 'string' });

  function webhookDoc(
    webhooks: Record<string, unknown>,
    options: Partial<GenerateOpenAPIOptions> = {},
  ): OpenAPIDocument {
    return generateOpenAPI(newApp(), {
      info,
      webhooks: webhooks as Record<string, WebhookDefinition>,
      ...options,
    });
  }

  test('lists each webhook under top-level webhooks as a Path Item with its operation', () => {
    const doc = webhookDoc({
      orderPaid: {
        method: 'POST',
        operationId: 'onOrderPaid',
        summary: 'An order was paid',
        request: { body: Event, contentTypes: ['application/json'] },
        responses: { 204: { description: 'Received' }, 400: {} },
        meta: { retries: 5 },
      },
    });
    expect(doc.webhooks?.orderPaid).toEqual({
      post: {
        operationId: 'onOrderPaid',
        summary: 'An order was paid',
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
            },
          },
        },
        responses: {
          '204': { description: 'Received' },
          '400': {
            description: 'HTTP 400 response',
            content: {
              'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } },
            },
          },
        },
        'x-charter-retries': 5,
      },
    });
    expect(doc.components?.schemas?.ProblemDetails).toBeDefined();
  });

  test('a webhook with auth requires its scheme', () => {
    const doc = webhookDoc(
      { signed: { method: 'POST', auth: { scheme: 'hmac', scopes: [] }, responses: { 204: {} } } },
      { securitySchemes: { hmac: apiKeyScheme({ in: 'header', name: 'x-signature' }) } },
    );
    expect(doc.webhooks?.signed?.post?.security).toEqual([{ hmac: [] }]);
  });

  test('a webhook body is described as JSON (the API sends it), not in the request types the app accepts', () => {
    const doc = webhookDoc({ ping: { method: 'POST', request: { body: Event }, responses: { 204: {} } } });
    expect(Object.keys(doc.webhooks?.ping?.post?.requestBody?.content ?? {})).toEqual(['application/json']);
  });

  test('a schema shared by a route and a webhook becomes one component', () => {
    const app = route(newApp(), 'GET', '/events/:id', { responses: { 200: { body: Event } } });
    const doc = generateOpenAPI(app, {
      info,
      webhooks: {
        ping: {
          method: 'POST',
          request: { body: Event, contentTypes: ['application/json'] },
          responses: { 204: {} },
        },
      },
    });
    const ref = doc.paths['/events/{id}']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(ref?.$ref).toBeString();
    expect(doc.webhooks?.ping?.post?.requestBody?.content['application/json']?.schema).toEqual(
      ref as Record<string, unknown>,
    );
  });

  test('a webhook that is not an object or lacks responses is an OpenAPIError naming it', () => {
    expect(() => webhookDoc({ bad: null })).toThrow('Webhook bad: must declare method and responses');
    expect(() => webhookDoc({ bad: { method: 'POST' } })).toThrow(OpenAPIError);
  });

  test('a webhook without a valid method is an OpenAPIError naming it (not a TypeError, not a "fetch" operation)', () => {
    expect(() => webhookDoc({ bad: { responses: { 204: {} } } })).toThrow(OpenAPIError);
    expect(() => webhookDoc({ bad: { method: 'FETCH', responses: { 204: {} } } })).toThrow('Webhook bad');
  });

  test('a webhook without a response, or with a status that is not 100 to 599, is an OpenAPIError naming it', () => {
    expect(() => webhookDoc({ bad: { method: 'POST', responses: {} } })).toThrow(
      new OpenAPIError('Webhook bad: responses must declare at least one status'),
    );
    for (const status of ['ok', '99', '600', '2.5']) {
      expect(() => webhookDoc({ bad: { method: 'POST', responses: { [status]: {} } } })).toThrow(
        new OpenAPIError(`Webhook bad: response status "${status}" must be an integer from 100 to 599`),
      );
    }
  });

  test("a webhook's malformed callback is an OpenAPIError naming the webhook and the callback", () => {
    expect(() =>
      webhookDoc({
        ping: { method: 'POST', responses: { 204: {} }, callbacks: { ack: { '{$request.body#/url}': {} } } },
      }),
    ).toThrow('Webhook ping callback ack: {$request.body#/url}: must declare method and responses');
  });

  test('a webhook naming an undeclared scheme is an OpenAPIError naming the webhook', () => {
    expect(() =>
      webhookDoc({ signed: { method: 'POST', auth: { scheme: 'nope' }, responses: { 204: {} } } }),
    ).toThrow('Webhook signed: auth names the security scheme "nope"');
  });

  test('a webhook operationId used by a route or another webhook is an OpenAPIError naming both (§4.8.10)', () => {
    const app = route(newApp(), 'POST', '/orders', { operationId: 'orderPaid' });
    const webhooks = { paid: { method: 'POST', operationId: 'orderPaid', responses: { 204: {} } } };
    expect(() => generateOpenAPI(app, { info, webhooks } as never)).toThrow(
      'Webhook paid: operationId "orderPaid" is already used by Route POST /orders',
    );
    expect(() =>
      webhookDoc({
        one: { method: 'POST', operationId: 'ping', responses: { 204: {} } },
        two: { method: 'POST', operationId: 'ping', responses: { 204: {} } },
      }),
    ).toThrow(
      new OpenAPIError(
        'Webhook two: operationId "ping" is already used by Webhook one; OpenAPI requires every operationId of the document to be unique',
      ),
    );
  });

  test('distinct operationIds across routes and webhooks are kept', () => {
    const app = route(newApp(), 'POST', '/orders', { operationId: 'createOrder' });
    const doc = generateOpenAPI(app, {
      info,
      webhooks: { paid: { method: 'POST', operationId: 'orderPaid', responses: { 204: {} } } },
    });
    expect(doc.paths['/orders']?.post?.operationId).toBe('createOrder');
    expect(doc.webhooks?.paid?.post?.operationId).toBe('orderPaid');
  });

  test('no webhooks gives no webhooks member', () => {
    expect(webhookDoc({})).not.toHaveProperty('webhooks');
  });
});
