/**
 * A `SessionStore` (charter/session) in Redis: every instance of a service reads the same sessions,
 * so a sign-in on one instance is valid on all of them. One hash per session, expiring with it.
 */
import { safeJsonParse } from '@charter/core';
import type { SessionRecord, SessionStore } from '@charter/session';
import {
  cachedScript,
  checkStoreOptions,
  type RedisLikeClient,
  runCommand,
  runScript,
} from './redis-client.ts';
import { SESSION_SET_SCRIPT, SESSION_TOUCH_SCRIPT } from './scripts.ts';

/** The default key prefix of `redisSessionStore`. */
export const SESSION_KEY_PREFIX = 'charter:sess:';

/** Options of `redisSessionStore()`. */
export interface RedisSessionStoreOptions {
  /** The client, from `bunRedisClient(...)`, `nodeRedisClient(...)` or your own `RedisLikeClient`. Required. */
  client: RedisLikeClient;
  /** Put before every key: a session is the hash `<prefix><id>`. Default `charter:sess:`. */
  prefix?: string;
  /**
   * Most ms to wait for Redis per call before failing it; default 1000. A failed call fails the
   * request with a 500 (the session contract), never with a silently signed-out user.
   */
  timeoutMs?: number;
  /** Clock in ms since the epoch, which `expiresAt` is compared with; default `Date.now`. */
  now?: () => number;
}

/** The Redis session store, with the prefix it resolved. */
export interface RedisSessionStore extends SessionStore {
  readonly prefix: string;
  get(id: string): Promise<SessionRecord | undefined>;
  set(id: string, record: SessionRecord): Promise<void>;
  delete(id: string): Promise<void>;
  touch(id: string, expiresAt: number): Promise<void>;
}

/**
 * A session store in Redis. A session is the hash `<prefix><id>` with field `r` (the record as JSON)
 * and `e` (its `expiresAt`); the key expires at `expiresAt` (PEXPIRE with the time left), so Redis
 * holds no session past its end. Writes and `touch` are one script each: a `touch` racing a sign-out
 * never brings the deleted session back.
 *
 * @example
 * app.use(session({ secret, store: redisSessionStore({ client }) }));
 */
export function redisSessionStore(options: RedisSessionStoreOptions): RedisSessionStore {
  const { client, prefix, timeoutMs } = checkStoreOptions('redisSessionStore', options, SESSION_KEY_PREFIX);
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError('redisSessionStore option "now" must be a function');
  const setScript = cachedScript(client, 'charter:sess:set', SESSION_SET_SCRIPT);
  const touchScript = cachedScript(client, 'charter:sess:touch', SESSION_TOUCH_SCRIPT);
  return {
    prefix,
    async get(id) {
      const reply = await runCommand(client, 'HMGET', [prefix + id, 'r', 'e'], timeoutMs);
      const [text, expires] = Array.isArray(reply) ? reply : [];
      if (text === null || text === undefined) return undefined;
      const expiresAt = Number(expires);
      if (typeof text !== 'string' || !Number.isSafeInteger(expiresAt)) {
        throw new Error('redisSessionStore: a stored session is not a record');
      }
      if (expiresAt <= now()) {
        // Expired by this store's clock: gone for good, as the contract says.
        await runCommand(client, 'DEL', [prefix + id], timeoutMs);
        return undefined;
      }
      let record: SessionRecord;
      try {
        record = safeJsonParse(text) as SessionRecord;
      } catch (error) {
        // A broken store is a 500, never the 400 the parser throws.
        throw new Error(
          `redisSessionStore: a stored session is not valid JSON (${(error as Error).message})`,
        );
      }
      return { ...record, expiresAt };
    },
    async set(id, record) {
      const ttl = record.expiresAt - now();
      if (ttl <= 0) {
        await runCommand(client, 'DEL', [prefix + id], timeoutMs);
        return;
      }
      const args = [JSON.stringify(record), String(record.expiresAt), String(Math.ceil(ttl))];
      await runScript(client, setScript, [prefix + id], args, timeoutMs);
    },
    async delete(id) {
      await runCommand(client, 'DEL', [prefix + id], timeoutMs);
    },
    async touch(id, expiresAt) {
      const ttl = expiresAt - now();
      if (ttl <= 0) {
        await runCommand(client, 'DEL', [prefix + id], timeoutMs);
        return;
      }
      await runScript(
        client,
        touchScript,
        [prefix + id],
        [String(expiresAt), String(Math.ceil(ttl))],
        timeoutMs,
      );
    },
  };
}
