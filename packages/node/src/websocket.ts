/**
 * WebSocket on `node:http`: the `upgrade` event hands over the raw socket. Every upgrade request goes
 * through the same request handler as any other (header-count guard, Host check, the app's pipeline);
 * when the app accepted a WebSocket handshake, this module writes the 101 response (RFC 6455 §4.2.2)
 * and runs the protocol on the socket with the core's `WsProtocol` and `WsSession`. Any other upgrade
 * request is answered as plain HTTP on a one-shot ServerResponse, then the connection closes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { http } from './node-http.ts';
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
  #closing = false;

  get size(): number {
    return this.#open.size;
  }

  /** True once shutdown began: a handshake still in the pipeline is then refused, not upgraded. */
  get closing(): boolean {
    return this.#closing;
  }

  add(session: WsSession): void {
    this.#open.add(session);
  }

  delete(session: WsSession): void {
    this.#open.delete(session);
  }

  /** Shutdown: every open connection gets a Close with 1001 (§7.4.1, the server is going away). */
  closeAll(): void {
    this.#closing = true;
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
  const res = new http.ServerResponse(req);
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

/**
 * Writes the 101 and starts the protocol on the socket. Returns false, doing nothing, when the socket
 * is already gone (the client left while the app decided): no session is opened for nobody.
 */
export function acceptUpgrade(
  app: App,
  res: ServerResponse,
  upgrade: WsUpgrade,
  raw: UpgradeSocket,
  sessions: NodeWsSessions,
  peer: string | undefined,
): boolean {
  const socket = raw.socket;
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return false;
  }
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
  let paused = false;
  // Runs once each write is flushed. 'drain' alone is not enough: it fires only after write() returned
  // false (the 16 KiB high-water mark), and a backpressureLimit below that would never see it.
  const flushed = (): void => {
    if (writable.writableLength > limit) return;
    if (paused) {
      paused = false;
      socket.resume();
    }
    session?.drained();
  };
  const protocol = new WsProtocol({
    maxPayloadLength: route.maxPayloadLength,
    write(bytes) {
      if (socket.destroyed) return;
      socket.write(bytes, flushed);
      // Above the limit, stop reading: a peer that sends without reading (each Ping asks for a Pong)
      // cannot grow our buffers; reading resumes once the writes are flushed.
      if (writable.writableLength > limit && !paused) {
        paused = true;
        socket.pause();
      }
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
  socket.on('error', (error) => app.logger.debug('WebSocket socket error', { error }));
  // node:http sockets allow half-open connections, and its own 'end' listener left with the upgrade: a
  // peer that sends FIN without a Close frame (§7.1.5, 1006) would otherwise keep the session open.
  socket.on('end', () => socket.destroy());
  socket.on('close', () => protocol.socketClosed());
  session.opened();
  if (raw.head.length > 0) protocol.receive(raw.head);
  return true;
}
