/**
 * The small client interface the stores speak, and the script runner on top of it: EVALSHA first
 * (the script body is not resent), EVAL when the server answers NOSCRIPT (its script cache was
 * flushed, or a replica was promoted), with a deadline so a store never hangs a request.
 */

/**
 * What the stores need from a Redis client: one method sending a command with string arguments and
 * resolving to the decoded reply (integers as numbers, arrays as arrays), or rejecting with the
 * server's error (whose message starts with its code, e.g. `NOSCRIPT ...`). `bunRedisClient` and
 * `nodeRedisClient` build one from Bun's and node-redis's clients; any other client fits in a line.
 */
export interface RedisLikeClient {
  send(command: string, args: readonly string[]): Promise<unknown>;
}

/** A Lua script with its SHA-1 digest, which names it in the server's script cache. */
export interface RedisScript {
  readonly source: string;
  readonly sha: Promise<string>;
}

/** Thrown when the server did not answer within the store's `timeoutMs`. */
export class RedisTimeoutError extends Error {
  constructor(command: string, timeoutMs: number) {
    super(`Redis did not answer ${command} within ${timeoutMs} ms`);
    this.name = 'RedisTimeoutError';
  }
}

// Scripts' digests, per client and cache name: stores built on one client share them.
const shaCache = new WeakMap<RedisLikeClient, Map<string, RedisScript>>();

function sha1Hex(source: string): Promise<string> {
  // Redis names a cached script by the SHA-1 (RFC 3174) of its body, in lower-case hex.
  return crypto.subtle.digest('SHA-1', new TextEncoder().encode(source)).then((buffer) => {
    let hex = '';
    for (const byte of new Uint8Array(buffer)) hex += byte.toString(16).padStart(2, '0');
    return hex;
  });
}

/**
 * The script `source` as known to `client` under `cacheKey`: its digest is computed once per
 * client and name. A name already holding another script is a configuration error.
 */
export function cachedScript(client: RedisLikeClient, cacheKey: string, source: string): RedisScript {
  let scripts = shaCache.get(client);
  if (scripts === undefined) {
    scripts = new Map();
    shaCache.set(client, scripts);
  }
  const known = scripts.get(cacheKey);
  if (known !== undefined) {
    if (known.source !== source) {
      throw new TypeError(`scriptCacheKey "${cacheKey}" already names another script on this Redis client`);
    }
    return known;
  }
  const script: RedisScript = { source, sha: sha1Hex(source) };
  scripts.set(cacheKey, script);
  return script;
}

function isNoScript(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  // The server's error reply starts with its code; some clients put their own words before it.
  return message.includes('NOSCRIPT');
}

/** `work`, rejected with a `RedisTimeoutError` after `timeoutMs` (0: no deadline). */
export function withDeadline<T>(work: Promise<T>, command: string, timeoutMs: number): Promise<T> {
  if (timeoutMs === 0) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeoutError(command, timeoutMs)), timeoutMs);
  });
  // A late answer or error of the abandoned command is dropped, not left unhandled.
  work.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Runs `script` atomically on the server (a script runs without any other command interleaved):
 * one EVALSHA round trip, plus one EVAL the first time or after the server lost its script cache.
 * Rejects with a `RedisTimeoutError` after `timeoutMs` (0: no deadline).
 */
export async function runScript(
  client: RedisLikeClient,
  script: RedisScript,
  keys: readonly string[],
  args: readonly string[],
  timeoutMs: number,
): Promise<unknown> {
  const sha = await script.sha;
  const tail = [String(keys.length), ...keys, ...args];
  try {
    return await withDeadline(client.send('EVALSHA', [sha, ...tail]), 'EVALSHA', timeoutMs);
  } catch (error) {
    if (!isNoScript(error)) throw error;
  }
  // EVAL also puts the script back into the server's cache for the next EVALSHA.
  return withDeadline(client.send('EVAL', [script.source, ...tail]), 'EVAL', timeoutMs);
}

/** Sends one plain command under the same deadline. */
export function runCommand(
  client: RedisLikeClient,
  command: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<unknown> {
  return withDeadline(client.send(command, args), command, timeoutMs);
}

/** Validates a store's shared options: `client`, `prefix` and `timeoutMs`. */
export function checkStoreOptions(
  store: string,
  options: { client?: unknown; prefix?: unknown; timeoutMs?: unknown },
  defaultPrefix: string,
): { client: RedisLikeClient; prefix: string; timeoutMs: number } {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${store} options must be an object with a client`);
  }
  const client = options.client as RedisLikeClient | undefined;
  if (typeof client !== 'object' || client === null || typeof client.send !== 'function') {
    throw new TypeError(
      `${store} option "client" must be a RedisLikeClient (wrap yours with bunRedisClient or nodeRedisClient)`,
    );
  }
  const prefix = options.prefix ?? defaultPrefix;
  if (typeof prefix !== 'string') throw new TypeError(`${store} option "prefix" must be a string`);
  const timeoutMs = options.timeoutMs ?? 1000;
  if (typeof timeoutMs !== 'number' || !Number.isSafeInteger(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(
      `${store} option "timeoutMs" must be a non-negative integer, got ${String(timeoutMs)}`,
    );
  }
  return { client, prefix, timeoutMs };
}

/** Reads the integer at `index` of a script's array reply. */
export function integerAt(reply: unknown, index: number, what: string): number {
  const value = Array.isArray(reply) ? Number(reply[index]) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`Redis answered the ${what} script with an unexpected reply`);
  }
  return value;
}
