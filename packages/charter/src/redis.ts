/**
 * @module charter/redis — shared state over Redis for several app instances: stores for rate limits,
 * bans, sessions, idempotency keys and A2A tasks (atomic Lua scripts), a pub/sub broker for WebSocket
 * topics, and adapters for Bun's `RedisClient` and the `redis` package. Re-exports `@charter/redis`.
 */
export * from '@charter/redis';
