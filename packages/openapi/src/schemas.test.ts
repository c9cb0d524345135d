import { describe, expect, test } from 'bun:test';
import { type AnySchema, App, type JsonSchema, typebox } from '@charter/core';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { scope, type } from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';
import { OpenAPIError } from './errors.ts';
import { generateOpenAPI } from './generate.ts';
import { collectRefs } from './json-walk.ts';
import { SchemaRegistry } from './schemas.ts';
import type { OpenAPIDocument } from './types.ts';

const info = { title: 'Schemas', version: '1.0.0' };
const COMPONENTS = '#/components/schemas/';
// Route handlers are never called here: only the contracts are read.
const unused = (): never => {
  throw new Error('not called');
};

/** The components the routes' own schemas made (the framework's problem documents left aside). */
function ownSchemaNames(doc: { components?: { schemas?: Record<string, unknown> } }): string[] {
  return Object.keys(doc.components?.schemas ?? {}).filter((n) => !n.endsWith('ProblemDetails'));
}

function newApp(): App {
  return new App({ logger: false });
}

/** A POST route whose only schema is the request body, accepted as JSON only (so used once). */
function bodyRoute(app: App, path: string, body: AnySchema, extra: Record<string, unknown> = {}): void {
  app.route({
    method: 'POST',
    path,
    request: { body, contentTypes: ['application/json'] },
    responses: { 204: {} },
    handler: unused,
    ...extra,
  } as never);
}

/** A GET route whose only schema is the 200 response body. */
function responseRoute(app: App, path: string, body: AnySchema, extra: Record<string, unknown> = {}): void {
  app.route({ method: 'GET', path, responses: { 200: { body } }, handler: unused, ...extra } as never);
}

function requestSchema(doc: OpenAPIDocument, path: string): JsonSchema | undefined {
  return doc.paths[path]?.post?.requestBody?.content['application/json']?.schema;
}

function responseSchema(doc: OpenAPIDocument, path: string, status = '200'): JsonSchema | undefined {
  return doc.paths[path]?.get?.responses[status]?.content?.['application/json']?.schema;
}

/** Follows one `#/components/schemas/X` reference. */
function deref(doc: OpenAPIDocument, schema: JsonSchema | undefined): JsonSchema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith(COMPONENTS)) return undefined;
  return doc.components?.schemas?.[ref.slice(COMPONENTS.length)];
}

/** Every `$ref` of the document points at a component that exists; no `$defs` or `$schema` is left. */
function expectSelfContained(doc: OpenAPIDocument): void {
  for (const ref of collectRefs(doc)) {
    expect(ref.startsWith(COMPONENTS)).toBe(true);
    expect(doc.components?.schemas?.[ref.slice(COMPONENTS.length)]).toBeDefined();
  }
  const text = JSON.stringify(doc);
  expect(text).not.toContain('"$defs"');
  expect(text).not.toContain('"$schema"');
}

