// `sseStream`: an async iterable of messages as a text/event-stream body (WHATWG HTML §9.2 "Server-sent
// events"), pulled at the consumer's pace, with keep-alive comments and an in-band error event.
import { encodeSseMessage, type SseMessage } from './sse-message.ts';
import { pullStream, type StreamingSource } from './pull-stream.ts';
import {
  resolveErrorHandler,
  type StreamingErrorHandler,
  streamingFailureProblem,
} from './stream-failure.ts';

/** The default idle time before a keep-alive comment: below the 30 to 60 s idle cut-offs of common proxies. */
export const DEFAULT_SSE_KEEP_ALIVE_MS = 15_000;

// setTimeout's largest delay (a signed 32-bit count of milliseconds); longer ones fire at once.
const MAX_TIMER_MS = 2_147_483_647;

/** Options of `sseStream`. */
export interface SseStreamOptions {
  /** Aborting it ends the stream (normally) and calls the source's `return()`; default none. */
  signal?: AbortSignal;
  /**
   * Milliseconds without anything sent after which a `: keep-alive` comment is sent, and again after
   * each such interval while the source stays idle; `0` turns keep-alives off. Default 15000.
   */
  keepAliveMs?: number;
  /**
   * Receives what the source threw (or the message it could not encode) when the stream ends with the
   * error event; default `console.error`. Only a generic problem document reaches the client.
   */
  onError?: StreamingErrorHandler;
}

/** `SseStreamOptions` with every default filled in. */
export interface ResolvedSseStreamOptions {
  readonly signal: AbortSignal | undefined;
  readonly keepAliveMs: number;
  readonly onError: StreamingErrorHandler;
}

/** Checks an optional AbortSignal option. */
export function resolveSignal(value: unknown, where: string): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new TypeError(`${where}: signal must be an AbortSignal`);
}

/**
 * Checks the options and fills the defaults. Throws a TypeError (wrong type) or RangeError (a
 * `keepAliveMs` that is not an integer from 0 to 2147483647) naming the option.
 */
export function resolveSseStreamOptions(
  options: SseStreamOptions = {},
  where = 'sseStream',
): ResolvedSseStreamOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${where}: the options must be an object`);
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_SSE_KEEP_ALIVE_MS;
  if (typeof keepAliveMs !== 'number') throw new TypeError(`${where}: keepAliveMs must be a number`);
  if (!Number.isInteger(keepAliveMs) || keepAliveMs < 0 || keepAliveMs > MAX_TIMER_MS) {
    throw new RangeError(
      `${where}: keepAliveMs must be an integer from 0 (off) to ${MAX_TIMER_MS}, got ${String(keepAliveMs)}`,
    );
  }
  return Object.freeze({
    signal: resolveSignal(options.signal, where),
    keepAliveMs,
    onError: resolveErrorHandler(options.onError, where),
  });
}

const encoder = new TextEncoder();
// A comment line followed by a blank line: ignored by every parser (§9.2.6), but bytes on the wire, so
// proxies and load balancers do not close the connection as idle.
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

// Sent before the first message. Bun.serve and the Node adapter both hold the status line and headers
// until the body's first chunk, so without it `fetch` and `EventSource` (its `open` event) would wait for
// the first message however late it comes. A comment: ignored by every parser (§9.2.6).
const OPENING = encoder.encode(':\n\n');

/** The bytes of one message (undefined for a message with no field, which sends nothing). */
export function sseChunk(message: SseMessage): Uint8Array | undefined {
  const text = encodeSseMessage(message);
  return text === '' ? undefined : encoder.encode(text);
}

/**
 * The last event of a stream whose source failed: `event: error` with the problem document as JSON
 * `data` (the generic 500 problem unless the source threw a 4xx `HttpError`).
 */
export function sseFailureChunk(error: unknown): Uint8Array {
  return encoder.encode(encodeSseMessage({ event: 'error', data: streamingFailureProblem(error) }));
}

/**
 * Encodes messages as a `text/event-stream` body: an opening `:` comment (so the response's headers are
 * sent at once), then one message per read, keep-alive comments while the
 * source is idle, the source's `return()` called when the consumer cancels or `signal` aborts, and an
 * `event: error` message (then the end) when the source throws.
 *
 * @example new Response(sseStream(ticks()), { headers: { 'content-type': 'text/event-stream' } })
 */
export function sseStream(
  source: StreamingSource<SseMessage>,
  options?: SseStreamOptions,
): ReadableStream<Uint8Array> {
  const resolved = resolveSseStreamOptions(options);
  return pullStream(source, {
    name: 'sseStream',
    signal: resolved.signal,
    keepAliveMs: resolved.keepAliveMs,
    keepAlive: KEEP_ALIVE,
    opening: OPENING,
    encode: sseChunk,
    failure: sseFailureChunk,
    onError: resolved.onError,
  });
}
