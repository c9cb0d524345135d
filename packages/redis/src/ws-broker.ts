/**
 * A `WsBroker` (charter/websocket `wsTopics`) over Redis pub/sub: a message published to a topic on
 * one instance reaches the topic's WebSocket listeners on every instance.
 */
import { decodeBase64, encodeBase64 } from '@charter/core';
import type { WsBroker, WsTopicMessage } from '@charter/websocket';
import { checkStoreOptions, type RedisLikeClient, runCommand, withDeadline } from './redis-client.ts';
import type { RedisLikeSubscriber } from './subscriber.ts';

/** The default channel prefix of `redisWsBroker`. */
export const WS_CHANNEL_PREFIX = 'charter:ws:';

/** Options of `redisWsBroker()`. */
export interface RedisWsBrokerOptions {
  /** Publishes: a client from `bunRedisClient(...)` or `nodeRedisClient(...)`. Required. */
  client: RedisLikeClient;
  /** Receives: a second connection, from `bunRedisSubscriber(...)` or `nodeRedisSubscriber(...)`. Required. */
  subscriber: RedisLikeSubscriber;
  /** Put before every topic: a topic is the channel `<prefix><topic>`. Default `charter:ws:`. */
  prefix?: string;
  /**
   * Most ms to wait for Redis per publish or (un)subscription before failing it; default 1000. A
   * failed publish rejects (the caller decides what the sender is told); a failed subscription
   * rejects `wsTopics().subscribe`.
   */
  timeoutMs?: number;
}

// A message travels as text: `t` and the text, or `b` and the bytes in base64 (the subscriber
// adapters hand messages over as strings).
function encode(message: WsTopicMessage): string {
  if (typeof message === 'string') return `t${message}`;
  return `b${encodeBase64(message, 'base64', { pad: true })}`;
}

function decode(text: string): WsTopicMessage | undefined {
  if (text.startsWith('t')) return text.slice(1);
  if (text.startsWith('b')) return decodeBase64(text.slice(1), 'base64', { padded: true });
  return undefined;
}

/**
 * A WebSocket broker on Redis pub/sub (PUBLISH and SUBSCRIBE). Delivery is at most once, as Redis
 * pub/sub is: an instance whose subscriber connection is down misses what is published meanwhile, and
 * receives again once the adapter has subscribed anew. Nothing is stored, so nothing expires.
 *
 * @example
 * const topics = wsTopics({ broker: redisWsBroker({ client, subscriber }) });
 */
export function redisWsBroker(options: RedisWsBrokerOptions): WsBroker {
  const { client, prefix, timeoutMs } = checkStoreOptions('redisWsBroker', options, WS_CHANNEL_PREFIX);
  const subscriber = options.subscriber;
  if (
    typeof subscriber !== 'object' ||
    subscriber === null ||
    typeof subscriber.subscribe !== 'function' ||
    typeof subscriber.unsubscribe !== 'function'
  ) {
    throw new TypeError(
      'redisWsBroker option "subscriber" must be a RedisLikeSubscriber (wrap a second connection with bunRedisSubscriber or nodeRedisSubscriber)',
    );
  }
  return {
    async publish(topic, message) {
      await runCommand(client, 'PUBLISH', [prefix + topic, encode(message)], timeoutMs);
    },
    async subscribe(topic, deliver) {
      const listener = (text: string) => {
        // Another publisher's text on the channel is not ours to pass on.
        const message = typeof text === 'string' ? decode(text) : undefined;
        if (message !== undefined) deliver(message);
      };
      await withDeadline(subscriber.subscribe(prefix + topic, listener), 'SUBSCRIBE', timeoutMs);
    },
    async unsubscribe(topic) {
      await withDeadline(subscriber.unsubscribe(prefix + topic), 'UNSUBSCRIBE', timeoutMs);
    },
  };
}