describe('JSON Schema from the schema libraries', () => {
  test('an arktype schema is described by its own Standard JSON Schema, without $schema', () => {
    const app = newApp();
    bodyRoute(app, '/ark', type({ name: '0 < string <= 10', 'age?': 'number.integer >= 0' }));
    expect(requestSchema(generateOpenAPI(app, { info }), '/ark')).toEqual({
      type: 'object',
      properties: {
        age: { type: 'integer', minimum: 0 },
        name: { type: 'string', minLength: 1, maxLength: 10 },
      },
      required: ['name'],
    });
  });

  test('a zod 4 schema is described by its own Standard JSON Schema, without $schema', () => {
    const app = newApp();
    bodyRoute(app, '/zod', z.object({ name: z.string().min(1), tags: z.array(z.string()).optional() }));
    expect(requestSchema(generateOpenAPI(app, { info }), '/zod')).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['name'],
    });
  });

  test('a TypeBox schema (compiled or with the Value module) appears as it is', () => {
    const schema = Type.Object({ id: Type.Integer({ minimum: 1 }), note: Type.Optional(Type.String()) });
    const app = newApp();
    bodyRoute(app, '/compiled', typebox(TypeCompiler.Compile(schema)));
    bodyRoute(app, '/value', typebox(schema, Value));
    const doc = generateOpenAPI(app, { info });
    const expected = JSON.parse(JSON.stringify(schema));
    expect(requestSchema(doc, '/compiled')).toEqual(expected);
    expect(requestSchema(doc, '/value')).toEqual(expected);
  });

  test('a valibot 1.x schema, which has no ~standard.jsonSchema, is an OpenAPIError naming route, part and vendor', () => {
    const app = newApp();
    bodyRoute(app, '/valibot', v.object({ name: v.string() }));
    const run = () => generateOpenAPI(app, { info });
    expect(run).toThrow(OpenAPIError);
    expect(run).toThrow(
      /^Route POST \/valibot: request body: a valibot schema without the Standard JSON Schema/,
    );
    expect(run).toThrow('openapi.jsonSchema');
  });

  test('an arktype Date is an OpenAPIError naming the route and the part, never an empty {} schema', () => {
    const app = newApp();
    bodyRoute(app, '/dated', type({ at: 'Date' }));
    const run = () => generateOpenAPI(app, { info });
    expect(run).toThrow(OpenAPIError);
    expect(run).toThrow('Route POST /dated: request body');
  });

  test('an arktype morph output is an OpenAPIError naming the route and the response, never {}', () => {
    const app = newApp();
    responseRoute(
      app,
      '/length',
      type('string').pipe((s) => s.length),
    );
    const run = () => generateOpenAPI(app, { info });
    expect(run).toThrow(OpenAPIError);
    expect(run).toThrow('Route GET /length: response 200 body');
  });

  test('an arktype morph whose output type is known (string.numeric.parse) is described in both directions', () => {
    const app = newApp();
    bodyRoute(app, '/in', type({ n: 'string.numeric.parse' }));
    responseRoute(app, '/out', type({ m: 'string.numeric.parse' }));
    const doc = generateOpenAPI(app, { info });
    expect((requestSchema(doc, '/in')?.properties as Record<string, JsonSchema>).n?.type).toBe('string');
    expect((responseSchema(doc, '/out')?.properties as Record<string, JsonSchema>).m).toEqual({
      type: 'number',
    });
  });

  test('a zod transform output and a zod date are OpenAPIErrors naming the route and the part', () => {
    const transform = newApp();
    responseRoute(
      transform,
      '/t',
      z.string().transform((s) => s.length),
    );
    expect(() => generateOpenAPI(transform, { info })).toThrow(
      /^Route GET \/t: response 200 body: the zod schema has no output JSON Schema/,
    );
    const date = newApp();
    date.route({
      method: 'GET',
      path: '/d',
      request: { query: z.object({ since: z.date() }) },
      responses: { 204: {} },
      handler: unused,
    });
    expect(() => generateOpenAPI(date, { info })).toThrow(/^Route GET \/d: query: /);
  });

  test('a TypeBox JavaScript type (Type.Date) is an OpenAPIError, not the non-JSON-Schema {"type":"Date"}', () => {
    const app = newApp();
    bodyRoute(app, '/tb-date', typebox(Type.Object({ at: Type.Date() }), Value));
    expect(() => generateOpenAPI(app, { info })).toThrow(OpenAPIError);
  });

  test('a schema whose converter returns something other than an object is an OpenAPIError', () => {
    const odd = {
      '~standard': {
        version: 1 as const,
        vendor: 'odd',
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => true as never, output: () => true as never },
      },
    };
    const app = newApp();
    bodyRoute(app, '/odd', odd);
    expect(() => generateOpenAPI(app, { info })).toThrow(
      "Route POST /odd: request body: the odd schema's input JSON Schema is not an object",
    );
  });
});

