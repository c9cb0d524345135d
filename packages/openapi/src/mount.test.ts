import { describe, expect, test } from 'bun:test';
import { App, type AppOptions, type Logger, type StandardSchemaV1 } from '@charter/core';
import { type } from 'arktype';
import * as v from 'valibot';
import { parse } from 'yaml';
import { generateOpenAPI } from './generate.ts';
import { appInfo, mountOpenAPI } from './mount.ts';

function newApp(options: AppOptions = {}): App {
  return new App({ logger: false, ...options });
}

function addRoute(app: App, path: string, contract: Record<string, unknown> = {}): void {
  app.route({
    method: 'GET',
    path,
    responses: { 200: { body: type({ ok: 'boolean' }) } },
    handler: () => ({ status: 200, body: { ok: true } }),
    ...contract,
  } as never);
}

/** A response schema that counts how often its JSON Schema is asked for: once per generated document. */
function countingSchema(): { schema: StandardSchemaV1<unknown, unknown>; calls: () => number } {
  let calls = 0;
  const describe = () => {
    calls++;
    return { type: 'object', properties: { n: { type: 'integer' } } };
  };
  return {
    schema: {
      '~standard': {
        version: 1,
        vendor: 'counter',
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: describe, output: describe },
      },
    },
    calls: () => calls,
  };
}

/** A logger keeping what it is given. */
function recordingLogger(): { logger: Logger; errors: string[] } {
  const errors: string[] = [];
  const ignore = () => {};
  return {
    logger: { debug: ignore, info: ignore, warn: ignore, error: (message) => errors.push(message) },
    errors,
  };
}

