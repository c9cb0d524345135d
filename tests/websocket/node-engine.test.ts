/**
 * Resource safety of the Node adapter's WebSocket engine over raw TCP: clients that leave during the
 * handshake, half-close, stop reading, or arrive while the server shuts down.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { type RunningServer, serve } from '@charter/node';
import { HANDSHAKE_LINES, Raw, within } from './support.ts';

const started: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close(1000)));
});

async function start(app: App): Promise<RunningServer> {
  const server = await serve(app, { port: 0, signals: false });
  started.push(server);
  return server;
}

/** Resolves once `predicate` holds, polling. */
async function eventually(predicate: () => boolean, what: string): Promise<void> {
  await within(
    (async () => {
      while (!predicate()) await Bun.sleep(5);
    })(),
    3000,
    what,
  );
}

describe('the Node WebSocket engine', () => {
  test('a client that leaves while beforeUpgrade runs gets no session: open and close never run', async () => {
    const events: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = new App({ logger: false });
    app.ws('/slow', {
      beforeUpgrade: async () => {
        events.push('before');
        await gate;
      },
      open: () => void events.push('open'),
      close: () => void events.push('close'),
    });
    app.ws('/fast', { open: () => void events.push('fast open') });
    const server = await start(app);
    const raw = await Raw.open(server.port);
    raw.socket.write(`GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n${HANDSHAKE_LINES.join('\r\n')}\r\n\r\n`);
    await eventually(() => events.includes('before'), 'beforeUpgrade');
    raw.socket.resetAndDestroy();
    await Bun.sleep(50);
    release();
    await Bun.sleep(50);
    expect(events).toEqual(['before']);
    // The good path on the same server: a client that stays is upgraded.
    const stays = await Raw.open(server.port);
    await stays.upgrade('/fast');
    await eventually(() => events.includes('fast open'), 'the open phase');
    stays.socket.destroy();
  });

  test('a peer that half-closes (FIN, no Close frame) ends the session with 1006', async () => {
    const codes: number[] = [];
    const app = new App({ logger: false });
    app.ws('/ws', { idleTimeoutSeconds: 0, close: (_conn, code) => void codes.push(code) });
    const server = await start(app);
    const raw = await Raw.open(server.port);
    await raw.upgrade('/ws');
    raw.socket.end();
    await eventually(() => codes.length > 0, 'the close phase');
    expect(codes).toEqual([1006]);
    await within(raw.ended, 3000, 'the TCP close');
  });

  test('a peer that does not read: send reports -1, then drops (0); drain runs once it reads again', async () => {
    const results: number[] = [];
    let drains = 0;
    const app = new App({ logger: false });
    app.ws('/flood', {
      // Below node:net's 16 KiB high-water mark: 'drain' alone would never fire for it.
      backpressureLimit: 1000,
      message(conn) {
        const chunk = new Uint8Array(600);
        for (let i = 0; i < 200_000 && results.at(-1) !== 0; i++) results.push(conn.send(chunk));
      },
      drain: () => void drains++,
    });
    const server = await start(app);
    const raw = await Raw.open(server.port);
    await raw.upgrade('/flood');
    raw.socket.pause();
    raw.frame(0x1, 'go');
    await eventually(() => results.at(-1) === 0, 'a dropped send');
    expect(results).toContain(-1);
    expect(results.indexOf(-1)).toBe(results.length - 2);
    expect(results.slice(0, -2).every((n) => n === 600)).toBe(true);
    expect(drains).toBe(0);
    raw.socket.resume();
    await eventually(() => drains === 1, 'the drain phase');
    raw.socket.destroy();
  });
});
