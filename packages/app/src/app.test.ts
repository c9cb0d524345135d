import { describe, expect, test } from 'bun:test';
import { App as CoreApp, httpBearerScheme } from '@charter/core';
import { generateOpenAPI } from '@charter/openapi';
import { type } from 'arktype';
import { parse } from 'yaml';
import { App, type AppOptions, createApp } from './app.ts';

function newApp(options: AppOptions = {}): App {
  return new App({ logger: false, ...options });
}

function addItemRoute(app: App): void {
  app.get(
    '/items/:id',
    {
      operationId: 'getItem',
      request: { params: type({ id: 'string' }) },
      responses: { 200: { body: type({ id: 'string' }) } },
    },
    (ctx) => ({ status: 200, body: { id: ctx.params.id } }),
  );
}

async function servedDocument(app: App, path = '/openapi.json'): Promise<Record<string, any>> {
  const res = await app.request(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  return (await res.json()) as Record<string, any>;
}

describe('App (charter/app)', () => {
  test('is the core App, answering requests as usual', async () => {
    const app = newApp();
    addItemRoute(app);
    expect(app).toBeInstanceOf(CoreApp);
    const res = await app.request('/items/a1');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'a1' });
  });

  test('createApp(options) is new App(options)', () => {
    const app = createApp({ logger: false, openapi: true });
    expect(app).toBeInstanceOf(App);
    expect(app.openapi?.path).toBe('/openapi.json');
  });

  test('without openapi or docs it serves no document: app.openapi is undefined and the paths are 404', async () => {
    for (const options of [{}, { openapi: false }, { docs: false }] as AppOptions[]) {
      const app = newApp(options);
      expect(app.openapi).toBeUndefined();
      expect((await app.request('/openapi.json')).status).toBe(404);
      expect((await app.request('/openapi.yaml')).status).toBe(404);
      expect(app.registeredRoutes()).toEqual([]);
    }
  });
});

describe('App option openapi', () => {
  test('openapi: true serves GET /openapi.json with info from the App title, version and description', async () => {
    const app = newApp({ openapi: true, title: 'Shop', version: '4.2.0', description: 'Things to buy' });
    addItemRoute(app);
    const doc = await servedDocument(app);
    expect(doc.info).toEqual({ title: 'Shop', version: '4.2.0', description: 'Things to buy' });
    expect(doc.paths['/items/{id}'].get.operationId).toBe('getItem');
    expect(doc).toEqual(
      JSON.parse(
        JSON.stringify(
          generateOpenAPI(app, { info: { title: 'Shop', version: '4.2.0', description: 'Things to buy' } }),
        ),
      ),
    );
  });

  test('openapi: true without App metadata uses title "API" and version "0.0.0"', async () => {
    expect((await servedDocument(newApp({ openapi: true }))).info).toEqual({
      title: 'API',
      version: '0.0.0',
    });
  });

  test('serves GET /openapi.yaml too, reading back to the JSON document', async () => {
    const app = newApp({ openapi: true, title: 'Shop' });
    addItemRoute(app);
    const res = await app.request('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(parse(await res.text(), { version: '1.2' })).toEqual(await servedDocument(app));
  });

  test('routes registered after the App is built are in the document; the document routes are not', async () => {
    const app = newApp({ openapi: true });
    expect(await servedDocument(app)).toMatchObject({ paths: {} });
    addItemRoute(app);
    const doc = await servedDocument(app);
    expect(Object.keys(doc.paths)).toEqual(['/items/{id}']);
    expect(JSON.stringify(doc)).not.toContain('openapi.yaml');
  });

  test('openapi options set the paths, info, servers and named schemas', async () => {
    const Item = type({ id: 'string' });
    const app = newApp({
      title: 'Ignored when info is given',
      openapi: {
        path: '/spec.json',
        yamlPath: false,
        info: { title: 'Items API', version: '1.0.0' },
        servers: [{ url: 'https://items.example.com' }],
        schemas: { Item },
      },
    });
    addItemRoute(app);
    expect(app.openapi?.path).toBe('/spec.json');
    expect(app.openapi?.yamlPath).toBe(false);
    expect((await app.request('/openapi.json')).status).toBe(404);
    expect((await app.request('/openapi.yaml')).status).toBe(404);
    const doc = await servedDocument(app, '/spec.json');
    expect(doc.info).toEqual({ title: 'Items API', version: '1.0.0' });
    expect(doc.servers).toEqual([{ url: 'https://items.example.com' }]);
    expect(doc.paths['/items/{id}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Item',
    });
  });

  test('the App securitySchemes are in the document and routes require them', async () => {
    const app = newApp({ openapi: true, securitySchemes: { bearer: httpBearerScheme() } });
    app.get('/me', { auth: { scheme: 'bearer' }, responses: { 204: {} } }, () => ({ status: 204 }));
    const doc = await servedDocument(app);
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });
    expect(doc.paths['/me'].get.security).toEqual([{ bearer: [] }]);
  });

  test('app.openapi.document() is the served document', async () => {
    const app = newApp({ openapi: true });
    addItemRoute(app);
    expect(JSON.parse(JSON.stringify(app.openapi?.document()))).toEqual(await servedDocument(app));
  });

  test('refuses an openapi option that is neither a boolean nor an options object', () => {
    for (const bad of ['yes', 1, null]) {
      expect(() => newApp({ openapi: bad as never })).toThrow(
        'App option openapi must be a boolean or an options object',
      );
    }
  });

  test('refuses bad openapi options with the mount error (TypeError naming the option)', () => {
    expect(() => newApp({ openapi: { path: 'openapi.json' } })).toThrow(
      'openapi.path must be a path starting with "/"',
    );
    expect(() => newApp({ openapi: { path: '/a', yamlPath: '/a' } })).toThrow(TypeError);
  });
});

