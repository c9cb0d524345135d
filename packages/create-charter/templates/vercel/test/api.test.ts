/** The function's handlers, called as Vercel calls them. */
import { expect, test } from 'bun:test';
import { GET, POST } from '../api/[[...route]].ts';

test('GET /api/hello/:name', async () => {
  const response = await GET(new Request('https://example.vercel.app/api/hello/world'));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ greeting: 'Hello, world!' });
});

test('POST /api/todos with a bad body is a 422 problem', async () => {
  const response = await POST(
    new Request('https://example.vercel.app/api/todos', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: '' }),
    }),
  );
  expect(response.status).toBe(422);
  expect(response.headers.get('content-type')).toStartWith('application/problem+json');
});
