/**
 * Options of `createA2aClient`, validated once at creation: a bad option throws a `TypeError` or
 * `RangeError` naming it, so a misconfigured client never sends a request.
 */
import { type FetchFunction, fetchGuard, type HeadersInit } from '@charter/core';
import { A2A_CARD_PATH } from '../constants.ts';
import type { A2aTracePropagation } from './trace.ts';
import { insecureUrlProblem, isLoopbackHost, parseAllowedOrigins } from './url-policy.ts';

/** Extra request headers: fixed, or computed before every request (e.g. a fresh bearer token). */
export type A2aClientHeaders = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/** Options of `createA2aClient`. */
export interface A2aClientOptions {
  /**
   * The agent: its base URL (`https://agent.example.com`; the card is read from
   * `<origin>/.well-known/agent-card.json`), or the card's own URL when the path ends in `.json`.
   * Must be https unless the host is loopback (`localhost`, 127.0.0.0/8, `::1`) or `allowInsecureHttp`
   * is set. Required.
   */
  url: string | URL;
  /**
   * The fetch that sends every request. Default: the outbound request guard `fetchGuard()` (public
   * addresses only, loopback too when `url` is loopback). Redirects are never followed whichever fetch.
   */
  fetch?: FetchFunction;
  /**
   * Headers added to every request (card and JSON-RPC), e.g. `Authorization`; a function is called
   * before each request. The protocol headers (`A2A-Version`, `Accept`, `Content-Type`, `A2A-Extensions`,
   * trace headers) win over these. Default none.
   */
  headers?: A2aClientHeaders;
  /**
   * Origins (`https://rpc.example.com`) other than the card's own that the card's JSON-RPC interface URL
   * may point to. Default none: the interface must have the card's origin.
   */
  allowedOrigins?: readonly string[];
  /**
   * Allow plain http to non-loopback hosts, for `url` and for the interface URL. Unsafe: messages,
   * tasks and credentials travel in clear text and can be altered on the way. Default false.
   */
  allowInsecureHttp?: boolean;
  /** Deadline of each HTTP exchange, from sending to the last body byte, in ms. Default 30000. */
  timeoutMs?: number;
  /** Largest response body read, in bytes; a larger one is refused while streaming. Default 4194304 (4 MiB). */
  maxResponseBytes?: number;
  /**
   * How long a fetched card is used before it is revalidated (`If-None-Match`), in ms; 0 revalidates on
   * every call. Default: the card response's `Cache-Control` `max-age` less its `Age`, at most one hour;
   * 0 when it has none, or has `no-cache`/`no-store`.
   */
  cardMaxAgeMs?: number;
  /** Extension URIs sent in `A2A-Extensions` on every JSON-RPC request. Default none. */
  extensions?: readonly string[];
  /**
   * W3C Trace Context on JSON-RPC requests: `true` starts a fresh sampled trace per call, a function
   * returns the current `{ traceparent, tracestate? }` (an invalid one is not sent). Default false.
   */
  propagateTrace?: A2aTracePropagation;
}

/** The options after validation. */
export interface ResolvedA2aClientOptions {
  /** The agent URL as given (fragment removed). */
  readonly url: URL;
  /** Where the card is read from. */
  readonly cardUrl: URL;
  readonly fetch: FetchFunction;
  readonly headers: A2aClientHeaders | undefined;
  readonly allowedOrigins: ReadonlySet<string>;
  readonly allowInsecureHttp: boolean;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Undefined: from the card response's Cache-Control. */
  readonly cardMaxAgeMs: number | undefined;
  /** Joined `A2A-Extensions` value, or undefined when there are none. */
  readonly extensions: string | undefined;
  readonly propagateTrace: A2aTracePropagation;
}

/** Default `timeoutMs`. */
export const A2A_CLIENT_DEFAULT_TIMEOUT_MS = 30_000;
/** Default `maxResponseBytes` (4 MiB). */
export const A2A_CLIENT_DEFAULT_MAX_RESPONSE_BYTES = 4_194_304;
/** Upper bound of the card freshness taken from `Cache-Control` when `cardMaxAgeMs` is not set (1 hour). */
export const A2A_CLIENT_CARD_MAX_AGE_CAP_MS = 3_600_000;

// setTimeout takes a signed 32-bit delay; a longer one fires at once on every runtime.
const MAX_TIMER_MS = 2_147_483_647;

