/**
 * The task store interface (what GetTask, CancelTask, ListTasks and multi-turn need; A2A 1.0 §5
 * task lifecycle) and `memoryTaskStore`, a bounded in-process implementation. Every method is async
 * so a networked store (Redis, SQL) can implement the same interface.
 */
import type { A2aTask, A2aTaskState } from './types.ts';

/** Position in the ListTasks order (status timestamp newest first, then id descending). */
export interface A2aTaskCursor {
  readonly timestamp: string;
  readonly id: string;
}

/** What ListTasks asks a store for; every filter is already validated by the handler. */
export interface A2aTaskQuery {
  /** Only tasks of this context. */
  readonly contextId?: string;
  /** Only tasks in this state. */
  readonly state?: A2aTaskState;
  /** Only tasks whose `status.timestamp` is at or after this instant (inclusive), in epoch ms. */
  readonly statusTimestampAfterMs?: number;
  /** Only tasks strictly after this position in the order (the previous page's last task). */
  readonly after?: A2aTaskCursor;
  /** At most this many tasks. */
  readonly limit: number;
}

/** A page of tasks from the store. */
export interface A2aTaskPage {
  /** Matching tasks after `after`, in order, at most `limit`. */
  readonly tasks: readonly A2aTask[];
  /** How many tasks match the filters, ignoring `after` and `limit`. */
  readonly totalSize: number;
}

/**
 * Storage of tasks, scoped by owner (the value `taskOwner(host)` resolved). A task belongs to the
 * owner that created it; `get` and `list` must never return another owner's task.
 */
export interface A2aTaskStore {
  /** The task with this id if it exists, has not expired and belongs to `owner`. */
  get(owner: string, id: string): Promise<A2aTask | undefined>;
  /** Creates or replaces a task (last write wins). */
  put(owner: string, task: A2aTask): Promise<void>;
  /** The owner's tasks matching the query, in ListTasks order. */
  list(owner: string, query: A2aTaskQuery): Promise<A2aTaskPage>;
  /**
   * Optional compare-and-set: writes `task` only if the stored task with its id belongs to `owner`
   * and is still exactly `expected` (the task as `get` returned it, as JSON); answers whether it
   * wrote. Atomic across every process sharing the store. With it the handler holds one agent turn
   * per task across instances (the loser of a race gets -32004) and a cancel is never overwritten;
   * without it, only within one process.
   */
  replaceIf?(owner: string, task: A2aTask, expected: A2aTask): Promise<boolean>;
}

/** Options of `memoryTaskStore`. */
export interface A2aMemoryTaskStoreOptions {
  /** Most tasks kept; storing one more evicts the task written least recently. Default 10000. */
  maxTasks?: number;
  /** A task not written for this long (ms) is dropped and then reads as not found. Default 3600000 (1 hour). */
  ttlMs?: number;
  /**
   * Most bytes kept, counted as the UTF-8 size of each task's JSON text; storing past it evicts the tasks
   * written least recently, and a single task larger than this is refused (RangeError). Bounds memory
   * whatever clients send (maxTasks alone allows maxTasks x maxHistory x maxBodyBytes).
   * Default 67108864 (64 MiB).
   */
  maxBytes?: number;
  /** Clock in epoch ms, for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  readonly owner: string;
  readonly task: A2aTask;
  readonly writtenAt: number;
  /** UTF-8 size of the task's JSON text (what `maxBytes` counts). */
  readonly size: number;
}

/** Compares two tasks in ListTasks order: newest status timestamp first, ties by id descending. */
export function compareTasks(a: A2aTaskCursor, b: A2aTaskCursor): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? 1 : -1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}

/** The cursor of a task (a task without a timestamp sorts as the oldest). */
export function cursorOf(task: A2aTask): A2aTaskCursor {
  return { timestamp: task.status.timestamp ?? '', id: task.id };
}

