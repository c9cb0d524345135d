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
