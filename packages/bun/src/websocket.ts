/**
 * WebSocket on Bun: an accepted handshake (`app.ws` routes) is switched with `server.upgrade`, and
 * Bun's `websocket` events are handed to a `WsSession`. Bun's limits are per server, so the server gets
 * the largest of every route's and each session enforces its own route's smaller payload cap (1009)
 * and backpressure limit; the idle timeout runs in the session on every adapter (Bun's is off).
 */
import {
  type App,
  BadRequestError,
  renderError,
  ServiceUnavailableError,
  takeWsUpgrade,
  type WsRouteInfo,
  WsSession,
  type WsTransport,
  type WsUpgrade,
  WS_DEFAULTS,
} from '@charter/core';

/** What each Bun ServerWebSocket carries. */
export interface BunWsData {
  upgrade: WsUpgrade;
  session?: WsSession;
}

type BunWs = Bun.ServerWebSocket<BunWsData>;
type Handler = (request: Request, server: Bun.Server<BunWsData>) => Response | Promise<Response>;

/** The server-wide limits: the largest of the routes' (the defaults when there is no route yet). */
export function serverLimits(routes: readonly WsRouteInfo[]): {
  maxPayloadLength: number;
  backpressureLimit: number;
} {
  let maxPayloadLength = routes.length === 0 ? WS_DEFAULTS.maxPayloadLength : 0;
  let backpressureLimit = routes.length === 0 ? WS_DEFAULTS.backpressureLimit : 1;
  for (const { route } of routes) {
    maxPayloadLength = Math.max(maxPayloadLength, route.maxPayloadLength);
    backpressureLimit = Math.max(backpressureLimit, route.backpressureLimit);
  }
  return { maxPayloadLength, backpressureLimit };
}

function transport(ws: BunWs): WsTransport {
  return {
    sendText: (text) => void ws.sendText(text),
    sendBinary: (data) => void ws.sendBinary(data),
    ping: (data) => void ws.ping(data),
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
    get bufferedAmount() {
      return ws.getBufferedAmount();
    },
    remoteAddress: ws.remoteAddress,
  };
}

/** The open sessions of one server, for shutdown. */
export class BunWsSessions {
  readonly #open = new Set<WsSession>();
  readonly #app: App;
  readonly #serverMax: number;
  #closing = false;

  constructor(app: App, serverMax: number) {
    this.#app = app;
    this.#serverMax = serverMax;
  }

  get size(): number {
    return this.#open.size;
  }

  /** Wraps a fetch handler: an accepted handshake is upgraded instead of answered. */
  wrap(
    handler: Handler,
  ): (
    request: Request,
    server: Bun.Server<BunWsData>,
  ) => Response | Promise<Response | undefined> | undefined {
    return (request, server) => {
      const response = handler(request, server);
      if (response instanceof Promise)
        return response.then((settled) => this.#finish(request, settled, server));
      return this.#finish(request, response, server);
    };
  }

  #finish(request: Request, response: Response, server: Bun.Server<BunWsData>): Response | undefined {
    const upgrade = takeWsUpgrade(request, response);
    if (upgrade === undefined) return response;
    if (this.#closing) {
      // Shutdown began while the app decided: its open connections are being closed with 1001.
      const error = new ServiceUnavailableError('The server is shutting down');
      return renderError(error, this.#app.options.production).response;
    }
    const headers = new Headers(upgrade.headers);
    if (upgrade.protocol !== '') headers.set('sec-websocket-protocol', upgrade.protocol);
    if (server.upgrade(request, { data: { upgrade }, headers })) return undefined;
    // Bun refused a handshake the app accepted (it checks the same fields): answer as HTTP.
    const error = new BadRequestError('The WebSocket handshake could not be completed');
    return renderError(error, this.#app.options.production).response;
  }

  /** The `websocket` option of `Bun.serve`. */
  handler(): Bun.WebSocketHandler<BunWsData> {
    const open = this.#open;
    const app = this.#app;
    const serverMax = this.#serverMax;
    return {
      maxPayloadLength: serverMax,
      backpressureLimit: serverLimits(app.wsRoutes()).backpressureLimit,
      // The sessions run the idle timeout (and its pings) themselves, the same way on every adapter.
      idleTimeout: 0,
      sendPings: false,
      // RFC 7692 (permessage-deflate) is not offered.
      perMessageDeflate: false,
      open(ws) {
        const { upgrade } = ws.data;
        const session = new WsSession({
          route: upgrade.route,
          ctx: upgrade.ctx,
          protocol: upgrade.protocol,
          transport: transport(ws),
          logger: app.logger,
          checkPayloadLength: upgrade.route.maxPayloadLength < serverMax,
        });
        ws.data.session = session;
        open.add(session);
        session.opened();
      },
      message(ws, message) {
        const bytes =
          typeof message === 'string'
            ? message
            : new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
        ws.data.session?.received(bytes);
      },
      ping(ws) {
        ws.data.session?.activity();
      },
      pong(ws) {
        ws.data.session?.activity();
      },
      drain(ws) {
        ws.data.session?.drained();
      },
      close(ws, code, reason) {
        const session = ws.data.session;
        if (session === undefined) return;
        open.delete(session);
        session.closed(code, reason);
      },
    };
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
