/**
 * An `A2aTaskStore` (charter/a2a) in Redis: tasks shared by every instance of an agent, listed and
 * evicted per owner, with the compare-and-set (`replaceIf`) that keeps one agent turn per task across
 * instances (A2A 1.0 §5: a task is worked on by one turn at a time).
 */
import type { A2aTask, A2aTaskStore } from '@charter/a2a';
import { safeJsonParse } from '@charter/core';
import {
  cachedScript,
  checkStoreOptions,
  type RedisLikeClient,
  runCommand,
  runScript,
} from './redis-client.ts';
import {
  TASK_GET_MANY_SCRIPT,
  TASK_LIST_SCRIPT,
  TASK_PUT_SCRIPT,
  TASK_REPLACE_IF_SCRIPT,
} from './scripts.ts';

/** The default key prefix of `redisTaskStore`. */
export const TASK_KEY_PREFIX = 'charter:a2a:';

/** Options of `redisTaskStore()`. */
export interface RedisTaskStoreOptions {
  /** The client, from `bunRedisClient(...)`, `nodeRedisClient(...)` or your own `RedisLikeClient`. Required. */
  client: RedisLikeClient;
  /** Put before every key: `<prefix>task:<id>` and `<prefix>owner:<owner>`. Default `charter:a2a:`. */
  prefix?: string;
  /** A task not written for this long (ms) expires and then reads as not found. Default 3600000 (1 hour). */
  ttlMs?: number;
  /** Most tasks kept per owner; writing one more evicts that owner's least recently written. Default 1000. */
  maxTasksPerOwner?: number;
  /** Largest task kept, as UTF-8 JSON bytes; a bigger one is refused (RangeError). Default 4194304 (4 MiB). */
  maxTaskBytes?: number;
  /**
   * Most ms to wait for Redis per call before failing it; default 1000. A failed call answers the
   * JSON-RPC request with an internal error (fail closed): a task is never read stale or lost silently.
   */
  timeoutMs?: number;
}

/** The Redis task store, with the prefix it resolved. */
export interface RedisTaskStore extends A2aTaskStore {
  readonly prefix: string;
  replaceIf(owner: string, task: A2aTask, expected: A2aTask): Promise<boolean>;
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`redisTaskStore option "${name}" must be a positive integer`);
  }
  return value;
}

function parseTask(text: unknown): A2aTask {
  if (typeof text !== 'string') throw new TypeError('Redis answered the task store with an unexpected reply');
  try {
    return safeJsonParse(text) as A2aTask;
  } catch (error) {
    throw new Error(`redisTaskStore: a stored task is not valid JSON (${(error as Error).message})`);
  }
}

/**
 * A task store in Redis. A task is the hash `<prefix>task:<id>` (fields `o`, its owner, `t`, its
 * JSON, and `s`, `ts`, `c`: its state, status timestamp and contextId, for ListTasks), expiring
 * `ttlMs` after its last write; each owner has a sorted set `<prefix>owner:<owner>` of its task ids
 * by write time (Redis's clock, so the instances' clocks need not agree), which ListTasks reads and
 * which bounds the owner to `maxTasksPerOwner`. Every write is one script; a task is never written
 * over another owner's.
 *
 * @example
 * createA2aHandler({ card, onMessage, taskStore: redisTaskStore({ client }), taskOwner: (host) => host.state?.user?.sub });
 */
