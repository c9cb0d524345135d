/**
 * The options of `serve()`, validated up front so a typo fails at startup with the option's name
 * rather than as a confusing Node error later.
 */
import { assertKnownOptions } from '@charter/core';

/** Options of `serve(app, options)`. */
export interface ServeOptions {
  /** Port to listen on; default 3000; 0 lets the OS pick a free one (see the resolved `port`). */
  port?: number;
  /**
   * Address to listen on; default `127.0.0.1` (this machine only). Listening on every interface, as in
   * a container, must be asked for: `0.0.0.0` (IPv4) or `::` (IPv6 and, on most systems, IPv4).
   */
  hostname?: string;
  /** Shut down gracefully on SIGINT and SIGTERM, then exit; default true. false leaves signals alone. */
  signals?: boolean;
  /** How long shutdown waits for in-flight requests before closing their connections; default 10000 ms. */
  shutdownTimeoutMs?: number;
  /** Node's `server.headersTimeout`: time to receive the request headers, else 408; default 60000 ms. */
  headersTimeoutMs?: number;
  /** Node's `server.requestTimeout`: time to receive the whole request, else 408; default 300000 ms; 0 disables. */
  requestTimeoutMs?: number;
  /**
   * Print the startup banner (the app, its URL, its docs and OpenAPI links) once listening: `true`
   * always, `false` never; by default only when stdout is a terminal and `NODE_ENV` is not `test`.
   */
  banner?: boolean;
}

/** The options with defaults filled in. */
export interface ServeSettings {
  port: number;
  hostname: string;
  signals: boolean;
  shutdownTimeoutMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How often Node checks connections against the two timeouts above. */
  connectionsCheckingIntervalMs: number;
}

/** Node's defaults for the two request timeouts, and for how often it checks them. */
const NODE_REQUEST_TIMEOUT_MS = 300_000;
const NODE_HEADERS_TIMEOUT_MS = 60_000;
const NODE_CHECKING_INTERVAL_MS = 30_000;

function fail(option: string, problem: string): never {
  throw new TypeError(`Invalid serve() option "${option}": ${problem}`);
}

function integer(option: string, value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    fail(option, `must be an integer from 0 to ${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * Node checks the timeouts only every `connectionsCheckingInterval` (30 s by default), so a 300 ms
 * timeout would fire up to 30 s late: check four times per shortest timeout instead.
 */
function checkingInterval(headersTimeoutMs: number, requestTimeoutMs: number): number {
  const enabled = [headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0);
  if (enabled.length === 0) return NODE_CHECKING_INTERVAL_MS;
  return Math.min(NODE_CHECKING_INTERVAL_MS, Math.max(10, Math.floor(Math.min(...enabled) / 4)));
}

// One entry per option: the compiler refuses a missing or an extra one.
const SERVE_OPTION_KEYS: Readonly<Record<keyof ServeOptions, true>> = {
  port: true,
  hostname: true,
  signals: true,
  shutdownTimeoutMs: true,
  headersTimeoutMs: true,
  requestTimeoutMs: true,
  banner: true,
};

/** Validates the options and fills in defaults; an unknown key (`prot`) is refused with a did-you-mean. */
export function resolveServeOptions(options: ServeOptions): ServeSettings {
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object');
  assertKnownOptions(
    options,
    Object.keys(SERVE_OPTION_KEYS),
    (key, problem) => new TypeError(`Invalid serve() option "${key}": ${problem}`),
  );
  const hostname = options.hostname ?? '127.0.0.1';
  if (typeof hostname !== 'string' || hostname.trim() === '') fail('hostname', 'must be a non-empty string');
  if (options.signals !== undefined && typeof options.signals !== 'boolean')
    fail('signals', 'must be a boolean');
  if (options.banner !== undefined && typeof options.banner !== 'boolean')
    fail('banner', 'must be a boolean');
  const requestTimeoutMs = integer('requestTimeoutMs', options.requestTimeoutMs, NODE_REQUEST_TIMEOUT_MS);
  const headersTimeoutMs = integer(
    'headersTimeoutMs',
    options.headersTimeoutMs,
    requestTimeoutMs === 0 ? NODE_HEADERS_TIMEOUT_MS : Math.min(NODE_HEADERS_TIMEOUT_MS, requestTimeoutMs),
  );
  // Node refuses this combination: the headers are part of the request.
  if (requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs) {
    fail(
      'headersTimeoutMs',
      `must not exceed requestTimeoutMs (${requestTimeoutMs}), got ${headersTimeoutMs}`,
    );
  }
  return {
    port: integer('port', options.port, 3000, 65_535),
    hostname,
    signals: options.signals ?? true,
    shutdownTimeoutMs: integer('shutdownTimeoutMs', options.shutdownTimeoutMs, 10_000),
    headersTimeoutMs,
    requestTimeoutMs,
    connectionsCheckingIntervalMs: checkingInterval(headersTimeoutMs, requestTimeoutMs),
  };
}
