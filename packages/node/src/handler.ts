/**
 * The request listener: Node request in, app.handle, Node response out. It owns the per-request
 * concerns around the app: the header-count guard, client disconnects, and failures of the app or of
 * a response body, none of which may crash the process.
 *
 * The hot path allocates little: one Exchange per request holds its state, found by listeners shared
 * by every request (no closure each); a request whose steps all finish synchronously is answered
 * without a promise; no Fetch Request is built unless something asks for it (NodeLightRequest); and a
 * response whose
 * body is text the pipeline built (`responsePayload`) is written with one writeHead and one end,
 * without reading its body stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { App } from '@charter/core';
import {
  BadRequestError,
  HttpError,
  plannedAnswer,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  renderError,
  responsePayload,
  ServiceUnavailableError,
  takeWsUpgrade,
} from '@charter/core';
import { problemResponse } from './problem.ts';
import { lightRequestPeer, type NodeLightRequest } from './light-request.ts';
import { scanHead, toNodeRequest } from './request.ts';
import { type BodyHandle, writePlanned, writeResponse, writeWhole } from './response.ts';
import { acceptUpgrade, type NodeWsSessions, type UpgradeSocket, upgradeResponse } from './websocket.ts';

/** A `node:http` request listener, for `http.createServer(handler)` or `server.on('request', handler)`. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Settings `serve()` passes down; `toNodeHandler()` uses the defaults. */
export interface HandlerSettings {
  /** `host:port` used when the Host header is missing or malformed; default: the socket's local address. */
  fallbackAuthority?: string;
  /** Where `serve()` tracks open WebSocket connections; without it, upgrades are not handled. */
  sockets?: NodeWsSessions;
  /**
   * Where `serve()` tracks which response is being written on each socket (its clientError handler
   * must not write over it, shutdown force-closes them); each entry is removed when its response closes.
   */
  inFlight?: Map<Duplex, ServerResponse>;
  /** Called after each response closed (serve(): closes idle connections while draining). */
  afterResponse?: () => void;
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
  app.setPeerResolver(lightRequestPeer);
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
  app.setPeerResolver(lightRequestPeer);
  return (req, socket, head) => {
    // node:http removed its own error listener when it handed the socket over: a reset while the app
    // decides would otherwise be an uncaught 'error' event.
    socket.on('error', (error) => app.logger.debug('Upgrade socket error', { path: pathOf(req.url), error }));
    run(app, settings, req, upgradeResponse(req, socket), { socket, head });
  };
}

/** What one request needs once the listener has returned: found from its ServerResponse. */
class Exchange implements BodyHandle {
  /** The Request handed to the app, once built. */
  request: NodeLightRequest | undefined = undefined;
  /** The response body being read, so a disconnect can cancel it. */
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined = undefined;
  readonly started = performance.now();

  constructor(
    readonly app: App,
    readonly settings: HandlerSettings,
    readonly req: IncomingMessage,
  ) {}
}

const EXCHANGE = Symbol('charter.node.exchange');
type Tracked = ServerResponse & { [EXCHANGE]?: Exchange };

/** A socket error after the client left surfaces on the response; it is expected, never fatal. */
function onResponseError(this: Tracked, error: Error): void {
  const exchange = this[EXCHANGE];
  exchange?.app.logger.debug('Response stream error', {
    method: exchange.req.method,
    path: pathOf(exchange.req.url),
    error,
  });
}

/**
 * The response closed: it leaves serve()'s in-flight table, and when it closed before it was complete,
 * the client left (or the adapter ended the connection): the request signal aborts, a streamed body
 * stops, and a disconnect is logged.
 */
function onResponseClose(this: Tracked): void {
  const exchange = this[EXCHANGE];
  if (exchange === undefined) return;
  const { app, settings, req } = exchange;
  const inFlight = settings.inFlight;
  if (inFlight !== undefined && inFlight.get(req.socket) === this) inFlight.delete(req.socket);
  settings.afterResponse?.();
  if (this.writableFinished) return;
  const status = endedByServer.get(this);
  const reason =
    status === undefined
      ? new DOMException('The client disconnected before the response was complete', 'AbortError')
      : status === 408
        ? new RequestTimeoutError('The request body was not received in time')
        : new DOMException('The server closed the connection', 'AbortError');
  // ctx.request.signal listeners in hooks and handlers stop their work...
  exchange.request?.disconnect(reason);
  // ...and a streamed body stops producing: cancelling runs the source's `cancel`.
  exchange.reader?.cancel(reason).catch(() => {});
  if (status !== undefined) return;
  app.logger.info('Client disconnected before the response was complete', {
    method: req.method ?? 'GET',
    path: pathOf(req.url),
    status: app.options.disconnectStatusCode,
    durationMs: Math.round(performance.now() - exchange.started),
  });
}

function run(
  app: App,
  settings: HandlerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  upgrade: UpgradeSocket | undefined,
): void {
  let pending: Promise<void> | undefined;
  try {
    pending = handle(app, settings, req, res, upgrade);
  } catch (error) {
    failed(app, req, res, error);
    return;
  }
  pending?.catch((error: unknown) => failed(app, req, res, error));
}

