/**
 * Messages a user meets while writing an app (issue 19): a handler passed where the route definition
 * goes says so and shows the shape; an integer parameter given `1.5` is refused as "not an integer",
 * not as "not a number (was a string)".
 */
import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('app.get(path, handler) without a definition', () => {
  test('names the second argument, what it got, and shows the definition and the handler in place', () => {
    const app = new App({ logger: false });
    const error = thrown(() =>
      (app.get as unknown as (path: string, h: unknown) => void)('/x', () => ({ status: 200 })),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      'app.get("/x", ...): the second argument must be the route definition, an object, but got a function. ' +
        'Declare the responses, then pass the handler third: app.get("/x", { responses: { 200: { body: schema } } }, (ctx) => ({ status: 200, body: ... }))',
    );
    expect(error.message).not.toContain('handler must be a function');
    expect(thrown(() => (app.post as unknown as (path: string) => void)('/y')).message).toStartWith(
      'app.post("/y", ...): the second argument must be the route definition, an object, but got undefined.',
    );
  });

  test('with a definition the route registers and answers', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: {} } }, () => ({ status: 200 }));
    expect((await app.request('/x')).status).toBe(200);
  });
});

describe('an integer parameter given a fraction', () => {
  const schemas = {
    arktype: { params: type({ id: 'number.integer' }), query: type({ n: 'number.integer' }) },
    zod: { params: z.object({ id: z.number().int() }), query: z.object({ n: z.number().int() }) },
    valibot: {
      params: v.object({ id: v.pipe(v.number(), v.integer()) }),
      query: v.object({ n: v.pipe(v.number(), v.integer()) }),
    },
  } as const;

  for (const [library, { params, query }] of Object.entries(schemas)) {
    test(`${library}: 1.5 is refused as not an integer; 2 is served; abc is still not a number`, async () => {
      const app = new App({ logger: false });
      app.get('/items/:id', { request: { params }, responses: { 200: {} } }, () => ({ status: 200 }));
      app.get('/list', { request: { query }, responses: { 200: {} } }, () => ({ status: 200 }));
      for (const url of ['/items/1.5', '/list?n=1.5']) {
        const response = await app.request(url);
        expect(response.status).toBe(422);
        const problem = (await response.json()) as { issues: { message: string }[] };
        const message = problem.issues[0]?.message ?? '';
        expect({ url, message }).toEqual({ url, message: expect.stringMatching(/int/i) });
        expect(message).not.toContain('string');
      }
      expect((await app.request('/items/2')).status).toBe(200);
      expect((await app.request('/list?n=2')).status).toBe(200);
      const text = (await (await app.request('/items/abc')).json()) as { issues: { message: string }[] };
      expect(text.issues[0]?.message).toMatch(/number|string/i);
    });
  }

  test('a whole number in another notation (5.0, 1e2) is still refused, not read as 5 or 100', async () => {
    const app = new App({ logger: false });
    app.get(
      '/items/:id',
      { request: { params: type({ id: 'number.integer' }) }, responses: { 200: {} } },
      () => ({
        status: 200,
      }),
    );
    expect((await app.request('/items/5.0')).status).toBe(422);
    expect((await app.request('/items/1e2')).status).toBe(422);
  });
});
