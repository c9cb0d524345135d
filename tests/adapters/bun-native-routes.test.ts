/**
 * charter/bun's native routes table (issue 18 item 2): parameter routes are handed to Bun's `routes`
 * table, whose match is used only when it is the router's. Every request here is sent over a raw
 * socket (fetch would normalise the very targets under test) to two servers of the same app, one with
 * `nativeRoutes` on and one with it off (every request through the router), and the two answers must
 * be the same: status line, header lines (Date aside) and body.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '@charter/core';
import { type BunServer, serve } from '@charter/bun';
import { parseResponses, RawSocket, type RawResponse } from '../support/raw-http.ts';
import { HANDSHAKE_LINES } from '../websocket/support.ts';

let running: BunServer[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.close(100)));
  running = [];
});

const Id = type({ id: 'string' });

function edgeApp(onRequest: string[] = []): App {
  const app = new App({ logger: false, hooks: { onRequest: (request) => void onRequest.push(request.url) } });
  const echo = (route: string) => (ctx: { params: object }) => ({
    status: 200 as const,
    body: { route, params: ctx.params },
  });
  const Echo = { 200: { body: type({ route: 'string', params: 'object' }) } };
  // Alone: native. `/items/:id/parts/:part` has more segments, so it does not overlap.
  app.get('/items/:id', { request: { params: Id }, responses: Echo }, echo('GET /items/:id'));
  app.delete('/items/:id', { responses: Echo }, echo('DELETE /items/:id'));
  app.get('/items/:id/parts/:part', { responses: Echo }, echo('GET /items/:id/parts/:part'));
  // A static sibling: `/users/:id` overlaps `/users/me`, so it stays with the router.
  app.get('/users/me', { responses: Echo }, echo('GET /users/me'));
  app.get('/users/:id', { responses: Echo }, echo('GET /users/:id'));
  app.post('/users/:id', { responses: Echo }, echo('POST /users/:id'));
  // Two parameter routes that overlap (`/a/1/b` matches both): the router's precedence decides.
  app.get('/a/:x/b', { responses: Echo }, echo('GET /a/:x/b'));
  app.get('/a/:y/:z', { responses: Echo }, echo('GET /a/:y/:z'));
  // A wildcard: never native.
  app.get('/files/*rest', { responses: Echo }, echo('GET /files/*rest'));
  app.ws('/rooms/:room', { open: (conn, ctx) => void conn.send(`in ${ctx.params.room}`) });
  return app;
}

const TARGETS = [
  '/items/42',
  '/items/42?x=1&y=%20',
  '/items/42/',
  '/items/4%2F2',
  '/items/%2f',
  '/items/%ZZ',
  '/items/%41',
  '/items/%c3%a9',
  '/items/a%20b',
  '/items/x;y',
  '/items/42%00',
  '/items/..',
  '/items/.',
  '/items/%2E%2E',
  '/items/./42',
  '/items/../items/42',
  '/items//42',
  '//items/42',
  '/items/',
  '/items',
  '/ITEMS/42',
  '/items/42/parts/7',
  '/items/42/parts/',
  '/items/42/parts/7/',
  '/users/me',
  '/users/42',
  '/users/%6De',
  '/a/1/b',
  '/a/1/c',
  '/files/a/b',
  '/files/',
  '/nope',
  'http://localhost/items/42',
];

async function exchange(
  port: number,
  method: string,
  target: string,
  extra: string[] = [],
): Promise<RawResponse> {
  const socket = await RawSocket.open(port);
  try {
    socket.write(
      `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra.map((l) => `${l}\r\n`).join('')}\r\n`,
    );
    const upgrade = extra.length > 0;
    await socket.waitFor(
      (s) => (upgrade ? s.text.includes('\r\n\r\n') : s.closed),
      10_000,
      `the answer to ${method} ${target}`,
    );
    const [response] = parseResponses(
      upgrade ? socket.text.slice(0, socket.text.indexOf('\r\n\r\n') + 4) : socket.text,
      {
        methods: [method],
        closed: true,
      },
    );
    if (response === undefined)
      throw new Error(`no response to ${method} ${target}: ${JSON.stringify(socket.text)}`);
    return response;
  } finally {
    socket.socket.destroy();
  }
}

/** What must be equal: the status line, the header lines but Date, the body. */
function comparable(response: RawResponse): unknown {
  return {
    statusLine: response.statusLine,
    headers: response.headers.filter(([name]) => name !== 'date'),
    body: response.body,
  };
}

async function pair(app: () => App): Promise<{ native: BunServer; routed: BunServer }> {
  const native = await serve(app(), { port: 0, signals: false });
  running.push(native);
  const routed = await serve(app(), { port: 0, signals: false, nativeRoutes: false });
  running.push(routed);
  return { native, routed };
}

