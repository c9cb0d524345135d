import { BadRequestError, isHttpError, PayloadTooLargeError } from '../errors/index.ts';

/**
 * A body read that failed below the app (invalid chunked framing, a connection cut mid-body) is
 * the client's failure, not the server's: a 400, not an unexpected 500 in the error log.
 */
function unreadable(error: unknown): Error {
  if (isHttpError(error)) return error;
  return new BadRequestError({
    detail: 'The request body could not be read: its framing is invalid or the connection failed',
    cause: error,
  });
}

/**
 * A Content-Length value as a number; undefined when absent or not a valid length. RFC 9110 §8.6
 * allows `1*DIGIT` only: `Number()` alone would also read `0x10`, `1e3`, `+5` and `""`.
 */
export function parseContentLength(header: string | null): number | undefined {
  if (header === null || header === '') return undefined;
  for (let i = 0; i < header.length; i++) {
    const c = header.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  const n = Number(header);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function declaredLength(request: Request): number | undefined {
  return parseContentLength(request.headers.get('content-length'));
}

export function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body exceeds the limit of ${limit} bytes`);
}

/** A stream that passes bytes through until `limit` is exceeded, then errors with a 413. */
function limitStream(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          controller.error(unreadable(error));
          return;
        }
        const { done, value } = chunk;
        if (done) {
          controller.close();
          return;
        }
        seen += value.byteLength;
        if (seen > limit) {
          const error = tooLarge(limit);
          controller.error(error);
          void reader.cancel(error).catch(() => {});
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    // No read-ahead: a default stream pulls one chunk as soon as it exists, so merely touching
    // `ctx.request` in a pre-body hook would start reading an upload the hook is about to refuse.
    { highWaterMark: 0 },
  );
}

/**
 * The request handed to user code: same method, URL and headers; a body held to `limit`; and a
 * signal that aborts on timeout as well as on client disconnect.
 */
export function limitedRequest(request: Request, limit: number, signal: AbortSignal): Request {
  const combined = AbortSignal.any([request.signal, signal]);
  if (request.body === null) return new Request(request, { signal: combined });
  if (request.bodyUsed || request.body.locked) {
    // The pipeline already read the body (the route declares one): hooks that look at the
    // request afterwards see its method, URL and headers; the parsed body is `ctx.body`.
    return new Request(request.url, { method: request.method, headers: request.headers, signal: combined });
  }
  const length = declaredLength(request);
  let body: ReadableStream<Uint8Array>;
  if (length !== undefined && length > limit) {
    // Refuse before reading a byte: the declared length is already too much.
    const error = tooLarge(limit);
    body = new ReadableStream({ start: (controller) => controller.error(error) });
    void request.body.cancel(error).catch(() => {});
  } else {
    body = limitStream(request.body, limit);
  }
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: combined,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Reads a body the runtime frames by Content-Length (it cannot run past the declared size), then
 * hands the bytes to `then` in the same step (one promise, not one per stage: this is every body
 * route's hot path). `bytes()` skips the ArrayBuffer-to-view step; runtimes without it (Node 20)
 * use `arrayBuffer()`.
 */
export function readFramedBody<T = Uint8Array>(
  request: Request,
  then?: (bytes: Uint8Array) => T | PromiseLike<T>,
): Promise<T> {
  const read =
    typeof request.bytes === 'function'
      ? request.bytes()
      : request.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  return read.then((then ?? identity) as (bytes: Uint8Array) => T | PromiseLike<T>, failedRead);
}

function identity<T>(value: T): T {
  return value;
}

function failedRead(error: unknown): never {
  throw unreadable(error);
}

/** Reads a whole body, refusing (413) past `limit` bytes without buffering more than that. */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  const length = declaredLength(request);
  if (length !== undefined && length > limit) throw tooLarge(limit);
  if (request.body === null) return new Uint8Array(0);
  if (length !== undefined) {
    // A runtime stops at the declared length of a request off the network; a Request built in
    // process may carry more than its header says, so the count is checked after the read too.
    const bytes = await readFramedBody(request);
    if (bytes.byteLength > limit) throw tooLarge(limit);
    return bytes;
  }
  return readStreamLimited(request.body, limit);
}

/** Reads a stream to the end, refusing (413) as soon as it passes `limit` bytes. */
export async function readStreamLimited(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw unreadable(error);
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      const error = tooLarge(limit);
      void reader.cancel(error).catch(() => {});
      throw error;
    }
    chunks.push(value);
  }
  return concatBytes(chunks, total);
}

/** The chunks as one array of `size` bytes (their total); a single chunk is returned as it is. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
