/**
 * Where rate-limit counters live. `rateLimit()` counts through a `RateLimitStore`; the in-memory
 * store here suits one process, and a networked store (Redis, a KV service) implements the same
 * interface so that every instance of a service shares the counters.
 */

/** The state of one counter after a hit. */
export interface RateLimitHit {
  /** Hits counted in the current window, this one included. */
  readonly count: number;
  /** When the current window ends (and the counter starts again from 0), in ms since the epoch. */
  readonly resetAt: number;
}

/**
 * A counter store for fixed windows. `hit` counts one request for `key` and answers the counter
 * after it: the first hit of a key, or the first after `resetAt`, starts a new window of
 * `windowMs`. It may answer synchronously or with a promise; a rejection (store unreachable) makes
 * `rateLimit` answer 500, or pass the request with `failOpen`.
 *
 * A networked store should put its keys under `RATE_LIMIT_KEY_PREFIX` (`charter:rl:`) and count
 * atomically, e.g. in Redis: `INCR charter:rl:<key>`, then `PEXPIRE charter:rl:<key> <windowMs> NX`,
 * and `PTTL` for `resetAt` (in a MULTI block or a script, so a crash between the two cannot leave
 * a counter without expiry).
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): RateLimitHit | Promise<RateLimitHit>;
  /** Forgets a key (an unlocked account, a test); optional. */
  reset?(key: string): void | Promise<void>;
}

/** The prefix networked stores put before every rate-limit key (`charter:rl:<policy>:<client>`). */
export const RATE_LIMIT_KEY_PREFIX = 'charter:rl:';

/** Options of `memoryRateLimitStore()`. */
export interface MemoryRateLimitStoreOptions {
  /**
   * Most keys held at once; default 10000. Past it, expired windows are swept, then the windows
   * started longest ago are dropped (those clients start afresh: memory stays bounded under a
   * flood of distinct keys, at the cost of forgiving the oldest counters).
   */
  maxKeys?: number;
  /** The clock, in ms since the epoch; default `Date.now`. For tests. */
  now?: () => number;
}

/** The in-memory store, with `size` for tests and metrics. */
export interface MemoryRateLimitStore extends RateLimitStore {
  /** Keys currently held. */
  readonly size: number;
  /** Counts synchronously: the memory store never makes a promise. */
  hit(key: string, windowMs: number): RateLimitHit;
  reset(key: string): void;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Validates `memoryRateLimitStore` options, filling defaults; throws a TypeError or RangeError naming it. */
export function resolveMemoryRateLimitStoreOptions(
  options: MemoryRateLimitStoreOptions = {},
): Readonly<Required<MemoryRateLimitStoreOptions>> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('memoryRateLimitStore options must be an object');
  }
  const maxKeys = options.maxKeys ?? 10_000;
  if (!Number.isInteger(maxKeys) || maxKeys < 1) {
    throw new RangeError(
      `memoryRateLimitStore option "maxKeys" must be a positive integer, got ${String(maxKeys)}`,
    );
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError('memoryRateLimitStore option "now" must be a function');
  return Object.freeze({ maxKeys, now });
}

/**
 * A fixed-window counter store in this process's memory. Fixed windows give exact `count` and
 * `resetAt` values (what the RateLimit header fields report) and need one atomic increment in a
 * networked store; the cost is that a client may fit up to twice `max` into a short span across a
 * window boundary. No timer runs: expired windows are swept while counting, at most once per
 * window length, and whenever the key cap is reached.
 */
export function memoryRateLimitStore(options?: MemoryRateLimitStoreOptions): MemoryRateLimitStore {
  const { maxKeys, now } = resolveMemoryRateLimitStoreOptions(options);
  // Insertion order is window start order: a key is re-inserted whenever its window restarts.
  const windows = new Map<string, Window>();
  let nextSweep = 0;

  const sweep = (at: number): void => {
    for (const [key, window] of windows) {
      if (window.resetAt <= at) windows.delete(key);
    }
  };

  return {
    hit(key: string, windowMs: number): RateLimitHit {
      const at = now();
      if (at >= nextSweep) {
        sweep(at);
        nextSweep = at + windowMs;
      }
      let window = windows.get(key);
      if (window === undefined || window.resetAt <= at) {
        windows.delete(key);
        if (windows.size >= maxKeys) {
          sweep(at);
          // Still full: drop the windows that started first (and so end first).
          for (const oldest of windows.keys()) {
            if (windows.size < maxKeys) break;
            windows.delete(oldest);
          }
        }
        window = { count: 0, resetAt: at + windowMs };
        windows.set(key, window);
      }
      window.count++;
      return { count: window.count, resetAt: window.resetAt };
    },
    reset(key: string): void {
      windows.delete(key);
    },
    get size(): number {
      return windows.size;
    },
  };
}
