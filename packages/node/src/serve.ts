/**
 * `serve(app)`: a `node:http` server for an App, with Node's parser and timeout errors answered as
 * problem documents, and graceful shutdown on close() or SIGINT/SIGTERM.
 */
import { http } from './node-http.ts';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { printServeBanner } from '@charter/banner';
import { type App, connectNotSupportedError, type ServeHandle, serveHandle } from '@charter/core';
import { createClientErrorHandler } from './client-error.ts';
import { createHandler, createUpgradeHandler, type HandlerSettings, markEndedByServer } from './handler.ts';
import { rawProblemResponse } from './problem.ts';
import { formatHost } from './request.ts';
import { exitAfterShutdown, onShutdownSignal } from './signals.ts';
import { resolveServeOptions, type ServeOptions, type ServeSettings } from './serve-options.ts';
import { NodeWsSessions } from './websocket.ts';

/** While draining, how often connections that went idle are closed (see close()). */
const DRAIN_SWEEP_MS = 50;

/** A listening server, as `serve()` resolves it. */
export interface RunningServer {
  /** The port listened on (the one the OS picked when `port` was 0). */
  port: number;
  hostname: string;
  /** `http://<hostname>:<port>` (`localhost` when listening on every interface), no trailing slash. */
  url: string;
  /** The underlying `node:http` server. */
  server: Server;
  /**
   * Graceful shutdown: stops accepting connections, lets in-flight requests finish, closes idle
   * keep-alive connections, and force-closes what is left after `timeoutMs` (default
   * `shutdownTimeoutMs`). Runs `app.shutdown()`. Idempotent: later calls return the same promise.
   */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Node keeps at most `maxHeadersCount` header lines and silently drops the rest (2000 by default);
 * keep at least as many as the app's guard must see, and no cap at all when the guard is off (the
 * header-size limit still bounds memory).
 */
function nodeMaxHeadersCount(maxHeaderCount: number): number {
  return maxHeaderCount === 0 ? 0 : Math.max(maxHeaderCount, 2000);
}

