/**
 * A side channel from the pipeline to runtime adapters: the text a Response was built from, when the
 * pipeline built it from a string (a serialised JSON body, a text body). An adapter that writes to a
 * socket itself (charter/node) sends that text as it is instead of reading it back through the
 * Response's body stream, which costs a stream reader, a promise per chunk and an encoded copy.
 *
 * The record is only a shortcut to what the body holds, never a second source of truth: it is given
 * out only while the body is untouched (not read, not locked by a reader or a tee). A hook that
 * builds another Response (onSend, compression, ETag) makes a Response without a record, which takes
 * the adapter's general path; headers and status are always read from the Response itself.
 */

import { PlannedResponse } from './planned-response.ts';

const payloads = new WeakMap<Response, string>();

/** Records that `response` was built with `payload` as its whole body; returns the response. */
export function recordPayload(response: Response, payload: string): Response {
  payloads.set(response, payload);
  return response;
}

/**
 * The text `response` was built from, when the pipeline recorded one and its body is still unused:
 * sending it is then the same as sending the body. Undefined otherwise (read the body instead).
 */
export function responsePayload(response: Response): string | undefined {
  const candidate: unknown = response;
  if (candidate instanceof PlannedResponse) return candidate.untouchedPayload();
  const payload = payloads.get(response);
  if (payload === undefined || response.bodyUsed) return undefined;
  const body = response.body;
  return body === null || body.locked ? undefined : payload;
}
