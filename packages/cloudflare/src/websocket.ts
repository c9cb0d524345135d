/**
 * WebSocket on Workers: an accepted handshake (`app.ws` routes) is answered with a `WebSocketPair`,
 * the client end in the 101 response and the server end `accept()`ed here and handed to a
 * `WsSession`. The runtime parses frames (RFC 6455 §5) and answers Pings; the session enforces the
 * route's payload cap (1009) and idle timeout. The Workers WebSocket reports neither Pongs nor its
 * send buffer, so the idle clock counts messages only (a peer that stays silent for the route's
 * `idleTimeoutSeconds` is closed with 1001) and `send` never reports backpressure.
 */
import {
  type App,
  InternalError,
  renderError,
  takeWsUpgrade,
  WsSession,
  type WsTransport,
  type WsUpgrade,
} from '@charter/core';
import { type WorkerWebSocket, webSocketPairConstructor } from './workers-types.ts';

/** RFC 6455 §7.4.1: 1006 is only ever reported, never sent: the connection ended without a Close. */
const ABNORMAL_CLOSURE = 1006;

function transport(socket: WorkerWebSocket, remoteAddress: string | undefined): WsTransport {
  return {
    sendText: (text) => socket.send(text),
    sendBinary: (data) => socket.send(data),
    // The Workers WebSocket cannot send a Ping; the runtime keeps the connection alive itself.
    ping: () => {},
    close: (code, reason) => socket.close(code, reason),
    // No abortive close in the WebSocket API: a closing handshake with "going away" instead.
    terminate: () => socket.close(1001, ''),
    bufferedAmount: 0,
    remoteAddress,
  };
}

/**
 * The answer to send for `request`: the app's `response`, or, when the app accepted a WebSocket
 * handshake, a 101 carrying the client end of a `WebSocketPair` whose server end runs the route.
 */
export function answerWorkerRequest(
  app: App,
  request: Request,
  response: Response,
  remoteAddress: string | undefined,
): Response {
  const upgrade = takeWsUpgrade(request, response);
  if (upgrade === undefined) return response;
  const Pair = webSocketPairConstructor();
  if (Pair === undefined) {
    // Registration-time checks cannot see the runtime; this is a worker bundle run elsewhere.
    app.logger.error('WebSocketPair is not available: WebSocket routes need the Workers runtime');
    return renderError(new InternalError('WebSocketPair is not available'), app.options.production).response;
  }
  return upgradeWith(app, new Pair(), upgrade, remoteAddress);
}

function upgradeWith(
  app: App,
  pair: { 0: WorkerWebSocket; 1: WorkerWebSocket },
  upgrade: WsUpgrade,
  remoteAddress: string | undefined,
): Response {
  const client = pair[0];
  const server = pair[1];
  const session = new WsSession({
    route: upgrade.route,
    ctx: upgrade.ctx,
    protocol: upgrade.protocol,
    transport: transport(server, remoteAddress),
    logger: app.logger,
    // The runtime's own message cap is not the route's: the session checks each message.
    checkPayloadLength: true,
  });
  // Binary messages as ArrayBuffers, whatever the worker's compatibility date makes the default (a
  // Blob, the WHATWG default, would need an async read that could reorder messages).
  server.binaryType = 'arraybuffer';
  server.addEventListener('message', (event) => {
    const data = event.data;
    session.received(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
  });
  server.addEventListener('close', (event) => session.closed(event.code, event.reason));
  server.addEventListener('error', () => session.closed(ABNORMAL_CLOSURE, ''));
  server.accept();
  session.opened();
  const headers = new Headers(upgrade.headers);
  // The runtime writes Upgrade, Connection and Sec-WebSocket-Accept; the subprotocol is the app's choice.
  if (upgrade.protocol !== '') headers.set('sec-websocket-protocol', upgrade.protocol);
  // `webSocket` is a Workers extension of ResponseInit (status 101 is allowed only with it).
  const init: ResponseInit & { webSocket: WorkerWebSocket } = { status: 101, headers, webSocket: client };
  return new Response(null, init);
}
