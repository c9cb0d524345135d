/**
 * The handle `serve()` from charter/bun returns (issue 20; the reference: "returns `{ port, close }`"):
 * usable at once, without awaiting, and still awaitable as before.
 */
import { describe, expect, test } from 'bun:test';
import { serve } from '@charter/bun';
import { App } from '@charter/core';
import { type } from 'arktype';

function helloApp(): App {
  const app = new App({ logger: false });
  app.get('/hello', { responses: { 200: { body: type({ hi: 'string' }) } } }, () => ({
    status: 200,
    body: { hi: 'there' },
  }));
  return app;
}

describe('serve() from charter/bun', () => {
  test('returns a handle at once: ready gives the port, close() stops it', async () => {
    const handle = serve(helloApp(), { port: 0, signals: false });
    expect(typeof handle.close).toBe('function');
    await handle.ready;
    expect(handle.port).toBeGreaterThan(0);
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}`);
    const res = await fetch(`${handle.url}/hello`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ hi: 'there' });
    await handle.close();
    await expect(fetch(`${handle.url}/hello`)).rejects.toThrow();
  });

  test('close() without ever awaiting the start stops the server once it listens', async () => {
    const handle = serve(helloApp(), { port: 0, signals: false });
    await handle.close();
    const server = await handle.ready;
    await expect(fetch(`${server.url}/hello`)).rejects.toThrow();
  });

  test('reading the port before it listens says to await ready (the bad path)', () => {
    const handle = serve(helloApp(), { port: 0, signals: false });
    expect(() => handle.port).toThrow(
      'The server is not listening yet: await serve(...) or handle.ready first',
    );
    return handle.close();
  });

  test('`await serve(...)` still gives the listening server, as the docs show', async () => {
    const server = await serve(helloApp(), { port: 0, signals: false });
    expect(server.port).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/hello`)).status).toBe(200);
    await server.close();
  });

  test('a start that fails (a port in use) rejects ready and await, and close() still settles', async () => {
    const first = await serve(helloApp(), { port: 0, signals: false });
    const second = serve(helloApp(), { port: first.port, signals: false });
    await expect(second.ready).rejects.toThrow();
    await second.close();
    await first.close();
  });
});
