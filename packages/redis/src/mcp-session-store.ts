/**
 * An `McpSessionStore` (charter/mcp `sessions` option) in Redis: a tool-server session minted on one
 * instance is known to all of them, and the store's pub/sub carries resource updates, server-to-client
 * requests and the client's answers to whichever instance holds the stream or waits for the answer.
 */
import { safeJsonParse } from '@charter/core';
import type { McpSessionEvent, McpSessionRecord, McpSessionStore } from '@charter/mcp';
import {
  cachedScript,
  checkStoreOptions,
  type RedisLikeClient,
  runCommand,
  runScript,
  withDeadline,
} from './redis-client.ts';
import type { RedisLikeSubscriber } from './subscriber.ts';

/** The default key and channel prefix of `redisMcpSessionStore`. */
export const MCP_SESSION_KEY_PREFIX = 'charter:mcp:';

/** Options of `redisMcpSessionStore()`. */
export interface RedisMcpSessionStoreOptions {
  /** Commands: a client from `bunRedisClient(...)` or `nodeRedisClient(...)`. Required. */
  client: RedisLikeClient;
  /** Pub/sub: a second connection, from `bunRedisSubscriber(...)` or `nodeRedisSubscriber(...)`. Required. */
  subscriber: RedisLikeSubscriber;
  /** Put before every key and channel: a session is `<prefix>s:<id>`, a channel `<prefix>c:<name>`. Default `charter:mcp:`. */
  prefix?: string;
  /**
   * Most ms to wait for Redis per call before failing it; default 1000. A failed call makes the tool
   * server answer 503 with `Retry-After` (the session contract), never a request served without its session.
   */
  timeoutMs?: number;
  /** Clock in ms since the epoch, which `expiresAt` is compared with; default `Date.now`. */
  now?: () => number;
}

/** The Redis MCP session store, with the prefix it resolved. */
export interface RedisMcpSessionStore extends McpSessionStore {
  readonly prefix: string;
}

/** How many events of each stream of a session are kept for `Last-Event-ID` (MCP_SESSION_EVENT_LOG_SIZE). */
const EVENT_LOG_SIZE = 100;

/**
 * Records one event of a session's stream. KEYS: the event list, its counter, the session key, the
 * set of the session's POST streams; ARGV: the message, how many to keep, the POST stream's key (''
 * for the GET stream). The id and the entry are written together, a POST stream is listed in the
 * set (for `delete`), and the keys expire with the session (its PTTL; a minute when the session is
 * already gone). Answers the id.
 */
export const MCP_SESSION_APPEND_EVENT_SCRIPT = `local id = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[1], id .. ' ' .. ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
local ttl = redis.call('PTTL', KEYS[3])
if ttl <= 0 then ttl = 60000 end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
if ARGV[3] ~= '' then
  redis.call('SADD', KEYS[4], ARGV[3])
  redis.call('PEXPIRE', KEYS[4], ttl)
end
return id`;

/**
 * Ends a session with everything recorded for it. KEYS: the session key, its GET stream's list and
 * counter, the set of its POST streams; ARGV: the prefixes of a POST stream's list and counter keys.
 * Answers 1 when the session existed.
 */
export const MCP_SESSION_DELETE_SCRIPT = `local existed = redis.call('DEL', KEYS[1])
for _, stream in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  redis.call('DEL', ARGV[1] .. stream, ARGV[2] .. stream)
end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
return existed`;

/**
 * Compare-and-set of a session. KEYS: the session key; ARGV: the JSON expected, the JSON to write,
 * its time to live in ms. Written (or deleted, when the ttl is not positive) only if the stored JSON
 * is still the expected one: 1 when written, 0 when another write came first or the session is gone.
 */
