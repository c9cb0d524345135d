/** The routes, through app.request: no port, no network. Run with `deno test`. */
import assert from 'node:assert/strict';
import { createApp } from '../src/app.ts';

Deno.test('GET /hello/:name greets', async () => {
  const response = await createApp().request('/hello/Ada');
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { greeting: 'Hello, Ada!' });
});

Deno.test('POST /todos creates a to-do that GET /todos/:id reads', async () => {
  const app = createApp();
  const created = await app.request('/todos', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Ship it' }),
  });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get('location'), '/todos/1');
  const read = await app.request('/todos/1');
  assert.deepEqual(await read.json(), { id: 1, title: 'Ship it', done: false });
});

Deno.test('bad input is a 422 problem naming the field; a missing to-do is 404', async () => {
  const app = createApp();
  const bad = await app.request('/todos', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: '' }),
  });
  assert.equal(bad.status, 422);
  assert.match(bad.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.match(((await bad.json()) as { detail: string }).detail, /body\.title/);
  assert.equal((await app.request('/todos/9')).status, 404);
});