function listen(server: Server, settings: ServeSettings): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(settings.port, settings.hostname, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * What `serve()` returns at once (the reference: "returns `{ port, close }`"): the listening server's
 * fields, readable once it listens, and `close()`, callable at any time. It is also awaitable, so
 * `const server = await serve(app)` keeps working and gives the {@link RunningServer}.
 */
/**
 * What `serve()` returns at once (the reference: "returns `{ port, close }`"): the listening server's
 * fields, readable once it listens, and `close()`, callable at any time. It is also awaitable, so
 * `const server = await serve(app)` keeps working and gives the {@link RunningServer}; `ready` settles
 * once the server listens, or rejects when it cannot start (invalid options, a plugin or boot guard
 * that refuses, a port in use).
 */
export type NodeServeHandle = ServeHandle<RunningServer>;

/**
 * Serves the app over `node:http`. Returns the handle at once; `port`, `hostname`, `url` and `server`
 * throw until it listens (await the handle or `handle.ready` first), `close()` works at any time: before
 * the server listens it waits for the start and then closes it.
 */
export function serve(app: App, options: ServeOptions = {}): NodeServeHandle {
  return serveHandle(start(app, options), app.logger, 'The Node server failed to start', ['server']);
}

/** Starts the server; resolves once listening. */
async function start(app: App, options: ServeOptions): Promise<RunningServer> {
  const settings = resolveServeOptions(options);
  await app.ready();

  // Which ServerResponse is writing on a socket: the clientError handler must not write over it. The
  // handler adds each response and removes it when it closes.
  const inFlight = new Map<Duplex, ServerResponse>();
  let draining = false;
  const closeIdle = (): void => server.closeIdleConnections();
  const sockets = new NodeWsSessions();
  const handlerSettings: HandlerSettings = {
    sockets,
    inFlight,
    // While draining, a connection whose last response just ended is idle: close it now.
    afterResponse: () => {
      if (draining) setImmediate(closeIdle);
    },
  };
  // fallbackAuthority is filled in once listening; read per request (only when the Host header cannot be used).
  const onRequest = createHandler(app, handlerSettings);
  const server = http.createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      connectionsCheckingInterval: settings.connectionsCheckingIntervalMs,
      // The handler answers a missing Host with a problem document instead of Node's bare 400.
      requireHostHeader: false,
    },
    onRequest,
  );
  // RFC 9110 §10.1.1: with this listener Node does not answer `Expect: 100-continue` with a 100 on its
  // own; the handler sends it when the app reads the body, so a refused upload is never invited.
  server.on('checkContinue', onRequest);
  server.maxHeadersCount = nodeMaxHeadersCount(app.options.maxHeaderCount);
  // Only with WebSocket routes (registered before serve()): with an 'upgrade' listener, Node hands it
  // every request carrying Upgrade; without one, such requests are plain requests (RFC 9110 §7.8).
  if (app.wsRoutes().length > 0) server.on('upgrade', createUpgradeHandler(app, handlerSettings));
  // RFC 9110 §9.3.6: Node hands CONNECT to a 'connect' listener and, with none, drops the socket with
  // no answer. This server tunnels nothing, so the client is told so: 501, then the connection closes.
  server.on('connect', (_req, socket) => {
    socket.end(rawProblemResponse(connectNotSupportedError(), app.options.production), () =>
      socket.destroy(),
    );
  });
  server.on(
    'clientError',
    createClientErrorHandler(app, (socket) => inFlight.get(socket)),
  );

  const address = await listen(server, settings);
  server.on('error', (error) => app.logger.error('The HTTP server failed', { error }));
  const unspecified = address.address === '0.0.0.0' || address.address === '::';
  const authority = `${unspecified ? 'localhost' : formatHost(address.address)}:${address.port}`;
  // On every interface, the address a request actually arrived on is the better fallback.
  if (!unspecified) handlerSettings.fallbackAuthority = authority;
  const url = `http://${authority}`;
  app.logger.info('Listening', { url, hostname: settings.hostname, port: address.port });
  printServeBanner(app, url, options.banner);

  let closing: Promise<void> | undefined;
  let removeSignals = (): void => {};
  const close = (timeoutMs = settings.shutdownTimeoutMs, reason = 'close'): Promise<void> => {
    if (closing === undefined && !(Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
      return Promise.reject(
        new TypeError(`close(): timeoutMs must be a non-negative number, got ${timeoutMs}`),
      );
    }
    closing ??= (async () => {
      removeSignals();
      draining = true;
      // Sets the app draining at once: requests that still arrive on open connections get a 503.
      const appStopped = app.shutdown(timeoutMs, reason);
      // RFC 6455 §7.4.1: 1001, the server is going away; each socket ends once its peer answers.
      sockets.closeAll();
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A response the handler wrote at once is not watched (handler.ts): one that was still leaving
      // when draining began left its connection open, idle once it is sent. Swept until closed.
      const sweep = setInterval(closeIdle, DRAIN_SWEEP_MS);
      sweep.unref();
      const force = setTimeout(() => {
        if (inFlight.size > 0) {
          app.logger.warn('Shutdown timeout reached: closing connections with responses in flight', {
            inFlight: inFlight.size,
            timeoutMs,
          });
        }
        for (const res of inFlight.values()) markEndedByServer(res, 503);
        server.closeAllConnections();
        sockets.terminateAll();
      }, timeoutMs);
      try {
        await Promise.all([appStopped, serverClosed]);
      } finally {
        clearTimeout(force);
        clearInterval(sweep);
      }
    })();
    return closing;
  };

  if (settings.signals) {
    removeSignals = onShutdownSignal((signal) => {
      const closing = close(settings.shutdownTimeoutMs, signal);
      // Logged once the listening socket is closed, so whoever reads it finds new connections refused.
      app.logger.info('Shutting down', { signal, timeoutMs: settings.shutdownTimeoutMs });
      closing.then(
        () => exitAfterShutdown(false),
        (error: unknown) => {
          app.logger.error('Shutdown failed', { signal, error });
          exitAfterShutdown(true);
        },
      );
    });
  }

  return {
    port: address.port,
    hostname: settings.hostname,
    url,
    server,
    close: (timeoutMs) => close(timeoutMs),
  };
}
