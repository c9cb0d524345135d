/**
 * @module charter/redis — shared state over Redis for several app instances: `redisRateLimitStore` and
 * `redisAutoBanStore` (atomic Lua scripts), with adapters for Bun's `RedisClient` and the `redis` package.
 * Re-exports `@charter/redis`.
 */
export * from '@charter/redis';
