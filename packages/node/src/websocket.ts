/**
 * WebSocket on `node:http`: the `upgrade` event hands over the raw socket. Every upgrade request goes
 * through the same request handler as any other (header-count guard, Host check, the app's pipeline);
 * when the app accepted a WebSocket handshake, this module writes the 101 response (RFC 6455 §4.2.2)
 * and runs the protocol on the socket with the core's `WsProtocol` and `WsSession`. Any other upgrade
 * request is answered as plain HTTP on a one-shot ServerResponse, then the connection closes.
 */
import { type IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type App, WS_CLOSE_CODES, WS_OPCODES, WsProtocol, WsSession, type WsUpgrade } from '@charter/core';

/** The raw connection of an upgrade request. */
export interface UpgradeSocket {
  socket: Duplex;
  head: Buffer;
}

/** The open WebSocket connections of one server, for shutdown. */
export class NodeWsSessions {
  readonly #open = new Set<WsSession>();

  get size(): number {
    return this.#open.size;
  }

  add(session: WsSession): void {
    this.#open.add(session);
  }

  delete(session: WsSession): void {
    this.#open.delete(session);
  }

  /** Shutdown: every open connection gets a Close with 1001 (§7.4.1, the server is going away). */
  closeAll(): void {
    for (const session of this.#open) session.close(WS_CLOSE_CODES.goingAway, 'Server shutting down');
  }

  /** Shutdown timeout: drops the connections whose peer never answered the Close. */
  terminateAll(): void {
    for (const session of this.#open) session.terminate();
  }
}

/**
 * A ServerResponse for an upgrade request, so the ordinary handler can answer it over HTTP. The
 * socket has left Node's HTTP parser, so the connection ends with the response.
 */
export function upgradeResponse(req: IncomingMessage, socket: Duplex): ServerResponse {
  const res = new ServerResponse(req);
  res.assignSocket(socket as Socket);
  res.shouldKeepAlive = false;
  res.once('finish', () => {
    res.detachSocket(socket as Socket);
    socket.end();
  });
  return res;
}

/** A header field line, refusing what could split the response (the Headers class already refuses CR/LF). */
function fieldLine(name: string, value: string): string {
  return `${name}: ${value}\r\n`;
}

/** Writes the 101 and starts the protocol on the socket. */
export function acceptUpgrade(
  app: App,
  res: ServerResponse,
  upgrade: WsUpgrade,
  raw: UpgradeSocket,
  sessions: NodeWsSessions,
  peer: string | undefined,
): void {
  const socket = raw.socket;
  res.detachSocket(socket as Socket);
  let head = 'HTTP/1.1 101 Switching Protocols\r\n';
  head += fieldLine('Upgrade', 'websocket') + fieldLine('Connection', 'Upgrade');
  head += fieldLine('Sec-WebSocket-Accept', upgrade.accept);
  if (upgrade.protocol !== '') head += fieldLine('Sec-WebSocket-Protocol', upgrade.protocol);
  for (const [name, value] of upgrade.headers) head += fieldLine(name, value);
  socket.write(`${head}\r\n`);
  (socket as Socket).setNoDelay?.(true);
  (socket as Socket).setTimeout?.(0);

  const route = upgrade.route;
  const limit = route.backpressureLimit;
  const writable = socket as Socket;
  let session: WsSession | undefined;
  const protocol = new WsProtocol({
    maxPayloadLength: route.maxPayloadLength,
    write(bytes) {
      if (socket.destroyed) return;
      socket.write(bytes);
      // Above the limit, stop reading: a peer that sends without reading cannot grow our buffers.
      if (writable.writableLength > limit) socket.pause();
    },
    end() {
      socket.end();
      // A peer that never closes its side is not waited for.
      const timer = setTimeout(() => socket.destroy(), 1000);
      timer.unref();
    },
    onMessage: (message) => session?.received(message),
    onControl: (opcode) => {
      if (opcode === WS_OPCODES.ping || opcode === WS_OPCODES.pong) session?.activity();
    },
    onClose(code, reason) {
      if (session === undefined) return;
      sessions.delete(session);
      session.closed(code, reason);
    },
  });
  session = new WsSession({
    route,
    ctx: upgrade.ctx,
    protocol: upgrade.protocol,
    transport: {
      sendText: (text) => protocol.sendText(text),
      sendBinary: (data) => protocol.sendBinary(data),
      ping: (data) => protocol.ping(data),
      close: (code, reason) => protocol.close(code, reason),
      terminate: () => {
        socket.destroy();
        protocol.socketClosed();
      },
      get bufferedAmount() {
        return writable.writableLength ?? 0;
      },
      remoteAddress: peer,
    },
    logger: app.logger,
  });
  sessions.add(session);
  socket.on('data', (chunk: Buffer) => protocol.receive(chunk));
  socket.on('drain', () => {
    socket.resume();
    session?.drained();
  });
  socket.on('error', (error) => app.logger.debug('WebSocket socket error', { error }));
  socket.on('close', () => protocol.socketClosed());
  session.opened();
  if (raw.head.length > 0) protocol.receive(raw.head);
}