describe('the openapi.jsonSchema escape hatch', () => {
  const Body = v.object({ name: v.string() });
  const bodyJson = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

  test('openapi.jsonSchema.body describes a request body the schema cannot describe', () => {
    const app = newApp();
    bodyRoute(app, '/hatch', Body, { openapi: { jsonSchema: { body: bodyJson } } });
    expect(requestSchema(generateOpenAPI(app, { info }), '/hatch')).toEqual(bodyJson);
  });

  test('openapi.jsonSchema.responses[200] describes that response body; the other statuses still need theirs', () => {
    const app = newApp();
    app.route({
      method: 'GET',
      path: '/r',
      responses: { 200: { body: Body }, 201: { body: type({ ok: 'boolean' }) } },
      openapi: { jsonSchema: { responses: { 200: bodyJson } } },
      handler: unused,
    });
    const doc = generateOpenAPI(app, { info });
    expect(responseSchema(doc, '/r')).toEqual(bodyJson);
    expect(responseSchema(doc, '/r', '201')).toMatchObject({ properties: { ok: { type: 'boolean' } } });

    const missing = newApp();
    missing.route({
      method: 'GET',
      path: '/r',
      responses: { 200: { body: Body }, 201: { body: Body } },
      openapi: { jsonSchema: { responses: { 200: bodyJson } } },
      handler: unused,
    });
    expect(() => generateOpenAPI(missing, { info })).toThrow('Route GET /r: response 201 body');
  });

  test('openapi.jsonSchema.query, .params and .headers describe the parameters', () => {
    const app = newApp();
    app.route({
      method: 'GET',
      path: '/items/:id',
      request: {
        params: v.object({ id: v.string() }),
        query: v.object({ q: v.string() }),
        headers: v.object({ 'x-tenant': v.string() }),
      },
      openapi: {
        jsonSchema: {
          params: {
            type: 'object',
            properties: { id: { type: 'string', format: 'uuid' } },
            required: ['id'],
          },
          query: { type: 'object', properties: { q: { type: 'string', maxLength: 50 } }, required: ['q'] },
          headers: { type: 'object', properties: { 'x-tenant': { type: 'string' } } },
        },
      },
      responses: { 204: {} },
      handler: unused,
    });
    const parameters = generateOpenAPI(app, { info }).paths['/items/{id}']?.get?.parameters;
    expect(parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
      { name: 'q', in: 'query', required: true, schema: { type: 'string', maxLength: 50 } },
      { name: 'x-tenant', in: 'header', schema: { type: 'string' } },
    ]);
  });

  test('the JSON given is copied (the document does not share it) and its $schema is dropped', () => {
    const given = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...bodyJson };
    const app = newApp();
    bodyRoute(app, '/copy', Body, { openapi: { jsonSchema: { body: given } } });
    const schema = requestSchema(generateOpenAPI(app, { info }), '/copy');
    expect(schema).toEqual(bodyJson);
    (schema?.properties as Record<string, JsonSchema>).name = { type: 'number' };
    expect(given.properties.name).toEqual({ type: 'string' });
  });

  test('the escape hatch is used even when the schema could describe itself', () => {
    const app = newApp();
    bodyRoute(app, '/prefer', type({ name: 'string' }), {
      openapi: { jsonSchema: { body: { type: 'object' } } },
    });
    expect(requestSchema(generateOpenAPI(app, { info }), '/prefer')).toEqual({ type: 'object' });
  });
});