export function redisTaskStore(options: RedisTaskStoreOptions): RedisTaskStore {
  const { client, prefix, timeoutMs } = checkStoreOptions('redisTaskStore', options, TASK_KEY_PREFIX);
  const ttlMs = positive('ttlMs', options.ttlMs, 3_600_000);
  const maxPerOwner = positive('maxTasksPerOwner', options.maxTasksPerOwner, 1000);
  const maxTaskBytes = positive('maxTaskBytes', options.maxTaskBytes, 4_194_304);
  const putScript = cachedScript(client, 'charter:a2a:put', TASK_PUT_SCRIPT);
  const replaceScript = cachedScript(client, 'charter:a2a:replace-if', TASK_REPLACE_IF_SCRIPT);
  const listScript = cachedScript(client, 'charter:a2a:list', TASK_LIST_SCRIPT);
  const getManyScript = cachedScript(client, 'charter:a2a:get-many', TASK_GET_MANY_SCRIPT);
  const encoder = new TextEncoder();
  const taskKey = (id: string): string => `${prefix}task:${id}`;
  const ownerKey = (owner: string): string => `${prefix}owner:${owner}`;

  const encode = (task: A2aTask): string => {
    const json = JSON.stringify(task);
    const size = encoder.encode(json).byteLength;
    if (size > maxTaskBytes) {
      throw new RangeError(
        `redisTaskStore: task ${task.id} is ${size} bytes, over maxTaskBytes ${maxTaskBytes}`,
      );
    }
    return json;
  };
  const writeArgs = (owner: string, task: A2aTask): string[] => [
    owner,
    encode(task),
    String(ttlMs),
    String(maxPerOwner),
    task.id,
    `${prefix}task:`,
    task.status.state,
    task.status.timestamp ?? '',
    task.contextId,
  ];
  const written = (reply: unknown, task: A2aTask): boolean => {
    const code = Number(reply);
    if (code === -1) throw new Error(`redisTaskStore: task ${task.id} belongs to another owner`);
    return code === 1;
  };

  return {
    prefix,
    async get(owner, id) {
      const reply = await runCommand(client, 'HMGET', [taskKey(id), 'o', 't'], timeoutMs);
      const [storedOwner, text] = Array.isArray(reply) ? reply : [];
      if (storedOwner !== owner || text === null || text === undefined) return undefined;
      return parseTask(text);
    },
    async put(owner, task) {
      const reply = await runScript(
        client,
        putScript,
        [taskKey(task.id), ownerKey(owner)],
        writeArgs(owner, task),
        timeoutMs,
      );
      written(reply, task);
    },
    async replaceIf(owner, task, expected) {
      const keys = [taskKey(task.id), ownerKey(owner)];
      const args = [...writeArgs(owner, task), JSON.stringify(expected)];
      return written(await runScript(client, replaceScript, keys, args, timeoutMs), task);
    },
    async list(owner, query) {
      // First the fields ListTasks filters and orders by, for every live task of the owner; then the
      // page's tasks alone, so a list never reads more than one page of whole tasks.
      const reply = await runScript(
        client,
        listScript,
        [ownerKey(owner)],
        [String(ttlMs), `${prefix}task:`, owner],
        timeoutMs,
      );
      const fields = Array.isArray(reply) ? reply.map(String) : [];
      const summaries: A2aTask[] = [];
      for (let i = 0; i + 3 < fields.length; i += 4) {
        const [id, state, timestamp, contextId] = fields.slice(i, i + 4) as [string, string, string, string];
        const status: A2aTask['status'] = { state: state as A2aTask['status']['state'] };
        if (timestamp !== '') status.timestamp = timestamp;
        summaries.push({ id, contextId, status });
      }
      // Loaded with the first ListTasks, not with charter/redis: a service using it for rate limits
      // alone never loads the A2A module (whoever lists tasks has it loaded already).
      const { selectTasks } = await import('@charter/a2a');
      const page = selectTasks(summaries, query);
      if (page.tasks.length === 0) return page;
      const texts = await runScript(
        client,
        getManyScript,
        page.tasks.map((task) => taskKey(task.id)),
        [owner],
        timeoutMs,
      );
      // A task that expired or was evicted between the two calls is left out of the page.
      const tasks = (Array.isArray(texts) ? texts : []).filter((text) => text !== '').map(parseTask);
      return { tasks, totalSize: page.totalSize };
    },
  };
}
