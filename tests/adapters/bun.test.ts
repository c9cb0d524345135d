import { afterEach, describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '@charter/core';
import { type BunServer, serve } from '@charter/bun';
import { readLines } from '../support/lines.ts';

let running: BunServer[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.close(100)));
  running = [];
});

async function start(app: App, options: Parameters<typeof serve>[1] = {}): Promise<BunServer> {
  const server = await serve(app, { port: 0, signals: false, ...options });
  running.push(server);
  return server;
}

function exampleApp(): App {
  const app = new App({ logger: false });
  app.get('/static', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, () => ({
    status: 200,
    body: { ok: true },
  }));
  app.get(
    '/users/:id',
    {
      request: { params: type({ id: 'number.integer' }) },
      responses: { 200: { body: type({ id: 'number' }) } },
    },
    (ctx) => ({ status: 200, body: { id: ctx.params.id } }),
  );
  app.post(
    '/static',
    { request: { body: type({ name: 'string' }) }, responses: { 201: { body: type({ name: 'string' }) } } },
    (ctx) => ({ status: 201, body: { name: ctx.body.name } }),
  );
  return app;
}

describe('charter/bun serve', () => {
  test('serves static routes from the native table and dynamic ones through the router', async () => {
    const server = await start(exampleApp());
    const staticRes = await fetch(`${server.url}/static`);
    expect(staticRes.status).toBe(200);
    expect(staticRes.headers.get('content-type')).toBe('application/json');
    expect(await staticRes.json()).toEqual({ ok: true });
    const dynamic = await fetch(`${server.url}/users/7`);
    expect(dynamic.status).toBe(200);
    expect(await dynamic.json()).toEqual({ id: 7 });
  });

  test('answers the same problems as app.fetch for bad input', async () => {
    const app = exampleApp();
    const server = await start(app);
    for (const [method, path, body] of [
      ['GET', '/users/abc', undefined],
      ['DELETE', '/static', undefined],
      ['GET', '/missing', undefined],
      ['POST', '/static', '{"name":1}'],
      ['POST', '/static', '{oops'],
    ] as const) {
      const init: RequestInit = {
        method,
        body,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      };
      const viaServer = await fetch(`${server.url}${path}`, init);
      const inProcess = await app.request(path, init);
      expect(viaServer.status).toBe(inProcess.status);
      expect(viaServer.headers.get('content-type')).toBe('application/problem+json');
      expect(viaServer.headers.get('allow')).toBe(inProcess.headers.get('allow'));
      expect(await viaServer.json()).toEqual(await inProcess.json());
    }
  });

  test('a method a static path does not declare falls through to a 405 with Allow', async () => {
    const server = await start(exampleApp());
    const res = await fetch(`${server.url}/static`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await res.json()).type).toBe('https://charter.dev/errors/method-not-allowed');
  });

  test('HEAD on a static GET route answers headers without a body', async () => {
    const server = await start(exampleApp());
    const res = await fetch(`${server.url}/static`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
  });

  test('with nativeRoutes false every request goes through the router, with the same answers', async () => {
    const server = await start(exampleApp(), { nativeRoutes: false });
    const res = await fetch(`${server.url}/static`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  test('close() lets an in-flight request finish, then refuses new connections', async () => {
    const app = new App({ logger: false });
    const { promise: gate, resolve: release } = Promise.withResolvers<void>();
    app.get('/slow', { responses: { 200: { body: type({ done: 'boolean' }) } } }, async () => {
      await gate;
      return { status: 200, body: { done: true } };
    });
    const server = await serve(app, { port: 0, signals: false });
    const pending = fetch(`${server.url}/slow`);
    await Bun.sleep(50);
    const closing = server.close(2000);
    await Bun.sleep(20);
    release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closing;
    expect(app.state).toBe('closed');
    await expect(fetch(`${server.url}/slow`)).rejects.toThrow();
  });

  test('removes its signal listeners on close', async () => {
    const before = process.listenerCount('SIGTERM');
    const server = await serve(exampleApp(), { port: 0 });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    await server.close(100);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });

  test('SIGTERM drains in-flight requests and exits 0', async () => {
    const child = Bun.spawn(['bun', `${import.meta.dir}/fixtures/bun-signal-server.ts`], {
      stdout: 'pipe',
      stderr: 'pipe',
    });
    // Each stdout line in turn ('' once the child exits): "ready <port>", then "slow started".
    const lines: string[] = [];
    const waiters: Array<(line: string) => void> = [];
    void readLines(child.stdout, (line) => {
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }).then(() => {
      for (const waiter of waiters.splice(0)) waiter('');
    });
    const nextLine = () =>
      new Promise<string>((resolve) => {
        const line = lines.shift();
        if (line !== undefined) resolve(line);
        else waiters.push(resolve);
      });
    const port = Number(/ready (\d+)/.exec(await nextLine())?.[1]);
    expect(port).toBeGreaterThan(0);
    const pending = fetch(`http://127.0.0.1:${port}/slow`);
    // The signal goes once the request is inside the app, however loaded the machine is.
    expect(await nextLine()).toBe('slow started');
    child.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    expect(await child.exited).toBe(0);
  });
});

describe('charter/bun start-up log', () => {
  function recordingLogger(lines: Array<{ level: string; message: string; fields?: unknown }>) {
    const at = (level: string) => (message: string, fields?: unknown) =>
      void lines.push({ level, message, fields });
    return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  }

  test('logs a "Listening" line with the URL once it listens, as charter/node does', async () => {
    const lines: Array<{ level: string; message: string; fields?: unknown }> = [];
    const app = new App({ logger: recordingLogger(lines) });
    const server = await start(app);
    expect(lines.filter((line) => line.message === 'Listening')).toEqual([
      {
        level: 'info',
        message: 'Listening',
        fields: { url: server.url, hostname: '127.0.0.1', port: server.port },
      },
    ]);
  });

  test('a start that fails logs the failure and no "Listening" line', async () => {
    const lines: Array<{ level: string; message: string; fields?: unknown }> = [];
    const first = await start(new App({ logger: false }));
    const app = new App({ logger: recordingLogger(lines) });
    await expect(serve(app, { port: first.port, signals: false }).ready).rejects.toThrow();
    expect(lines.some((line) => line.message === 'Listening')).toBe(false);
    expect(
      lines.some((line) => line.level === 'error' && line.message === 'The Bun server failed to start'),
    ).toBe(true);
  });
});
