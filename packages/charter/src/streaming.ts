/**
 * @module charter/streaming — Server-Sent Events and NDJSON response bodies from async iterables:
 * `sseStream`, `sseResponse`, `ndjsonStream`, `ndjsonResponse`. Re-exports `@charter/streaming`.
 */
export * from '@charter/streaming';