describe('$defs and self references', () => {
  test('an arktype cyclic scope: $defs become components and their $refs point there', () => {
    const Tree = scope({ tree: { value: 'number', 'children?': 'tree[]' } }).export().tree;
    const app = newApp();
    bodyRoute(app, '/tree', Tree);
    const doc = generateOpenAPI(app, { info });
    expectSelfContained(doc);
    const root = deref(doc, requestSchema(doc, '/tree')) as JsonSchema;
    expect(root).toMatchObject({
      type: 'object',
      properties: { value: { type: 'number' } },
      required: ['value'],
    });
    // children -> array -> items -> the tree itself
    const children = (root.properties as Record<string, JsonSchema>).children as JsonSchema;
    const array = children.$ref === undefined ? children : (deref(doc, children) as JsonSchema);
    expect(array.type).toBe('array');
    expect(deref(doc, array.items as JsonSchema)).toBe(root);
  });

  test('a zod schema with meta({ id }) becomes the component of that name', () => {
    const Address = z.object({ city: z.string() }).meta({ id: 'Address' });
    const app = newApp();
    bodyRoute(app, '/customers', z.object({ name: z.string(), address: Address }));
    const doc = generateOpenAPI(app, { info });
    expectSelfContained(doc);
    expect(doc.components?.schemas?.Address).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
    expect((requestSchema(doc, '/customers')?.properties as Record<string, JsonSchema>).address).toEqual({
      $ref: `${COMPONENTS}Address`,
    });
  });

  test('a zod recursive schema ($ref "#") becomes a component even when used once, its refs retargeted', () => {
    const Category: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Category);
      },
    });
    const app = newApp();
    bodyRoute(app, '/categories', Category, { operationId: 'createCategory' });
    const doc = generateOpenAPI(app, { info });
    expectSelfContained(doc);
    expect(requestSchema(doc, '/categories')).toEqual({ $ref: `${COMPONENTS}CreateCategoryBody` });
    expect(doc.components?.schemas?.CreateCategoryBody).toMatchObject({
      properties: { children: { type: 'array', items: { $ref: `${COMPONENTS}CreateCategoryBody` } } },
    });
  });

  test('a zod meta({ id }) schema used by two routes is one component, its own $defs refs rewritten', () => {
    const Country = z.object({ code: z.string() }).meta({ id: 'Country' });
    const Address = z.object({ city: z.string(), country: Country }).meta({ id: 'Address' });
    const app = newApp();
    bodyRoute(app, '/shops', z.object({ address: Address }));
    bodyRoute(app, '/depots', z.object({ location: Address }));
    const doc = generateOpenAPI(app, { info });
    expectSelfContained(doc);
    expect(ownSchemaNames(doc).sort()).toEqual(['Address', 'Country']);
    expect(doc.components?.schemas?.Address?.properties).toMatchObject({
      country: { $ref: `${COMPONENTS}Country` },
    });
    expect((requestSchema(doc, '/depots')?.properties as Record<string, JsonSchema>).location).toEqual({
      $ref: `${COMPONENTS}Address`,
    });
  });

  test('a zod recursive schema that also has $defs: the $defs refs stay on their components', () => {
    const Address = z.object({ city: z.string() }).meta({ id: 'Address' });
    const Category: z.ZodType = z.object({
      address: Address,
      get children() {
        return z.array(Category);
      },
    });
    const app = newApp();
    bodyRoute(app, '/categories', Category, { operationId: 'createCategory' });
    const doc = generateOpenAPI(app, { info });
    expectSelfContained(doc);
    expect(doc.components?.schemas?.CreateCategoryBody?.properties).toEqual({
      address: { $ref: `${COMPONENTS}Address` },
      children: { type: 'array', items: { $ref: `${COMPONENTS}CreateCategoryBody` } },
    });
  });

  test('a named recursive schema points at its own component', () => {
    const Category: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Category);
      },
    });
    const app = newApp();
    bodyRoute(app, '/categories', Category);
    const doc = generateOpenAPI(app, { info, schemas: { Category } });
    expectSelfContained(doc);
    expect(requestSchema(doc, '/categories')).toEqual({ $ref: `${COMPONENTS}Category` });
    expect(doc.components?.schemas?.Category?.properties).toMatchObject({
      children: { items: { $ref: `${COMPONENTS}Category` } },
    });
  });

  test('a self-referencing escape-hatch schema becomes a component, pointers into its root included', () => {
    const app = newApp();
    bodyRoute(app, '/nodes', v.unknown(), {
      operationId: 'createNode',
      openapi: {
        jsonSchema: {
          body: {
            type: 'object',
            properties: { id: { type: 'string' }, parent: { $ref: '#/properties/id' }, next: { $ref: '#' } },
          },
        },
      },
    });
    const doc = generateOpenAPI(app, { info });
    expect(requestSchema(doc, '/nodes')).toEqual({ $ref: `${COMPONENTS}CreateNodeBody` });
    expect(doc.components?.schemas?.CreateNodeBody?.properties).toEqual({
      id: { type: 'string' },
      parent: { $ref: `${COMPONENTS}CreateNodeBody/properties/id` },
      next: { $ref: `${COMPONENTS}CreateNodeBody` },
    });
  });

  test('a self-referencing schema with a usable title is named after it', () => {
    const Node: z.ZodType = z
      .object({
        id: z.string(),
        get next() {
          return Node.optional();
        },
      })
      .meta({ title: 'ListNode' });
    const app = newApp();
    responseRoute(app, '/list', Node);
    const doc = generateOpenAPI(app, { info });
    expectSelfContained(doc);
    expect(responseSchema(doc, '/list')).toEqual({ $ref: `${COMPONENTS}ListNode` });
  });

  test('$defs in the escape hatch are hoisted too', () => {
    const app = newApp();
    bodyRoute(app, '/hatch', v.object({ a: v.string() }), {
      openapi: {
        jsonSchema: {
          body: {
            type: 'object',
            properties: { a: { $ref: '#/$defs/Code' } },
            $defs: { Code: { type: 'string', pattern: '^[A-Z]{3}$' } },
          },
        },
      },
    });
    const doc = generateOpenAPI(app, { info });
    expectSelfContained(doc);
    expect(doc.components?.schemas?.Code).toEqual({ type: 'string', pattern: '^[A-Z]{3}$' });
    expect(requestSchema(doc, '/hatch')).toEqual({
      type: 'object',
      properties: { a: { $ref: `${COMPONENTS}Code` } },
    });
  });

  test('the same $defs name holding different schemas in two routes gets a suffix instead of overwriting', () => {
    const app = newApp();
    const hatch = (pattern: string) => ({
      openapi: {
        jsonSchema: { body: { $ref: '#/$defs/Code', $defs: { Code: { type: 'string', pattern } } } },
      },
    });
    bodyRoute(app, '/one', v.string(), hatch('^a$'));
    bodyRoute(app, '/two', v.string(), hatch('^b$'));
    const doc = generateOpenAPI(app, { info });
    expectSelfContained(doc);
    expect(deref(doc, requestSchema(doc, '/one'))).toEqual({ type: 'string', pattern: '^a$' });
    expect(deref(doc, requestSchema(doc, '/two'))).toEqual({ type: 'string', pattern: '^b$' });
  });
});

