/** The Worker's fetch handler, called as the Workers runtime calls it. */
import { expect, test } from 'bun:test';
import worker from '../src/worker.ts';

const context = { waitUntil() {}, passThroughOnException() {} };

test('the worker answers GET /hello/:name', async () => {
  const response = await worker.fetch(new Request('https://example.com/hello/world'), {}, context);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ greeting: 'Hello, world!' });
});

test('in production, a 404 is a problem document', async () => {
  const response = await worker.fetch(new Request('https://example.com/nowhere'), {}, context);
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toStartWith('application/problem+json');
});
