/**
 * A contract the OpenAPI document cannot describe fails when the app becomes ready, not at the first
 * request for the document (issue 19): a route naming a security scheme nobody declared, a route
 * whose schema has no JSON Schema (a zod `Date`). With the document mounted, `ready()` and `serve()`
 * refuse with the generator's message; without it, nothing is generated and both start.
 */
import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { serve } from '@charter/bun';
import { httpBearerScheme } from '@charter/core';
import { z } from 'zod';

const UNDECLARED_SCHEME =
  'Route GET /x: auth names the security scheme "nope", which is not declared; declare it in the App option securitySchemes or the generator option securitySchemes';
const NO_JSON_SCHEMA = 'Route GET /d: response 200 body: the zod schema has no output JSON Schema';

function undeclaredScheme(options: ConstructorParameters<typeof App>[0] = {}): App {
  const app = new App({ openapi: true, logger: false, ...options });
  app.get('/x', { responses: { 200: {} }, auth: { scheme: 'nope' } }, () => ({ status: 200 }));
  return app;
}

function dateBody(options: ConstructorParameters<typeof App>[0] = {}): App {
  const app = new App({ openapi: true, logger: false, ...options });
  app.get('/d', { responses: { 200: { body: z.object({ at: z.date() }) } } }, () => ({
    status: 200,
    body: { at: new Date(0) },
  }));
  return app;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('ready() generates the mounted OpenAPI document', () => {
  test('a route naming an undeclared security scheme: ready() rejects with the clear message', async () => {
    const error = await rejection(undeclaredScheme().ready());
    expect(error.name).toBe('OpenAPIError');
    expect(error.message).toBe(UNDECLARED_SCHEME);
  });

  test('the same route with the scheme declared: ready, and the document names it', async () => {
    const app = undeclaredScheme({ securitySchemes: { nope: httpBearerScheme() } });
    await app.ready();
    const response = await app.request('/openapi.json');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { components: { securitySchemes: Record<string, unknown> } };
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['nope']);
  });

  test('a schema with no JSON Schema (Date): ready() rejects naming the route and the status', async () => {
    const error = await rejection(dateBody().ready());
    expect(error.name).toBe('OpenAPIError');
    expect(error.message).toStartWith(NO_JSON_SCHEMA);
  });

  test('the Date route with its escape hatch (openapi.jsonSchema) is ready', async () => {
    const app = new App({ openapi: true, logger: false });
    app.get(
      '/d',
      {
        responses: { 200: { body: z.object({ at: z.date() }) } },
        openapi: {
          jsonSchema: {
            responses: {
              200: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
            },
          },
        },
      },
      () => ({ status: 200, body: { at: new Date(0) } }),
    );
    await app.ready();
    expect((await app.request('/openapi.json')).status).toBe(200);
  });

  test('without the document mounted nothing is generated: the same routes are ready', async () => {
    await undeclaredScheme({ openapi: false }).ready();
    const app = dateBody({ openapi: false });
    await app.ready();
    expect((await app.request('/openapi.json')).status).toBe(404);
  });
});

describe('serve() refuses to start', () => {
  for (const [name, make, message] of [
    ['an undeclared security scheme', undeclaredScheme, UNDECLARED_SCHEME],
    ['a Date schema', dateBody, NO_JSON_SCHEMA],
  ] as const) {
    test(`charter/bun with ${name}: the start rejects with the generator's message`, async () => {
      const handle = serve(make(), { port: 0, hostname: '127.0.0.1', signals: false });
      const error = await rejection(handle.ready);
      expect(error.message).toStartWith(message);
      await handle.close(1000);
    });
  }
});

describe('an app never made ready, with an async plugin pending', () => {
  test('the first request makes it ready: it answers 500 naming the route, and logs why', async () => {
    const errors: string[] = [];
    const log = () => {};
    const app = new App({
      openapi: true,
      logger: { debug: log, info: log, warn: log, error: (message: string) => errors.push(message) },
    });
    app.register(async (scope) => {
      scope.get('/d', { responses: { 200: { body: z.object({ at: z.date() }) } } }, () => ({
        status: 200,
        body: { at: new Date(0) },
      }));
    });
    const response = await app.request('/d');
    expect(response.status).toBe(500);
    const problem = (await response.json()) as { detail: string };
    expect(problem.detail).toStartWith(`The app could not become ready: ${NO_JSON_SCHEMA}`);
    expect(errors).toContain('The app could not become ready; it answers 500 until it is fixed');
  });
});