describe('named schemas (generator option schemas)', () => {
  const User = type({ id: 'string', name: 'string' });
  const Todo = type({ title: 'string', owner: { id: 'string', name: 'string' } });

  test('a named schema is a component referred to with $ref as a body, a response and an array item', () => {
    const app = newApp();
    bodyRoute(app, '/users', User);
    responseRoute(app, '/users/me', User);
    responseRoute(app, '/users', User.array());
    const doc = generateOpenAPI(app, { info, schemas: { User } });
    expect(doc.components?.schemas?.User).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' } },
      required: ['id', 'name'],
    });
    expect(requestSchema(doc, '/users')).toEqual({ $ref: `${COMPONENTS}User` });
    expect(responseSchema(doc, '/users/me')).toEqual({ $ref: `${COMPONENTS}User` });
    expect(responseSchema(doc, '/users')).toEqual({ type: 'array', items: { $ref: `${COMPONENTS}User` } });
  });

  test('a named schema nested inside another schema JSON is replaced by its $ref there', () => {
    const app = newApp();
    responseRoute(app, '/todos', Todo);
    const doc = generateOpenAPI(app, { info, schemas: { User } });
    expect((responseSchema(doc, '/todos')?.properties as Record<string, JsonSchema>).owner).toEqual({
      $ref: `${COMPONENTS}User`,
    });
  });

  test('a named primitive schema does not take over every plain string of the document', () => {
    const app = newApp();
    app.route({
      method: 'GET',
      path: '/x',
      request: { query: type({ q: 'string' }) },
      responses: { 200: { body: type({ title: 'string' }) } },
      handler: unused,
    });
    const doc = generateOpenAPI(app, { info, schemas: { Slug: type('string') } });
    expect(doc.paths['/x']?.get?.parameters?.[0]?.schema).toEqual({ type: 'string' });
    expect(responseSchema(doc, '/x')).toEqual({
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
    });
  });

  test('named schemas nest in one another by $ref, the root of each component staying whole', () => {
    const app = newApp();
    responseRoute(app, '/todos', Todo);
    const doc = generateOpenAPI(app, { info, schemas: { User, Todo } });
    expect(responseSchema(doc, '/todos')).toEqual({ $ref: `${COMPONENTS}Todo` });
    expect(doc.components?.schemas?.Todo).toEqual({
      type: 'object',
      properties: { owner: { $ref: `${COMPONENTS}User` }, title: { type: 'string' } },
      required: ['owner', 'title'],
    });
    expect(doc.components?.schemas?.User).toMatchObject({ type: 'object' });
  });

  test('a named schema used as query is listed as parameters (not a $ref), and stays a component', () => {
    const Page = type({ 'limit?': 'number', 'cursor?': 'string' });
    const app = newApp();
    app.route({
      method: 'GET',
      path: '/p',
      request: { query: Page },
      responses: { 204: {} },
      handler: unused,
    });
    const doc = generateOpenAPI(app, { info, schemas: { Page } });
    expect(doc.paths['/p']?.get?.parameters?.map((p) => p.name)).toEqual(['cursor', 'limit']);
    expect(doc.components?.schemas?.Page).toBeDefined();
  });

  test('a named schema is listed even when no route uses it', () => {
    const doc = generateOpenAPI(newApp(), { info, schemas: { User } });
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(['User']);
  });

  test('refuses a component name OpenAPI does not allow (§4.8.7)', () => {
    for (const name of ['My User', 'a/b', '']) {
      expect(() => generateOpenAPI(newApp(), { info, schemas: { [name]: User } })).toThrow(OpenAPIError);
    }
    expect(() => generateOpenAPI(newApp(), { info, schemas: { 'My User': User } })).toThrow(
      'schemas.My User: a component name must match',
    );
  });

  test('refuses a value that is not a Standard Schema', () => {
    expect(() => generateOpenAPI(newApp(), { info, schemas: { User: { type: 'object' } as never } })).toThrow(
      'schemas.User: not a Standard Schema',
    );
  });

  test('refuses the same schema under two names', () => {
    expect(() => generateOpenAPI(newApp(), { info, schemas: { User, Person: User } })).toThrow(
      'schemas.Person: the same schema is already named "User"',
    );
  });

  test('a named schema that cannot describe itself is an OpenAPIError naming it', () => {
    expect(() => generateOpenAPI(newApp(), { info, schemas: { Legacy: v.object({}) } })).toThrow(
      /^schemas\.Legacy: schema: a valibot schema/,
    );
  });
});

