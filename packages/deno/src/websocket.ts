/**
 * WebSocket on Deno: an accepted handshake (`app.ws` routes) is switched with `Deno.upgradeWebSocket`,
 * and the standard `WebSocket` events it gives are handed to a `WsSession`. Deno parses the frames
 * (RFC 6455 §5) and answers Pings itself; the session enforces the route's payload cap (1009) and
 * backpressure budget. Deno reports no Pong to JavaScript, so the idle timeout is Deno's own
 * (`idleTimeout`: a Ping every so often, the connection closed when no Pong comes back) rather than
 * the session's timer.
 */
import {
  type App,
  BadRequestError,
  renderError,
  ServiceUnavailableError,
  takeWsUpgrade,
  WsSession,
  type WsTransport,
  type WsUpgrade,
} from '@charter/core';
import type { DenoNamespace, DenoWebSocket } from './deno-global.ts';

/** RFC 6455 §7.4.1: 1006 is only ever reported, never sent: the connection ended without a Close. */
const ABNORMAL_CLOSURE = 1006;
/** WebSocket.CLOSED (WHATWG WebSockets, the readyState values). */
const CLOSED = 3;

function transport(socket: DenoWebSocket, remoteAddress: string | undefined): WsTransport {
  return {
    sendText: (text) => socket.send(text),
    // The session hands over views of ordinary ArrayBuffers (never shared memory).
    sendBinary: (data) => socket.send(data as Uint8Array<ArrayBuffer>),
    // The WebSocket API cannot send a Ping; Deno's idleTimeout sends them (see the module comment).
    ping: () => {},
    close: (code, reason) => socket.close(code, reason),
    // The WebSocket API has no abortive close: start a closing handshake with "going away".
    terminate: () => socket.close(1001, ''),
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    remoteAddress,
  };
}

/** The open sessions of one server, for shutdown. */
export class DenoWsSessions {
  readonly #open = new Set<WsSession>();
  readonly #app: App;
  readonly #deno: DenoNamespace;
  #closing = false;

  constructor(app: App, deno: DenoNamespace) {
    this.#app = app;
    this.#deno = deno;
  }

  get size(): number {
    return this.#open.size;
  }

  /**
   * The answer to send for `request`: the app's `response`, or, when the app accepted a WebSocket
   * handshake, Deno's 101 with the socket wired to a session.
   */
  answer(request: Request, response: Response, remoteAddress: string | undefined): Response {
    const upgrade = takeWsUpgrade(request, response);
    if (upgrade === undefined) return response;
    if (this.#closing) {
      // Shutdown began while the app decided: its open connections are being closed with 1001.
      const error = new ServiceUnavailableError('The server is shutting down');
      return renderError(error, this.#app.options.production).response;
    }
    try {
      return this.#upgrade(request, upgrade, remoteAddress);
    } catch (error) {
      // Deno refused a handshake the app accepted (it checks the same fields): answer as HTTP.
      this.#app.logger.warn('Deno refused a WebSocket handshake the app accepted', { error });
      const refused = new BadRequestError('The WebSocket handshake could not be completed');
      return renderError(refused, this.#app.options.production).response;
    }
  }

  #upgrade(request: Request, upgrade: WsUpgrade, remoteAddress: string | undefined): Response {
    const { route } = upgrade;
    const { socket, response } = this.#deno.upgradeWebSocket(request, {
      ...(upgrade.protocol === '' ? {} : { protocol: upgrade.protocol }),
      idleTimeout: route.idleTimeoutSeconds,
    });
    // What the app's hooks put on the acceptance (Set-Cookie, a request id) goes on the 101.
    for (const [name, value] of upgrade.headers) response.headers.append(name, value);
    socket.binaryType = 'arraybuffer';
    const session = new WsSession({
      // Deno runs the idle timeout (see the module comment): the session's timer is off.
      route: { ...route, idleTimeoutSeconds: 0 },
      ctx: upgrade.ctx,
      protocol: upgrade.protocol,
      transport: transport(socket, remoteAddress),
      logger: this.#app.logger,
      // Deno's own message cap (64 MiB) is far above a route's: the session checks each message.
      checkPayloadLength: true,
    });
    const open = this.#open;
    socket.addEventListener('open', () => {
      open.add(session);
      session.opened();
    });
    socket.addEventListener('message', (event) => {
      const data: unknown = event.data;
      session.received(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
    });
    socket.addEventListener('close', (event) => {
      open.delete(session);
      session.closed(event.code, event.reason);
    });
    socket.addEventListener('error', () => {
      // A protocol error or a dropped connection: 'close' follows with 1006; report it if it does not.
      if (socket.readyState === CLOSED && open.delete(session)) {
        session.closed(ABNORMAL_CLOSURE, '');
      }
    });
    return response;
  }

  /** Shutdown: every open connection gets a Close with 1001 (§7.4.1, the server is going away). */
  closeAll(): void {
    this.#closing = true;
    for (const session of this.#open) session.close(1001, 'Server shutting down');
  }

  /** Resolves once every connection is closed, or after `ms`. */
  async settled(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.#open.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
