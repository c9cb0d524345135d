/** `bun examples/todo-app.ts`: starts, says what to try, and answers those requests. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RunningExample, startExample } from './support.ts';

describe('examples/todo-app.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('todo-app.ts');
  });
  afterAll(() => example?.stop());

  test('prints its URL and the requests to try', () => {
    expect(example.output()).toContain(`To-do API listening on ${example.url}`);
    expect(example.output()).toContain(`curl ${example.url}/todos`);
  });

  test('POST /todos creates a to-do (201, Location), GET /todos lists it', async () => {
    const created = await fetch(`${example.url}/todos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Read the docs' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/todos/1');
    expect(await created.json()).toEqual({ id: 1, title: 'Read the docs', done: false });
    const list = await fetch(`${example.url}/todos`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toStartWith('application/json');
    expect(await list.json()).toEqual([{ id: 1, title: 'Read the docs', done: false }]);
  });

  test('GET /todos/abc is a 422 problem naming params.id', async () => {
    const response = await fetch(`${example.url}/todos/abc`);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toStartWith('application/problem+json');
    expect(((await response.json()) as { detail: string }).detail).toContain('params.id');
  });

  test('serves its OpenAPI document and a docs page', async () => {
    const document = await fetch(`${example.url}/openapi.json`);
    expect(document.status).toBe(200);
    const paths = ((await document.json()) as { paths: Record<string, unknown> }).paths;
    expect(Object.keys(paths)).toContain('/todos/{id}');
    const docs = await fetch(`${example.url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toStartWith('text/html');
  });
});