/**
 * The page of `tasks` (one owner's) that `query` asks for: filtered, in ListTasks order, after the
 * cursor, at most `limit`; shared by the stores so they list alike.
 */
export function selectTasks(tasks: Iterable<A2aTask>, query: A2aTaskQuery): A2aTaskPage {
  const matching: A2aTask[] = [];
  for (const task of tasks) {
    if (query.contextId !== undefined && task.contextId !== query.contextId) continue;
    if (query.state !== undefined && task.status.state !== query.state) continue;
    if (query.statusTimestampAfterMs !== undefined) {
      const at = Date.parse(task.status.timestamp ?? '');
      if (!(at >= query.statusTimestampAfterMs)) continue;
    }
    matching.push(task);
  }
  matching.sort((a, b) => compareTasks(cursorOf(a), cursorOf(b)));
  const after = query.after;
  const start =
    after === undefined ? 0 : matching.findIndex((task) => compareTasks(cursorOf(task), after) > 0);
  const page = start < 0 ? [] : matching.slice(start, start + query.limit);
  return { tasks: page, totalSize: matching.length };
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`memoryTaskStore: option "${name}" must be a positive integer`);
  }
  return value;
}

/**
 * A bounded in-memory task store. At `maxTasks` or `maxBytes`, writing a task evicts the ones written
 * least recently (its owner then gets TASK_NOT_FOUND for it). A task not written for `ttlMs` expires;
 * expired tasks are swept on each call, oldest first. Tasks are copied in and out, so callers cannot
 * change stored state by mutating a result. One process only: use a shared store behind a balancer.
 */
export function memoryTaskStore(options: A2aMemoryTaskStoreOptions = {}): A2aTaskStore {
  const maxTasks = positive('maxTasks', options.maxTasks, 10000);
  const ttlMs = positive('ttlMs', options.ttlMs, 3_600_000);
  const maxBytes = positive('maxBytes', options.maxBytes, 67_108_864);
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError('memoryTaskStore: option "now" must be a function');
  // Map order is write order (delete + set on every put), so the first entry is the oldest write:
  // both expiry and eviction take from the front in O(1) each.
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const encoder = new TextEncoder();

  const drop = (id: string): void => {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    bytes -= entry.size;
  };

  const sweep = (at: number): void => {
    for (const [id, entry] of entries) {
      if (at - entry.writtenAt < ttlMs) break;
      drop(id);
    }
  };

  const put = async (owner: string, task: A2aTask): Promise<void> => {
    // The JSON text is both the size measure and the copy (a task is JSON on the wire anyway).
    const json = JSON.stringify(task);
    const size = encoder.encode(json).byteLength;
    if (size > maxBytes) {
      throw new RangeError(`memoryTaskStore: task ${task.id} is ${size} bytes, over maxBytes ${maxBytes}`);
    }
    const at = now();
    sweep(at);
    drop(task.id);
    while (entries.size >= maxTasks || bytes + size > maxBytes) {
      drop(entries.keys().next().value as string);
    }
    entries.set(task.id, { owner, task: JSON.parse(json) as A2aTask, writtenAt: at, size });
    bytes += size;
  };

  return {
    async get(owner, id) {
      sweep(now());
      const entry = entries.get(id);
      return entry === undefined || entry.owner !== owner ? undefined : structuredClone(entry.task);
    },
    put,
    async list(owner, query) {
      sweep(now());
      const owned: A2aTask[] = [];
      for (const entry of entries.values()) if (entry.owner === owner) owned.push(entry.task);
      const page = selectTasks(owned, query);
      return { tasks: page.tasks.map((task) => structuredClone(task)), totalSize: page.totalSize };
    },
    async replaceIf(owner, task, expected) {
      sweep(now());
      const entry = entries.get(task.id);
      if (entry === undefined || entry.owner !== owner) return false;
      if (JSON.stringify(entry.task) !== JSON.stringify(expected)) return false;
      await put(owner, task);
      return true;
    },
  };
}
