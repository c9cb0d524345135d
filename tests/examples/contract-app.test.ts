/** `bun examples/contract-app.ts`: starts, says what to try, and answers those requests. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RunningExample, startExample } from './support.ts';

describe('examples/contract-app.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('contract-app.ts');
  });
  afterAll(() => example?.stop());

  test('prints its URL and the requests to try', () => {
    expect(example.output()).toContain(`Contract example listening on ${example.url}`);
    expect(example.output()).toContain(`curl ${example.url}/openapi.json`);
  });

  test('GET /openapi.json is the 3.1 document with the example routes and schemes', async () => {
    const response = await fetch(`${example.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toStartWith('application/json');
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(document.openapi).toStartWith('3.1.');
    expect(Object.keys(document.paths)).toContain('/users/{id}');
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'bearerAuth',
      'oauth',
    ]);
  });

  test('GET /status and GET /users answer 200; POST /users without a credential is a 401 problem', async () => {
    const status = await fetch(`${example.url}/status`);
    expect(status.status).toBe(200);
    expect(((await status.json()) as { status: string }).status).toBe('pass');
    const list = await fetch(`${example.url}/users`);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ items: [] });
    const create = await fetch(`${example.url}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com' }),
    });
    expect(create.status).toBe(401);
    expect(create.headers.get('content-type')).toStartWith('application/problem+json');
  });

  test('GET /docs is the docs page', async () => {
    const docs = await fetch(`${example.url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toStartWith('text/html');
  });
});