/** Last line of defence: nothing thrown while answering may take the process down. */
function failed(app: App, req: IncomingMessage, res: ServerResponse, error: unknown): void {
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
}

/**
 * Starts tracking a request that was not answered at once: the response's 'close' and 'error'
 * listeners (a client that leaves aborts the request signal and stops a streamed body), and serve()'s
 * in-flight table. A request answered synchronously with a planned answer needs none of it (see
 * `handle`).
 */
function track(
  app: App,
  settings: HandlerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  upgrade: UpgradeSocket | undefined,
  request: NodeLightRequest | undefined,
): Exchange {
  const exchange = new Exchange(app, settings, req);
  exchange.request = request;
  (res as Tracked)[EXCHANGE] = exchange;
  // An upgrade's one-shot response leaves the HTTP parser (and may never close): not tracked.
  if (upgrade === undefined) settings.inFlight?.set(req.socket, res);
  res.on('error', onResponseError);
  res.on('close', onResponseClose);
  return exchange;
}

/** A request refused before it reached the app: its problem document, on a tracked response. */
function refuse(
  app: App,
  settings: HandlerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  upgrade: UpgradeSocket | undefined,
  error: HttpError,
): Promise<void> {
  const exchange = track(app, settings, req, res, upgrade, undefined);
  return writeResponse(req, res, problemResponse(error, app.options.production), exchange, false).then(
    nothing,
  );
}

/** Answers one request; returns a promise only when something had to wait. */
function handle(
  app: App,
  settings: HandlerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  upgrade: UpgradeSocket | undefined,
): Promise<void> | undefined {
  // RFC 6585 §5: counted on the raw field lines, before a Request is built (a Headers object would
  // merge repeated names and undercount). `maxHeaderCount - 1` fields are allowed; 0 disables the guard.
  const max = app.options.maxHeaderCount;
  if (max > 0 && req.rawHeaders.length / 2 >= max) {
    const error = new RequestHeaderFieldsTooLargeError(`The request has more than ${max - 1} header fields`);
    return refuse(app, settings, req, res, upgrade, error);
  }

  // RFC 9112 §3.2: an HTTP/1.1 request without Host MUST get a 400 (HTTP/1.0 may omit it, and falls
  // back to the address the request arrived on). serve() turns Node's own bare 400 off for this.
  const head = scanHead(req);
  if (req.httpVersion === '1.1' && head.host === undefined) {
    const error = new BadRequestError('An HTTP/1.1 request needs a Host header field (RFC 9112 §3.2)');
    return refuse(app, settings, req, res, upgrade, error);
  }

  // RFC 9110 §10.1.1: a client that sent `Expect: 100-continue` waits before sending the content, and a
  // server may answer without inviting it. serve() listens for 'checkContinue', so Node leaves the 100
  // to us: it goes out only when the app reads the body. A request refused before that (over the body
  // limit, unauthenticated, unknown route) gets its final answer alone, and Node closes the connection.
  let request: NodeLightRequest | undefined;
  try {
    request = toNodeRequest(req, res, head, settings.fallbackAuthority, app.options.bodyLimitBytes);
  } catch {
    request = undefined; // a method or header value the Fetch Request refuses
  }
  if (request === undefined) {
    // Fetch refuses CONNECT, TRACE and TRACK in a Request; RFC 9110 §15.6.2 answers an unsupported
    // method with 501. Anything else is a target or header the URL/Headers parsers reject: 400.
    const method = req.method ?? 'GET';
    const error = FORBIDDEN_METHODS.has(method)
      ? new HttpError({ status: 501, detail: `The ${method} method is not supported` })
      : new BadRequestError('The request target or headers cannot form a valid request');
    return refuse(app, settings, req, res, upgrade, error);
  }

  if (upgrade === undefined && request.mayHaveArrived) {
    // Node's parser reads the content that came in the same packets as the head right after this
    // event: one tick later a small body is usually all in, and the app parses it in the same step
    // as the rest of the request (no read to wait for, no promise, nothing left to watch).
    process.nextTick(answerArrived, app, settings, req, res, request);
    return undefined;
  }
  return answerRequest(app, settings, req, res, upgrade, request);
}

/** A request whose content may have arrived with its head: taken whole if it did, then answered. */
function answerArrived(
  app: App,
  settings: HandlerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  request: NodeLightRequest,
): void {
  let pending: Promise<void> | undefined;
  try {
    request.takeArrived();
    pending = answerRequest(app, settings, req, res, undefined, request);
  } catch (error) {
    failed(app, req, res, error);
    return;
  }
  pending?.catch((error: unknown) => failed(app, req, res, error));
}