describe('mountOpenAPI', () => {
  test('returns where it serves the document: /openapi.json and /openapi.yaml by default', () => {
    const mounted = mountOpenAPI(newApp());
    expect(mounted.path).toBe('/openapi.json');
    expect(mounted.yamlPath).toBe('/openapi.yaml');
  });

  test('GET /openapi.json answers 200 application/json, no-cache, with the generated document', async () => {
    const app = newApp({ title: 'Shop', version: '3.0.0' });
    mountOpenAPI(app);
    addRoute(app, '/items/:id', { operationId: 'getItem' });
    const res = await app.request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const body = await res.json();
    expect(body).toEqual(
      JSON.parse(JSON.stringify(generateOpenAPI(app, { info: { title: 'Shop', version: '3.0.0' } }))),
    );
    expect(body.paths['/items/{id}'].get.operationId).toBe('getItem');
  });

  test('GET /openapi.yaml answers 200 application/yaml, no-cache, and reads back to the same document', async () => {
    const app = newApp();
    mountOpenAPI(app, { info: { title: 'Y', version: '1' } });
    addRoute(app, '/a', { summary: 'yes: no # not a comment' });
    const res = await app.request('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const expected = JSON.parse(JSON.stringify(generateOpenAPI(app, { info: { title: 'Y', version: '1' } })));
    expect(parse(await res.text(), { version: '1.2' })).toEqual(expected);
  });

  test('document() gives the same document the routes serve', () => {
    const app = newApp();
    const mounted = mountOpenAPI(app, {
      info: { title: 'D', version: '1' },
      servers: [{ url: 'https://d.example' }],
    });
    addRoute(app, '/d');
    expect(mounted.document()).toEqual(
      generateOpenAPI(app, { info: { title: 'D', version: '1' }, servers: [{ url: 'https://d.example' }] }),
    );
  });

  test('the two document routes are registered but left out of the document', () => {
    const app = newApp();
    const mounted = mountOpenAPI(app);
    expect(app.registeredRoutes().map((r) => r.path)).toEqual(['/openapi.json', '/openapi.yaml']);
    expect(mounted.document().paths).toEqual({});
  });

  test('passes the generator options through: servers, named schemas, webhooks, tags, extensions', () => {
    const User = type({ id: 'string' });
    const app = newApp();
    const mounted = mountOpenAPI(app, {
      servers: [{ url: 'https://api.example.com' }],
      schemas: { User },
      tags: [{ name: 'users', description: 'People' }],
      webhooks: { ping: { method: 'POST', responses: { 204: {} } } },
      extensions: { 'x-audience': 'public' },
    });
    const doc = mounted.document();
    expect(doc.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(doc.components?.schemas?.User).toBeDefined();
    expect(doc.tags).toEqual([{ name: 'users', description: 'People' }]);
    expect(doc.webhooks?.ping?.post).toBeDefined();
    expect(doc['x-audience']).toBe('public');
  });

  test('generates the document once and serves it again from the cache, JSON and YAML alike', async () => {
    const counter = countingSchema();
    const app = newApp();
    const mounted = mountOpenAPI(app);
    addRoute(app, '/counted', { responses: { 200: { body: counter.schema } } });
    expect(counter.calls()).toBe(0);
    for (let i = 0; i < 3; i++) expect((await app.request('/openapi.json')).status).toBe(200);
    expect((await app.request('/openapi.yaml')).status).toBe(200);
    expect(mounted.document()).toBe(mounted.document());
    expect(counter.calls()).toBe(1);
  });

  test('serves the very same text on every request until the document changes', async () => {
    const app = newApp();
    mountOpenAPI(app);
    addRoute(app, '/a');
    const [first, second] = await Promise.all([app.request('/openapi.json'), app.request('/openapi.json')]);
    expect(await first.text()).toBe(await second.text());
  });

  test('a route added after the first request makes the next response a new document that includes it', async () => {
    const counter = countingSchema();
    const app = newApp();
    const mounted = mountOpenAPI(app);
    addRoute(app, '/counted', { responses: { 200: { body: counter.schema } } });
    const before = await (await app.request('/openapi.json')).json();
    expect(Object.keys(before.paths)).toEqual(['/counted']);
    addRoute(app, '/later', { operationId: 'later' });
    const after = await (await app.request('/openapi.json')).json();
    expect(Object.keys(after.paths)).toEqual(['/counted', '/later']);
    expect(parse(await (await app.request('/openapi.yaml')).text()).paths['/later'].get.operationId).toBe(
      'later',
    );
    expect(mounted.document().paths['/later']).toBeDefined();
    expect(counter.calls()).toBe(2);
  });

  test('a route that cannot be described gives a 500 problem whose detail names it, and is logged', async () => {
    const { logger, errors } = recordingLogger();
    const app = new App({ logger, production: false });
    mountOpenAPI(app);
    addRoute(app, '/legacy', { responses: { 200: { body: v.object({ a: v.string() }) } } });
    for (const path of ['/openapi.json', '/openapi.yaml']) {
      const res = await app.request(path);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const problem = await res.json();
      expect(problem).toMatchObject({ type: 'https://charter.dev/errors/internal', status: 500 });
      expect(problem.detail).toStartWith('Route GET /legacy: response 200 body: a valibot schema');
    }
    expect(errors).toContain('The OpenAPI document cannot be generated');
    expect(() => mountOpenAPI(newApp()).document()).not.toThrow();
  });

  test('a document that cannot be generated is tried once per set of routes, not on every request', async () => {
    const { logger, errors } = recordingLogger();
    let calls = 0;
    const broken: StandardSchemaV1<unknown, unknown> = {
      '~standard': {
        version: 1,
        vendor: 'broken',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => {
            calls++;
            throw new Error('no JSON Schema');
          },
          output: () => {
            calls++;
            throw new Error('no JSON Schema');
          },
        },
      },
    };
    const app = new App({ logger, production: false });
    const mounted = mountOpenAPI(app);
    addRoute(app, '/broken', { responses: { 200: { body: broken } } });
    for (const path of ['/openapi.json', '/openapi.json', '/openapi.yaml']) {
      expect((await app.request(path)).status).toBe(500);
    }
    expect(() => mounted.document()).toThrow('Route GET /broken: response 200 body');
    expect(calls).toBe(1);
    expect(errors).toEqual(['The OpenAPI document cannot be generated']);
    addRoute(app, '/later');
    expect((await app.request('/openapi.json')).status).toBe(500);
    expect(calls).toBe(2);
  });

  test('in production the 500 problem does not reveal the route', async () => {
    const app = newApp({ production: true });
    mountOpenAPI(app);
    addRoute(app, '/legacy', { responses: { 200: { body: v.object({ a: v.string() }) } } });
    const res = await app.request('/openapi.json');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ status: 500, title: 'Internal Server Error' });
    expect(text).not.toContain('/legacy');
    expect(text).not.toContain('valibot');
  });

  test('custom paths serve the document there and the default paths answer 404', async () => {
    const app = newApp();
    const mounted = mountOpenAPI(app, { path: '/spec/v1.json', yamlPath: '/spec/v1.yaml' });
    expect([mounted.path, mounted.yamlPath]).toEqual(['/spec/v1.json', '/spec/v1.yaml']);
    expect((await app.request('/spec/v1.json')).status).toBe(200);
    expect((await app.request('/spec/v1.yaml')).status).toBe(200);
    expect((await app.request('/openapi.json')).status).toBe(404);
    expect((await app.request('/openapi.yaml')).status).toBe(404);
  });

  test('yamlPath: false serves no YAML document (404)', async () => {
    const app = newApp();
    const mounted = mountOpenAPI(app, { yamlPath: false });
    expect(mounted.yamlPath).toBe(false);
    expect((await app.request('/openapi.yaml')).status).toBe(404);
    expect((await app.request('/openapi.json')).status).toBe(200);
    expect(app.registeredRoutes().map((r) => r.path)).toEqual(['/openapi.json']);
  });

  test('refuses options that are not an object', () => {
    expect(() => mountOpenAPI(newApp(), null as never)).toThrow('openapi options must be an object');
    expect(() => mountOpenAPI(newApp(), 'yes' as never)).toThrow(TypeError);
  });

  test('refuses a path or yamlPath that is not a path starting with "/", or has a query or fragment', () => {
    for (const bad of ['openapi.json', '', 3, '/spec?x=1', '/spec#top']) {
      expect(() => mountOpenAPI(newApp(), { path: bad as never })).toThrow(
        'openapi.path must be a path starting with "/"',
      );
      expect(() => mountOpenAPI(newApp(), { yamlPath: bad as never })).toThrow(
        'openapi.yamlPath must be a path',
      );
    }
  });

  test('refuses a path or yamlPath with a route parameter or wildcard: the document has one URL', () => {
    for (const bad of ['/spec/:version', '/docs/*rest']) {
      expect(() => mountOpenAPI(newApp(), { path: bad })).toThrow(
        `openapi.path must not contain route parameters, got "${bad}"`,
      );
      expect(() => mountOpenAPI(newApp(), { yamlPath: bad })).toThrow(
        `openapi.yamlPath must not contain route parameters, got "${bad}"`,
      );
    }
  });

  test('refuses the same path for JSON and YAML', () => {
    expect(() => mountOpenAPI(newApp(), { path: '/spec', yamlPath: '/spec' })).toThrow(
      'openapi.path and openapi.yamlPath must differ',
    );
  });

  test('refuses an invalid info when mounting, not at the first request', () => {
    expect(() => mountOpenAPI(newApp(), { info: { title: '', version: '1' } })).toThrow('info.title');
  });
});

describe('appInfo', () => {
  test('takes title, version and description from the App options', () => {
    expect(appInfo(newApp({ title: 'Shop', version: '2.0.0', description: 'Buy things' }))).toEqual({
      title: 'Shop',
      version: '2.0.0',
      description: 'Buy things',
    });
  });

  test('defaults to title "API" and version "0.0.0", without a description', () => {
    expect(appInfo(newApp())).toEqual({ title: 'API', version: '0.0.0' });
  });
});
