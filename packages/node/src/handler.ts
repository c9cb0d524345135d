/**
 * The request listener: Node request in, app.handle, Node response out. It owns the per-request
 * concerns around the app: the header-count guard, client disconnects, and failures of the app or of
 * a response body, none of which may crash the process.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { App } from '@charter/core';
import {
  BadRequestError,
  HttpError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  renderError,
  ServiceUnavailableError,
  setRequestPeer,
  takeWsUpgrade,
} from '@charter/core';
import { recordPeerCertificate } from './peer-certificate.ts';
import { problemResponse } from './problem.ts';
import { awaitsContinue, toWebRequest } from './request.ts';
import { type BodyHandle, writeResponse } from './response.ts';
import { acceptUpgrade, type NodeWsSessions, type UpgradeSocket, upgradeResponse } from './websocket.ts';

/** A `node:http` request listener, for `http.createServer(handler)` or `server.on('request', handler)`. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Settings `serve()` passes down; `toNodeHandler()` uses the defaults. */
export interface HandlerSettings {
  /** `host:port` used when the Host header is missing or malformed; default: the socket's local address. */
  fallbackAuthority?: string;
  /** Where `serve()` tracks open WebSocket connections; without it, upgrades are not handled. */
  sockets?: NodeWsSessions;
}

/**
 * Responses whose connection the adapter itself ended (a body that arrived too slowly and was answered
 * 408 on the socket, a body that failed mid-stream, shutdown's force-close): the status that stands for
 * it, so the close that follows is not mistaken for, and logged as, a client disconnect.
 */
const endedByServer = new WeakMap<ServerResponse, number>();

/** Marks a response whose socket the adapter is about to end with `status`. */
export function markEndedByServer(res: ServerResponse, status: number): void {
  endedByServer.set(res, status);
}

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The path of a request target, for logs: without the query string, which may carry tokens. */
export const pathOf = (url: string | undefined): string => {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
};

/** Builds the listener; `toNodeHandler(app)` is `createHandler(app)`. */
export function createHandler(app: App, settings: HandlerSettings = {}): NodeHandler {
  return (req, res) => run(app, settings, req, res, undefined);
}

/**
 * The `upgrade` event listener: the request is answered by the same steps as any other, on a
 * one-shot ServerResponse; a WebSocket handshake the app accepted switches the socket instead.
 */
export function createUpgradeHandler(
  app: App,
  settings: HandlerSettings,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    // node:http removed its own error listener when it handed the socket over: a reset while the app
    // decides would otherwise be an uncaught 'error' event.
    socket.on('error', (error) => app.logger.debug('Upgrade socket error', { path: pathOf(req.url), error }));
    run(app, settings, req, upgradeResponse(req, socket), { socket, head });
  };
}

function run(
  app: App,
  settings: HandlerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  upgrade: UpgradeSocket | undefined,
): void {
  handle(app, settings, req, res, upgrade).catch((error: unknown) => {
    // Last line of defence: nothing thrown while answering may take the process down.
    app.logger.error('The Node adapter failed to answer a request', {
      method: req.method,
      path: pathOf(req.url),
      error,
    });
    if (!res.headersSent && !res.destroyed) {
      res.statusCode = 500;
      res.end();
    } else {
      res.destroy();
    }
  });
}

