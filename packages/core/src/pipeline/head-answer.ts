/**
 * HEAD's answer: the GET answer's status and header fields, without its content (RFC 9110 §9.3.2).
 *
 * Its Content-Length, if any, MUST be the length the GET content would have had (RFC 9110 §8.6).
 * Runtimes that serve a Response (Bun, Deno) write `Content-Length: 0` for a null body unless told
 * otherwise, so dropping the content is not enough: the answer states the length of text the
 * pipeline serialised (recorded for HEAD, response-payload.ts). A body whose length is not known
 * without reading it (a stream a handler returned) is replaced by an empty stream instead, which
 * runtimes send with no length at all, as they would its GET.
 */
import { responsePayload } from './response-payload.ts';

const encoder = new TextEncoder();

export function withoutContent(response: Response): Response {
  // Read before the body is touched: the record is only given out for an unread body.
  const payload = responsePayload(response);
  const statedLength = response.headers.get('content-length');
  // The body is never sent: cancel it so a streaming source can release what it holds.
  void response.body?.cancel().catch(() => {});
  const known = statedLength !== null || payload !== undefined;
  const head = new Response(known ? null : emptyStream(), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  if (statedLength === null && payload !== undefined) {
    head.headers.set('content-length', String(encoder.encode(payload).byteLength));
  }
  return head;
}

/**
 * A stream that ends when first read: one already closed when handed over is sent by Bun as a known
 * empty body (`Content-Length: 0`), the very claim this avoids; nothing is pulled before a read.
 */
function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ pull: (controller) => controller.close() }, { highWaterMark: 0 });
}
