/**
 * `app.ws` over real sockets: Bun's built-in WebSocket client against `charter/bun` serve and
 * `charter/node` serve (in this Bun process, node:http is Bun's implementation), and raw TCP frames
 * against the Node adapter's own RFC 6455 implementation.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { serve as serveBun } from '@charter/bun';
import { serve as serveNode } from '@charter/node';
import { wsTestRoutes } from './fixtures/ws-app.ts';
import { Client, HANDSHAKE_LINES, Raw, rawFrameTests, upgradeRefusalTests, within } from './support.ts';

interface Server {
  port: number;
  url: string;
  close(): Promise<void>;
}

const started: Server[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

const adapters = {
  bun: async (app: App): Promise<Server> => serveBun(app, { port: 0, signals: false }),
  node: async (app: App): Promise<Server> => serveNode(app, { port: 0, signals: false }),
};

/** The app every adapter test serves; its events as `open <room> <protocol>`, `close <code> <reason>`, `error <message>`. */
function testApp(events: string[] = []) {
  const app = new App({ logger: false });
  wsTestRoutes(app, (e) => {
    if (e.event === 'open') events.push(`open ${e.room} ${e.protocol}`);
    else if (e.event === 'close') events.push(`close ${e.code} ${e.reason}`);
    else events.push(`error ${e.message}`);
  });
  return app;
}

async function start(name: keyof typeof adapters, app: App): Promise<Server> {
  const server = await adapters[name](app);
  started.push(server);
  return server;
}

const wsUrl = (server: Server, path: string) => `ws://127.0.0.1:${server.port}${path}`;

for (const name of ['bun', 'node'] as const) {
  describe(`app.ws on charter/${name}`, () => {
    test('echoes text and binary, with the negotiated subprotocol and typed params', async () => {
      const events: string[] = [];
      const server = await start(name, testApp(events));
      const client = new Client(wsUrl(server, '/echo/lobby'), ['chat.v1', 'chat.v2']);
      await within(client.opened, 3000, 'open');
      expect(client.ws.protocol).toBe('chat.v2');
      client.ws.send('héllo');
      client.ws.send(new Uint8Array([0, 1, 255]));
      expect(await client.message(0)).toBe('héllo');
      expect(new Uint8Array((await client.message(1)) as ArrayBuffer)).toEqual(new Uint8Array([0, 1, 255]));
      client.ws.close(4100, 'bye');
      expect(await within(client.closed, 3000, 'close')).toMatchObject({ code: 4100 });
      await within(
        (async () => {
          while (!events.some((e) => e.startsWith('close'))) await Bun.sleep(5);
        })(),
        3000,
        'server close',
      );
      expect(events).toEqual(['open lobby chat.v2', 'close 4100 bye']);
    });

    test('a server close reaches the client with its code and reason', async () => {
      const server = await start(name, testApp());
      const client = new Client(wsUrl(server, '/echo/a'));
      await within(client.opened, 3000, 'open');
      client.ws.send('close-me');
      expect(await within(client.closed, 3000, 'close')).toEqual({ code: 4001, reason: 'asked' });
    });

    test('a message over maxPayloadLength closes with 1009', async () => {
      const server = await start(name, testApp());
      const client = new Client(wsUrl(server, '/echo/a'));
      await within(client.opened, 3000, 'open');
      client.ws.send('x'.repeat(1001));
      expect((await within(client.closed, 3000, 'close')).code).toBe(1009);
    });

    test('messages sent while an async open runs wait for it, then arrive in order', async () => {
      const gate = Promise.withResolvers<void>();
      const app = new App({ logger: false });
      app.ws('/slow-open', {
        backpressureLimit: 4096,
        async open(conn) {
          await gate.promise;
          conn.send('ready');
        },
        message: (conn, message) => void conn.send(`got ${message as string}`),
      });
      const server = await start(name, app);
      const client = new Client(wsUrl(server, '/slow-open'));
      await within(client.opened, 3000, 'open');
      for (const word of ['one', 'two', 'three']) client.ws.send(word);
      await Bun.sleep(50);
      expect(client.messages).toEqual([]);
      gate.resolve();
      expect(await client.message(3)).toBe('got three');
      expect(client.messages).toEqual(['ready', 'got one', 'got two', 'got three']);
      client.ws.send('four');
      expect(await client.message(4)).toBe('got four');
    });

    test('a flood of messages while open is still running closes with 1008, and open never sees them', async () => {
      const delivered: string[] = [];
      const app = new App({ logger: false });
      app.ws('/slow-open', {
        backpressureLimit: 4096,
        open: () => new Promise<void>((resolve) => setTimeout(resolve, 500)),
        message: (_conn, message) => void delivered.push(message as string),
      });
      const server = await start(name, app);
      const client = new Client(wsUrl(server, '/slow-open'));
      await within(client.opened, 3000, 'open');
      for (let i = 0; i < 100; i++) client.ws.send('x'.repeat(100));
      const closed = await within(client.closed, 3000, 'close');
      expect(closed).toEqual({ code: 1008, reason: 'Too many messages before the connection was ready' });
      await Bun.sleep(550);
      expect(delivered).toEqual([]);
    });

    test('a throwing message phase runs error, then closes with 1011', async () => {
      const events: string[] = [];
      const server = await start(name, testApp(events));
      const client = new Client(wsUrl(server, '/boom'));
      await within(client.opened, 3000, 'open');
      client.ws.send('x');
      expect((await within(client.closed, 3000, 'close')).code).toBe(1011);
      expect(events).toContain('error handler bug');
    });

    upgradeRefusalTests(() => start(name, testApp()));

    test('a handshake the app accepts after shutdown began is answered 503, not upgraded', async () => {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const opened: string[] = [];
      const app = new App({ logger: false });
      app.ws('/late/:id', { beforeUpgrade: () => gate, open: () => void opened.push('open') });
      const server = await adapters[name](app);
      const raw = await Raw.open(server.port);
      raw.socket.write(
        `GET /late/1 HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${HANDSHAKE_LINES.join('\r\n')}\r\n\r\n`,
      );
      await Bun.sleep(50);
      const closing = server.close();
      release();
      const head = await raw.head();
      expect(head.status).toBe(503);
      expect(head.headers.get('content-type')).toBe('application/problem+json');
      raw.socket.destroy();
      await within(closing, 5000, 'shutdown');
      expect(opened).toEqual([]);
    });

    test('shutdown closes open sockets with 1001', async () => {
      const server = await adapters[name](testApp());
      const client = new Client(wsUrl(server, '/echo/a'));
      await within(client.opened, 3000, 'open');
      const closing = server.close();
      expect((await within(client.closed, 3000, 'close')).code).toBe(1001);
      await within(closing, 5000, 'server close');
    });
  });
}

describe('the Node adapter speaks RFC 6455 on raw TCP', () => {
  rawFrameTests(() => start('node', testApp()));
});
