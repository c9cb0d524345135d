import { afterEach, describe, expect, test } from 'bun:test';
import { ForbiddenError } from '@charter/core';
import type { SseMessage } from './sse-message.ts';
import {
  DEFAULT_SSE_KEEP_ALIVE_MS,
  resolveSseStreamOptions,
  type SseStreamOptions,
  sseStream,
} from './sse-stream.ts';

const decoder = new TextDecoder();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const OPENING = ':\n\n';
const KEEP_ALIVE = ': keep-alive\n\n';
const GENERIC_ERROR =
  'event: error\ndata: {"type":"https://charter.dev/errors/internal","title":"Internal Server Error","status":500}\n\n';

/** Errors given to `onError`, so the default (console.error) stays quiet in tests. */
let reported: unknown[] = [];
afterEach(() => {
  reported = [];
});
const quiet: SseStreamOptions = { keepAliveMs: 0, onError: (error) => void reported.push(error) };

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text;
}

async function readText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string | undefined> {
  const { done, value } = await reader.read();
  return done ? undefined : decoder.decode(value);
}

/** Resolves with what `promise` gave, or `'pending'` if it has not settled after `ms`. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, sleep(ms).then(() => 'pending' as const)]);
}

describe('sseStream', () => {
  test('sends the opening comment, then every message, then ends with the source', async () => {
    const text = await readAll(sseStream([{ data: 'a' }, { event: 'b', data: 'c' }], quiet));
    expect(text).toBe(`${OPENING}data: a\n\nevent: b\ndata: c\n\n`);
  });

  test('reads an async generator as well as a sync iterable', async () => {
    async function* messages(): AsyncGenerator<SseMessage> {
      yield { id: '1', data: 'x' };
      await sleep(1);
      yield { id: '2', data: 'y' };
    }
    expect(await readAll(sseStream(messages(), quiet))).toBe(
      `${OPENING}id: 1\ndata: x\n\nid: 2\ndata: y\n\n`,
    );
    expect(await readAll(sseStream(new Set([{ data: 'set' }]), quiet))).toBe(`${OPENING}data: set\n\n`);
  });

  test('sends one message per read and skips messages with no field in the same read', async () => {
    const reader = sseStream(
      [{}, { data: undefined }, { data: 'first' }, { data: 'second' }],
      quiet,
    ).getReader();
    expect(await readText(reader)).toBe(OPENING);
    expect(await readText(reader)).toBe('data: first\n\n');
    expect(await readText(reader)).toBe('data: second\n\n');
    expect(await readText(reader)).toBeUndefined();
  });

  test('refuses a source that is not iterable, or a string, naming sseStream', () => {
    for (const source of [null, undefined, 42, 'data: x', { next: () => ({ done: true }) }]) {
      expect(() => sseStream(source as unknown as SseMessage[])).toThrow(/sseStream: the source must be/);
    }
  });

  describe('backpressure', () => {
    test('takes no item before the consumer reads past the opening comment', async () => {
      let produced = 0;
      function* counting(): Generator<SseMessage> {
        for (;;) yield { data: String(++produced) };
      }
      const reader = sseStream(counting(), quiet).getReader();
      await sleep(10);
      expect(produced).toBe(0);
      expect(await readText(reader)).toBe(OPENING);
      await sleep(10);
      expect(produced).toBe(0);
      await reader.cancel();
    });

    test('a slow consumer never makes the source run ahead of its reads', async () => {
      let produced = 0;
      async function* counting(): AsyncGenerator<SseMessage> {
        for (;;) {
          produced += 1;
          yield { data: String(produced) };
        }
      }
      const reader = sseStream(counting(), quiet).getReader();
      await readText(reader);
      for (let read = 1; read <= 5; read++) {
        expect(await readText(reader)).toBe(`data: ${read}\n\n`);
        // The consumer is slow: nothing may be produced while it is away.
        await sleep(15);
        expect(produced).toBe(read);
      }
      await reader.cancel();
    });
  });

  describe('keep-alive', () => {
    test('sends a keep-alive comment every keepAliveMs while the source is idle', async () => {
      async function* late(): AsyncGenerator<SseMessage> {
        await sleep(170);
        yield { data: 'late' };
      }
      const started = performance.now();
      const chunks: { text: string; at: number }[] = [];
      for await (const chunk of sseStream(late(), { ...quiet, keepAliveMs: 40 })) {
        chunks.push({ text: decoder.decode(chunk), at: performance.now() - started });
      }
      const texts = chunks.map((c) => c.text);
      expect(texts[0]).toBe(OPENING);
      expect(texts.at(-1)).toBe('data: late\n\n');
      const keepAlives = chunks.filter((c) => c.text === KEEP_ALIVE);
      // 170 ms idle at 40 ms intervals: 4 expected; timers may run late on a loaded machine, never early.
      expect(keepAlives.length).toBeGreaterThanOrEqual(2);
      expect(keepAlives.length).toBeLessThanOrEqual(4);
      expect(keepAlives[0]?.at).toBeGreaterThanOrEqual(38);
      expect(texts.slice(1, -1).every((t) => t === KEEP_ALIVE)).toBe(true);
    });

    test('sends no keep-alive while messages keep coming faster than keepAliveMs', async () => {
      async function* steady(): AsyncGenerator<SseMessage> {
        for (let i = 0; i < 8; i++) {
          await sleep(10);
          yield { data: String(i) };
        }
      }
      const text = await readAll(sseStream(steady(), { ...quiet, keepAliveMs: 60 }));
      expect(text).not.toContain('keep-alive');
      expect(text.split('data: ').length - 1).toBe(8);
    });

    test('sends no keep-alive when keepAliveMs is 0', async () => {
      async function* late(): AsyncGenerator<SseMessage> {
        await sleep(60);
        yield { data: 'late' };
      }
      expect(await readAll(sseStream(late(), quiet))).toBe(`${OPENING}data: late\n\n`);
    });

    test('queues at most one keep-alive for a consumer that stopped reading', async () => {
      const never = {
        [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<SseMessage>>(() => {}) }),
      };
      const reader = sseStream(never, { ...quiet, keepAliveMs: 100 }).getReader();
      await readText(reader);
      // A waiting read starts the pull; it gets the keep-alive at 100 ms. Then the consumer is away while
      // the timer fires at 200 (queued) and 300 ms (skipped: the queue is not empty), and reads at 350.
      const first = reader.read();
      await sleep(350);
      expect(decoder.decode((await first).value)).toBe(KEEP_ALIVE);
      const queued = await settledWithin(reader.read(), 10);
      expect(queued).not.toBe('pending');
      // Nothing else was piled up: the next keep-alive comes only when the timer fires again (at 400).
      expect(await settledWithin(reader.read(), 10)).toBe('pending');
      await reader.cancel();
    });

    test('defaults to 15 s', () => {
      expect(DEFAULT_SSE_KEEP_ALIVE_MS).toBe(15_000);
      expect(resolveSseStreamOptions().keepAliveMs).toBe(15_000);
    });
  });

  describe('cancellation', () => {
    test("calling cancel runs the generator's finally", async () => {
      let cleaned = false;
      async function* endless(): AsyncGenerator<SseMessage> {
        try {
          for (let i = 0; ; i++) yield { data: String(i) };
        } finally {
          cleaned = true;
        }
      }
      const reader = sseStream(endless(), quiet).getReader();
      await readText(reader);
      await readText(reader);
      await reader.cancel();
      await sleep(1);
      expect(cleaned).toBe(true);
    });

    test('calls return() once, also when cancelled while the source is still producing', async () => {
      let returns = 0;
      let release: (value: IteratorResult<SseMessage>) => void = () => {};
      const iterator: AsyncIterator<SseMessage> = {
        next: () => new Promise((resolve) => (release = resolve)),
        return: async () => {
          returns += 1;
          return { done: true, value: undefined };
        },
      };
      const reader = sseStream({ [Symbol.asyncIterator]: () => iterator }, quiet).getReader();
      await readText(reader);
      const pending = reader.read();
      await sleep(5);
      await reader.cancel();
      expect((await pending).done).toBe(true);
      expect(returns).toBe(1);
      // The late item is dropped, and return() is not called again.
      release({ done: false, value: { data: 'late' } });
      await sleep(1);
      expect(returns).toBe(1);
    });

    test('does not call return() on a source that finished by itself', async () => {
      let returns = 0;
      const source = {
        [Symbol.iterator]: (): Iterator<SseMessage> => {
          let sent = false;
          return {
            next: () =>
              sent
                ? { done: true, value: undefined }
                : ((sent = true), { done: false, value: { data: 'x' } }),
            return: () => {
              returns += 1;
              return { done: true, value: undefined };
            },
          };
        },
      };
      expect(await readAll(sseStream(source, quiet))).toBe(`${OPENING}data: x\n\n`);
      expect(returns).toBe(0);
    });

    test('clears the keep-alive timer when cancelled', async () => {
      const live = new Set<unknown>();
      const realSet = globalThis.setTimeout;
      const realClear = globalThis.clearTimeout;
      globalThis.setTimeout = ((fn: () => void, ms?: number) => {
        const id = realSet(() => {
          live.delete(id);
          fn();
        }, ms);
        live.add(id);
        return id;
      }) as typeof setTimeout;
      globalThis.clearTimeout = ((id: ReturnType<typeof setTimeout>) => {
        live.delete(id);
        realClear(id);
      }) as typeof clearTimeout;
      try {
        const never = {
          [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<SseMessage>>(() => {}) }),
        };
        const reader = sseStream(never, { ...quiet, keepAliveMs: 1000 }).getReader();
        await readText(reader);
        void reader.read().catch(() => {});
        await Promise.resolve();
        expect(live.size).toBe(1);
        await reader.cancel();
        expect(live.size).toBe(0);
      } finally {
        globalThis.setTimeout = realSet;
        globalThis.clearTimeout = realClear;
      }
    });

    test('an aborted signal ends the stream normally and runs the finally', async () => {
      let cleaned = false;
      async function* endless(): AsyncGenerator<SseMessage> {
        try {
          for (let i = 0; ; i++) {
            await sleep(5);
            yield { data: String(i) };
          }
        } finally {
          cleaned = true;
        }
      }
      const controller = new AbortController();
      const reader = sseStream(endless(), { ...quiet, signal: controller.signal }).getReader();
      await readText(reader);
      expect(await readText(reader)).toBe('data: 0\n\n');
      controller.abort();
      expect(await readText(reader)).toBeUndefined();
      await sleep(10);
      expect(cleaned).toBe(true);
    });

    test('a signal aborted up front gives an empty stream and never starts the source', async () => {
      let started = false;
      async function* source(): AsyncGenerator<SseMessage> {
        started = true;
        yield { data: 'x' };
      }
      expect(await readAll(sseStream(source(), { ...quiet, signal: AbortSignal.abort() }))).toBe('');
      expect(started).toBe(false);
    });

    test('a return() that rejects is reported to onError, not thrown', async () => {
      const failure = new Error('return failed');
      const iterator: AsyncIterator<SseMessage> = {
        next: async () => ({ done: false, value: { data: 'x' } }),
        return: () => Promise.reject(failure),
      };
      const reader = sseStream({ [Symbol.asyncIterator]: () => iterator }, quiet).getReader();
      await readText(reader);
      await reader.cancel();
      await sleep(1);
      expect(reported).toEqual([failure]);
    });
  });

  describe('errors', () => {
    test('a source that throws ends the stream with a generic error event, reported to onError', async () => {
      const secret = new Error('database password is hunter2');
      async function* failing(): AsyncGenerator<SseMessage> {
        yield { data: 'ok' };
        throw secret;
      }
      const text = await readAll(sseStream(failing(), quiet));
      expect(text).toBe(`${OPENING}data: ok\n\n${GENERIC_ERROR}`);
      expect(text).not.toContain('hunter2');
      expect(reported).toEqual([secret]);
    });

    test('a sync iterator whose next() throws ends the stream the same way', async () => {
      const source = {
        [Symbol.iterator]: (): Iterator<SseMessage> => ({
          next: () => {
            throw new TypeError('boom');
          },
        }),
      };
      expect(await readAll(sseStream(source, quiet))).toBe(`${OPENING}${GENERIC_ERROR}`);
      expect(reported).toHaveLength(1);
    });

    test('a 4xx HttpError keeps its public problem document', async () => {
      async function* denied(): AsyncGenerator<SseMessage> {
        yield* [];
        throw new ForbiddenError('The subscription was revoked');
      }
      const text = await readAll(sseStream(denied(), quiet));
      const data = text.split('\n').find((line) => line.startsWith('data: '));
      expect(text).toContain('event: error\n');
      expect(JSON.parse(data?.slice(6) ?? '')).toEqual({
        type: 'https://charter.dev/errors/forbidden',
        title: 'Forbidden',
        status: 403,
        detail: 'The subscription was revoked',
      });
    });

    test("a malformed message ends the stream with the error event and runs the source's finally", async () => {
      let cleaned = false;
      async function* bad(): AsyncGenerator<SseMessage> {
        try {
          yield { data: 'fine' };
          yield { retry: -5 };
          yield { data: 'never sent' };
        } finally {
          cleaned = true;
        }
      }
      const text = await readAll(sseStream(bad(), quiet));
      expect(text).toBe(`${OPENING}data: fine\n\n${GENERIC_ERROR}`);
      await sleep(1);
      expect(cleaned).toBe(true);
      expect(reported[0]).toBeInstanceOf(RangeError);
    });

    test('data JSON cannot encode ends the stream the same way', async () => {
      const text = await readAll(sseStream([{ data: 10n }], quiet));
      expect(text).toBe(`${OPENING}${GENERIC_ERROR}`);
      expect(reported[0]).toBeInstanceOf(TypeError);
    });

    test('an onError that throws does not break the stream', async () => {
      async function* failing(): AsyncGenerator<SseMessage> {
        yield* [];
        throw new Error('x');
      }
      const onError = (): void => {
        throw new Error('logger down');
      };
      expect(await readAll(sseStream(failing(), { keepAliveMs: 0, onError }))).toBe(
        `${OPENING}${GENERIC_ERROR}`,
      );
    });

    test('reports to console.error when no onError is given', async () => {
      const original = console.error;
      const logged: unknown[][] = [];
      console.error = (...args: unknown[]) => void logged.push(args);
      try {
        const failure = new Error('boom');
        async function* failing(): AsyncGenerator<SseMessage> {
          yield* [];
          throw failure;
        }
        await readAll(sseStream(failing(), { keepAliveMs: 0 }));
        expect(logged).toHaveLength(1);
        expect(logged[0]?.at(-1)).toBe(failure);
      } finally {
        console.error = original;
      }
    });
  });
});

describe('resolveSseStreamOptions', () => {
  test('fills the defaults and freezes', () => {
    const resolved = resolveSseStreamOptions({});
    expect(resolved.keepAliveMs).toBe(15_000);
    expect(resolved.signal).toBeUndefined();
    expect(typeof resolved.onError).toBe('function');
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  test('keeps the options it is given', () => {
    const signal = new AbortController().signal;
    const onError = (): void => {};
    expect(resolveSseStreamOptions({ signal, keepAliveMs: 0, onError })).toEqual({
      signal,
      keepAliveMs: 0,
      onError,
    });
    expect(resolveSseStreamOptions({ keepAliveMs: 2_147_483_647 }).keepAliveMs).toBe(2_147_483_647);
  });

  test('refuses a keepAliveMs that is negative, fractional, too large or not a number', () => {
    for (const keepAliveMs of [-1, 0.5, 2_147_483_648, Number.NaN]) {
      expect(() => resolveSseStreamOptions({ keepAliveMs })).toThrow(RangeError);
    }
    expect(() => resolveSseStreamOptions({ keepAliveMs: '10' as unknown as number })).toThrow(
      /sseStream: keepAliveMs must be a number/,
    );
  });

  test('refuses a signal that is not an AbortSignal, an onError that is not a function, non-object options', () => {
    expect(() => resolveSseStreamOptions({ signal: {} as AbortSignal })).toThrow(
      /signal must be an AbortSignal/,
    );
    expect(() => resolveSseStreamOptions({ onError: 'log' as unknown as () => void })).toThrow(
      /onError must be/,
    );
    expect(() => resolveSseStreamOptions(null as unknown as SseStreamOptions)).toThrow(
      /options must be an object/,
    );
  });

  test('sseStream checks its options before anything else', () => {
    expect(() => sseStream([], { keepAliveMs: -1 })).toThrow(/sseStream: keepAliveMs/);
  });
});
