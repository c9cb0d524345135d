/**
 * Topics for WebSocket connections: `wsTopics()` keeps which of this instance's connections listen to
 * which topic, and sends what is published to a topic to each of them, through a `WsBroker` that
 * carries publications between instances. The default broker is in memory (one process);
 * `redisWsBroker` (charter/redis) carries them over Redis pub/sub to every instance.
 */
import type { Logger, WsConnection } from '@charter/core';

/** A published message: text, or bytes. */
export type WsTopicMessage = string | Uint8Array;

/**
 * Carries publications between the instances of a service. The contract:
 * - `subscribe(topic, deliver)`: from when it resolves, every message published to `topic` (by any
 *   instance) is passed to `deliver`, once, in publication order per publisher. One `deliver` per
 *   topic and broker: `wsTopics` subscribes once per topic however many connections listen.
 * - `unsubscribe(topic)`: stops the deliveries of `topic`.
 * - `publish(topic, message)`: hands the message to every instance subscribed now; resolves once the
 *   broker took it, rejects (within the broker's deadline) when it could not.
 * Delivery is at most once: an instance cut off from the broker misses what was published meanwhile.
 */
export interface WsBroker {
  publish(topic: string, message: WsTopicMessage): Promise<void>;
  subscribe(topic: string, deliver: (message: WsTopicMessage) => void): Promise<void>;
  unsubscribe(topic: string): Promise<void>;
}

/** A broker inside one process: publications reach this process's subscribers only. */
export function memoryWsBroker(): WsBroker {
  const listeners = new Map<string, (message: WsTopicMessage) => void>();
  return {
    async publish(topic, message) {
      listeners.get(topic)?.(message);
    },
    async subscribe(topic, deliver) {
      listeners.set(topic, deliver);
    },
    async unsubscribe(topic) {
      listeners.delete(topic);
    },
  };
}

/** Options of `wsTopics()`. */
export interface WsTopicsOptions {
  /** Carries publications between instances; default a `memoryWsBroker()` (one process). */
  broker?: WsBroker;
  /** Where failed broker unsubscriptions are logged (`error` level); default nowhere. Pass `app.logger`. */
  logger?: Logger;
}

/** What `wsTopics()` returns. */
export interface WsTopics {
  /**
   * Adds `conn` to `topic`'s listeners; resolves once the broker delivers the topic to this instance.
   * Rejects when the broker could not subscribe (then `conn` is not added): close the connection or
   * tell the client.
   */
  subscribe(conn: WsConnection, topic: string): Promise<void>;
  /** Removes `conn` from `topic`. */
  unsubscribe(conn: WsConnection, topic: string): Promise<void>;
  /** Removes `conn` from every topic: call it from the route's `close` phase. */
  unsubscribeAll(conn: WsConnection): Promise<void>;
  /** Publishes to every listener of `topic` on every instance; rejects when the broker fails. */
  publish(topic: string, message: WsTopicMessage): Promise<void>;
  /** How many of this instance's connections listen to `topic`. */
  listeners(topic: string): number;
}

/**
 * Topic subscriptions of WebSocket connections, published through a broker. Each instance subscribes
 * the broker to a topic when its first connection joins and unsubscribes when its last leaves, so a
 * publication crosses the broker once per instance, not once per connection.
 *
 * @example
 * const topics = wsTopics({ broker: redisWsBroker({ client, subscriber }) });
 * app.ws('/rooms/:room', {
 *   open: (conn, ctx) => topics.subscribe(conn, ctx.params.room),
 *   message: (conn, message, ctx) => topics.publish(ctx.params.room, message),
 *   close: (conn) => topics.unsubscribeAll(conn),
 * });
 */
export function wsTopics(options: WsTopicsOptions = {}): WsTopics {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('wsTopics options must be an object');
  const broker = options.broker ?? memoryWsBroker();
  for (const method of ['publish', 'subscribe', 'unsubscribe'] as const) {
    if (typeof broker?.[method] !== 'function') {
      throw new TypeError(`wsTopics option "broker" must be a WsBroker (missing ${method})`);
    }
  }
  const logger = options.logger;
  const members = new Map<string, Set<WsConnection>>();
  const joined = new Map<WsConnection, Set<string>>();
  // The broker subscription of each topic, shared by the connections joining while it is made.
  const subscribing = new Map<string, Promise<void>>();

  const deliver = (topic: string) => (message: WsTopicMessage) => {
    for (const conn of members.get(topic) ?? []) {
      if (conn.readyState === 1) conn.send(message);
    }
  };

  const leave = async (conn: WsConnection, topic: string): Promise<void> => {
    const set = members.get(topic);
    if (set === undefined || !set.delete(conn)) return;
    joined.get(conn)?.delete(topic);
    if (set.size > 0) return;
    members.delete(topic);
    subscribing.delete(topic);
    try {
      await broker.unsubscribe(topic);
    } catch (error) {
      // Harmless: this instance receives the topic and finds nobody to send it to.
      logger?.error('wsTopics: the broker could not unsubscribe', { topic, error });
    }
  };

  const checkTopic = (topic: unknown): void => {
    if (typeof topic !== 'string' || topic.length === 0 || topic.length > 256) {
      throw new TypeError('wsTopics: a topic is a string of 1 to 256 characters');
    }
  };

  return {
    async subscribe(conn, topic) {
      checkTopic(topic);
      // Until this connection's topic is subscribed by a subscription still current (the last
      // listener may have left, and unsubscribed the broker, while this one was being made).
      for (;;) {
        let ready = subscribing.get(topic);
        if (ready === undefined) {
          const made = broker.subscribe(topic, deliver(topic));
          ready = made;
          subscribing.set(topic, made);
          // A failed subscription is not kept: the next connection to join tries again.
          made.catch(() => {
            if (subscribing.get(topic) === made) subscribing.delete(topic);
          });
        }
        await ready;
        if (subscribing.get(topic) === ready) break;
      }
      let set = members.get(topic);
      if (set === undefined) {
        set = new Set();
        members.set(topic, set);
      }
      set.add(conn);
      let topics = joined.get(conn);
      if (topics === undefined) {
        topics = new Set();
        joined.set(conn, topics);
      }
      topics.add(topic);
    },
    unsubscribe(conn, topic) {
      return leave(conn, topic);
    },
    async unsubscribeAll(conn) {
      const topics = joined.get(conn);
      joined.delete(conn);
      for (const topic of topics ?? []) await leave(conn, topic);
    },
    async publish(topic, message) {
      checkTopic(topic);
      await broker.publish(topic, message);
    },
    listeners(topic) {
      return members.get(topic)?.size ?? 0;
    },
  };
}
