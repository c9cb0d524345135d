/**
 * Where auto-ban strikes and bans live. `autoBan()` records strikes through an `AutoBanStore`; the
 * in-memory store here suits one process, and a networked store (Redis) implements the same
 * interface so that a client banned by one instance is refused by all of them.
 */

/** How strikes turn into a ban: `maxStrikes` strikes within `windowMs` ban the client for `banMs`. */
export interface AutoBanPolicy {
  /** The strike window in ms; it starts at the first strike (a fixed window). */
  readonly windowMs: number;
  /** Strikes within one window that ban the client. */
  readonly maxStrikes: number;
  /** How long a ban lasts, in ms. */
  readonly banMs: number;
}

/** The state of a client after a strike. */
export interface AutoBanStrike {
  /** Strikes counted in the current window, this one included (the count that banned, once banned). */
  readonly strikes: number;
  /** When the ban ends, in ms since the epoch; undefined when the client is not banned. */
  readonly bannedUntil: number | undefined;
  /** True only for the strike that started the ban (exactly one per ban, however many run in parallel). */
  readonly banned: boolean;
}

/**
 * A strike and ban store. `strike` counts one strike for `key` and, when it reaches
 * `policy.maxStrikes`, bans the key for `policy.banMs`: counting and banning are ONE atomic
 * operation, so parallel strikes can neither slip past the threshold nor start two bans. A strike
 * against a banned key changes nothing (a ban is not extended by the refusals it causes).
 * `bannedUntil` answers when the key's ban ends, or undefined. Either may answer synchronously or
 * with a promise; a rejection (store unreachable) is handled by `autoBan`'s `failOpen` option.
 *
 * A networked store should put its keys under `AUTO_BAN_KEY_PREFIX` (`charter:ab:`) and give each
 * one an expiry, so that forgotten clients cost no memory.
 */
export interface AutoBanStore {
  strike(key: string, policy: AutoBanPolicy): AutoBanStrike | Promise<AutoBanStrike>;
  bannedUntil(key: string): number | undefined | Promise<number | undefined>;
  /** Forgets a key's strikes and lifts its ban (an operator's unban, a test); optional. */
  reset?(key: string): void | Promise<void>;
}

/** The prefix networked stores put before every auto-ban key (`charter:ab:<client>`). */
export const AUTO_BAN_KEY_PREFIX = 'charter:ab:';

/** Options of `memoryAutoBanStore()`. */
export interface MemoryAutoBanStoreOptions {
  /**
   * Most clients held at once; default 10000. Past it, expired entries are swept, then the oldest
   * entries that only hold strikes are dropped, and only then the oldest bans: memory stays bounded
   * under a flood of distinct addresses, at the cost of forgiving the oldest strikes first.
   */
  maxKeys?: number;
  /** The clock, in ms since the epoch; default `Date.now`. For tests. */
  now?: () => number;
}

/** The in-memory store, with `size` for tests and metrics. */
export interface MemoryAutoBanStore extends AutoBanStore {
  /** Clients currently held (with strikes or banned). */
  readonly size: number;
  /** Strikes synchronously: the memory store never makes a promise. */
  strike(key: string, policy: AutoBanPolicy): AutoBanStrike;
  bannedUntil(key: string): number | undefined;
  reset(key: string): void;
}

interface Entry {
  strikes: number;
  /** End of the strike window, or of the ban when `banned`. */
  expiresAt: number;
  banned: boolean;
}

/** Validates `memoryAutoBanStore` options, filling defaults; throws a TypeError or RangeError naming it. */
export function resolveMemoryAutoBanStoreOptions(
  options: MemoryAutoBanStoreOptions = {},
): Readonly<Required<MemoryAutoBanStoreOptions>> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('memoryAutoBanStore options must be an object');
  }
  const maxKeys = options.maxKeys ?? 10_000;
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
    throw new RangeError(
      `memoryAutoBanStore option "maxKeys" must be a positive integer, got ${String(maxKeys)}`,
    );
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError('memoryAutoBanStore option "now" must be a function');
  return Object.freeze({ maxKeys, now });
}

/**
 * Strikes and bans in this process's memory. JavaScript runs one strike to completion before the
 * next, so each strike is atomic. No timer runs: expired entries are dropped when read and swept
 * when the key cap is reached.
 */
export function memoryAutoBanStore(options?: MemoryAutoBanStoreOptions): MemoryAutoBanStore {
  const { maxKeys, now } = resolveMemoryAutoBanStoreOptions(options);
  // Insertion order is age order: an entry is re-inserted when its window restarts or a ban starts.
  const entries = new Map<string, Entry>();

  const live = (key: string, at: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > at) return entry;
    entries.delete(key);
    return undefined;
  };

  const makeRoom = (at: number): void => {
    for (const [key, entry] of entries) if (entry.expiresAt <= at) entries.delete(key);
    if (entries.size < maxKeys) return;
    // Forgive strikes before bans: a ban is the store's reason to exist.
    for (const [key, entry] of entries) {
      if (entries.size < maxKeys) return;
      if (!entry.banned) entries.delete(key);
    }
    for (const key of entries.keys()) {
      if (entries.size < maxKeys) return;
      entries.delete(key);
    }
  };

  return {
    strike(key: string, policy: AutoBanPolicy): AutoBanStrike {
      const at = now();
      let entry = live(key, at);
      if (entry?.banned) return { strikes: entry.strikes, bannedUntil: entry.expiresAt, banned: false };
      if (entry === undefined) {
        if (entries.size >= maxKeys) makeRoom(at);
        entry = { strikes: 0, expiresAt: at + policy.windowMs, banned: false };
        entries.set(key, entry);
      }
      entry.strikes++;
      if (entry.strikes < policy.maxStrikes)
        return { strikes: entry.strikes, bannedUntil: undefined, banned: false };
      entry.banned = true;
      entry.expiresAt = at + policy.banMs;
      entries.delete(key);
      entries.set(key, entry);
      return { strikes: entry.strikes, bannedUntil: entry.expiresAt, banned: true };
    },
    bannedUntil(key: string): number | undefined {
      const entry = live(key, now());
      return entry?.banned ? entry.expiresAt : undefined;
    },
    reset(key: string): void {
      entries.delete(key);
    },
    get size(): number {
      return entries.size;
    },
  };
}
