/**
 * A `RateLimitStore` in Redis: fixed-window counters shared by every instance of a service, one
 * atomic script per hit.
 */
import { RATE_LIMIT_KEY_PREFIX, type RateLimitHit, type RateLimitStore } from '@charter/core';
import {
  cachedScript,
  checkStoreOptions,
  integerAt,
  type RedisLikeClient,
  runCommand,
  runScript,
} from './redis-client.ts';
import { RATE_LIMIT_HIT_SCRIPT } from './scripts.ts';

/** Options of `redisRateLimitStore()`. */
export interface RedisRateLimitStoreOptions {
  /** The client, from `bunRedisClient(...)`, `nodeRedisClient(...)` or your own `RedisLikeClient`. Required. */
  client: RedisLikeClient;
  /**
   * Put before every key: the counter of policy `p` for client `c` is `<prefix><p>:<c>`. Default
   * `charter:rl:`. Give each service sharing a Redis database its own prefix.
   */
  prefix?: string;
  /**
   * The name under which the SHA-1 digest of the counting script is kept for this client object:
   * stores built on the same client with the same name share one digest. Default
   * `charter:rl:hit`. The server's own script cache is keyed by the digest, so this name never
   * reaches Redis; reusing it for a different script throws a TypeError.
   */
  scriptCacheKey?: string;
  /**
   * Most ms to wait for Redis per hit before failing it (the middleware then answers 500, or lets
   * the request pass with `failOpen`); default 1000. 0 waits as long as the client does.
   */
  timeoutMs?: number;
}

/** The Redis store, with the options it resolved. */
export interface RedisRateLimitStore extends RateLimitStore {
  readonly prefix: string;
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  reset(key: string): Promise<void>;
}

/**
 * A rate-limit store in Redis. Each hit runs one script (EVALSHA, falling back to EVAL on
 * NOSCRIPT) doing INCR, and PEXPIRE with the window on the first hit: counting is atomic across
 * instances and every counter expires with its window, so Redis memory stays bounded.
 *
 * @example
 * app.use(rateLimit({ windowMs: 60_000, max: 100, store: redisRateLimitStore({ client }) }));
 */
export function redisRateLimitStore(options: RedisRateLimitStoreOptions): RedisRateLimitStore {
  const { client, prefix, timeoutMs } = checkStoreOptions(
    'redisRateLimitStore',
    options,
    RATE_LIMIT_KEY_PREFIX,
  );
  const cacheKey = options.scriptCacheKey ?? 'charter:rl:hit';
  if (typeof cacheKey !== 'string' || cacheKey.length === 0) {
    throw new TypeError('redisRateLimitStore option "scriptCacheKey" must be a non-empty string');
  }
  const script = cachedScript(client, cacheKey, RATE_LIMIT_HIT_SCRIPT);
  return {
    prefix,
    async hit(key: string, windowMs: number): Promise<RateLimitHit> {
      const reply = await runScript(client, script, [prefix + key], [String(windowMs)], timeoutMs);
      const count = integerAt(reply, 0, 'rate limit');
      const ttl = integerAt(reply, 1, 'rate limit');
      return { count, resetAt: Date.now() + ttl };
    },
    async reset(key: string): Promise<void> {
      await runCommand(client, 'DEL', [prefix + key], timeoutMs);
    },
  };
}