/** Hands the request to the app and sends its answer; a promise only when something had to wait. */
function answerRequest(
  app: App,
  settings: HandlerSettings,
  req: IncomingMessage,
  res: ServerResponse,
  upgrade: UpgradeSocket | undefined,
  request: NodeLightRequest,
): Promise<void> | undefined {
  let answer: Response | Promise<Response>;
  try {
    // The pipeline reads the light request itself and hands user code the real one (core light-request.ts).
    answer = app.handle(request as unknown as Request);
  } catch (error) {
    answer = appFailed(app, req, error);
  }
  if (!(answer instanceof Promise) && upgrade === undefined && !contentToCome(req, request)) {
    // The common case: answered at once, with a plan (a route's body or the pipeline's own problem),
    // and no request content still to come (none announced, or all of it received: what nobody read,
    // Node discards, keeping the connection). It is written now, in one writeHead and one end, and nothing
    // is left to watch: no work can be interrupted by a disconnect any more, and no body stream is
    // read. A server that is draining says `Connection: close` (RFC 9112 §9.6), on the general path.
    const planned = plannedAnswer(answer);
    if (planned !== undefined && app.state === 'serving' && !res.destroyed) {
      writePlanned(req, res, planned, false);
      return undefined;
    }
  }
  const exchange = track(app, settings, req, res, upgrade, request);
  if (answer instanceof Promise) {
    // Settled here, failures included: no promise is handed back to chain a catch on.
    answer.then(
      (response) => settle(exchange, res, request, response, upgrade),
      (error: unknown) => settle(exchange, res, request, error, upgrade, true),
    );
    return undefined;
  }
  return respond(exchange, res, request, answer, upgrade);
}

/** Whether content the request announced may still be on its way (not all received yet). */
function contentToCome(req: IncomingMessage, request: NodeLightRequest): boolean {
  return request.announcesContent && !req.complete && !request.contentReceived;
}

/** Sends an answer that had to wait (or the 500 of an app that rejected); nothing it throws escapes. */
function settle(
  exchange: Exchange,
  res: ServerResponse,
  request: NodeLightRequest,
  outcome: unknown,
  upgrade: UpgradeSocket | undefined,
  rejected = false,
): void {
  const { app, req } = exchange;
  try {
    const response = rejected ? appFailed(app, req, outcome) : (outcome as Response);
    respond(exchange, res, request, response, upgrade)?.catch((error: unknown) =>
      failed(app, req, res, error),
    );
  } catch (error) {
    failed(app, req, res, error);
  }
}

function nothing(): void {}

/** The 500 for an app that threw (or rejected) instead of answering, logged. */
function appFailed(app: App, req: IncomingMessage, error: unknown): Response {
  app.logger.error('The app threw instead of answering', {
    method: req.method,
    path: pathOf(req.url),
    error,
  });
  return renderError(error, app.options.production).response;
}

/** Sends the app's answer (or switches the socket to WebSocket); a promise only when it must wait. */
function respond(
  exchange: Exchange,
  res: ServerResponse,
  request: NodeLightRequest,
  answer: Response,
  upgrade: UpgradeSocket | undefined,
): Promise<void> | undefined {
  const { app, settings, req } = exchange;
  // A planned answer (the pipeline's usual one, planned-response.ts): status, header lines and text,
  // written as they are, with no Response ever built.
  const planned = plannedAnswer(answer);
  if (planned !== undefined) {
    if (res.destroyed) return undefined;
    const close = app.state !== 'serving' || contentToCome(req, request);
    writePlanned(req, res, planned, close);
    return undefined;
  }
  let response = answer;
  if (res.destroyed) {
    // The client left while the app worked: nobody will read this body.
    response.body?.cancel().catch(() => {});
    return undefined;
  }
  // The pipeline keyed an accepted handshake by the real Request the route's hooks saw.
  const accepted = takeWsUpgrade(request.built ?? (request as unknown as Request), response);
  if (accepted !== undefined) {
    const production = app.options.production;
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
      acceptUpgrade(app, res, accepted, upgrade, settings.sockets, request.peer);
      return undefined;
    }
  }

  // RFC 9112 §9.6: a server that is shutting down says so with `Connection: close`; and answering before
  // the request content was read to the end (a refused upload), it closes the connection after the
  // response rather than read and discard an unbounded remainder.
  const close = app.state !== 'serving' || contentToCome(req, request);
  // Text the pipeline built, or no body at all: one writeHead, one end, the body stream never read.
  const payload = responsePayload(response);
  if ((payload !== undefined || response.body === null) && writeWhole(req, res, response, payload, close)) {
    return undefined;
  }
  return writeStreamed(exchange, res, response, close);
}

/** The general path: the body read from its stream and sent as it comes (see writeResponse). */
async function writeStreamed(
  exchange: Exchange,
  res: ServerResponse,
  response: Response,
  close: boolean,
): Promise<void> {
  const { app, req } = exchange;
  try {
    await writeResponse(req, res, response, exchange, close);
  } catch (error) {
    app.logger.error('The response body failed while streaming', {
      method: req.method,
      path: pathOf(req.url),
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
    await writeResponse(req, res, renderError(error, app.options.production).response, exchange, close);
  }
}