describe('reused schemas', () => {
  test('a schema used once (one media type) stays inline; no component is made', () => {
    const app = newApp();
    bodyRoute(app, '/once', type({ a: 'string' }));
    const doc = generateOpenAPI(app, { info });
    expect(requestSchema(doc, '/once')).toMatchObject({ type: 'object' });
    expect(ownSchemaNames(doc)).toEqual([]);
  });

  test('an unnamed schema used by two routes is one component, named after its first use', () => {
    const Item = type({ sku: 'string' });
    const app = newApp();
    responseRoute(app, '/a', Item, { operationId: 'getA' });
    responseRoute(app, '/b', Item, { operationId: 'getB' });
    const doc = generateOpenAPI(app, { info });
    expect(responseSchema(doc, '/a')).toEqual({ $ref: `${COMPONENTS}GetAResponse200` });
    expect(responseSchema(doc, '/b')).toEqual({ $ref: `${COMPONENTS}GetAResponse200` });
    expect(ownSchemaNames(doc)).toEqual(['GetAResponse200']);
  });

  test('without an operationId the derived name comes from method and path', () => {
    const Item = type({ sku: 'string' });
    const app = newApp();
    responseRoute(app, '/shop/items', Item);
    responseRoute(app, '/other', Item);
    expect(responseSchema(generateOpenAPI(app, { info }), '/other')).toEqual({
      $ref: `${COMPONENTS}GetShopItemsResponse200`,
    });
  });

  test('a reused schema with a title is named by its title', () => {
    const Money = z.object({ amount: z.number(), currency: z.string() }).meta({ title: 'Money' });
    const app = newApp();
    responseRoute(app, '/a', Money);
    responseRoute(app, '/b', Money);
    const doc = generateOpenAPI(app, { info });
    expect(responseSchema(doc, '/b')).toEqual({ $ref: `${COMPONENTS}Money` });
    expect(doc.components?.schemas?.Money).toMatchObject({ title: 'Money', type: 'object' });
  });

  test('a title that is not a valid component name falls back to the derived name', () => {
    const Money = z.object({ amount: z.number() }).meta({ title: 'Amount of money' });
    const app = newApp();
    responseRoute(app, '/a', Money, { operationId: 'getA' });
    responseRoute(app, '/b', Money);
    expect(responseSchema(generateOpenAPI(app, { info }), '/b')).toEqual({
      $ref: `${COMPONENTS}GetAResponse200`,
    });
  });

  test('a schema used as request in one route and response in another is one component when both directions agree', () => {
    const Note = type({ text: 'string' });
    const app = newApp();
    bodyRoute(app, '/notes', Note, { operationId: 'createNote' });
    responseRoute(app, '/notes', Note);
    const doc = generateOpenAPI(app, { info });
    expect(requestSchema(doc, '/notes')).toEqual({ $ref: `${COMPONENTS}CreateNoteBody` });
    expect(responseSchema(doc, '/notes')).toEqual({ $ref: `${COMPONENTS}CreateNoteBody` });
    expect(ownSchemaNames(doc)).toEqual(['CreateNoteBody']);
  });

  test('a reused schema whose input and output differ gets one component per direction', () => {
    const Reading = type({ value: 'string.numeric.parse' });
    const app = newApp();
    bodyRoute(app, '/readings', Reading, { operationId: 'addReading' });
    responseRoute(app, '/readings', Reading);
    const doc = generateOpenAPI(app, { info });
    expect(requestSchema(doc, '/readings')).toEqual({ $ref: `${COMPONENTS}AddReadingBody` });
    // The output is a different schema, so it is named after its own first use.
    expect(responseSchema(doc, '/readings')).toEqual({ $ref: `${COMPONENTS}GetReadingsResponse200` });
    expect(deref(doc, responseSchema(doc, '/readings'))).toEqual({
      type: 'object',
      properties: { value: { type: 'number' } },
      required: ['value'],
    });
  });

  test('two different reused schemas with the same title get the title and a numbered suffix', () => {
    const A = z.object({ a: z.string() }).meta({ title: 'Thing' });
    const B = z.object({ b: z.string() }).meta({ title: 'Thing' });
    const app = newApp();
    responseRoute(app, '/a1', A);
    responseRoute(app, '/a2', A);
    responseRoute(app, '/b1', B);
    responseRoute(app, '/b2', B);
    const doc = generateOpenAPI(app, { info });
    expect(responseSchema(doc, '/a2')).toEqual({ $ref: `${COMPONENTS}Thing` });
    expect(responseSchema(doc, '/b2')).toEqual({ $ref: `${COMPONENTS}Thing2` });
    expect(deref(doc, responseSchema(doc, '/b1'))).toMatchObject({ properties: { b: { type: 'string' } } });
  });

  test('a derived name already taken by a named schema gets a suffix; the named schema is untouched', () => {
    const Named = type({ named: 'string' });
    const Item = type({ sku: 'string' });
    const app = newApp();
    responseRoute(app, '/a', Item, { operationId: 'getA' });
    responseRoute(app, '/b', Item);
    const doc = generateOpenAPI(app, { info, schemas: { GetAResponse200: Named } });
    expect(responseSchema(doc, '/a')).toEqual({ $ref: `${COMPONENTS}GetAResponse2002` });
    expect(doc.components?.schemas?.GetAResponse200).toMatchObject({
      properties: { named: { type: 'string' } },
    });
  });
});

