/**
 * @module charter/redis
 * Redis for every instance of a service to share one state: stores for `rateLimit()` and `autoBan()`,
 * sessions (charter/session), idempotency keys (`idempotency()`) and A2A tasks (charter/a2a), and a
 * pub/sub broker for WebSocket topics (charter/websocket `wsTopics`); tool-server sessions with their
 * messages (charter/mcp `sessions`). Atomic Lua scripts (EVALSHA
 * with an EVAL fallback), keys under a `charter:` prefix that expire on their own, a deadline per
 * call, and adapters for Bun's built-in client and node-redis.
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
  IDEMPOTENCY_KEY_PREFIX,
  type RedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
  redisIdempotencyStore,
} from './idempotency-store.ts';
export {
  type RedisRateLimitStore,
  type RedisRateLimitStoreOptions,
  redisRateLimitStore,
} from './rate-limit-store.ts';
export {
  MCP_SESSION_APPEND_EVENT_SCRIPT,
  MCP_SESSION_DELETE_SCRIPT,
  MCP_SESSION_REPLACE_IF_SCRIPT,
  MCP_SESSION_KEY_PREFIX,
  type RedisMcpSessionStore,
  type RedisMcpSessionStoreOptions,
  redisMcpSessionStore,
} from './mcp-session-store.ts';
export { type RedisLikeClient, RedisTimeoutError } from './redis-client.ts';
export {
  AUTO_BAN_CHECK_SCRIPT,
  AUTO_BAN_STRIKE_SCRIPT,
  IDEMPOTENCY_BEGIN_SCRIPT,
  IDEMPOTENCY_GET_SCRIPT,
  IDEMPOTENCY_RELEASE_SCRIPT,
  RATE_LIMIT_HIT_SCRIPT,
  SESSION_SET_SCRIPT,
  SESSION_TOUCH_SCRIPT,
  TASK_GET_MANY_SCRIPT,
  TASK_LIST_SCRIPT,
  TASK_PUT_SCRIPT,
  TASK_REPLACE_IF_SCRIPT,
} from './scripts.ts';
export {
  type RedisSessionStore,
  type RedisSessionStoreOptions,
  redisSessionStore,
  SESSION_KEY_PREFIX,
} from './session-store.ts';
export {
  type BunRedisSubscriberLike,
  bunRedisSubscriber,
  type NodeRedisSubscriberLike,
  nodeRedisSubscriber,
  type RedisLikeSubscriber,
} from './subscriber.ts';
export {
  type RedisTaskStore,
  type RedisTaskStoreOptions,
  redisTaskStore,
  TASK_KEY_PREFIX,
} from './task-store.ts';
export { type RedisWsBrokerOptions, redisWsBroker, WS_CHANNEL_PREFIX } from './ws-broker.ts';
