/**
 * `wsRateLimit()`: a quota on WebSocket handshakes, as a `beforeUpgrade` hook. Counting happens once
 * per upgrade attempt, in the same `RateLimitStore` the HTTP `rateLimit()` uses, so a networked store
 * shares the counters across instances.
 */
import {
  clientIp,
  InternalError,
  type Logger,
  memoryRateLimitStore,
  type RateLimitStore,
  TooManyRequestsError,
  type WsBeforeUpgrade,
  type WsContext,
} from '@charter/core';

/** Options of `wsRateLimit()`. */
export interface WsRateLimitOptions {
  /** Window length in ms (a positive integer). Required. */
  windowMs: number;
  /** Upgrades allowed per key per window (a positive integer). Required. */
  max: number;
  /**
   * Names the counter: routes given the same `groupId` (and store) share one budget per client.
   * Default `ws`. Letters, digits, `-`, `_` and `.`, up to 64.
   */
  groupId?: string;
  /**
   * The client key; default the client address (`clientIp`, honouring the App's proxy posture), or
   * `unknown` when it cannot be known (all such requests then share one budget: fails safe).
   */
  keyGenerator?: (ctx: WsContext) => string | undefined | Promise<string | undefined>;
  /** The counter store; default a new `memoryRateLimitStore()` (one process). */
  store?: RateLimitStore;
  /** Where store and key-generator failures are logged (`error` level); default nowhere. Pass `app.logger`. */
  logger?: Logger;
}

interface ResolvedWsRateLimitOptions {
  readonly windowMs: number;
  readonly max: number;
  readonly groupId: string;
  readonly keyGenerator: WsRateLimitOptions['keyGenerator'];
  readonly store: RateLimitStore;
  readonly logger: Logger | undefined;
}

function positiveInteger(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`wsRateLimit option "${option}" must be a positive integer, got ${String(value)}`);
  }
  return value;
}

const GROUP_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Validates `wsRateLimit` options and fills defaults; throws a TypeError or RangeError naming the option. */
export function resolveWsRateLimitOptions(options: WsRateLimitOptions): ResolvedWsRateLimitOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('wsRateLimit options must be an object with windowMs and max');
  }
  const groupId = options.groupId ?? 'ws';
  if (typeof groupId !== 'string' || !GROUP_ID.test(groupId)) {
    throw new TypeError(
      `wsRateLimit option "groupId" must be 1 to 64 letters, digits, "-", "_" or ".", got ${String(groupId)}`,
    );
  }
  if (options.keyGenerator !== undefined && typeof options.keyGenerator !== 'function') {
    throw new TypeError('wsRateLimit option "keyGenerator" must be a function');
  }
  const store = options.store ?? memoryRateLimitStore();
  if (typeof store !== 'object' || store === null || typeof store.hit !== 'function') {
    throw new TypeError('wsRateLimit option "store" must be a RateLimitStore (an object with a hit method)');
  }
  const logger = options.logger;
  if (
    logger !== undefined &&
    (typeof logger !== 'object' || logger === null || typeof logger.error !== 'function')
  ) {
    throw new TypeError('wsRateLimit option "logger" must be a Logger (an object with an error method)');
  }
  return Object.freeze({
    windowMs: positiveInteger('windowMs', options.windowMs),
    max: positiveInteger('max', options.max),
    groupId,
    keyGenerator: options.keyGenerator,
    store,
    logger,
  });
}

/**
 * A `beforeUpgrade` hook allowing each client at most `max` WebSocket handshakes per `windowMs`. Over
 * the limit: 429 with `Retry-After` (RFC 6585 §4). A failing store or key generator: a generic 500
 * (the cause is logged, never sent), so an outage never silently removes the limit.
 *
 * @example
 * app.ws('/chat', { beforeUpgrade: wsRateLimit({ windowMs: 60_000, max: 10 }), message(conn, m) {} });
 */
export function wsRateLimit(options: WsRateLimitOptions): WsBeforeUpgrade {
  const { windowMs, max, groupId, keyGenerator, store, logger } = resolveWsRateLimitOptions(options);
  const failed = (what: string, error: unknown): never => {
    logger?.error(`wsRateLimit: the ${what} failed`, { groupId, error });
    // Generic on purpose: a store's message (hosts, ports) stays in the log.
    throw new InternalError({ detail: 'The rate limit could not be checked', cause: error });
  };
  return async (ctx) => {
    let key: string | undefined;
    try {
      key = keyGenerator === undefined ? undefined : await keyGenerator(ctx);
      if (key !== undefined && typeof key !== 'string')
        throw new TypeError(`keyGenerator returned a ${typeof key}`);
    } catch (error) {
      return failed('key generator', error);
    }
    key ??= clientIp(ctx.request) ?? 'unknown';
    let hit: { count: number; resetAt: number };
    try {
      hit = await store.hit(`ws:${groupId}:${key}`, windowMs);
      if (!Number.isFinite(hit?.count) || !Number.isFinite(hit?.resetAt)) {
        throw new TypeError('The store answered something other than { count, resetAt }');
      }
    } catch (error) {
      return failed('store', error);
    }
    if (hit.count <= max) return;
    const seconds = Math.max(1, Math.ceil((hit.resetAt - Date.now()) / 1000));
    throw new TooManyRequestsError({
      detail: `Too many WebSocket connections: at most ${max} per ${Math.ceil(windowMs / 1000)} s; retry in ${seconds} s`,
      retryAfterSeconds: seconds,
    });
  };
}
