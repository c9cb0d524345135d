/**
 * The site's quota on more than one instance (site.md "Limits": 120 requests per 60 s per client).
 * With `REDIS_URL` set, every replica counts in Redis, so replicas behind one address share one
 * budget per client. When Redis fails or misses its deadline, the replica counts in its own memory
 * until Redis answers again: the quota degrades to one budget per replica, never to no quota and
 * never to an error page, and a request waits for Redis at most `timeoutMs`.
 */
import { RedisClient } from 'bun';
import { type Logger, memoryRateLimitStore, type RateLimitHit, type RateLimitStore } from '@charter/core';
import { bunRedisClient, redisRateLimitStore } from '@charter/redis';

/** Where the site's Redis keys live: `charter:site:rl:<policy>:<client>`. */
export const SITE_QUOTA_PREFIX = 'charter:site:rl:';

/** Options of `sharedQuotaStore`. */
export interface SharedQuotaOptions {
  /** The Redis URL (`REDIS_URL`). */
  readonly url: string;
  /** The logger of Redis failures (once per outage, and when Redis answers again); read when logging. */
  readonly logger?: () => Logger | undefined;
  /** Most ms a request waits for Redis; default 250. */
  readonly timeoutMs?: number;
  /** After a failure, how long the replica counts locally before asking Redis again, in ms; default 2000. */
  readonly retryMs?: number;
}

/** The store, and the connection to close on shutdown. */
export interface SharedQuota {
  readonly store: RateLimitStore;
  close(): void;
}

/**
 * A rate-limit store in Redis with a memory fallback per replica. The fallback is a circuit: after a
 * failure the replica stops asking Redis for `retryMs`, so an outage costs one deadline per replica
 * per `retryMs` instead of one per request. Counts made locally during an outage are not carried
 * into Redis afterwards; the shared windows restart from what Redis still holds.
 */
export function sharedQuotaStore(options: SharedQuotaOptions): SharedQuota {
  // No offline queue: while the connection is down a command fails at once instead of waiting for
  // the deadline and running late (a late INCR would count a request twice). Bun reconnects by itself.
  const raw = new RedisClient(options.url, { connectionTimeout: 2_000, enableOfflineQueue: false });
  const timeoutMs = options.timeoutMs ?? 250;
  // A connection being made: a hit waits for it (up to the deadline) rather than fail at once.
  let connecting: Promise<void> | undefined;
  const connect = (): void => {
    const attempt = raw.connect().then(
      () => undefined,
      () => undefined,
    );
    connecting = attempt;
    void attempt.then(() => {
      if (connecting === attempt) connecting = undefined;
    });
  };
  connect();
  const connected = async (): Promise<void> => {
    if (connecting === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      connecting,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  };
  const shared = redisRateLimitStore({
    client: bunRedisClient(raw),
    prefix: SITE_QUOTA_PREFIX,
    timeoutMs,
  });
  const local = memoryRateLimitStore();
  const retryMs = options.retryMs ?? 2_000;
  let localUntil = 0;
  const store: RateLimitStore = {
    async hit(key: string, windowMs: number): Promise<RateLimitHit> {
      if (Date.now() >= localUntil) {
        await connected();
        try {
          const hit = await shared.hit(key, windowMs);
          if (localUntil !== 0) {
            localUntil = 0;
            options.logger?.()?.info('site quota: Redis answers again; counting in Redis');
          }
          return hit;
        } catch (error) {
          if (localUntil === 0) {
            options.logger?.()?.error('site quota: Redis failed; counting in this replica until it answers', {
              error,
            });
          }
          localUntil = Date.now() + retryMs;
          // Down since start-up (Bun retries a connection it had, not one it never made).
          if (!raw.connected) connect();
        }
      }
      return local.hit(key, windowMs);
    },
  };
  return { store, close: () => raw.close() };
}
