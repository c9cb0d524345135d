/**
 * An `AutoBanStore` in Redis: strikes and bans shared by every instance of a service, one atomic
 * script per strike and one per check.
 */
import {
  AUTO_BAN_KEY_PREFIX,
  type AutoBanPolicy,
  type AutoBanStore,
  type AutoBanStrike,
} from '@charter/core';
import {
  cachedScript,
  checkStoreOptions,
  integerAt,
  type RedisLikeClient,
  runCommand,
  runScript,
} from './redis-client.ts';
import { AUTO_BAN_CHECK_SCRIPT, AUTO_BAN_STRIKE_SCRIPT } from './scripts.ts';

/** Options of `redisAutoBanStore()`. */
export interface RedisAutoBanStoreOptions {
  /** The client, from `bunRedisClient(...)`, `nodeRedisClient(...)` or your own `RedisLikeClient`. Required. */
  client: RedisLikeClient;
  /** Put before every key: a client's strikes and ban are the hash `<prefix><address>`. Default `charter:ab:`. */
  prefix?: string;
  /** Most ms to wait for Redis per strike or check before failing it (see `autoBan`'s `failOpen`); default 1000. 0 waits as long as the client does. */
  timeoutMs?: number;
}

/** The Redis store, with the prefix it resolved. */
export interface RedisAutoBanStore extends AutoBanStore {
  readonly prefix: string;
  strike(key: string, policy: AutoBanPolicy): Promise<AutoBanStrike>;
  bannedUntil(key: string): Promise<number | undefined>;
  reset(key: string): Promise<void>;
}

/**
 * An auto-ban store in Redis. A client is one hash, `<prefix><address>`, with field `s` (strikes)
 * and, once banned, field `b`. It expires with the strike window (PEXPIRE on the first strike),
 * or, once banned, when the ban ends: Redis holds nothing for a client with no recent strike.
 * Counting and banning run in one script, atomic across instances.
 *
 * @example
 * new App({ hooks: [autoBan({ store: redisAutoBanStore({ client }) })] });
 */
export function redisAutoBanStore(options: RedisAutoBanStoreOptions): RedisAutoBanStore {
  const { client, prefix, timeoutMs } = checkStoreOptions('redisAutoBanStore', options, AUTO_BAN_KEY_PREFIX);
  const strikeScript = cachedScript(client, 'charter:ab:strike', AUTO_BAN_STRIKE_SCRIPT);
  const checkScript = cachedScript(client, 'charter:ab:check', AUTO_BAN_CHECK_SCRIPT);
  return {
    prefix,
    async strike(key: string, policy: AutoBanPolicy): Promise<AutoBanStrike> {
      const args = [String(policy.windowMs), String(policy.maxStrikes), String(policy.banMs)];
      const reply = await runScript(client, strikeScript, [prefix + key], args, timeoutMs);
      const strikes = integerAt(reply, 0, 'auto-ban strike');
      const ttl = integerAt(reply, 1, 'auto-ban strike');
      return {
        strikes,
        bannedUntil: ttl < 0 ? undefined : Date.now() + ttl,
        banned: integerAt(reply, 2, 'auto-ban strike') === 1,
      };
    },
    async bannedUntil(key: string): Promise<number | undefined> {
      const reply = await runScript(client, checkScript, [prefix + key], [], timeoutMs);
      const ttl = Number(reply);
      if (!Number.isSafeInteger(ttl))
        throw new TypeError('Redis answered the auto-ban check with an unexpected reply');
      return ttl < 0 ? undefined : Date.now() + ttl;
    },
    async reset(key: string): Promise<void> {
      await runCommand(client, 'DEL', [prefix + key], timeoutMs);
    },
  };
}
