/**
 * Subscriber connections for Redis pub/sub (`redisWsBroker`). A connection that subscribes can send
 * nothing but (un)subscriptions and PING (RESP2; Redis "Pub/Sub" docs), so it is a second connection
 * beside the one the stores use, and it must subscribe again after a reconnect: Redis forgets a
 * connection's subscriptions when it closes.
 */

/** What `redisWsBroker` needs from a subscriber connection. */
export interface RedisLikeSubscriber {
  /** Subscribes to `channel`; `listener` gets each message's text. Resolves once Redis confirmed. */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  /** Unsubscribes from `channel`. */
  unsubscribe(channel: string): Promise<void>;
}

/** The part of Bun's built-in `RedisClient` the subscriber adapter uses. */
export interface BunRedisSubscriberLike {
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  onconnect: ((this: never) => void) | null;
}

/** The part of a node-redis v5/v6 client the subscriber adapter uses. */
export interface NodeRedisSubscriberLike {
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on?(event: 'error', listener: (error: unknown) => void): unknown;
  listenerCount?(event: 'error'): number;
}

function check(name: string, client: unknown): void {
  const c = client as Record<string, unknown> | null;
  if (
    typeof c !== 'object' ||
    c === null ||
    typeof c.subscribe !== 'function' ||
    typeof c.unsubscribe !== 'function'
  ) {
    throw new TypeError(`${name} needs a client with subscribe and unsubscribe methods`);
  }
}

/**
 * Wraps a Bun `RedisClient` given to pub/sub alone (`await client.duplicate()`). Bun reconnects on
 * its own but does not subscribe again, so the adapter chains `onconnect` and renews every
 * subscription it holds; messages published while the connection was down are lost (pub/sub is at
 * most once). Set your own `onconnect` before wrapping the client: the adapter calls it first.
 *
 * @example
 * const subscriber = bunRedisSubscriber(await raw.duplicate());
 */
export function bunRedisSubscriber(client: BunRedisSubscriberLike): RedisLikeSubscriber {
  check('bunRedisSubscriber', client);
  const listeners = new Map<string, (message: string, channel: string) => void>();
  const previous = client.onconnect;
  client.onconnect = function (this: never) {
    previous?.call(this);
    for (const [channel, listener] of listeners) {
      // Bun still counts the channel as subscribed: drop its record, then subscribe on the new connection.
      void client
        .unsubscribe(channel)
        .catch(() => {})
        .then(() => (listeners.get(channel) === listener ? client.subscribe(channel, listener) : undefined))
        .catch(() => {});
    }
  };
  return {
    async subscribe(channel, listener) {
      const wrapped = (message: string) => listener(message);
      listeners.set(channel, wrapped);
      try {
        await client.subscribe(channel, wrapped);
      } catch (error) {
        if (listeners.get(channel) === wrapped) listeners.delete(channel);
        throw error;
      }
    },
    async unsubscribe(channel) {
      listeners.delete(channel);
      await client.unsubscribe(channel);
    },
  };
}

/**
 * Wraps a node-redis client given to pub/sub alone (`client.duplicate()`, connected). node-redis
 * subscribes again by itself after a reconnect. As with `nodeRedisClient`, an `error` listener that
 * ignores the event is added when the client has none, so a lost connection cannot end the process.
 *
 * @example
 * const subscriber = nodeRedisSubscriber(await redis.duplicate().connect());
 */
export function nodeRedisSubscriber(client: NodeRedisSubscriberLike): RedisLikeSubscriber {
  check('nodeRedisSubscriber', client);
  if (typeof client.on === 'function' && client.listenerCount?.('error') === 0) client.on('error', () => {});
  return {
    async subscribe(channel, listener) {
      await client.subscribe(channel, (message) => listener(message));
    },
    async unsubscribe(channel) {
      await client.unsubscribe(channel);
    },
  };
}
