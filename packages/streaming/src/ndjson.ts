// Newline-delimited JSON (NDJSON, also JSON Lines): one JSON text (RFC 8259) per line, each ended by LF.
// JSON.stringify escapes every control character inside strings (RFC 8259 §7), so a value never spans
// two lines.
import type { HeadersInit } from '@charter/core';
import { resolveStreamStatus, streamHeaders } from './response-init.ts';
import { pullStream, type StreamingSource } from './pull-stream.ts';
import {
  resolveErrorHandler,
  type StreamingErrorHandler,
  streamingFailureProblem,
} from './stream-failure.ts';
import { resolveSignal } from './sse-stream.ts';

/** The media type of an NDJSON body. */
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';

// The names newline-delimited JSON goes by that compression() and etag() also know as streamed (so
// they never hold the lines back); a content-type header may pick either.
const NDJSON_MEDIA_TYPES = [NDJSON_CONTENT_TYPE, 'application/jsonl'] as const;

/** Options of `ndjsonStream`. */
export interface NdjsonStreamOptions {
  /** Aborting it ends the stream (normally) and calls the source's `return()`; default none. */
  signal?: AbortSignal;
  /**
   * Receives what the source threw (or the value JSON could not encode) when the stream ends with its
   * error line; default `console.error`. Only a generic problem document reaches the client.
   */
  onError?: StreamingErrorHandler;
}

/** Options of `ndjsonResponse`: those of `ndjsonStream`, plus the status and headers. */
export interface NdjsonResponseOptions extends NdjsonStreamOptions {
  /** Default 200; an integer 200-599 other than 204, 205 and 304. */
  status?: number;
  /**
   * Added to (and overriding) the defaults. Refused: `content-length`, `content-encoding`,
   * `transfer-encoding`, and a `content-type` other than `application/x-ndjson` or
   * `application/jsonl` (parameters aside). Default none.
   */
  headers?: HeadersInit;
}

/** `NdjsonStreamOptions` with every default filled in. */
export interface ResolvedNdjsonStreamOptions {
  readonly signal: AbortSignal | undefined;
  readonly onError: StreamingErrorHandler;
}

/** Checks the options and fills the defaults; throws a TypeError naming a bad option. */
export function resolveNdjsonStreamOptions(
  options: NdjsonStreamOptions = {},
  where = 'ndjsonStream',
): ResolvedNdjsonStreamOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${where}: the options must be an object`);
  return Object.freeze({
    signal: resolveSignal(options.signal, where),
    onError: resolveErrorHandler(options.onError, where),
  });
}

/**
 * The headers every NDJSON response starts with. `x-accel-buffering: no` as for event streams: lines
 * are meant to reach the client as they are produced, not when a proxy's buffer fills.
 */
const NDJSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': NDJSON_CONTENT_TYPE,
  'x-accel-buffering': 'no',
});

const encoder = new TextEncoder();

/** One line: the value's JSON text and LF. Throws a TypeError for a value JSON cannot encode. */
export function ndjsonLine(value: unknown): Uint8Array {
  // Throws itself for a BigInt or a cycle; answers undefined for undefined, a function or a symbol.
  const text = JSON.stringify(value);
  if (text === undefined) {
    throw new TypeError(`ndjsonStream: an item cannot be serialised as JSON (got ${typeof value})`);
  }
  return encoder.encode(`${text}\n`);
}

/**
 * The last line of a stream whose source failed: `{"error":<problem document>}`, the generic 500
 * problem unless the source threw a 4xx `HttpError`.
 */
export function ndjsonFailureLine(error: unknown): Uint8Array {
  return encoder.encode(`${JSON.stringify({ error: streamingFailureProblem(error) })}\n`);
}

/**
 * Encodes each item as one line of JSON, one item per read (backpressure). Cancelling or aborting
 * `signal` calls the source's `return()`; a source that throws, or an item JSON cannot encode
 * (undefined, a function, a BigInt, a cycle), ends the stream with one `{"error":{...}}` line.
 *
 * @example new Response(ndjsonStream(rows()), { headers: { 'content-type': 'application/x-ndjson' } })
 */
export function ndjsonStream(
  source: StreamingSource<unknown>,
  options?: NdjsonStreamOptions,
): ReadableStream<Uint8Array> {
  const resolved = resolveNdjsonStreamOptions(options);
  return pullStream(source, {
    name: 'ndjsonStream',
    signal: resolved.signal,
    keepAliveMs: 0,
    encode: ndjsonLine,
    failure: ndjsonFailureLine,
    onError: resolved.onError,
  });
}

/**
 * A streamed `application/x-ndjson` Response of `source` (see `ndjsonStream`), with
 * `x-accel-buffering: no`. Throws a TypeError or
 * RangeError naming a bad option.
 *
 * @example handler: (ctx) => ndjsonResponse(rows(), { signal: ctx.request.signal })
 */
export function ndjsonResponse(
  source: StreamingSource<unknown>,
  options: NdjsonResponseOptions = {},
): Response {
  resolveNdjsonStreamOptions(options, 'ndjsonResponse');
  const status = resolveStreamStatus(options.status, 'ndjsonResponse');
  const headers = streamHeaders(NDJSON_HEADERS, options.headers, 'ndjsonResponse', NDJSON_MEDIA_TYPES);
  const { signal, onError } = options;
  return new Response(ndjsonStream(source, { signal, onError }), { status, headers });
}
