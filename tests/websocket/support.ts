/** Helpers for the WebSocket adapter tests: a promise-based client over Bun's WebSocket, and raw TCP. */
import { connect, type Socket } from 'node:net';
import { expect, test } from 'bun:test';
import { encodeWsFrame, WsFrameParser, type WsFrame } from '@charter/core';

export const HANDSHAKE_LINES = [
  'Upgrade: websocket',
  'Connection: Upgrade',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
];

/** The same handshake as request headers (RFC 6455 §4.1, the key of its §1.3 example). */
export const HANDSHAKE_HEADERS: Readonly<Record<string, string>> = {
  upgrade: 'websocket',
  connection: 'Upgrade',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'sec-websocket-version': '13',
};

/** Rejects when `promise` does not settle within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A Bun WebSocket client whose events are awaited one at a time. */
export class Client {
  readonly ws: WebSocket;
  readonly messages: (string | ArrayBuffer)[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: (() => void)[] = [];

  constructor(url: string, protocols?: string[], headers?: Record<string, string>) {
    this.ws = new WebSocket(url, { protocols, headers } as never);
    this.ws.binaryType = 'arraybuffer';
    this.opened = new Promise((resolve, reject) => {
      this.ws.addEventListener('open', () => resolve());
      this.ws.addEventListener('error', () => reject(new Error('WebSocket error before open')));
    });
    this.opened.catch(() => {});
    this.closed = new Promise((resolve) => {
      this.ws.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason }));
    });
    this.ws.addEventListener('message', (event) => {
      this.messages.push(event.data as string | ArrayBuffer);
      for (const waiter of this.#waiters.splice(0)) waiter();
    });
  }

  /** The n-th message (0-based), waiting for it. */
  async message(n: number): Promise<string | ArrayBuffer> {
    while (this.messages.length <= n) {
      await within(new Promise<void>((resolve) => this.#waiters.push(resolve)), 3000, `message ${n}`);
    }
    return this.messages[n] as string | ArrayBuffer;
  }
}

/** A raw TCP connection: sends bytes, collects everything received. */
export class Raw {
  readonly socket: Socket;
  received = Buffer.alloc(0);
  readonly ended: Promise<void>;
  #waiters: (() => void)[] = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const waiter of this.#waiters.splice(0)) waiter();
    });
    this.ended = new Promise((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
  }

  static open(port: number): Promise<Raw> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new Raw(socket)));
      socket.once('error', reject);
    });
  }

  async until(predicate: () => boolean, what: string): Promise<void> {
    while (!predicate()) {
      await within(new Promise<void>((resolve) => this.#waiters.push(resolve)), 3000, what);
    }
  }

  /** Reads an HTTP response head (status and headers) and returns the bytes after it. */
  async head(): Promise<{ status: number; headers: Map<string, string>; rest: Buffer }> {
    await this.until(() => this.received.includes('\r\n\r\n'), 'a response head');
    const end = this.received.indexOf('\r\n\r\n');
    const lines = this.received.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(lines[0]?.split(' ')[1]);
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    return { status, headers, rest: this.received.subarray(end + 4) };
  }

  /** Performs a handshake on `path`; resolves once the 101 arrived. */
  async upgrade(path: string): Promise<void> {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${HANDSHAKE_LINES.join('\r\n')}\r\n\r\n`);
    const { status } = await this.head();
    if (status !== 101) throw new Error(`expected 101, got ${status}`);
    this.received = this.received.subarray(this.received.indexOf('\r\n\r\n') + 4);
  }

  /** Sends a frame, masked unless `unmasked`. */
  frame(
    opcode: number,
    payload: Uint8Array | string = new Uint8Array(0),
    options: { fin?: boolean; rsv?: number; unmasked?: boolean } = {},
  ): void {
    const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
    const mask = options.unmasked === true ? undefined : new Uint8Array([1, 2, 3, 4]);
    this.socket.write(encodeWsFrame({ opcode, payload: bytes, mask, fin: options.fin, rsv: options.rsv }));
  }

  /** The frames the server sent (after the handshake). */
  frames(): WsFrame[] {
    return new WsFrameParser({ maxPayloadLength: 1 << 24, requireMask: false, forbidMask: true }).push(
      new Uint8Array(this.received),
    );
  }

  /** Waits for the server's Close frame and returns its code. */
  async closeCode(): Promise<number> {
    await this.until(() => this.frames().some((f) => f.opcode === 0x8), 'a Close frame');
    const close = this.frames().find((f) => f.opcode === 0x8) as WsFrame;
    return ((close.payload[0] as number) << 8) | (close.payload[1] as number);
  }
}

/** The port of a server that serves the WebSocket test app (tests/websocket/adapters.test.ts `testApp`). */
export interface WsTestServer {
  readonly port: number;
}

/** Sends a handshake for `path` (plus `extra` header lines) and returns the response head. */
export async function handshakeStatus(server: WsTestServer, path: string, extra: string[] = []) {
  const raw = await Raw.open(server.port);
  raw.socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${[...HANDSHAKE_LINES, ...extra].join('\r\n')}\r\n\r\n`,
  );
  const head = await raw.head();
  raw.socket.destroy();
  return head;
}

/**
 * The raw TCP suite of the Node adapter's RFC 6455 engine (the HTTP/1.0 refusal, echo, ping/pong,
 * fragments, Close, and each protocol error with its close code), registered inside a `describe`.
 * `start` serves the WebSocket test app: in this Bun process, or on a Node 24 host.
 */
export function rawFrameTests(start: () => Promise<WsTestServer>): void {
  test('an HTTP/1.0 request is never upgraded (RFC 9110 §7.8): 426; HTTP/1.1 switches', async () => {
    const server = await start();
    const raw = await Raw.open(server.port);
    raw.socket.write(
      `GET /echo/a HTTP/1.0\r\nHost: 127.0.0.1:${server.port}\r\n${HANDSHAKE_LINES.join('\r\n')}\r\n\r\n`,
    );
    await raw.until(() => raw.received.includes('\r\n\r\n'), 'the response head');
    const head = raw.received.toString('latin1');
    expect(head).toMatch(/^HTTP\/1\.[01] 426 /);
    expect(head.toLowerCase()).toContain('content-type: application/problem+json');
    expect(head.toLowerCase()).not.toContain('sec-websocket-accept');
    raw.socket.destroy();
    expect((await handshakeStatus(server, '/echo/a')).status).toBe(101);
  });

  async function upgraded(): Promise<Raw> {
    const server = await start();
    const raw = await Raw.open(server.port);
    await raw.upgrade('/echo/a');
    return raw;
  }

  test('a masked text frame is echoed unmasked; a ping gets a pong with the same data', async () => {
    const raw = await upgraded();
    raw.frame(0x1, 'hi');
    raw.frame(0x9, 'ping!');
    await raw.until(() => raw.frames().length >= 2, 'two frames');
    // The pong may overtake the echo: it is written at once, the message waits for the open phase.
    const echo = raw.frames().find((f) => f.opcode === 0x1);
    const pong = raw.frames().find((f) => f.opcode === 0xa);
    expect([echo?.opcode, new TextDecoder().decode(echo?.payload), echo?.masked]).toEqual([0x1, 'hi', false]);
    expect([pong?.opcode, new TextDecoder().decode(pong?.payload)]).toEqual([0xa, 'ping!']);
    raw.socket.destroy();
  });

  test('fragmented messages with an interleaved ping are reassembled', async () => {
    const raw = await upgraded();
    raw.frame(0x1, 'frag', { fin: false });
    raw.frame(0x9, '');
    raw.frame(0x0, 'mented');
    await raw.until(() => raw.frames().some((f) => f.opcode === 0x1), 'the echo');
    expect(new TextDecoder().decode(raw.frames().find((f) => f.opcode === 0x1)?.payload)).toBe('fragmented');
    raw.socket.destroy();
  });

  test('a Close is echoed with its code and the server ends the connection', async () => {
    const raw = await upgraded();
    raw.frame(0x8, new Uint8Array([0x0f, 0xa0, 0x62]));
    expect(await raw.closeCode()).toBe(4000);
    await within(raw.ended, 3000, 'the TCP close');
  });

  const cases: [string, (raw: Raw) => void, number][] = [
    ['an unmasked frame', (raw) => raw.frame(0x1, 'x', { unmasked: true }), 1002],
    ['a reserved opcode', (raw) => raw.frame(0x3, 'x'), 1002],
    ['a reserved bit', (raw) => raw.frame(0x1, 'x', { rsv: 4 }), 1002],
    ['invalid UTF-8 in text', (raw) => raw.frame(0x1, new Uint8Array([0xc3, 0x28])), 1007],
    ['an oversized control frame', (raw) => raw.frame(0x9, new Uint8Array(126)), 1002],
    ['a fragmented control frame', (raw) => raw.frame(0x9, 'x', { fin: false }), 1002],
    ['a continuation with no message', (raw) => raw.frame(0x0, 'x'), 1002],
    ['a Close with an invalid code', (raw) => raw.frame(0x8, new Uint8Array([0x03, 0xed])), 1002],
  ];
  for (const [what, send, code] of cases) {
    test(`${what} closes the connection with ${code}`, async () => {
      const raw = await upgraded();
      send(raw);
      expect(await raw.closeCode()).toBe(code);
      await within(raw.ended, 3000, 'the TCP close');
    });
  }
}

/**
 * What the handshake guards of the WebSocket test app answer (a foreign Origin 403, an `app.use`
 * hook 401, `wsRateLimit` 429, a plain GET 426), registered inside a `describe`; `start` serves the
 * app (tests/websocket/fixtures/ws-app.ts) on the adapter under test.
 */
export function upgradeRefusalTests(start: () => Promise<WsTestServer>): void {
  test('a foreign Origin is refused 403 before the upgrade; the own origin connects', async () => {
    const server = await start();
    const refused = await handshakeStatus(server, '/echo/a', ['Origin: https://evil.example']);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const client = new Client(`ws://127.0.0.1:${server.port}/echo/a`, undefined, {
      origin: `http://127.0.0.1:${server.port}`,
    });
    await within(client.opened, 3000, 'open');
    client.ws.close();
  });

  test('app.use hooks refuse the upgrade (401); with credentials it connects', async () => {
    const server = await start();
    const refused = await handshakeStatus(server, '/private');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    const client = new Client(`ws://127.0.0.1:${server.port}/private`, undefined, {
      authorization: 'Bearer ok',
    });
    expect(await client.message(0)).toBe('welcome');
    client.ws.close();
  });

  test('wsRateLimit answers the second upgrade with 429 and Retry-After', async () => {
    const server = await start();
    const first = new Client(`ws://127.0.0.1:${server.port}/limited`);
    expect(await first.message(0)).toBe('in');
    const second = await handshakeStatus(server, '/limited');
    expect(second.status).toBe(429);
    expect(second.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    first.ws.close();
  });

  test('a plain GET to a WebSocket path gets 426; other routes still answer over HTTP', async () => {
    const server = await start();
    const plain = await fetch(`http://127.0.0.1:${server.port}/echo/a`);
    expect(plain.status).toBe(426);
    expect(plain.headers.get('upgrade')).toBe('websocket');
    expect((await plain.json()) as object).toMatchObject({ status: 426, title: 'Upgrade Required' });
    const upgradeToHttp = await handshakeStatus(server, '/hello');
    expect(upgradeToHttp.status).toBe(200);
  });
}
