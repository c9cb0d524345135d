import { printServeBanner } from '@charter/banner';
import { type App, InternalError, renderError, type ServeHandle, serveHandle } from '@charter/core';
import { nativeRoutes } from './native-routes.ts';
import { assertBunServeOptions } from './serve-options.ts';
import { onTerminationSignals } from './signals.ts';
import { type BunWsData, BunWsSessions, serverLimits } from './websocket.ts';

export interface BunServeOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`: listening on every interface (`0.0.0.0`) must be asked for. */
  hostname?: string;
  /** Drain and stop on SIGINT/SIGTERM, then exit; default true. */
  signals?: boolean;
  /** How long a shutdown waits for in-flight requests; default 10000 ms. */
  shutdownTimeoutMs?: number;
  /**
   * Hand routes to Bun's native `routes` table (skips the JavaScript router): fully static paths, and
   * parameter paths no other route overlaps (used only when Bun's match is the router's); default true.
   */
  nativeRoutes?: boolean;
  /**
   * Print the startup banner (the app, its URL, its docs and OpenAPI links) once listening: `true`
   * always, `false` never; by default only when stdout is a terminal and `NODE_ENV` is not `test`.
   */
  banner?: boolean;
}

export interface BunServer {
  readonly port: number;
  readonly hostname: string;
  readonly url: string;
  /** The underlying `Bun.Server`, for what this adapter does not cover. */
  readonly server: Bun.Server<BunWsData>;
  /**
   * Graceful stop: refuse new connections, close open WebSockets with 1001 (RFC 6455 §7.4.1), drain
   * in-flight requests, then close.
   */
  close(timeoutMs?: number): Promise<void>;
}

// Bun closes a connection idle for longer than this many seconds (its maximum is 255).
const MAX_IDLE_TIMEOUT_S = 255;

/**
 * What `serve` returns at once: the server's handle, usable before it listens. `port`, `hostname`,
 * `url` and `server` are readable once it listens (before, reading them throws, saying to await
 * `ready`); `close()` works at any time (before listening, it waits for the start, then stops).
 * `await serve(...)` and `await handle.ready` give the listening `BunServer`.
 */
export type BunServeHandle = ServeHandle<BunServer>;

/**
 * Serves an App with `Bun.serve`. Returns the handle at once (the reference's `{ port, close }`),
 * which is also awaitable: `const server = await serve(app)` waits until it listens.
 */
export function serve(app: App, options: BunServeOptions = {}): BunServeHandle {
  assertBunServeOptions(options);
  return serveHandle(listen(app, options), app.logger, 'The Bun server failed to start', ['server']);
}

async function listen(app: App, options: BunServeOptions): Promise<BunServer> {
  await app.ready();
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
  const timeoutMs = app.options.requestTimeoutMs;
  // The app's own timeout must fire before Bun's idle timer cuts the connection.
  const idleTimeout = timeoutMs === 0 ? 0 : Math.min(MAX_IDLE_TIMEOUT_S, Math.ceil(timeoutMs / 1000) + 5);
  // WebSocket routes (`app.ws`) must be registered before serve(): Bun's limits are fixed here.
  const wsRoutes = app.wsRoutes();
  const sockets = new BunWsSessions(app, serverLimits(wsRoutes).maxPayloadLength);
  const native = options.nativeRoutes !== false;
  const wsPaths = new Set(wsRoutes.map((route) => route.path));
  const upgradesAt = (method: string, path: string): boolean => method === 'GET' && wsPaths.has(path);
  // A handshake may reach the router (fetch) whenever the app has WebSocket routes: the native table
  // is off, the route is not in it (an overlapping pattern), or Bun's match is not the router's
  // (`/a/../ws`, an escaped or dot-segment path the router still resolves to the route).
  const routerUpgrades = wsRoutes.length > 0;
  const server: Bun.Server<BunWsData> = Bun.serve({
    port: options.port ?? 3000,
    hostname: options.hostname ?? '127.0.0.1',
    idleTimeout,
    // The app enforces its own body limit with a problem document; Bun's cap must not be lower.
    maxRequestBodySize: Math.max(app.options.bodyLimitBytes + 1, 128 * 1024 * 1024),
    routes: native
      ? nativeRoutes(app, (handler, method, path) =>
          upgradesAt(method, path) ? sockets.wrap(handler) : handler,
        )
      : {},
    // Only requests that may be WebSocket handshakes pay for the upgrade step.
    fetch: routerUpgrades ? sockets.wrap(app.handle) : app.handle,
    websocket: sockets.handler(),
    error(error) {
      app.logger.error('Bun.serve error handler reached', { error });
      // The catalog's 500 problem, redacted: the thrown error is logged, never sent.
      return renderError(new InternalError(), true).response;
    },
  });

  // The client address is looked up only when something asks for it (clientIp, rate limits).
  app.setPeerResolver((request) => server.requestIP(request)?.address);

  let closing: Promise<void> | undefined;
  let removeSignals = (): void => {};
  const close = (timeout = shutdownTimeoutMs): Promise<void> => {
    closing ??= (async () => {
      removeSignals();
      // Stop listening at once; requests already accepted keep running while the app drains them.
      const stopped = server.stop(false);
      sockets.closeAll();
      await Promise.all([app.shutdown(timeout, 'server closed'), sockets.settled(Math.min(timeout, 5000))]);
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 50))]);
      await server.stop(true);
    })();
    return closing;
  };
  if (options.signals !== false) {
    removeSignals = onTerminationSignals(async (signal) => {
      app.logger.info('Shutting down', { signal });
      await close();
      process.exit(0);
    });
  }
  const port = server.port ?? options.port ?? 3000;
  const hostname = server.hostname ?? options.hostname ?? '127.0.0.1';
  const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
  // The same line as charter/node and charter/deno write, so logs read alike whatever runs the app.
  app.logger.info('Listening', { url, hostname, port });
  printServeBanner(app, url, options.banner);
  return { port, hostname, url, server, close };
}
