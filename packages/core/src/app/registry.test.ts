import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import type { AnyRouteDefinition, Hooks } from '../types/index.ts';
import { App } from './index.ts';

/** A route-level hook object that counts how often its `beforeHandle` is read. */
function countedHook(): { hooks: Hooks; reads: () => number } {
  let reads = 0;
  const hooks = {
    get beforeHandle() {
      reads++;
      return () => {};
    },
  } as Hooks;
  return { hooks, reads: () => reads };
}

const ok = (path: string, hooks?: Hooks): AnyRouteDefinition =>
  ({
    method: 'GET',
    path,
    hooks,
    responses: { 200: { body: type({ ok: 'boolean' }) } },
    handler: () => ({ status: 200, body: { ok: true } }),
  }) as unknown as AnyRouteDefinition;

describe('Registry: a route is compiled by its first request, checked at registration (issue 18, start-up)', () => {
  test('registering reads the hooks only to check them; the first request compiles, later ones reuse it', async () => {
    const a = countedHook();
    const b = countedHook();
    const app = new App({ logger: false });
    app.route(ok('/a', a.hooks));
    app.route(ok('/b', b.hooks));
    // route() checks each hook once (hookList); compiling would read it again to build the phase table.
    expect(a.reads()).toBe(1);
    expect(b.reads()).toBe(1);

    // The boot guards read each route's traits (not its compiled form) when the App starts.
    await app.ready();
    const readyA = a.reads();
    const readyB = b.reads();

    const first = await app.request('/a');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true });
    const compiled = a.reads();
    expect(compiled).toBeGreaterThan(readyA);
    // Only the route that was asked for.
    expect(b.reads()).toBe(readyB);

    const again = await app.request('/a');
    expect(again.status).toBe(200);
    expect(a.reads()).toBe(compiled);
  });

  test('what compiling would refuse is still refused by route(), with the same message', () => {
    const app = new App({ logger: false });
    const bad = (patch: object) => () => app.route({ ...ok('/x'), ...patch } as AnyRouteDefinition);
    expect(bad({ responses: { 200: { body: { not: 'a schema' } } } })).toThrow(
      /Route GET \/x: responses\[200\]\.body must be a Standard Schema/,
    );
    expect(bad({ request: { query: 42 } })).toThrow(
      /Route GET \/x: request\.query must be a Standard Schema/,
    );
    expect(bad({ method: 'POST', request: { body: 'text' } })).toThrow(
      /Route POST \/x: request\.body must be a Standard Schema/,
    );
    expect(bad({ responses: { 200: { contentType: 'text/plain\r\nx-injected: 1' } } })).toThrow(TypeError);
    expect(bad({ method: 'POST', request: { contentTypes: 'application/json' } })).toThrow(TypeError);
    // Nothing half-registered: the path is free, and a good route takes it.
    app.route(ok('/x'));
  });

  test('a route whose check passes answers its first request as compiled at registration would', async () => {
    const app = new App({ logger: false });
    app.route({
      method: 'GET',
      path: '/typed',
      responses: { 200: { body: type({ n: 'number' }), contentType: 'application/vnd.x+json' } },
      handler: () => ({ status: 200, body: { n: 1 } }),
    } as unknown as AnyRouteDefinition);
    const response = await app.request('/typed');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.x+json');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.json()).toEqual({ n: 1 });
  });
});
