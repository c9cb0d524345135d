/**
 * `app.ws` through `charter/node` under real Node 24: the server is the host's `ws` app
 * (fixtures/node-host.ts) in a Node 24 child, so the upgrade, the adapter's RFC 6455 engine and its
 * socket handling run on Node's own node:http and node:net. Clients are Bun's WebSocket and raw TCP in
 * this process. (tests/websocket runs the same app on both adapters inside Bun.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import {
  Client,
  HANDSHAKE_LINES,
  Raw,
  rawFrameTests,
  upgradeRefusalTests,
  within,
} from '../websocket/support.ts';
import { HOST_START_TIMEOUT_MS, type HostLine, sharedHost } from './fixtures/node24.ts';

const host = sharedHost();
beforeAll(() => host.start(), HOST_START_TIMEOUT_MS);
afterEach(() => host.closeAll());
afterAll(() => host.kill());

async function start() {
  const node = host.get();
  return { node, ...(await node.serve('ws')) };
}

type Started = Awaited<ReturnType<typeof start>>;

const wsUrl = (server: Started, path: string) => `ws://127.0.0.1:${server.port}${path}`;
const events = (server: Started, name?: string): HostLine[] =>
  server.node.lines.filter(
    (l) => l.server === server.server && l.event !== undefined && (name === undefined || l.event === name),
  );

describe('app.ws on charter/node (real Node 24)', () => {
  test('the server runs under Node 24, not Bun', async () => {
    const server = await start();
    expect(server.node.version).toStartWith('v24.');
    expect(await server.node.call('info')).toMatchObject({ version: server.node.version, bun: null });
    expect(server.upgradeListeners).toBe(1);
  });

  test('echoes text and binary, with the negotiated subprotocol and typed params', async () => {
    const server = await start();
    const client = new Client(wsUrl(server, '/echo/lobby'), ['chat.v1', 'chat.v2']);
    await within(client.opened, 3000, 'open');
    expect(client.ws.protocol).toBe('chat.v2');
    client.ws.send('héllo');
    client.ws.send(new Uint8Array([0, 1, 255]));
    expect(await client.message(0)).toBe('héllo');
    expect(new Uint8Array((await client.message(1)) as ArrayBuffer)).toEqual(new Uint8Array([0, 1, 255]));
    client.ws.close(4100, 'bye');
    expect(await within(client.closed, 3000, 'close')).toMatchObject({ code: 4100 });
    await server.node.event(server.server, 'close');
    expect(
      events(server).map(({ event, room, protocol, code, reason }) => ({
        event,
        room,
        protocol,
        code,
        reason,
      })),
    ).toEqual([
      { event: 'open', room: 'lobby', protocol: 'chat.v2', code: undefined, reason: undefined },
      { event: 'close', room: undefined, protocol: undefined, code: 4100, reason: 'bye' },
    ]);
  });

  test('a server close reaches the client with its code and reason', async () => {
    const server = await start();
    const client = new Client(wsUrl(server, '/echo/a'));
    await within(client.opened, 3000, 'open');
    client.ws.send('close-me');
    expect(await within(client.closed, 3000, 'close')).toEqual({ code: 4001, reason: 'asked' });
  });

  test('a message over maxPayloadLength closes with 1009; one within it is echoed', async () => {
    const server = await start();
    const client = new Client(wsUrl(server, '/echo/a'));
    await within(client.opened, 3000, 'open');
    client.ws.send('x'.repeat(1000));
    expect(await client.message(0)).toBe('x'.repeat(1000));
    client.ws.send('x'.repeat(1001));
    // RFC 6455 §7.4.1: 1009, a message too big to process.
    expect((await within(client.closed, 3000, 'close')).code).toBe(1009);
  });

  test('messages sent while an async open runs wait for it, then arrive in order', async () => {
    const server = await start();
    const client = new Client(wsUrl(server, '/slow-open'));
    await within(client.opened, 3000, 'open');
    for (const word of ['one', 'two', 'three']) client.ws.send(word);
    await Bun.sleep(50);
    expect(client.messages).toEqual([]);
    await server.node.call('release', { server: server.server, gate: 'open' });
    expect(await client.message(3)).toBe('got three');
    expect(client.messages).toEqual(['ready', 'got one', 'got two', 'got three']);
    client.ws.send('four');
    expect(await client.message(4)).toBe('got four');
  });

  test('a flood of messages while open is still running closes with 1008, and open never sees them', async () => {
    const server = await start();
    const client = new Client(wsUrl(server, '/flooded-open'));
    await within(client.opened, 3000, 'open');
    for (let i = 0; i < 100; i++) client.ws.send('x'.repeat(100));
    const closed = await within(client.closed, 3000, 'close');
    expect(closed).toEqual({ code: 1008, reason: 'Too many messages before the connection was ready' });
    await Bun.sleep(550);
    expect(events(server, 'delivered')).toEqual([]);
  });

  test('a throwing message phase runs error, then closes with 1011', async () => {
    const server = await start();
    const client = new Client(wsUrl(server, '/boom'));
    await within(client.opened, 3000, 'open');
    client.ws.send('x');
    expect((await within(client.closed, 3000, 'close')).code).toBe(1011);
    expect((await server.node.event(server.server, 'error')).message).toBe('handler bug');
  });

  upgradeRefusalTests(start);

  test('a handshake the app accepts after shutdown began is answered 503, not upgraded', async () => {
    const server = await start();
    const raw = await Raw.open(server.port);
    raw.socket.write(
      `GET /late/1 HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${HANDSHAKE_LINES.join('\r\n')}\r\n\r\n`,
    );
    await Bun.sleep(50);
    await server.node.call('close', { server: server.server });
    await server.node.call('release', { server: server.server, gate: 'late' });
    const head = await raw.head();
    expect(head.status).toBe(503);
    expect(head.headers.get('content-type')).toBe('application/problem+json');
    raw.socket.destroy();
    await within(server.node.call('closed', { server: server.server }), 5000, 'shutdown');
    expect(events(server, 'late-open')).toEqual([]);
  });

  test('shutdown closes open sockets with 1001', async () => {
    const server = await start();
    const client = new Client(wsUrl(server, '/echo/a'));
    await within(client.opened, 3000, 'open');
    await server.node.call('close', { server: server.server });
    // RFC 6455 §7.4.1: 1001, the server is going away.
    expect((await within(client.closed, 3000, 'close')).code).toBe(1001);
    await within(server.node.call('closed', { server: server.server }), 5000, 'server close');
  });
});

describe('the Node adapter speaks RFC 6455 on raw TCP (real Node 24)', () => {
  rawFrameTests(start);
});

describe('the Node WebSocket engine (real Node 24)', () => {
  test('a client that leaves while beforeUpgrade runs gets no session: open and close never run', async () => {
    const server = await start();
    const raw = await Raw.open(server.port);
    raw.socket.write(`GET /gated HTTP/1.1\r\nHost: 127.0.0.1\r\n${HANDSHAKE_LINES.join('\r\n')}\r\n\r\n`);
    await server.node.event(server.server, 'before');
    raw.socket.resetAndDestroy();
    await Bun.sleep(50);
    await server.node.call('release', { server: server.server, gate: 'gated' });
    await Bun.sleep(50);
    expect(events(server).map((l) => l.event)).toEqual(['before']);
    // The good path on the same server: a client that stays is upgraded.
    const stays = await Raw.open(server.port);
    await stays.upgrade('/fast');
    await server.node.event(server.server, 'fast-open');
    stays.socket.destroy();
  });

  test('a peer that half-closes (FIN, no Close frame) ends the session with 1006', async () => {
    const server = await start();
    const raw = await Raw.open(server.port);
    await raw.upgrade('/half');
    raw.socket.end();
    // RFC 6455 §7.1.5: no Close frame was received, so the close code is 1006.
    expect((await server.node.event(server.server, 'half-close')).code).toBe(1006);
    await within(raw.ended, 3000, 'the TCP close');
  });

  test('a peer that does not read: send reports -1, then drops (0); drain runs once it reads again', async () => {
    const server = await start();
    const raw = await Raw.open(server.port);
    await raw.upgrade('/flood');
    raw.socket.pause();
    raw.frame(0x1, 'go');
    const sends = await server.node.event(server.server, 'sends');
    // Every send is accepted whole until the buffer passes backpressureLimit (-1: queued, over the limit),
    // and the very next one is dropped (0).
    expect(sends.last).toBe(0);
    expect(sends.firstFull).toBe((sends.count as number) - 2);
    expect(sends.allSentBefore).toBe(true);
    expect(events(server, 'drain')).toEqual([]);
    raw.socket.resume();
    await server.node.event(server.server, 'drain');
    raw.socket.destroy();
  });
});
