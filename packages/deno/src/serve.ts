/**
 * `serve(app)` on `Deno.serve`: the app answers every request, the connection's address is recorded
 * for `clientIp` and proxy postures, WebSocket routes are switched with `Deno.upgradeWebSocket`, and
 * SIGINT/SIGTERM (or `close()`, or the `signal` option) drain in-flight requests before stopping.
 */
import {
  type App,
  InternalError,
  renderError,
  type ServeHandle,
  serveHandle,
  setRequestPeer,
} from '@charter/core';
import { type DenoHttpServer, type DenoNetAddr, denoNamespace } from './deno-global.ts';
import { onTerminationSignals } from './signals.ts';
import { DenoWsSessions } from './websocket.ts';

export interface DenoServeOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`: listening on every interface (`0.0.0.0`) must be asked for. */
  hostname?: string;
  /** Stops the server (gracefully, as `close()`) when it aborts. */
  signal?: AbortSignal;
  /** Drain and stop on SIGINT/SIGTERM, then exit; default true. */
  signals?: boolean;
  /** How long a shutdown waits for in-flight requests; default 10000 ms. */
  shutdownTimeoutMs?: number;
}

export interface DenoServer {
  readonly port: number;
  readonly hostname: string;
  /** `http://<hostname>:<port>` (`localhost` when listening on every interface), no trailing slash. */
  readonly url: string;
  /** The underlying `Deno.HttpServer`, for what this adapter does not cover. */
  readonly server: DenoHttpServer;
  /**
   * Graceful stop: refuse new connections, close open WebSockets with 1001 (RFC 6455 §7.4.1), let
   * in-flight requests finish for up to `timeoutMs` (default `shutdownTimeoutMs`), run
   * `app.shutdown()`. Idempotent: later calls return the same promise.
   */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * What `serve` returns at once: the server's handle, usable before it listens. `port`, `hostname`,
 * `url` and `server` are readable once it listens (before, reading them throws, saying to await
 * `ready`); `close()` works at any time. `await serve(...)` and `await handle.ready` give the
 * listening `DenoServer`.
 */
export type DenoServeHandle = ServeHandle<DenoServer>;

/**
 * Serves an App with `Deno.serve`. Returns the handle at once, which is also awaitable:
 * `const server = await serve(app)` waits until it listens.
 *
 * @example
 * import { serve } from 'charter/deno';
 * await serve(app, { port: 8000 });
 */
export function serve(app: App, options: DenoServeOptions = {}): DenoServeHandle {
  return serveHandle(listen(app, options), app.logger, 'The Deno server failed to start', ['server']);
}

function checkOptions(options: DenoServeOptions): void {
  const { port, shutdownTimeoutMs, hostname, signal } = options;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new TypeError(`serve(): port must be an integer from 0 to 65535, got ${String(port)}`);
  }
  if (hostname !== undefined && (typeof hostname !== 'string' || hostname === '')) {
    throw new TypeError(`serve(): hostname must be a non-empty string, got ${String(hostname)}`);
  }
  if (shutdownTimeoutMs !== undefined && !(Number.isFinite(shutdownTimeoutMs) && shutdownTimeoutMs >= 0)) {
    throw new TypeError(
      `serve(): shutdownTimeoutMs must be a non-negative number, got ${String(shutdownTimeoutMs)}`,
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError('serve(): signal must be an AbortSignal');
  }
}

/**
 * Deno's HTTP server reads at most this many header fields (Deno 2.9); a request with more gets Deno's
 * bare 400 before the App runs, so the App's 431 problem (`maxHeaderCount`) works only up to here.
 */
export const DENO_MAX_HEADER_FIELDS = 128;

/** Refuses an App whose header-count guard Deno cannot honour (see DENO_MAX_HEADER_FIELDS). */
function checkAppFitsDeno(app: App): void {
  const max = app.options.maxHeaderCount;
  if (max === 0 || max > DENO_MAX_HEADER_FIELDS) {
    const asked = max === 0 ? 'maxHeaderCount: 0 (no limit)' : `maxHeaderCount: ${max}`;
    throw new RangeError(
      `charter/deno: ${asked} cannot be honoured on Deno, whose HTTP server answers a bare 400 to a request with more than ${DENO_MAX_HEADER_FIELDS} header fields before the App runs; set maxHeaderCount to ${DENO_MAX_HEADER_FIELDS} or less`,
    );
  }
}

function formatHost(hostname: string): string {
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}

async function listen(app: App, options: DenoServeOptions): Promise<DenoServer> {
  checkOptions(options);
  checkAppFitsDeno(app);
  const deno = denoNamespace();
  await app.ready();
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
  // WebSocket routes (`app.ws`) must be registered before serve(), as on the other adapters.
  const sockets = app.wsRoutes().length > 0 ? new DenoWsSessions(app, deno) : undefined;

  const handler = (request: Request, info: { remoteAddr: DenoNetAddr }): Response | Promise<Response> => {
    const peer = info.remoteAddr.hostname;
    setRequestPeer(request, peer);
    const response = app.handle(request);
    if (sockets === undefined) return response;
    if (response instanceof Promise)
      return response.then((settled) => sockets.answer(request, settled, peer));
    return sockets.answer(request, response, peer);
  };

  // Throws at once on a busy port, or without --allow-net: the start fails, rejecting `ready`.
  const server = deno.serve(
    {
      port: options.port ?? 3000,
      hostname: options.hostname ?? '127.0.0.1',
      // Deno's own "Listening on" line is replaced by the app logger's (below).
      onListen: () => {},
      onError(error) {
        app.logger.error('Deno.serve error handler reached', { error });
        // The catalog's 500 problem, redacted: the thrown error is logged, never sent.
        return renderError(new InternalError(), true).response;
      },
    },
    handler,
  );
  const addr = server.addr;

  const unspecified = addr.hostname === '0.0.0.0' || addr.hostname === '::';
  const url = `http://${unspecified ? 'localhost' : formatHost(addr.hostname)}:${addr.port}`;
  app.logger.info('Listening', { url, hostname: addr.hostname, port: addr.port });

  let closing: Promise<void> | undefined;
  let removeSignals = (): void => {};
  const close = (timeoutMs = shutdownTimeoutMs, reason = 'close'): Promise<void> => {
    closing ??= (async () => {
      removeSignals();
      // The app starts draining at once: requests still arriving on open connections get a 503.
      const appStopped = app.shutdown(timeoutMs, reason);
      sockets?.closeAll();
      // Deno stops accepting connections and waits for the responses in flight, however long.
      const stopped = server.shutdown();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      try {
        await Promise.all([
          appStopped,
          sockets?.settled(Math.min(timeoutMs, 5000)),
          Promise.race([stopped, deadline]),
        ]);
      } finally {
        clearTimeout(timer);
      }
    })();
    return closing;
  };

  if (options.signals !== false) {
    removeSignals = onTerminationSignals(deno, (signal) => {
      app.logger.info('Shutting down', { signal, timeoutMs: shutdownTimeoutMs });
      close(shutdownTimeoutMs, signal).then(
        () => deno.exit(0),
        (error: unknown) => {
          app.logger.error('Shutdown failed', { signal, error });
          deno.exit(1);
        },
      );
    });
  }
  const signal = options.signal;
  if (signal !== undefined) {
    if (signal.aborted) void close(shutdownTimeoutMs, 'signal');
    else signal.addEventListener('abort', () => void close(shutdownTimeoutMs, 'signal'), { once: true });
  }

  return {
    port: addr.port,
    hostname: addr.hostname,
    url,
    server,
    close: (timeoutMs) => close(timeoutMs),
  };
}