describe('SchemaRegistry', () => {
  const site = { owner: 'Route GET /x', part: 'response 200 body', suggestedName: 'GetX' };

  test('schemaFor returns the schema inline until countUse has seen it more than once', () => {
    const schema = type({ a: 'string' });
    const once = new SchemaRegistry();
    once.countUse(schema);
    expect(once.schemaFor(schema, 'output', site)).toMatchObject({ type: 'object' });
    expect(once.components).toEqual({});

    const twice = new SchemaRegistry();
    twice.countUse(schema);
    twice.countUse(schema);
    expect(twice.schemaFor(schema, 'output', site)).toEqual({ $ref: `${COMPONENTS}GetX` });
    expect(twice.schemaFor(schema, 'output', site)).toEqual({ $ref: `${COMPONENTS}GetX` });
    expect(Object.keys(twice.components)).toEqual(['GetX']);
  });

  test('inline asks for the schema itself even when it is a component', () => {
    const schema = type({ a: 'string' });
    const registry = new SchemaRegistry({ A: schema });
    const inline = registry.schemaFor(schema, 'input', site, undefined, true);
    expect(inline).toEqual(registry.components.A as JsonSchema);
    expect(inline).not.toBe(registry.components.A);
    expect(registry.schemaFor(schema, 'input', site)).toEqual({ $ref: `${COMPONENTS}A` });
  });
});