const KNOWN_OPTIONS = new Set([
  'url',
  'fetch',
  'headers',
  'allowedOrigins',
  'allowInsecureHttp',
  'timeoutMs',
  'maxResponseBytes',
  'cardMaxAgeMs',
  'extensions',
  'propagateTrace',
]);

function parseUrl(value: unknown): URL {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw new TypeError('createA2aClient: url is required and must be a string or a URL');
  }
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(`createA2aClient: url ${JSON.stringify(String(value))} is not an absolute URL`);
  }
  url.hash = '';
  return url;
}

function integer(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(
      `createA2aClient: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

function parseExtensions(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new TypeError('createA2aClient: extensions must be an array of URIs');
  value.forEach((uri: unknown, index) => {
    // The header is a comma-separated list (A2A 1.0 §1 service parameters), so a URI may not hold one.
    let absolute = false;
    try {
      absolute = typeof uri === 'string' && new URL(uri).href !== '';
    } catch {}
    if (!absolute || /[\s,]/.test(uri as string)) {
      throw new TypeError(
        `createA2aClient: extensions[${index}] ${JSON.stringify(uri)} must be an absolute URI without spaces or commas`,
      );
    }
  });
  return value.length === 0 ? undefined : value.join(', ');
}

function parseHeaders(value: unknown): A2aClientHeaders | undefined {
  if (value === undefined || typeof value === 'function') return value as A2aClientHeaders | undefined;
  try {
    new Headers(value as HeadersInit);
  } catch (error) {
    throw new TypeError(
      `createA2aClient: headers must be a Headers object, a record, a list of pairs or a function: ${(error as Error).message}`,
    );
  }
  return value as HeadersInit;
}

/** Where the card lives: `url` itself when its path ends in `.json`, else the well-known path at its origin. */
export function cardUrlFor(url: URL): URL {
  if (url.pathname.endsWith('.json')) return new URL(url.href);
  // RFC 8615 §3: well-known URIs sit at the root of the origin, whatever path `url` has.
  return new URL(A2A_CARD_PATH, url.origin);
}

/** Validates `createA2aClient` options, fills the defaults and freezes the result. */
export function resolveA2aClientOptions(options: A2aClientOptions): ResolvedA2aClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createA2aClient: options must be an object with at least `url`');
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`createA2aClient: unknown option "${key}"`);
  }
  const url = parseUrl(options.url);
  const allowInsecureHttp = options.allowInsecureHttp ?? false;
  if (typeof allowInsecureHttp !== 'boolean') {
    throw new TypeError('createA2aClient: allowInsecureHttp must be a boolean');
  }
  const problem = insecureUrlProblem(url, allowInsecureHttp);
  if (problem !== undefined) {
    throw new TypeError(
      `createA2aClient: url ${JSON.stringify(url.protocol + '//' + url.host)} is refused: ${problem}`,
    );
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new TypeError('createA2aClient: fetch must be a function');
  }
  const propagateTrace = options.propagateTrace ?? false;
  if (typeof propagateTrace !== 'boolean' && typeof propagateTrace !== 'function') {
    throw new TypeError(
      'createA2aClient: propagateTrace must be a boolean or a function returning { traceparent }',
    );
  }
  const cardMaxAgeMs =
    options.cardMaxAgeMs === undefined
      ? undefined
      : integer(options.cardMaxAgeMs, 'cardMaxAgeMs', 0, 0, Number.MAX_SAFE_INTEGER);
  return Object.freeze({
    url,
    cardUrl: cardUrlFor(url),
    // A loopback `url` is a deliberate local target, so the default guard opens loopback for it only.
    fetch: options.fetch ?? fetchGuard({ allowLoopback: isLoopbackHost(url.hostname) }),
    headers: parseHeaders(options.headers),
    allowedOrigins: parseAllowedOrigins(options.allowedOrigins),
    allowInsecureHttp,
    timeoutMs: integer(options.timeoutMs, 'timeoutMs', A2A_CLIENT_DEFAULT_TIMEOUT_MS, 1, MAX_TIMER_MS),
    maxResponseBytes: integer(
      options.maxResponseBytes,
      'maxResponseBytes',
      A2A_CLIENT_DEFAULT_MAX_RESPONSE_BYTES,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    cardMaxAgeMs,
    extensions: parseExtensions(options.extensions),
    propagateTrace,
  });
}
