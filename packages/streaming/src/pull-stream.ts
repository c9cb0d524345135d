// The pull-based pump under `sseStream` and `ndjsonStream`: a ReadableStream (WHATWG Streams) that takes
// one item from the source each time its consumer asks for a chunk, and never before.
import type { StreamingErrorHandler } from './stream-failure.ts';

/** A source of items: an async iterable (an async generator, a ReadableStream) or a sync iterable. */
export type StreamingSource<T> = AsyncIterable<T> | Iterable<T>;

/** How the pump turns items into bytes and what it does around them. */
export interface PullStreamOptions<T> {
  /** Where the messages of TypeErrors name the caller (`sseStream`, `ndjsonStream`). */
  readonly name: string;
  readonly signal: AbortSignal | undefined;
  /** Milliseconds of idleness before `keepAlive` is sent (and again after each); 0 turns it off. */
  readonly keepAliveMs: number;
  readonly keepAlive?: Uint8Array;
  /** Sent at once, before the source is asked for anything (so the response's headers go out). */
  readonly opening?: Uint8Array;
  /** The bytes of one item, or `undefined` for an item that sends nothing; throws for a bad item. */
  encode(item: T): Uint8Array | undefined;
  /** The last chunk sent after the source failed. */
  failure(error: unknown): Uint8Array;
  readonly onError: StreamingErrorHandler;
}

type AnyIterator<T> = AsyncIterator<T> | Iterator<T>;

/** The iterator of a source, or a TypeError. Strings are refused: iterating one yields characters. */
export function iteratorOf<T>(source: unknown, name: string): AnyIterator<T> {
  if (typeof source === 'object' && source !== null) {
    const asyncFactory = (source as Partial<AsyncIterable<T>>)[Symbol.asyncIterator];
    if (typeof asyncFactory === 'function') return asyncFactory.call(source);
    const syncFactory = (source as Partial<Iterable<T>>)[Symbol.iterator];
    if (typeof syncFactory === 'function') return syncFactory.call(source);
  }
  throw new TypeError(`${name}: the source must be an AsyncIterable or an Iterable (not a string)`);
}

const STOPPED: unique symbol = Symbol('stopped');

type Step<T> = IteratorResult<T> | typeof STOPPED;

/** Items that encode to nothing taken in a row before the pump lets the event loop turn. */
const EMPTY_ITEMS_PER_TURN = 64;

/** Resolves on a later turn of the event loop (a macrotask), after pending I/O callbacks. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A byte stream fed by `source`. The queue's high-water mark is 0, so `pull` runs only while a read is
 * waiting: a slow consumer holds the source at the item it is producing (backpressure). Cancelling the
 * stream or aborting `signal` calls the iterator's `return()` (so a generator's `finally` runs) and
 * clears the keep-alive timer; a source that throws ends the stream with `failure(error)`.
 */
export function pullStream<T>(
  source: StreamingSource<T>,
  options: PullStreamOptions<T>,
): ReadableStream<Uint8Array> {
  const iterator = iteratorOf<T>(source, options.name);
  const { signal, keepAliveMs, keepAlive, onError } = options;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Releases the pull waiting on the source when the stream stops. One per `next()`, not a race with a
  // long-lived "stopped" promise: each race would leave a reaction (holding its item) on that promise
  // until the stream ends, so a long stream would keep every item it ever sent.
  let wake: ((value: typeof STOPPED) => void) | undefined;
  const nextStep = (): Promise<Step<T>> =>
    new Promise<Step<T>>((resolve, reject) => {
      wake = resolve;
      Promise.resolve(iterator.next()).then(resolve, reject);
    }).finally(() => {
      wake = undefined;
    });

  const report = (error: unknown): void => {
    try {
      onError(error);
    } catch {
      // A failing error handler must not turn a reported failure into an unhandled one.
    }
  };

  /** Stops for good: the timer is cleared, and `return()` is called when the source did not finish itself. */
  const stop = (callReturn: boolean): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    timer = undefined;
    signal?.removeEventListener('abort', onAbort);
    wake?.(STOPPED);
    if (!callReturn || typeof iterator.return !== 'function') return;
    try {
      // Not awaited: an async generator suspended in an `await` runs `finally` only once that await
      // settles, and a consumer's `cancel()` must not hang on a producer that never wakes up.
      const returned = iterator.return();
      if (returned instanceof Promise) returned.catch(report);
    } catch (error) {
      report(error);
    }
  };

  function onAbort(): void {
    if (stopped) return;
    stop(true);
    // Chunks already queued are still delivered; then the stream ends normally.
    controller.close();
  }

  const fail = (error: unknown, callReturn: boolean): void => {
    report(error);
    stop(callReturn);
    controller.enqueue(options.failure(error));
    controller.close();
  };

  const arm = (): void => {
    if (keepAliveMs === 0 || keepAlive === undefined) return;
    timer = setTimeout(function tick(): void {
      if (stopped) return;
      // Only into an empty queue: a consumer that is not reading gets one keep-alive, not a pile.
      if ((controller.desiredSize ?? -1) >= 0) controller.enqueue(keepAlive);
      timer = setTimeout(tick, keepAliveMs);
    }, keepAliveMs);
  };

  const disarm = (): void => {
    clearTimeout(timer);
    timer = undefined;
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        if (signal?.aborted === true) {
          onAbort();
          return;
        }
        signal?.addEventListener('abort', onAbort, { once: true });
        if (options.opening !== undefined) c.enqueue(options.opening);
      },
      async pull() {
        // An item that encodes to nothing must not leave the waiting read unanswered: take the next one.
        let skipped = 0;
        while (!stopped) {
          // A source that keeps yielding such items without ever awaiting anything would hold this loop
          // in microtasks forever, and no I/O (a cancel, other requests) would run: every so often,
          // let the event loop turn.
          if (skipped > 0 && skipped % EMPTY_ITEMS_PER_TURN === 0) await nextTurn();
          arm();
          let result: Step<T>;
          try {
            result = await nextStep();
          } catch (error) {
            // The source threw: it has finished (a generator is closed by its own exception).
            if (!stopped) fail(error, false);
            return;
          } finally {
            disarm();
          }
          if (result === STOPPED || stopped) return;
          if (result.done === true) {
            stop(false);
            controller.close();
            return;
          }
          let chunk: Uint8Array | undefined;
          try {
            chunk = options.encode(result.value);
          } catch (error) {
            // The source is fine but its item is not: like an exception in a `for await` body, `return()`.
            fail(error, true);
            return;
          }
          if (chunk !== undefined) {
            controller.enqueue(chunk);
            return;
          }
          skipped++;
        }
      },
      cancel() {
        stop(true);
      },
    },
    { highWaterMark: 0 },
  );
}
