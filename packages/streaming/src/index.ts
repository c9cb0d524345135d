/**
 * @module charter/streaming
 * Streamed response bodies from iterables: Server-Sent Events (`sseStream`, `sseResponse`; WHATWG HTML
 * §9.2) and newline-delimited JSON (`ndjsonStream`, `ndjsonResponse`). Pull-based (one item per read),
 * cancellable (the source's `return()` runs), with an in-band error at the end when the source fails.
 */
export {
  NDJSON_CONTENT_TYPE,
  type NdjsonResponseOptions,
  type NdjsonStreamOptions,
  ndjsonResponse,
  ndjsonStream,
  type ResolvedNdjsonStreamOptions,
  resolveNdjsonStreamOptions,
} from './ndjson.ts';
export type { StreamingSource } from './pull-stream.ts';
export { encodeSseMessage, type SseMessage } from './sse-message.ts';
export { SSE_CONTENT_TYPE, type SseResponseOptions, sseResponse } from './sse-response.ts';
export {
  DEFAULT_SSE_KEEP_ALIVE_MS,
  type ResolvedSseStreamOptions,
  resolveSseStreamOptions,
  type SseStreamOptions,
  sseStream,
} from './sse-stream.ts';
export { type StreamingErrorHandler, streamingFailureProblem } from './stream-failure.ts';