describe('charter/bun native parameter routes answer as the router does', () => {
  test('the routes offered to the native table: static paths and parameter paths nothing overlaps', () => {
    const offered = edgeApp()
      .adapterRoutes()
      .map((route) => `${route.method} ${route.path}`);
    expect(offered.sort()).toEqual(
      [
        'DELETE /items/:id',
        'GET /items/:id',
        'HEAD /items/:id',
        'GET /items/:id/parts/:part',
        'HEAD /items/:id/parts/:part',
        'GET /users/me',
        'HEAD /users/me',
        // The WebSocket route (a GET without a derived HEAD).
        'GET /rooms/:room',
      ].sort(),
    );
  });

  test('every edge of the path, for GET, HEAD, DELETE, POST and PUT', async () => {
    const { native, routed } = await pair(() => edgeApp());
    const served = new Set<string>();
    for (const method of ['GET', 'HEAD', 'DELETE', 'POST', 'PUT']) {
      for (const target of TARGETS) {
        const viaNative = await exchange(native.port, method, target);
        const viaRouter = await exchange(routed.port, method, target);
        expect({ method, target, ...(comparable(viaNative) as object) }).toEqual({
          method,
          target,
          ...(comparable(viaRouter) as object),
        });
        served.add(`${viaNative.status}`);
      }
    }
    // The list reaches the answers it is meant to: routes, 404, 405 and the router's 400.
    expect([...served].sort()).toEqual(expect.arrayContaining(['200', '400', '404', '405']));
  });

  test("the native handler takes Bun's params only when they are the router's", async () => {
    const { native } = await pair(() => edgeApp());
    const plain = await exchange(native.port, 'GET', '/items/42');
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.body)).toEqual({ route: 'GET /items/:id', params: { id: '42' } });
    // Bun would give `4/2` and U+FFFD here; the router refuses both.
    for (const target of ['/items/4%2F2', '/items/%ZZ']) {
      const refused = await exchange(native.port, 'GET', target);
      expect(refused.status).toBe(400);
      expect(refused.headers).toContainEqual(['content-type', 'application/problem+json']);
    }
    // An escape the router decodes: the same text as Bun, but through the router.
    const escaped = await exchange(native.port, 'GET', '/items/%c3%a9');
    expect(JSON.parse(Buffer.from(escaped.body, 'latin1').toString('utf8'))).toEqual({
      route: 'GET /items/:id',
      params: { id: 'é' },
    });
    // A trailing slash is a miss for the router (Bun sends it to fetch).
    expect((await exchange(native.port, 'GET', '/items/42/')).status).toBe(404);
    // The static sibling wins for GET; POST has no static route, so the parameter route takes it.
    expect(JSON.parse((await exchange(native.port, 'GET', '/users/me')).body).route).toBe('GET /users/me');
    expect(JSON.parse((await exchange(native.port, 'POST', '/users/me')).body)).toEqual({
      route: 'POST /users/:id',
      params: { id: 'me' },
    });
    // The router's precedence between two overlapping parameter routes: static segment first.
    expect(JSON.parse((await exchange(native.port, 'GET', '/a/1/b')).body).route).toBe('GET /a/:x/b');
    // A method the native path does not declare: the router's 405 with every allowed method.
    const put = await exchange(native.port, 'PUT', '/items/42');
    expect(put.status).toBe(405);
    expect(put.headers).toContainEqual(['allow', 'DELETE, GET, HEAD']);
  });

  test('a route added after serve() takes its paths back from a native parameter route', async () => {
    const apps: App[] = [];
    const { native, routed } = await pair(() => {
      const app = edgeApp();
      apps.push(app);
      return app;
    });
    expect(JSON.parse((await exchange(native.port, 'GET', '/items/special')).body).route).toBe(
      'GET /items/:id',
    );
    const Echo = { 200: { body: type({ route: 'string' }) } };
    for (const app of apps) {
      app.get('/items/special', { responses: Echo }, () => ({
        status: 200,
        body: { route: 'GET /items/special' },
      }));
    }
    for (const target of ['/items/special', '/items/42']) {
      const viaNative = await exchange(native.port, 'GET', target);
      expect(comparable(viaNative)).toEqual(comparable(await exchange(routed.port, 'GET', target)));
    }
    expect(JSON.parse((await exchange(native.port, 'GET', '/items/special')).body).route).toBe(
      'GET /items/special',
    );
  });

  test('hooks see the same requests through the native table', async () => {
    const seenNative: string[] = [];
    const seenRouted: string[] = [];
    const native = await serve(edgeApp(seenNative), { port: 0, signals: false });
    running.push(native);
    const routed = await serve(edgeApp(seenRouted), { port: 0, signals: false, nativeRoutes: false });
    running.push(routed);
    for (const target of ['/items/42?q=1', '/items/%41', '/items/42/parts/7']) {
      await exchange(native.port, 'GET', target);
      await exchange(routed.port, 'GET', target);
    }
    const paths = (urls: string[]) => urls.map((url) => url.slice(url.indexOf('/', 'http://'.length)));
    expect(paths(seenNative)).toEqual(['/items/42?q=1', '/items/%41', '/items/42/parts/7']);
    expect(paths(seenNative)).toEqual(paths(seenRouted));
  });

  test('WebSocket routes with parameters: the same handshake answers, and the socket opens', async () => {
    const { native, routed } = await pair(() => edgeApp());
    for (const target of [
      '/rooms/lobby',
      '/rooms/a%20b',
      '/rooms/4%2F2',
      '/rooms/lobby/',
      '/x/../rooms/lobby',
    ]) {
      const viaNative = await exchange(native.port, 'GET', target, HANDSHAKE_LINES);
      const viaRouter = await exchange(routed.port, 'GET', target, HANDSHAKE_LINES);
      expect({ target, ...(comparable(viaNative) as object) }).toEqual({
        target,
        ...(comparable(viaRouter) as object),
      });
    }
    expect((await exchange(native.port, 'GET', '/rooms/lobby', HANDSHAKE_LINES)).status).toBe(101);
    const ws = new WebSocket(`ws://127.0.0.1:${native.port}/rooms/lobby`);
    const first = await new Promise<string>((resolve, reject) => {
      ws.addEventListener('message', (event) => resolve(String(event.data)));
      ws.addEventListener('error', () => reject(new Error('WebSocket error')));
    });
    ws.close();
    expect(first).toBe('in lobby');
  });
});
