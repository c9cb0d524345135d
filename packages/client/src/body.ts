/**
 * Encodes a call's body. Web bodies (forms, blobs, buffers, streams) go as they are; a string goes
 * as text when the route accepts `text/plain`, else as a JSON string; anything else as JSON.
 */
import { admits } from './media-type.ts';

/** A request body ready for `new Request()`. */
export interface EncodedBody {
  readonly body: BodyInit | undefined;
  /** The Content-Type to set when the caller set none; undefined lets `Request` decide. */
  readonly contentType: string | undefined;
  /** A stream body needs `duplex: 'half'` in the Request init (Fetch §5.4). */
  readonly stream: boolean;
}

const NONE: EncodedBody = Object.freeze({ body: undefined, contentType: undefined, stream: false });
const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain;charset=UTF-8';

/** Bodies `fetch` sends as they are (Fetch §5.2 "extract a body"). */
export function isWebBody(value: unknown): value is BodyInit {
  return (
    value instanceof FormData ||
    value instanceof URLSearchParams ||
    value instanceof Blob ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    value instanceof ReadableStream
  );
}

export interface BodyContext {
  readonly operationId: string;
  readonly method: string;
  /** The media types the route accepts for its body (its `contentTypes`, else the App's). */
  readonly accepted: readonly string[];
  /** The caller set Content-Type (options or call headers): a string is sent as it is, under it. */
  readonly callerContentType: boolean;
}

export function encodeBody(value: unknown, context: BodyContext): EncodedBody {
  if (value === undefined) return NONE;
  const { operationId, method } = context;
  // Fetch §5.4 step 34: a GET or HEAD request cannot have a body.
  if (method === 'GET' || method === 'HEAD') {
    throw new TypeError(`${operationId}: a ${method} request cannot carry a body`);
  }
  if (isWebBody(value)) {
    return { body: value, contentType: undefined, stream: value instanceof ReadableStream };
  }
  if (typeof value === 'string') {
    if (context.callerContentType) return { body: value, contentType: undefined, stream: false };
    if (admits(context.accepted, 'text/plain')) return { body: value, contentType: TEXT_TYPE, stream: false };
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${operationId}: the body cannot be encoded as JSON: ${(error as Error).message}`);
  }
  if (text === undefined) {
    throw new TypeError(`${operationId}: the body cannot be encoded as JSON (got a ${typeof value})`);
  }
  return { body: text, contentType: JSON_TYPE, stream: false };
}
