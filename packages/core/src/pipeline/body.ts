import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors/index.ts';
import { parseContentLength, readFramedBody, readStreamLimited, tooLarge } from '../security/body-limit.ts';
import { safeJsonParse } from '../security/safe-json.ts';
import type { MultipartLimits } from '../app/options.ts';
import { takeReceivedBody } from './light-request.ts';
import { addPair } from './request-parts.ts';

// The last Content-Type value read and its media type: a server's clients send the same few values,
// so nearly every request costs one string comparison instead of a slice, a trim and a lower-casing.
let lastContentType: string | null = null;
let lastMediaType: string | undefined;

/** The media type of a Content-Type value: lower case, parameters dropped (RFC 9110 §8.3.1). */
export function mediaType(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  if (contentType === lastContentType) return lastMediaType;
  const semi = contentType.indexOf(';');
  const essence = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  const type = essence.length === 0 ? undefined : essence;
  lastContentType = contentType;
  lastMediaType = type;
  return type;
}

/** Whether a media type is in an allowlist; entries may be `type/*` or `*\/*`. */
export function isAllowedMediaType(type: string, allowed: readonly string[]): boolean {
  for (const entry of allowed) {
    if (entry === type || entry === '*/*') return true;
    if (entry.endsWith('/*') && type.startsWith(entry.slice(0, -1))) return true;
  }
  return false;
}

export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

const decoder = new TextDecoder('utf-8');
const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * The body as text; bytes that are not UTF-8 are a 400. The lenient decoder (the runtimes' faster
 * path) replaces every invalid sequence with U+FFFD (WHATWG Encoding §4.1, error mode
 * "replacement"), so text without U+FFFD came from valid UTF-8; only text with one (invalid input,
 * or a real U+FFFD) is decoded again, strictly, for the verdict.
 */
function decodeText(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  if (!text.includes(REPLACEMENT_CHARACTER)) return text;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new BadRequestError('The request body is not valid UTF-8');
  }
}

function formToObject(entries: Iterable<[string, FormDataEntryValue]>): Record<string, unknown> {
  const out: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const [key, value] of entries) addPair(out, key, value);
  return out;
}

export interface BodyReadOptions {
  limit: number;
  allowed: readonly string[];
  multipart: Required<MultipartLimits>;
}

/**
 * Step 4's body read: checks the media type (415), reads within the limit (413) and parses JSON,
 * forms and text. An empty body gives `undefined`, and the schema decides whether that is valid.
 * The checks run synchronously; only the read itself is awaited. `next` receives the parsed body
 * in the same step as the read (one promise per body, not one per stage: the hot path of every
 * route with a body); its result is returned, or resolved, in turn.
 */
export function readAndParseBody<T = unknown>(
  request: Request,
  options: BodyReadOptions,
  next: (parsed: unknown) => T | Promise<T> = identity as (parsed: unknown) => T,
): T | Promise<T> {
  const headers = request.headers;
  const length = parseContentLength(headers.get('content-length'));
  // RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding has no content. Only
  // then is the stream consulted (in-process Requests can carry a body without either header);
  // reading `request.body` builds a stream object, which the common path avoids.
  if (length === 0) return next(undefined);
  if (length === undefined && !headers.has('transfer-encoding') && request.body === null)
    return next(undefined);
  const type = mediaType(headers.get('content-type'));
  if (type === undefined) {
    throw new UnsupportedMediaTypeError(
      `A request body needs a Content-Type; accepted: ${options.allowed.join(', ')}`,
    );
  }
  if (!isAllowedMediaType(type, options.allowed)) {
    throw new UnsupportedMediaTypeError(
      `Content-Type "${type}" is not accepted here; accepted: ${options.allowed.join(', ')}`,
    );
  }
  const parseThenNext = (bytes: Uint8Array): T | Promise<T> => {
    const parsed = parseBody(request, type, bytes, options);
    return parsed instanceof Promise ? parsed.then(next) : next(parsed);
  };
  if (length !== undefined) {
    if (length > options.limit) throw tooLarge(options.limit);
    // Content an adapter already holds (light-request.ts): parsed now, with no read to wait for.
    const received = takeReceivedBody(request);
    if (received !== undefined) return parseThenNext(received);
    return readFramedBody(request, parseThenNext);
  }
  const body = request.body;
  if (body === null) return next(undefined);
  return readStreamLimited(body, options.limit).then(parseThenNext);
}

function identity<T>(value: T): T {
  return value;
}

/** Parses the bytes of a body by its media type (already checked against the allowlist). */
function parseBody(
  request: Request,
  type: string,
  bytes: Uint8Array,
  options: BodyReadOptions,
): unknown | Promise<unknown> {
  if (bytes.byteLength === 0) return undefined;
  if (isJsonMediaType(type)) return safeJsonParse(decodeText(bytes));
  if (type === 'application/x-www-form-urlencoded')
    return formToObject(new URLSearchParams(decodeText(bytes)));
  if (type === 'multipart/form-data') return parseMultipart(request, bytes, options.multipart);
  if (type.startsWith('text/')) return decodeText(bytes);
  return bytes;
}

async function parseMultipart(
  request: Request,
  bytes: Uint8Array,
  limits: Required<MultipartLimits>,
): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
    }).formData();
  } catch {
    throw new BadRequestError('The multipart body is malformed');
  }
  let fields = 0;
  let files = 0;
  for (const [, value] of form) {
    fields++;
    if (typeof value !== 'string') {
      files++;
      if (value.size > limits.maxFileBytes) {
        throw new PayloadTooLargeError(`A file exceeds the limit of ${limits.maxFileBytes} bytes`);
      }
    }
  }
  if (fields > limits.maxFields)
    throw new PayloadTooLargeError(`The form has more than ${limits.maxFields} fields`);
  if (files > limits.maxFiles)
    throw new PayloadTooLargeError(`The form has more than ${limits.maxFiles} files`);
  return formToObject(form);
}
