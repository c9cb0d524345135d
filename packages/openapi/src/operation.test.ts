import { describe, expect, test } from 'bun:test';
import { apiKeyScheme, App, type AppOptions, httpBearerScheme, type JsonSchema } from '@charter/core';
import { type } from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';
import { OpenAPIError } from './errors.ts';
import { generateOpenAPI } from './generate.ts';
import { assertCallbacks } from './operation.ts';
import type { OpenAPIDocument, Operation, Parameter } from './types.ts';

const info = { title: 'Operations', version: '1.0.0' };
const PROBLEM = { $ref: '#/components/schemas/ProblemDetails' };
// Route handlers are never called here: only the contracts are read.
const unused = (): never => {
  throw new Error('not called');
};

function newApp(options: AppOptions = {}): App {
  return new App({ logger: false, ...options });
}

/** Registers one route from a contract (method, path, the rest) and returns the app. */
function withRoute(route: Record<string, unknown>, app: App = newApp()): App {
  app.route({ method: 'GET', path: '/x', responses: { 204: {} }, handler: unused, ...route } as never);
  return app;
}

function operation(doc: OpenAPIDocument, path = '/x', method = 'get'): Operation {
  const op = (doc.paths[path] as Record<string, Operation> | undefined)?.[method];
  if (op === undefined) throw new Error(`no operation ${method} ${path} in the document`);
  return op;
}

/** Parameters sorted by name: their order within one location follows the schema library. */
function byName(params: readonly Parameter[]): Parameter[] {
  return [...params].sort((a, b) => a.name.localeCompare(b.name));
}

function op(route: Record<string, unknown>, options: Record<string, unknown> = {}): Operation {
  const path = (route.path as string | undefined) ?? '/x';
  const template = path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
  return operation(
    generateOpenAPI(withRoute(route), { info, ...options }),
    template,
    String(route.method ?? 'get').toLowerCase(),
  );
}

