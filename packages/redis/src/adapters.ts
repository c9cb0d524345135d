/**
 * Adapters from real Redis clients to `RedisLikeClient`. Structural types only: this package imports
 * neither Bun's client nor the `redis` npm package, so it has no runtime dependency on either.
 */
import type { RedisLikeClient } from './redis-client.ts';

/** The part of Bun's built-in `RedisClient` (`import { RedisClient } from 'bun'`) the adapter uses. */
export interface BunRedisClientLike {
  send(command: string, args: string[]): Promise<unknown>;
}

/** The part of a node-redis v5/v6 client (`createClient()` of the `redis` package) the adapter uses. */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
  /** node-redis emits `error` when its connection fails; see `nodeRedisClient`. */
  on?(event: 'error', listener: (error: unknown) => void): unknown;
  listenerCount?(event: 'error'): number;
}

function checkClient(name: string, client: unknown, method: string): void {
  if (
    typeof client !== 'object' ||
    client === null ||
    typeof (client as Record<string, unknown>)[method] !== 'function'
  ) {
    throw new TypeError(`${name} needs a client with a ${method} method`);
  }
}

/**
 * Wraps Bun's built-in `RedisClient`. Bun queues commands while it reconnects; the stores' own
 * `timeoutMs` bounds how long a request waits for them.
 *
 * @example
 * import { RedisClient } from 'bun';
 * const client = bunRedisClient(new RedisClient(process.env.REDIS_URL));
 */
export function bunRedisClient(client: BunRedisClientLike): RedisLikeClient {
  checkClient('bunRedisClient', client, 'send');
  return { send: (command, args) => client.send(command, [...args]) };
}

/**
 * Wraps a client of the `redis` npm package (node-redis v5 or v6), connected by you
 * (`await client.connect()`). node-redis emits `error` events when the connection drops, and an
 * EventEmitter without an `error` listener crashes the process: when the client has none, the
 * adapter adds one that ignores the event (the failed commands still reject, and the middleware
 * logs them). Add your own listener first to log connection errors.
 *
 * @example
 * import { createClient } from 'redis';
 * const client = nodeRedisClient(await createClient({ url: process.env.REDIS_URL }).connect());
 */
export function nodeRedisClient(client: NodeRedisClientLike): RedisLikeClient {
  checkClient('nodeRedisClient', client, 'sendCommand');
  if (typeof client.on === 'function' && client.listenerCount?.('error') === 0) client.on('error', () => {});
  return { send: (command, args) => client.sendCommand([command, ...args]) };
}