describe('App option docs', () => {
  test('docs: true serves GET /docs as HTML and the OpenAPI document; neither route is in the document', async () => {
    const app = newApp({ docs: true });
    addItemRoute(app);
    const page = await app.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toStartWith('text/html');
    expect(page.headers.get('content-security-policy')).toBeString();
    expect(await page.text()).toContain('/openapi.json');
    const doc = await servedDocument(app);
    expect(Object.keys(doc.paths)).toEqual(['/items/{id}']);
    expect(app.openapi?.path).toBe('/openapi.json');
  });

  test('the docs page points at the configured document path', async () => {
    const app = newApp({ docs: { path: '/reference' }, openapi: { path: '/spec/openapi.json' } });
    expect((await app.request('/docs')).status).toBe(404);
    const page = await app.request('/reference');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/spec/openapi.json');
  });

  test('docs: "auto" is on outside production and off in production', async () => {
    const dev = newApp({ docs: 'auto', production: false });
    expect((await dev.request('/docs')).status).toBe(200);
    expect(dev.openapi).toBeDefined();
    const prod = newApp({ docs: 'auto', production: true });
    expect((await prod.request('/docs')).status).toBe(404);
    expect((await prod.request('/openapi.json')).status).toBe(404);
    expect(prod.openapi).toBeUndefined();
  });

  test('docs: "auto" in production keeps an explicitly requested OpenAPI document', async () => {
    const app = newApp({ docs: 'auto', production: true, openapi: true });
    expect((await app.request('/docs')).status).toBe(404);
    expect((await app.request('/openapi.json')).status).toBe(200);
  });

  test('refuses docs together with openapi: false', () => {
    expect(() => newApp({ docs: true, openapi: false })).toThrow(
      'App option docs needs the OpenAPI document; remove openapi: false',
    );
    // 'auto' is refused alike in production, where it would turn the page off anyway.
    expect(() => newApp({ docs: 'auto', openapi: false, production: true })).toThrow(
      'App option docs needs the OpenAPI document; remove openapi: false',
    );
  });

  test('refuses a docs value that is not true, false, "auto" or an options object', () => {
    for (const bad of ['always', 1, null]) {
      expect(() => newApp({ docs: bad as never })).toThrow(
        'App option docs must be true, false, "auto" or an options object',
      );
    }
  });

  test('refuses bad docs options with the mountDocs error', () => {
    expect(() => newApp({ docs: { path: 'docs' } })).toThrow(TypeError);
    expect(() => newApp({ docs: { unknown: 1 } as never })).toThrow('mountDocs has no option "unknown"');
  });
});
