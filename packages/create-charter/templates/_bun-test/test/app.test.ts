/** The routes, through app.request: no port, no network. Run with `bun test`. */
import { describe, expect, test } from 'bun:test';
import { createApp } from '../src/app.ts';

describe('{{name}}', () => {
  test('GET /hello/:name greets', async () => {
    const response = await createApp().request('/hello/Ada');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ greeting: 'Hello, Ada!' });
  });

  test('POST /todos creates a to-do that GET /todos/:id reads', async () => {
    const app = createApp();
    const created = await app.request('/todos', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Ship it' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/todos/1');
    const read = await app.request('/todos/1');
    expect(await read.json()).toEqual({ id: 1, title: 'Ship it', done: false });
  });

  test('bad input is a 422 problem naming the field; a missing to-do is 404', async () => {
    const app = createApp();
    const bad = await app.request('/todos', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: '' }),
    });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toStartWith('application/problem+json');
    expect(((await bad.json()) as { detail: string }).detail).toContain('body.title');
    expect((await app.request('/todos/9')).status).toBe(404);
  });
});
