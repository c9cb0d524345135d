// The in-memory session store: one process, bounded, for development, tests and single-instance apps.
import type { SessionRecord } from './record.ts';
import { parseStoredJson, resolveClock, resolveSeconds, type SessionStore } from './store.ts';

/** Options of `memorySessionStore`. */
export interface MemorySessionStoreOptions {
  /**
   * Most sessions kept; default 10 000. When full, the least recently used session is dropped (its
   * user is signed out; it is also the first to expire), so memory stays bounded under a flood.
   */
  maxEntries?: number;
  /** Clock in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Least time between two sweeps of expired sessions, run on writes; default 60. */
  sweepIntervalSeconds?: number;
}

/** The in-memory store, with its size for tests and metrics. */
export interface MemorySessionStore extends SessionStore {
  get(id: string): SessionRecord | undefined;
  set(id: string, record: SessionRecord): void;
  delete(id: string): void;
  touch(id: string, expiresAt: number): void;
  /** Sessions held now, expired ones not yet swept included. */
  readonly size: number;
  /** Drops every expired session; returns how many. */
  sweep(): number;
}

interface Entry {
  /** The record as JSON: each `get` hands out a fresh copy, as a networked store would. */
  json: string;
  expiresAt: number;
}

const DEFAULT_MAX_ENTRIES = 10_000;
const DEFAULT_SWEEP_INTERVAL_SECONDS = 60;

/**
 * A session store in a Map. Records are kept as JSON, so what comes back is a copy with the same
 * shape a database store would give. Map order doubles as recency: reads and writes move an entry
 * to the end, and the first entry is the least recently used.
 */
export function memorySessionStore(options: MemorySessionStoreOptions = {}): MemorySessionStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError('memorySessionStore option "maxEntries" must be an integer >= 1');
  }
  const now = resolveClock(options.now, 'memorySessionStore option "now"');
  const sweepIntervalMs =
    resolveSeconds(
      options.sweepIntervalSeconds,
      DEFAULT_SWEEP_INTERVAL_SECONDS,
      'memorySessionStore option "sweepIntervalSeconds"',
      true,
    ) * 1000;
  const entries = new Map<string, Entry>();
  let lastSweep = now();

  const sweep = (): number => {
    const at = now();
    lastSweep = at;
    let removed = 0;
    for (const [id, entry] of entries) {
      if (entry.expiresAt <= at) {
        entries.delete(id);
        removed++;
      }
    }
    return removed;
  };

  const makeRoom = (): void => {
    if (now() - lastSweep >= sweepIntervalMs) sweep();
    // With one idle timeout for all, the least recently used session is also the first to expire.
    while (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
    }
  };

  return {
    get(id) {
      const entry = entries.get(id);
      if (entry === undefined) return undefined;
      entries.delete(id);
      if (entry.expiresAt <= now()) return undefined;
      entries.set(id, entry);
      const record = parseStoredJson(entry.json, 'memorySessionStore') as SessionRecord;
      // touch() moves only the entry's expiry; the record reports the current one.
      return { ...record, expiresAt: entry.expiresAt };
    },
    set(id, record) {
      const json = JSON.stringify(record);
      const known = entries.delete(id);
      if (!known) makeRoom();
      entries.set(id, { json, expiresAt: record.expiresAt });
    },
    delete(id) {
      entries.delete(id);
    },
    touch(id, expiresAt) {
      const entry = entries.get(id);
      if (entry === undefined) return;
      entries.delete(id);
      entries.set(id, { json: entry.json, expiresAt });
    },
    get size() {
      return entries.size;
    },
    sweep,
  };
}
