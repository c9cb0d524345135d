import { describe, expect, test } from 'bun:test';
import { pullStream } from './pull-stream.ts';

const encoder = new TextEncoder();

/** A pull stream of `source` that encodes each item as its `n`. */
function numbers(source: Iterable<{ n: number }> | AsyncIterable<{ n: number }>): ReadableStream<Uint8Array> {
  return pullStream(source, {
    name: 'test',
    signal: undefined,
    keepAliveMs: 0,
    encode: (item) => encoder.encode(`${item.n}\n`),
    failure: () => encoder.encode('failed\n'),
    onError: () => {},
  });
}

describe('pullStream', () => {
  test('a sync source of items that encode to nothing lets timers and cancellation run', async () => {
    let taken = 0;
    function* silent(): Generator<{ n: number }> {
      for (;;) {
        taken++;
        yield { n: -1 };
      }
    }
    const stream = pullStream(silent(), {
      name: 'test',
      signal: undefined,
      keepAliveMs: 0,
      encode: () => undefined,
      failure: () => encoder.encode('failed\n'),
      onError: () => {},
    });
    const reader = stream.getReader();
    const read = reader.read();
    // Without turns of the event loop this timer would never fire and the test would hang.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(taken).toBeGreaterThan(64);
    await reader.cancel();
    expect(await read).toEqual({ done: true, value: undefined });
    const after = taken;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(taken).toBe(after);
  });

  test('an open stream holds no item it already sent: they can be garbage-collected', async () => {
    let collected = 0;
    const registry = new FinalizationRegistry(() => {
      collected++;
    });
    function* source(): Generator<{ n: number }> {
      for (let n = 0; ; n++) {
        const item = { n, padding: 'x'.repeat(100) };
        registry.register(item, n);
        yield item;
      }
    }
    const reader = numbers(source()).getReader();
    for (let i = 0; i < 2000; i++) await reader.read();
    for (let i = 0; i < 5 && collected < 1000; i++) {
      Bun.gc(true);
      await Bun.sleep(10);
    }
    // The stream is still open (and reading): earlier items were released, not kept until the end.
    expect(collected).toBeGreaterThan(1000);
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toMatch(/^\d+\n$/);
    await reader.cancel();
  });

  test('cancelling while the source is producing releases the read at once; a late item is dropped', async () => {
    let finish: (value: IteratorResult<{ n: number }>) => void = () => {};
    let returned = 0;
    const source: AsyncIterable<{ n: number }> = {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          new Promise<IteratorResult<{ n: number }>>((resolve) => {
            finish = resolve;
          }),
        return: async () => {
          returned++;
          return { done: true, value: undefined };
        },
      }),
    };
    const reader = numbers(source).getReader();
    const read = reader.read();
    await Bun.sleep(5);
    await reader.cancel();
    expect(await read).toEqual({ done: true, value: undefined });
    expect(returned).toBe(1);
    // The source yields after the cancel: nothing is enqueued into the cancelled stream, nothing throws.
    finish({ done: false, value: { n: 1 } });
    await Bun.sleep(5);
    expect(returned).toBe(1);
  });
});
