/**
 * @module charter/redis
 * Redis stores for `rateLimit()` and `autoBan()`, so that every instance of a service shares rate-limit
 * counters and bans: atomic Lua scripts (EVALSHA with an EVAL fallback), keys under `charter:rl:` and
 * `charter:ab:` that expire on their own, and adapters for Bun's built-in client and node-redis.
 */
export {
  type BunRedisClientLike,
  bunRedisClient,
  type NodeRedisClientLike,
  nodeRedisClient,
} from './adapters.ts';
export {
  type RedisAutoBanStore,
  type RedisAutoBanStoreOptions,
  redisAutoBanStore,
} from './auto-ban-store.ts';
export {
  type RedisRateLimitStore,
  type RedisRateLimitStoreOptions,
  redisRateLimitStore,
} from './rate-limit-store.ts';
export { type RedisLikeClient, RedisTimeoutError } from './redis-client.ts';
export { AUTO_BAN_CHECK_SCRIPT, AUTO_BAN_STRIKE_SCRIPT, RATE_LIMIT_HIT_SCRIPT } from './scripts.ts';
