/**
 * The Lua scripts the stores run. A script runs atomically (Redis runs no other command meanwhile),
 * so a count and its expiry are set together: no crash or race can leave a key without expiry or
 * let two parallel requests read the same count. Times are TTLs in ms (PTTL), never clock values, so
 * the app instances' clocks need not agree with the server's.
 */

/**
 * Fixed-window counter. KEYS[1] the counter, ARGV[1] the window in ms. Answers {count, ttl}: the
 * window started with the first INCR and ends when the key expires.
 */
export const RATE_LIMIT_HIT_SCRIPT = `local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

/**
 * One strike. KEYS[1] a hash: field s the strikes, field b present once banned; ARGV: window ms,
 * max strikes, ban ms. Answers {strikes, ban ttl or -1, 1 if this strike started the ban}. A banned
 * key is left alone (its TTL is the ban's); an unbanned one expires with its strike window.
 */
export const AUTO_BAN_STRIKE_SCRIPT = `local key = KEYS[1]
if redis.call('HEXISTS', key, 'b') == 1 then
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[3])
    ttl = tonumber(ARGV[3])
  end
  return {tonumber(redis.call('HGET', key, 's') or '0'), ttl, 0}
end
local strikes = redis.call('HINCRBY', key, 's', 1)
if strikes >= tonumber(ARGV[2]) then
  redis.call('HSET', key, 'b', '1')
  redis.call('PEXPIRE', key, ARGV[3])
  return {strikes, tonumber(ARGV[3]), 1}
end
if redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, ARGV[1])
end
return {strikes, -1, 0}`;

/** Whether KEYS[1] is banned: the ban's remaining ms, or -2 when it is not banned. */
export const AUTO_BAN_CHECK_SCRIPT = `if redis.call('HEXISTS', KEYS[1], 'b') == 1 then
  return redis.call('PTTL', KEYS[1])
end
return -2`;

/** A session written whole. KEYS[1] the hash; ARGV: record JSON, expiresAt, ms left. */
export const SESSION_SET_SCRIPT = `redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'r', ARGV[1], 'e', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** A session's expiry moved, only if it still exists. KEYS[1] the hash; ARGV: expiresAt, ms left. */
export const SESSION_TOUCH_SCRIPT = `if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'e', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Claims an idempotency key. KEYS[1] the key; ARGV: `i:<fingerprint>`, claim ms. Answers
 * {value, ms left} of the record that holds the key, or an empty array when this call claimed it.
 */
export const IDEMPOTENCY_BEGIN_SCRIPT = `local value = redis.call('GET', KEYS[1])
if value then
  return {value, redis.call('PTTL', KEYS[1])}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {}`;

/** Drops a claim held with this fingerprint (ARGV[1], `i:<fingerprint>`); a completed record stays. */
export const IDEMPOTENCY_RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** The record of KEYS[1] with its ms left, or an empty array. */
export const IDEMPOTENCY_GET_SCRIPT = `local value = redis.call('GET', KEYS[1])
if value then
  return {value, redis.call('PTTL', KEYS[1])}
end
return {}`;

// The write shared by the task store's put and replace-if. KEYS[1] the task hash, KEYS[2] the owner's
// sorted set; ARGV: owner, task JSON, ttl ms, most tasks per owner, task id, task key prefix, and the
// task's state, status timestamp and contextId (kept beside the JSON so ListTasks can filter and
// order without reading whole tasks). The score is the server's TIME in ms, so the instances' clocks
// play no part in expiry or eviction.
const TASK_WRITE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'o', ARGV[1], 't', ARGV[2], 's', ARGV[7], 'ts', ARGV[8], 'c', ARGV[9])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], now, ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
redis.call('PEXPIRE', KEYS[2], ARGV[3])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, over - 1)) do
    redis.call('DEL', ARGV[6] .. id)
    redis.call('ZREM', KEYS[2], id)
  end
end
return 1`;

/** Writes a task (last write wins); -1 when the id belongs to another owner. */
export const TASK_PUT_SCRIPT = `local owner = redis.call('HGET', KEYS[1], 'o')
if owner and owner ~= ARGV[1] then
  return -1
end
${TASK_WRITE}`;

/**
 * Compare-and-set: writes the task only if the stored JSON is still ARGV[10] (the task as read) and
 * belongs to ARGV[1]; 1 when written, 0 when another write came first (or the task is gone).
 */
export const TASK_REPLACE_IF_SCRIPT = `local stored = redis.call('HMGET', KEYS[1], 'o', 't')
if stored[1] ~= ARGV[1] or stored[2] ~= ARGV[10] then
  return 0
end
${TASK_WRITE}`;

/**
 * An owner's live tasks, as a flat array of id, state, status timestamp, contextId per task (not the
 * tasks themselves). KEYS[1] the owner's sorted set; ARGV: ttl ms, task key prefix, owner. Index
 * entries whose task expired, was evicted or changed owner are dropped on the way.
 */
export const TASK_LIST_SCRIPT = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local task = redis.call('HMGET', ARGV[2] .. id, 'o', 's', 'ts', 'c')
  if task[1] == ARGV[3] and task[2] then
    out[#out + 1] = id
    out[#out + 1] = task[2]
    out[#out + 1] = task[3]
    out[#out + 1] = task[4]
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out`;

/** The JSON of each task id in ARGV[2..] that belongs to ARGV[1] (false for one that does not); KEYS: the task hashes. */
export const TASK_GET_MANY_SCRIPT = `local out = {}
for i, key in ipairs(KEYS) do
  local task = redis.call('HMGET', key, 'o', 't')
  if task[1] == ARGV[1] and task[2] then
    out[i] = task[2]
  else
    out[i] = ''
  end
end
return out`;
