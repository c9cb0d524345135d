/**
 * Web `Response` to Node `ServerResponse`: status, reason phrase, every header (each Set-Cookie on its
 * own line), and the body streamed chunk by chunk, waiting for 'drain' whenever the socket is full.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';

/** What the writer reports back: whether the body was cut short because the response was closed. */
export type WriteOutcome = 'finished' | 'closed';

/**
 * A body reader the adapter can cancel from outside (client disconnect) while the writer awaits it.
 * Cancelling resolves the pending read with `done`, and runs the source stream's `cancel`.
 */
export interface BodyHandle {
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
}

/** RFC 9110 §6.4.1: 1xx, 204 and 304 responses never carry content; HEAD answers never do (§9.3.2). */
export function allowsBody(method: string | undefined, status: number): boolean {
  return method !== 'HEAD' && status >= 200 && status !== 204 && status !== 304;
}

/** Copies status and headers. Set-Cookie is set as an array so each cookie is its own field line (RFC 6265 §3). */
export function writeHead(res: ServerResponse, response: Response): void {
  res.statusCode = response.status;
  res.statusMessage =
    response.statusText !== '' ? response.statusText : (STATUS_CODES[response.status] ?? '');
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

/** Resolves once the socket can take more ('drain') or is gone ('close'). */
function writable(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

const nextTurn = (): Promise<undefined> => new Promise((resolve) => setImmediate(resolve, undefined));

/**
 * Writes the response. A body that completes at once (a JSON document, a string) is sent with
 * `res.end(bytes)` so Node frames it with Content-Length; a body still producing after one event-loop
 * turn is streamed (chunked, RFC 9112 §7.1) from its first chunk, so server-sent events are not delayed.
 * Rejects when reading the body fails; the caller decides between a 500 and destroying the socket.
 */
export async function writeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  handle: BodyHandle,
  closeConnection = false,
): Promise<WriteOutcome> {
  writeHead(res, response);
  // RFC 9112 §9.6: a server that is shutting down says so with `Connection: close`; and answering before
  // the request body was fully read (a refused upload), it closes the connection after the response
  // rather than read and discard an unbounded remainder.
  if (closeConnection || !req.complete) res.setHeader('connection', 'close');
  const body = response.body;
  if (body === null || !allowsBody(req.method, response.status)) {
    if (body !== null) await body.cancel().catch(() => {});
    res.end();
    return 'finished';
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  handle.reader = reader;
  let complete = false;
  try {
    const first = await reader.read();
    if (first.done || res.destroyed) {
      complete = first.done;
      return end(res);
    }
    const secondRead = reader.read();
    // Settled later or never: a rejection is seen where it is awaited, not reported as unhandled.
    secondRead.catch(() => {});
    let pending: Promise<ReadResult> | undefined = secondRead;
    const second = await Promise.race([secondRead, nextTurn()]);
    if (res.destroyed) return 'closed';
    if (second?.done === true) {
      complete = true;
      return end(res, first.value);
    }
    let chunk = first.value;
    if (second !== undefined) {
      res.write(chunk);
      chunk = second.value;
      pending = undefined;
    }
    for (;;) {
      if (res.destroyed) return 'closed';
      // Backpressure: write() returning false means the socket buffer is full; wait for 'drain'.
      if (!res.write(chunk)) {
        await writable(res);
        if (res.destroyed) return 'closed';
      }
      const next: ReadResult = await (pending ?? reader.read());
      pending = undefined;
      if (next.done) {
        complete = true;
        return end(res);
      }
      chunk = next.value;
    }
  } finally {
    handle.reader = undefined;
    // Stopped early (client gone, or the source failed): cancel so the source's `cancel` runs and frees
    // whatever it holds (timers, file handles, upstream requests).
    if (!complete) await reader.cancel().catch(() => {});
  }
}

function end(res: ServerResponse, last?: Uint8Array): WriteOutcome {
  if (res.destroyed) return 'closed';
  if (last === undefined) res.end();
  else res.end(last);
  return 'finished';
}
