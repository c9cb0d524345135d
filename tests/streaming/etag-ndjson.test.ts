/**
 * `etag()` hashes a GET 200 body only when it can see all of it; a streamed sequence (here NDJSON from
 * ndjsonResponse) passes through untouched, or no line would reach the client before the source ends.
 */
import { expect, test } from 'bun:test';
import { createApp } from '@charter/app';
import { etag } from '@charter/core';
import { ndjsonResponse } from '@charter/streaming';

test('etag() passes an NDJSON stream through without holding it back', async () => {
  const app = createApp({ logger: false });
  app.use(etag());
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  async function* rows(): AsyncGenerator<unknown> {
    yield { id: 1 };
    await gate;
    yield { id: 2 };
  }
  app.get(
    '/rows',
    { responses: { 200: { contentType: 'application/x-ndjson' } }, acknowledgeNoResponseBodySchema: true },
    () => ndjsonResponse(rows()),
  );
  const answered = await Promise.race([
    app.request('/rows'),
    new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 500)),
  ]);
  open();
  expect(answered).not.toBe('held');
  const response = answered as Response;
  expect(response.headers.get('etag')).toBeNull();
  expect(await response.text()).toBe('{"id":1}\n{"id":2}\n');
});

test('etag() still tags a finished JSON body of the same route shape', async () => {
  const app = createApp({ logger: false });
  app.use(etag());
  app.get(
    '/rows.json',
    { responses: { 200: { contentType: 'application/json' } }, acknowledgeNoResponseBodySchema: true },
    () => new Response('[{"id":1}]', { headers: { 'content-type': 'application/json' } }),
  );
  const response = await app.request('/rows.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
  expect(await response.text()).toBe('[{"id":1}]');
});
