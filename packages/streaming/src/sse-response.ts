// `sseResponse`: an event stream as a Response a Charter handler (or any fetch handler) can return.
import type { HeadersInit } from '@charter/core';
import { resolveStreamStatus, streamHeaders } from './response-init.ts';
import type { SseMessage } from './sse-message.ts';
import { resolveSseStreamOptions, type SseStreamOptions, sseStream } from './sse-stream.ts';
import type { StreamingSource } from './pull-stream.ts';

/** The media type of an event stream (WHATWG HTML §9.2.5: always UTF-8). */
export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/**
 * The headers every event stream starts with:
 * - `cache-control: no-cache`: a cache must not answer a reconnection with a stored copy of the
 *   stream (RFC 9111 §5.2.2.4);
 * - `x-accel-buffering: no`: nginx (and proxies that follow it) otherwise buffer a proxied response
 *   until a buffer fills, holding events back for seconds.
 * No `content-length`: the length is unknown, so HTTP/1.1 uses chunked coding.
 */
const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': SSE_CONTENT_TYPE,
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/** Options of `sseResponse`: those of `sseStream`, plus the status and headers. */
export interface SseResponseOptions extends SseStreamOptions {
  /** Default 200 (what `EventSource` requires to open); an integer 200-599 other than 204, 205, 304. */
  status?: number;
  /**
   * Added to (and overriding) the defaults. Refused: `content-length`, `content-encoding`,
   * `transfer-encoding`, and a `content-type` other than `text/event-stream` (parameters aside).
   * Default none.
   */
  headers?: HeadersInit;
}

/**
 * A streamed `text/event-stream` Response of `source` (see `sseStream`), with `cache-control: no-cache`
 * and `x-accel-buffering: no`. Throws a TypeError or RangeError naming a bad option.
 *
 * @example handler: (ctx) => sseResponse(ticks(), { signal: ctx.request.signal })
 */
export function sseResponse(source: StreamingSource<SseMessage>, options: SseResponseOptions = {}): Response {
  resolveSseStreamOptions(options, 'sseResponse');
  const status = resolveStreamStatus(options.status, 'sseResponse');
  const headers = streamHeaders(SSE_HEADERS, options.headers, 'sseResponse', ['text/event-stream']);
  const { signal, keepAliveMs, onError } = options;
  return new Response(sseStream(source, { signal, keepAliveMs, onError }), { status, headers });
}