describe('path parameters', () => {
  test('every path parameter is listed in: path, required (OpenAPI 3.1 §4.8.12.2), typed string by default', () => {
    expect(op({ path: '/orgs/:org/repos/:repo' }).parameters).toEqual([
      { name: 'org', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  test('takes the schema of a path parameter from request.params, others default to string', () => {
    const params = op({
      path: '/orgs/:org/items/:n',
      request: { params: type({ n: 'string.integer.parse' }) },
    }).parameters;
    expect(params?.[0]).toEqual({ name: 'org', in: 'path', required: true, schema: { type: 'string' } });
    expect(params?.[1]).toMatchObject({ name: 'n', in: 'path', required: true, schema: { type: 'string' } });
    expect(params?.[1]?.schema?.pattern).toBeString();
  });

  test('a wildcard is a path parameter marked x-charter-wildcard, described as holding "/" too', () => {
    expect(op({ path: '/files/*path' }).parameters).toEqual([
      {
        name: 'path',
        in: 'path',
        required: true,
        schema: { type: 'string' },
        description: 'The rest of the path; may contain "/".',
        'x-charter-wildcard': true,
      },
    ]);
  });

  test('a wildcard keeps the description its schema gives', () => {
    const [param] =
      op({
        path: '/files/*path',
        request: { params: z.object({ path: z.string().describe('A file path') }) },
      }).parameters ?? [];
    expect(param?.description).toBe('A file path');
    expect(param?.['x-charter-wildcard']).toBe(true);
  });

  test('a params schema that is not an object with properties is an OpenAPIError naming the route', () => {
    expect(() => op({ path: '/x/:id', request: { params: type('string') } })).toThrow(
      'Route GET /x/:id: path parameters: the schema must describe an object with named properties',
    );
  });
});

describe('query and header parameters', () => {
  test('each query property is a parameter in: query, required as the schema required list says', () => {
    const params =
      op({ request: { query: type({ q: 'string', 'limit?': 'number.integer' }) } }).parameters ?? [];
    expect(byName(params)).toEqual([
      { name: 'limit', in: 'query', schema: { type: 'integer' } },
      { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
    ]);
  });

  test('a property description and deprecated flag are carried to the parameter', () => {
    const params = op({
      request: {
        query: z.object({
          q: z.string().describe('Full-text search'),
          old: z.string().optional().meta({ deprecated: true }),
        }),
      },
    }).parameters;
    expect(params?.find((p) => p.name === 'q')).toMatchObject({
      description: 'Full-text search',
      required: true,
    });
    expect(params?.find((p) => p.name === 'old')).toMatchObject({ deprecated: true });
    expect(params?.find((p) => p.name === 'old')?.required).toBeUndefined();
  });

  test('a query schema that is not an object with properties is an OpenAPIError naming the route and "query"', () => {
    for (const query of [type('string'), type({ a: 'string' }).or({ b: 'string' }), z.array(z.string())]) {
      const run = () => op({ path: '/search', request: { query } });
      expect(run).toThrow(OpenAPIError);
      expect(run).toThrow('Route GET /search: query: the schema must describe an object');
    }
  });

  test('each header property is a parameter in: header, with its required flag', () => {
    const params = op({
      request: { headers: type({ 'x-request-id': 'string', 'if-match?': 'string' }) },
    }).parameters;
    expect(byName(params ?? [])).toEqual([
      { name: 'if-match', in: 'header', schema: { type: 'string' } },
      { name: 'x-request-id', in: 'header', required: true, schema: { type: 'string' } },
    ]);
  });

  test('Accept, Content-Type and Authorization headers are left out whatever their case (§4.8.12.1)', () => {
    const params = op({
      request: {
        headers: type({
          Accept: 'string',
          'content-type': 'string',
          AUTHORIZATION: 'string',
          'x-keep': 'string',
        }),
      },
    }).parameters;
    expect(params?.map((p) => p.name)).toEqual(['x-keep']);
  });

  test('a headers schema that is not an object is an OpenAPIError naming "headers"', () => {
    expect(() => op({ request: { headers: type('string') } })).toThrow(
      'Route GET /x: headers: the schema must describe',
    );
  });

  test('parameters come path first, then query, then headers; none gives no parameters member', () => {
    const params = op({
      path: '/x/:id',
      request: { query: type({ q: 'string' }), headers: type({ 'x-h': 'string' }) },
    }).parameters;
    expect(params?.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id', 'query:q', 'header:x-h']);
    expect('parameters' in op({})).toBe(false);
  });
});

describe('request bodies', () => {
  const Body = type({ name: 'string' });
  const bodyJson = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

  test('lists one media type per route request.contentTypes, required: true', () => {
    const body = op({
      method: 'POST',
      request: { body: Body, contentTypes: ['application/json', 'text/csv'] },
    }).requestBody;
    expect(body?.required).toBe(true);
    expect(Object.keys(body?.content ?? {})).toEqual(['application/json', 'text/csv']);
  });

  test('without request.contentTypes, lists the app allowedContentTypes', () => {
    const defaults = op({ method: 'POST', request: { body: Body } }).requestBody;
    expect(Object.keys(defaults?.content ?? {})).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    const app = withRoute(
      { method: 'POST', request: { body: Body } },
      newApp({ allowedContentTypes: ['application/cbor'] }),
    );
    expect(
      Object.keys(operation(generateOpenAPI(app, { info }), '/x', 'post').requestBody?.content ?? {}),
    ).toEqual(['application/cbor']);
  });

  test('the body schema is under every media type (inline when used once)', () => {
    const body = op({
      method: 'POST',
      request: { body: Body, contentTypes: ['application/json'] },
    }).requestBody;
    expect(body?.content['application/json']?.schema).toEqual(bodyJson);
  });

  test('route examples with a request body become named examples under every media type', () => {
    const body = op({
      method: 'POST',
      request: { body: Body, contentTypes: ['application/json', 'application/x-www-form-urlencoded'] },
      responses: { 201: {} },
      examples: [
        {
          name: 'ada',
          summary: 'A new member',
          request: { body: { name: 'Ada' } },
          response: { status: 201 },
        },
        { request: { body: { name: 'Bob' } }, response: { status: 201 } },
        { name: 'noBody', request: { query: { a: 1 } }, response: { status: 201 } },
      ],
    }).requestBody;
    const expected = {
      ada: { summary: 'A new member', value: { name: 'Ada' } },
      example2: { value: { name: 'Bob' } },
    };
    expect(body?.content['application/json']?.examples).toEqual(expected);
    expect(body?.content['application/x-www-form-urlencoded']?.examples).toEqual(expected);
  });

  test('no request body example gives no examples member; no body gives no requestBody', () => {
    expect(
      op({ method: 'POST', request: { body: Body } }).requestBody?.content['application/json'],
    ).not.toHaveProperty('examples');
    expect(op({ method: 'POST' })).not.toHaveProperty('requestBody');
  });

  test('a body that cannot describe itself is an OpenAPIError naming the route and "request body"', () => {
    expect(() => op({ method: 'POST', request: { body: v.object({ a: v.string() }) } })).toThrow(
      /^Route POST \/x: request body: /,
    );
  });
});

describe('responses', () => {
  test('lists every declared status in numeric order, with the default description "HTTP <status> response"', () => {
    const responses = op({ responses: { 404: {}, 200: {}, 201: {} } }).responses;
    // 400, 408 (the default 30 s timeout) and 431 are the framework's own answers (framework-answers.test.ts).
    expect(Object.keys(responses)).toEqual(['200', '201', '400', '404', '408', '431']);
    expect(responses['200']).toEqual({ description: 'HTTP 200 response' });
    expect(responses['201']).toEqual({ description: 'HTTP 201 response' });
  });

  test('keeps a custom description', () => {
    expect(op({ responses: { 204: { description: 'Deleted' } } }).responses['204']).toEqual({
      description: 'Deleted',
    });
  });

  test('a body schema is under application/json by default, or under the declared contentType', () => {
    const responses = op({
      responses: {
        200: { body: type({ id: 'string' }) },
        203: { body: type({ key: 'string' }), contentType: 'application/vnd.api+json' },
      },
    }).responses;
    expect(Object.keys(responses['200']?.content ?? {})).toEqual(['application/json']);
    expect(responses['203']?.content?.['application/vnd.api+json']?.schema).toMatchObject({ type: 'object' });
  });

  test('a declared text or binary content type without a schema is described as a string', () => {
    const responses = op({
      responses: { 200: { contentType: 'text/plain' }, 203: { contentType: 'application/octet-stream' } },
    }).responses;
    expect(responses['200']?.content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
    expect(responses['203']?.content).toEqual({ 'application/octet-stream': { schema: { type: 'string' } } });
  });

  test('a declared JSON content type without a schema lists the media type with no schema', () => {
    expect(op({ responses: { 200: { contentType: 'application/json' } } }).responses['200']?.content).toEqual(
      {
        'application/json': {},
      },
    );
  });

  test('an error status without a schema is an RFC 9457 problem document: application/problem+json ProblemDetails', () => {
    const responses = op({
      responses: { 200: {}, 404: { description: 'No such thing' }, 500: {} },
    }).responses;
    expect(responses['404']).toEqual({
      description: 'No such thing',
      content: { 'application/problem+json': { schema: PROBLEM } },
    });
    expect(responses['500']?.content).toEqual({ 'application/problem+json': { schema: PROBLEM } });
    // A success status without a body has no content at all.
    expect(responses['200']).toEqual({ description: 'HTTP 200 response' });
  });

  test('an error status with its own schema or content type keeps it instead of ProblemDetails', () => {
    const responses = op({
      responses: { 400: { body: type({ errors: 'string[]' }) }, 503: { contentType: 'text/plain' } },
    }).responses;
    // The framework's own 400 (a malformed request) is a problem document, listed beside the declared body.
    expect(Object.keys(responses['400']?.content ?? {})).toEqual([
      'application/json',
      'application/problem+json',
    ]);
    expect(responses['503']?.content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
  });

  test('response headers are listed with their description and schema, a string when no schema is given', () => {
    const responses = op({
      responses: {
        201: {
          headers: {
            location: { description: 'URL of the new item' },
            'x-rate-limit-remaining': { schema: type('number.integer >= 0') },
          },
        },
        204: { headers: {} },
      },
    }).responses;
    expect(responses['201']?.headers).toEqual({
      location: { description: 'URL of the new item', schema: { type: 'string' } },
      'x-rate-limit-remaining': { schema: { type: 'integer', minimum: 0 } },
    });
    expect(responses['204']).not.toHaveProperty('headers');
  });

  test('a header schema that cannot describe itself is an OpenAPIError naming the header', () => {
    expect(() => op({ responses: { 200: { headers: { etag: { schema: v.string() } } } } })).toThrow(
      'Route GET /x: response 200 header etag: ',
    );
  });

  test('response examples accept the Example Object form (value or externalValue) and the bare value', () => {
    const examples = op({
      responses: {
        200: {
          body: type({ id: 'string' }),
          examples: {
            full: { summary: 'An item', description: 'One item', value: { id: 'a' } },
            remote: { externalValue: 'https://example.com/item.json' },
            bare: { id: 'b' },
            scalar: 42,
          },
        },
      },
    }).responses['200']?.content?.['application/json']?.examples;
    expect(examples).toEqual({
      full: { summary: 'An item', description: 'One item', value: { id: 'a' } },
      remote: { externalValue: 'https://example.com/item.json' },
      bare: { value: { id: 'b' } },
      scalar: { value: 42 },
    });
  });

  test('a bare example value that merely has a "value" member is wrapped, not taken for an Example Object', () => {
    const examples = op({
      responses: {
        200: { body: type({ value: 'number', unit: 'string' }), examples: { kg: { value: 3, unit: 'kg' } } },
      },
    }).responses['200']?.content?.['application/json']?.examples;
    // §4.8.19: an Example Object has only summary, description, value, externalValue and x- members.
    expect(examples).toEqual({ kg: { value: { value: 3, unit: 'kg' } } });
  });

  test('route examples join the examples of the response with their status, by name', () => {
    const responses = op({
      responses: {
        200: { body: type({ id: 'string' }), examples: { listed: { value: { id: 'l' } } } },
        201: { body: type({ id: 'string' }) },
        204: {},
      },
      examples: [
        { name: 'found', summary: 'Found it', response: { status: 200, body: { id: 'f' } } },
        { response: { status: 201, body: { id: 'c' } } },
        { name: 'empty', response: { status: 204 } },
      ],
    }).responses;
    expect(responses['200']?.content?.['application/json']?.examples).toEqual({
      listed: { value: { id: 'l' } },
      found: { summary: 'Found it', value: { id: 'f' } },
    });
    expect(responses['201']?.content?.['application/json']?.examples).toEqual({
      example2: { value: { id: 'c' } },
    });
    expect(responses['204']).toEqual({ description: 'HTTP 204 response' });
  });

  test('a response body that cannot describe itself is an OpenAPIError naming the status', () => {
    expect(() => op({ responses: { 200: { body: v.string() } } })).toThrow(
      /^Route GET \/x: response 200 body: /,
    );
  });
});

describe('operation metadata', () => {
  test('carries operationId, summary, description and deprecated', () => {
    const operation = op({
      operationId: 'listThings',
      summary: 'List things',
      description: 'All of them, **paged**.',
      deprecated: true,
    });
    expect(operation).toMatchObject({
      operationId: 'listThings',
      summary: 'List things',
      description: 'All of them, **paged**.',
      deprecated: true,
    });
  });

  test('leaves out what the route does not declare, and deprecated: false', () => {
    const operation = op({ deprecated: false, tags: [] });
    for (const key of ['operationId', 'summary', 'description', 'deprecated', 'tags']) {
      expect(operation).not.toHaveProperty(key);
    }
  });

  test('lists the group tags, then the route own tags', () => {
    const app = newApp();
    app.group('/admin', { tags: ['admin'] }, (g) => {
      g.get('/users', { tags: ['users'], responses: { 204: {} } }, unused);
    });
    expect(operation(generateOpenAPI(app, { info }), '/admin/users').tags).toEqual(['admin', 'users']);
  });

  test('meta members become x-charter-<key> extensions; undefined values are skipped', () => {
    const operation = op({
      meta: { rateLimit: { max: 10 }, 'audit.level': 'high', public: true, gone: undefined },
    });
    expect(operation['x-charter-rateLimit']).toEqual({ max: 10 });
    expect(operation['x-charter-audit.level']).toBe('high');
    expect(operation['x-charter-public']).toBe(true);
    expect(operation).not.toHaveProperty('x-charter-gone');
  });

  test('a meta key outside ^[A-Za-z0-9._-]+$ is an OpenAPIError naming the route and the key', () => {
    for (const key of ['has space', 'ünïcode', '', 'a:b']) {
      const run = () => op({ meta: { [key]: 1 } });
      expect(run).toThrow(OpenAPIError);
      expect(run).toThrow(`Route GET /x: meta key "${key}"`);
    }
  });
});

describe('security requirements', () => {
  const schemes = { bearer: httpBearerScheme(), key: apiKeyScheme({ in: 'header', name: 'x-api-key' }) };

  test('a route without auth says so with security: [] (§4.8.10), overriding any top-level default', () => {
    expect(op({}).security).toEqual([]);
  });

  test('a route with auth requires its scheme with its scopes', () => {
    const app = newApp({ securitySchemes: schemes });
    withRoute({ auth: { scheme: 'bearer', scopes: ['things:read', 'things:write'] } }, app);
    withRoute({ path: '/k', auth: { scheme: 'key' } }, app);
    const doc = generateOpenAPI(app, { info });
    expect(operation(doc).security).toEqual([{ bearer: ['things:read', 'things:write'] }]);
    expect(operation(doc, '/k').security).toEqual([{ key: [] }]);
  });

  test('an optional auth lists the empty requirement beside the scheme (§4.8.30)', () => {
    const app = newApp({ securitySchemes: schemes });
    withRoute({ auth: { scheme: 'bearer', scopes: ['docs:read'], optional: true } }, app);
    expect(operation(generateOpenAPI(app, { info })).security).toEqual([{}, { bearer: ['docs:read'] }]);
  });

  test('a group auth applies to its routes', () => {
    const app = newApp({ securitySchemes: schemes });
    app.group('/admin', { auth: { scheme: 'bearer', scopes: ['admin'] } }, (g) => {
      g.get('/x', { responses: { 204: {} } }, unused);
    });
    expect(operation(generateOpenAPI(app, { info }), '/admin/x').security).toEqual([{ bearer: ['admin'] }]);
  });

  test('the generator option securitySchemes is used instead of the App option', () => {
    const app = withRoute({ auth: { scheme: 'token' } });
    expect(
      operation(generateOpenAPI(app, { info, securitySchemes: { token: httpBearerScheme() } })).security,
    ).toEqual([{ token: [] }]);
  });

  test('auth naming a scheme that is not declared is an OpenAPIError naming the route and the scheme', () => {
    const app = withRoute({ auth: { scheme: 'token' } });
    const run = () => generateOpenAPI(app, { info });
    expect(run).toThrow(OpenAPIError);
    expect(run).toThrow('Route GET /x: auth names the security scheme "token", which is not declared');
    expect(() => generateOpenAPI(app, { info, securitySchemes: schemes })).toThrow('"token"');
  });
});

describe('callbacks', () => {
  const Event = type({ id: 'string', status: "'ready' | 'failed'" });

  function callbackApp(extra: Record<string, unknown> = {}): OpenAPIDocument {
    const app = withRoute({
      method: 'POST',
      path: '/jobs',
      request: { body: type({ callbackUrl: 'string.url' }), contentTypes: ['application/json'] },
      responses: { 202: {} },
      callbacks: {
        jobDone: {
          '{$request.body#/callbackUrl}': {
            method: 'POST',
            summary: 'The job finished',
            request: { body: Event, headers: type({ 'x-signature': 'string' }) },
            responses: { 204: { description: 'Received' }, 410: {} },
            ...extra,
          },
        },
      },
    });
    return generateOpenAPI(app, { info });
  }

  test('each callback is a map of runtime expressions to Path Items with the callback operation', () => {
    const callbacks = operation(callbackApp(), '/jobs', 'post').callbacks;
    const cb = callbacks?.jobDone?.['{$request.body#/callbackUrl}']?.post;
    expect(cb?.summary).toBe('The job finished');
    expect(cb?.parameters).toEqual([
      { name: 'x-signature', in: 'header', required: true, schema: { type: 'string' } },
    ]);
    expect(cb?.responses['204']).toEqual({ description: 'Received' });
    expect(cb?.responses['410']?.content).toEqual({ 'application/problem+json': { schema: PROBLEM } });
  });

  test('a callback body is described as JSON only, whatever the app accepts in requests', () => {
    const cb = operation(callbackApp(), '/jobs', 'post').callbacks?.jobDone?.['{$request.body#/callbackUrl}']
      ?.post;
    expect(Object.keys(cb?.requestBody?.content ?? {})).toEqual(['application/json']);
    expect(cb?.requestBody?.required).toBe(true);
    expect(cb?.requestBody?.content['application/json']?.schema).toMatchObject({ type: 'object' });
  });

  test('a callback schema that cannot describe itself is an OpenAPIError naming route and callback', () => {
    expect(() => callbackApp({ request: { body: v.object({}) } })).toThrow(
      /^Route POST \/jobs callback jobDone: request body: /,
    );
  });

  test('a malformed callback is refused at registration, naming route, callback and expression', () => {
    const expression = '{$request.body#/callbackUrl}';
    const cases: [Record<string, unknown>, string][] = [
      [{ method: undefined }, `callback jobDone: ${expression}: must declare method and responses`],
      [{ method: 'FETCH' }, `callback jobDone: ${expression}: must declare method and responses`],
      [{ responses: undefined }, `callback jobDone: ${expression}: must declare method and responses`],
      [{ responses: {} }, `callback jobDone: ${expression}: responses must declare at least one status`],
      [
        { responses: { ok: {} } },
        `callback jobDone: ${expression}: response status "ok" must be an integer from 100 to 599`,
      ],
    ];
    for (const [extra, message] of cases) {
      const run = () => callbackApp(extra);
      expect(run).toThrow(TypeError);
      expect(run).toThrow(`Route POST /jobs ${message}`);
    }
    expect(() => withRoute({ method: 'POST', path: '/jobs', callbacks: { jobDone: null } })).toThrow(
      new TypeError('Route POST /jobs callback jobDone: must map runtime expressions to operations'),
    );
  });

  test('assertCallbacks reports a malformed callback as an OpenAPIError (webhooks are never registered)', () => {
    expect(() =>
      assertCallbacks('Webhook ping', {
        ack: { '{$request.body#/url}': { method: 'POST', responses: {} } },
      } as never),
    ).toThrow(
      new OpenAPIError(
        'Webhook ping callback ack: {$request.body#/url}: responses must declare at least one status',
      ),
    );
    expect(() =>
      assertCallbacks('Webhook ping', {
        ack: { '{$request.body#/url}': { method: 'POST', responses: { 204: {} } } },
      } as never),
    ).not.toThrow();
  });

  test('a route without callbacks has no callbacks member', () => {
    expect(op({})).not.toHaveProperty('callbacks');
  });
});

describe('schemas used as parameters stay JSON Schema objects', () => {
  test('a parameter schema is the property schema itself (no wrapping, no $schema)', () => {
    const q = op({ request: { query: type({ n: '1 <= number <= 5' }) } }).parameters?.[0]
      ?.schema as JsonSchema;
    expect(q).toEqual({ type: 'number', minimum: 1, maximum: 5 });
  });
});