export const MCP_SESSION_REPLACE_IF_SCRIPT = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if tonumber(ARGV[3]) <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1`;

interface Channel {
  readonly listeners: Set<(message: string) => void>;
  ready: Promise<void>;
}

/**
 * Sessions in Redis. A session is the string `<prefix>s:<id>` holding the record as JSON, written
 * with `SET ... PX` so the key and its expiry are set in one command: Redis holds no session past its
 * `expiresAt`. The last 100 messages of its GET stream, for `Last-Event-ID`, are the list
 * `<prefix>e:<id>` with the counter `<prefix>n:<id>` (one script, expiring with the session); those of
 * a POST's own stream `<prefix>e:<id>:<stream>` and `<prefix>n:<id>:<stream>`, listed in the set
 * `<prefix>p:<id>` so that `delete` drops them with the session. Channels are Redis pub/sub channels
 * `<prefix>c:<name>`, one SUBSCRIBE per channel and
 * instance however many listeners it has; delivery is at most once, as pub/sub is (a server-to-client
 * request whose answer is lost meets its deadline).
 *
 * @example
 * const handler = createMcpHandler({ ..., sessions: { store: redisMcpSessionStore({ client, subscriber }) } });
 */
export function redisMcpSessionStore(options: RedisMcpSessionStoreOptions): RedisMcpSessionStore {
  const { client, prefix, timeoutMs } = checkStoreOptions(
    'redisMcpSessionStore',
    options,
    MCP_SESSION_KEY_PREFIX,
  );
  const subscriber = options.subscriber;
  if (
    typeof subscriber !== 'object' ||
    subscriber === null ||
    typeof subscriber.subscribe !== 'function' ||
    typeof subscriber.unsubscribe !== 'function'
  ) {
    throw new TypeError(
      'redisMcpSessionStore option "subscriber" must be a RedisLikeSubscriber (wrap a second connection with bunRedisSubscriber or nodeRedisSubscriber)',
    );
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError('redisMcpSessionStore option "now" must be a function');
  const key = (id: string) => `${prefix}s:${id}`;
  // A POST stream's keys add `:<stream key>` to the GET stream's (session ids are base64url).
  const eventsKey = (id: string, stream?: string) =>
    `${prefix}e:${id}${stream === undefined ? '' : `:${stream}`}`;
  const counterKey = (id: string, stream?: string) =>
    `${prefix}n:${id}${stream === undefined ? '' : `:${stream}`}`;
  const streamsKey = (id: string) => `${prefix}p:${id}`;
  const deleteScript = cachedScript(client, 'charter:mcp:delete', MCP_SESSION_DELETE_SCRIPT);
  const appendScript = cachedScript(client, 'charter:mcp:append-event', MCP_SESSION_APPEND_EVENT_SCRIPT);
  const replaceScript = cachedScript(client, 'charter:mcp:replace-if', MCP_SESSION_REPLACE_IF_SCRIPT);
  // The exact JSON each record `get` returned was read from: `replaceIf` compares with it, so the
  // compare never depends on the record serialising back to the same bytes.
  const readAs = new WeakMap<McpSessionRecord, string>();
  const channelName = (name: string) => `${prefix}c:${name}`;
  const channels = new Map<string, Channel>();

  const release = (name: string, channel: Channel) => {
    if (channel.listeners.size > 0 || channels.get(name) !== channel) return;
    channels.delete(name);
    // Called at once, so the adapter forgets the channel before any later SUBSCRIBE to it.
    void withDeadline(subscriber.unsubscribe(channelName(name)), 'UNSUBSCRIBE', timeoutMs).catch(() => {});
  };

  return {
    prefix,
    async set(id, record) {
      const ttl = record.expiresAt - now();
      if (ttl <= 0) {
        await runCommand(client, 'DEL', [key(id)], timeoutMs);
        return;
      }
      await runCommand(
        client,
        'SET',
        [key(id), JSON.stringify(record), 'PX', String(Math.ceil(ttl))],
        timeoutMs,
      );
    },
    async replaceIf(id, record, expected) {
      const reply = await runScript(
        client,
        replaceScript,
        [key(id)],
        [
          readAs.get(expected) ?? JSON.stringify(expected),
          JSON.stringify(record),
          String(Math.ceil(record.expiresAt - now())),
        ],
        timeoutMs,
      );
      return Number(reply) === 1;
    },
    async get(id) {
      const text = await runCommand(client, 'GET', [key(id)], timeoutMs);
      if (text === null || text === undefined) return undefined;
      if (typeof text !== 'string') throw new Error('redisMcpSessionStore: a stored session is not a string');
      let record: McpSessionRecord;
      try {
        record = safeJsonParse(text) as McpSessionRecord;
      } catch (error) {
        // A broken store is the server's failure (503), never the client's 400.
        throw new Error(
          `redisMcpSessionStore: a stored session is not valid JSON (${(error as Error).message})`,
        );
      }
      if (typeof record !== 'object' || record === null || !Number.isSafeInteger(record.expiresAt)) {
        throw new Error('redisMcpSessionStore: a stored session is not a record');
      }
      // Expired by this store's clock though Redis still holds it (clocks differ): gone.
      if (record.expiresAt <= now()) return undefined;
      readAs.set(record, text);
      return record;
    },
    async delete(id) {
      const removed = await runScript(
        client,
        deleteScript,
        [key(id), eventsKey(id), counterKey(id), streamsKey(id)],
        [`${eventsKey(id)}:`, `${counterKey(id)}:`],
        timeoutMs,
      );
      return Number(removed) > 0;
    },
    async appendEvent(sessionId, message, stream) {
      const reply = await runScript(
        client,
        appendScript,
        [eventsKey(sessionId, stream), counterKey(sessionId, stream), key(sessionId), streamsKey(sessionId)],
        [message, String(EVENT_LOG_SIZE), stream ?? ''],
        timeoutMs,
      );
      const id = Number(reply);
      if (!Number.isSafeInteger(id))
        throw new Error('redisMcpSessionStore: unexpected reply to the event script');
      return String(id);
    },
    async eventsAfter(sessionId, eventId, stream) {
      const after = Number(eventId);
      const entries = await runCommand(
        client,
        'LRANGE',
        [eventsKey(sessionId, stream), '0', '-1'],
        timeoutMs,
      );
      const events: McpSessionEvent[] = [];
      for (const entry of Array.isArray(entries) ? entries : []) {
        if (typeof entry !== 'string') continue;
        const space = entry.indexOf(' ');
        const id = entry.slice(0, space);
        if (space > 0 && Number(id) > after) events.push({ id, message: entry.slice(space + 1) });
      }
      return events;
    },
    async publish(name, message) {
      await runCommand(client, 'PUBLISH', [channelName(name), message], timeoutMs);
    },
    async subscribe(name, listener) {
      let channel = channels.get(name);
      if (channel === undefined) {
        const created: Channel = { listeners: new Set(), ready: Promise.resolve() };
        created.ready = withDeadline(
          subscriber.subscribe(channelName(name), (text) => {
            for (const each of [...created.listeners]) each(text);
          }),
          'SUBSCRIBE',
          timeoutMs,
        );
        channels.set(name, created);
        channel = created;
      }
      const own = (message: string) => listener(message);
      channel.listeners.add(own);
      const current = channel;
      try {
        await current.ready;
      } catch (error) {
        current.listeners.delete(own);
        if (channels.get(name) === current) channels.delete(name);
        throw error;
      }
      return async () => {
        current.listeners.delete(own);
        release(name, current);
      };
    },
  };
}
