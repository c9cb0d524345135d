import { describe, expect, test } from 'bun:test';
import type { WsConnection } from '@charter/core';
import { memoryWsBroker, type WsBroker, type WsTopicMessage, wsTopics } from './topics.ts';

function connection(readyState: 1 | 2 | 3 = 1): WsConnection & { sent: WsTopicMessage[] } {
  const sent: WsTopicMessage[] = [];
  return {
    sent,
    send(data) {
      sent.push(data as WsTopicMessage);
      return 1;
    },
    sendText: () => 1,
    sendBinary: () => 1,
    ping() {},
    close() {},
    terminate() {},
    protocol: '',
    remoteAddress: undefined,
    bufferedAmount: 0,
    readyState,
  } as WsConnection & { sent: WsTopicMessage[] };
}

/** A memory broker that counts its calls and can be made to fail. */
function countingBroker() {
  const inner = memoryWsBroker();
  const calls = { subscribe: 0, unsubscribe: 0, publish: 0 };
  let failing = false;
  const broker: WsBroker = {
    async publish(topic, message) {
      calls.publish++;
      if (failing) throw new Error('broker down');
      await inner.publish(topic, message);
    },
    async subscribe(topic, deliver) {
      calls.subscribe++;
      if (failing) throw new Error('broker down');
      await inner.subscribe(topic, deliver);
    },
    async unsubscribe(topic) {
      calls.unsubscribe++;
      if (failing) throw new Error('broker down');
      await inner.unsubscribe(topic);
    },
  };
  return { broker, calls, fail: (on: boolean) => (failing = on) };
}

describe('wsTopics', () => {
  test('sends a publication to every open listener of the topic, text and bytes, and to nobody else', async () => {
    const topics = wsTopics();
    const [one, two, other, closing] = [connection(), connection(), connection(), connection(2)];
    await topics.subscribe(one, 'a');
    await topics.subscribe(two, 'a');
    await topics.subscribe(other, 'b');
    await topics.subscribe(closing, 'a');
    await topics.publish('a', 'hi');
    await topics.publish('a', new Uint8Array([1, 2]));
    expect(one.sent).toEqual(['hi', new Uint8Array([1, 2])]);
    expect(two.sent).toEqual(['hi', new Uint8Array([1, 2])]);
    expect(other.sent).toEqual([]);
    expect(closing.sent).toEqual([]);
    expect(topics.listeners('a')).toBe(3);
  });

  test('subscribes the broker once per topic and unsubscribes when the last listener leaves', async () => {
    const { broker, calls } = countingBroker();
    const topics = wsTopics({ broker });
    const [one, two] = [connection(), connection()];
    await Promise.all([topics.subscribe(one, 'a'), topics.subscribe(two, 'a')]);
    expect(calls.subscribe).toBe(1);
    await topics.unsubscribe(one, 'a');
    expect(calls.unsubscribe).toBe(0);
    await topics.unsubscribeAll(two);
    expect(calls.unsubscribe).toBe(1);
    expect(topics.listeners('a')).toBe(0);
    await topics.publish('a', 'nobody');
    expect(two.sent).toEqual([]);
    // Leaving twice, or a topic never joined, changes nothing.
    await topics.unsubscribe(two, 'a');
    await topics.unsubscribeAll(connection());
    expect(calls.unsubscribe).toBe(1);
  });

  test('a failed broker subscription rejects, adds nobody, and the next join tries again', async () => {
    const { broker, calls, fail } = countingBroker();
    const topics = wsTopics({ broker });
    const conn = connection();
    fail(true);
    await expect(topics.subscribe(conn, 'a')).rejects.toThrow('broker down');
    expect(topics.listeners('a')).toBe(0);
    await expect(topics.publish('a', 'x')).rejects.toThrow('broker down');
    fail(false);
    await topics.subscribe(conn, 'a');
    expect(calls.subscribe).toBe(2);
    await topics.publish('a', 'x');
    expect(conn.sent).toEqual(['x']);
  });

  test('a failed broker unsubscription is logged, not thrown', async () => {
    const { broker, fail } = countingBroker();
    const logged: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (msg: string) => void logged.push(msg) };
    const topics = wsTopics({ broker, logger });
    const conn = connection();
    await topics.subscribe(conn, 'a');
    fail(true);
    await topics.unsubscribeAll(conn);
    expect(logged).toEqual(['wsTopics: the broker could not unsubscribe']);
  });

  test('refuses a topic that is empty, too long or not a string, and a broker without the methods', async () => {
    const topics = wsTopics();
    await expect(topics.subscribe(connection(), '')).rejects.toThrow(TypeError);
    await expect(topics.subscribe(connection(), 'x'.repeat(257))).rejects.toThrow(TypeError);
    await expect(topics.publish(7 as never, 'x')).rejects.toThrow(TypeError);
    expect(() => wsTopics({ broker: { publish() {} } as never })).toThrow(/missing subscribe/);
    expect(() => wsTopics(null as never)).toThrow(TypeError);
  });
});
