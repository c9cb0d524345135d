/**
 * Media types whose bodies are sequences a client reads as they arrive, often without end: Server-Sent
 * Events (WHATWG HTML §9.2), newline-delimited JSON (NDJSON, JSON Lines) and JSON text sequences (RFC 7464).
 * Middleware that must see a whole body before answering (ETag hashing) or that buffers output
 * (compression) leaves them alone, or it would hold every item back.
 */
const STREAMED_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'text/event-stream',
  'application/x-ndjson',
  'application/jsonl',
  'application/json-seq',
]);

/** Whether `mediaType` (lower case, no parameters) is a streamed sequence format. */
export function isStreamedMediaType(mediaType: string | undefined): boolean {
  return mediaType !== undefined && STREAMED_MEDIA_TYPES.has(mediaType);
}