async function handle(
  app: App,
  settings: HandlerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  upgrade: UpgradeSocket | undefined,
): Promise<void> {
  const started = performance.now();
  const method = req.method ?? 'GET';
  const path = pathOf(req.url);
  const production = app.options.production;
  const controller = new AbortController();
  const body: BodyHandle = { reader: undefined };

  // A socket error after the client left surfaces here; it is expected, never fatal.
  res.on('error', (error) => app.logger.debug('Response stream error', { method, path, error }));
  res.once('close', () => {
    if (res.writableFinished) return;
    const status = endedByServer.get(res);
    const reason =
      status === undefined
        ? new DOMException('The client disconnected before the response was complete', 'AbortError')
        : status === 408
          ? new RequestTimeoutError('The request body was not received in time')
          : new DOMException('The server closed the connection', 'AbortError');
    // ctx.request.signal listeners in hooks and handlers stop their work...
    controller.abort(reason);
    // ...and a streamed body stops producing: cancelling runs the source's `cancel`.
    body.reader?.cancel(reason).catch(() => {});
    if (status !== undefined) return;
    app.logger.info('Client disconnected before the response was complete', {
      method,
      path,
      status: app.options.disconnectStatusCode,
      durationMs: Math.round(performance.now() - started),
    });
  });

  // RFC 6585 §5: counted on the raw field lines, before a Request is built (a Headers object would
  // merge repeated names and undercount). `maxHeaderCount - 1` fields are allowed; 0 disables the guard.
  const max = app.options.maxHeaderCount;
  if (max > 0 && req.rawHeaders.length / 2 >= max) {
    const error = new RequestHeaderFieldsTooLargeError(`The request has more than ${max - 1} header fields`);
    await writeResponse(req, res, problemResponse(error, production), body);
    return;
  }

  // RFC 9112 §3.2: an HTTP/1.1 request without Host MUST get a 400 (HTTP/1.0 may omit it, and falls
  // back to the address the request arrived on). serve() turns Node's own bare 400 off for this.
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    const error = new BadRequestError('An HTTP/1.1 request needs a Host header field (RFC 9112 §3.2)');
    await writeResponse(req, res, problemResponse(error, production), body);
    return;
  }

  // RFC 9110 §10.1.1: a client that sent `Expect: 100-continue` waits before sending the content, and a
  // server may answer without inviting it. serve() listens for 'checkContinue', so Node leaves the 100
  // to us: it goes out only when the app reads the body. A request refused before that (over the body
  // limit, unauthenticated, unknown route) gets its final answer alone, and Node closes the connection.
  const sendContinue = awaitsContinue(req, res) ? () => res.writeContinue() : undefined;
  let request: Request | undefined;
  try {
    request = toWebRequest(req, controller.signal, settings.fallbackAuthority, {
      limit: app.options.bodyLimitBytes,
      sendContinue,
    });
  } catch {
    request = undefined; // a header value the Fetch Headers class refuses
  }
  if (request === undefined) {
    // Fetch refuses CONNECT, TRACE and TRACK in a Request; RFC 9110 §15.6.2 answers an unsupported
    // method with 501. Anything else is a target or header the URL/Headers parsers reject: 400.
    const error = FORBIDDEN_METHODS.has(method)
      ? new HttpError({ status: 501, detail: `The ${method} method is not supported` })
      : new BadRequestError('The request target or headers cannot form a valid request');
    await writeResponse(req, res, problemResponse(error, production), body);
    return;
  }
  // The socket's remote address: the client, unless a proxy posture says to look further.
  const peer = req.socket.remoteAddress;
  if (peer !== undefined) setRequestPeer(request, peer);
  // The TLS client certificate, for mutualTls(); nothing on plain HTTP.
  recordPeerCertificate(req, request);

  let response: Response;
  try {
    response = await app.handle(request);
  } catch (error) {
    app.logger.error('The app threw instead of answering', { method, path, error });
    response = renderError(error, production).response;
  }
  if (res.destroyed) {
    // The client left while the app worked: nobody will read this body.
    await response.body?.cancel().catch(() => {});
    return;
  }
  const accepted = takeWsUpgrade(request, response);
  if (accepted !== undefined) {
    if (upgrade === undefined || settings.sockets === undefined) {
      // A handshake that reached a plain request listener (toNodeHandler without an 'upgrade' listener).
      const error = new HttpError({
        status: 501,
        detail:
          'This server does not handle WebSocket upgrades; serve the app with serve() from charter/node',
      });
      response = problemResponse(error, production);
    } else if (settings.sockets.closing) {
      // Shutdown began while the app decided: its open connections are being closed with 1001.
      response = problemResponse(new ServiceUnavailableError('The server is shutting down'), production);
    } else {
      acceptUpgrade(app, res, accepted, upgrade, settings.sockets, peer);
      return;
    }
  }

  try {
    await writeResponse(req, res, response, body, app.state !== 'serving');
  } catch (error) {
    app.logger.error('The response body failed while streaming', {
      method,
      path,
      status: response.status,
      error,
    });
    if (res.headersSent || res.destroyed) {
      // Part of the response is on the wire: cutting the connection is the only way to tell the client
      // it is incomplete (RFC 9112 §6.3: a chunked body without its last chunk is incomplete).
      markEndedByServer(res, 500);
      res.destroy();
      return;
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    await writeResponse(req, res, renderError(error, production).response, body);
  }
}
