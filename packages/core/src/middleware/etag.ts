/**
 * Entity tags (RFC 9110 §8.8.3) computed from the response body, and `If-None-Match`
 * (RFC 9110 §13.1.2) answered with 304 Not Modified (RFC 9110 §15.4.5).
 */
import { encodeBase64Url } from '../security/index.ts';
import type { AnyContext, Hooks } from '../types/index.ts';
import { contentLengthOf, mediaTypeOf, readBodyUpTo } from './compression.ts';
import { isStreamedMediaType } from './streamed-media.ts';

/** Options of `etag()`. */
export interface EtagOptions {
  /**
   * Send weak validators (`W/"..."`, RFC 9110 §8.8.1) instead of strong ones: use it when equal
   * bodies may differ in bytes that do not matter. Default false (strong).
   */
  weak?: boolean;
  /**
   * Largest body hashed, in bytes: the body is buffered to hash it, so a bigger one is sent without
   * an ETag. Default 1 MiB (1048576).
   */
  maxBytes?: number;
}

/** Etag options with defaults filled in. */
export interface ResolvedEtagOptions {
  readonly weak: boolean;
  readonly maxBytes: number;
}

/** Validates etag options (TypeError/RangeError naming the option) and fills defaults. */
export function resolveEtagOptions(options: EtagOptions = {}): ResolvedEtagOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('etag: options must be an object');
  const weak = options.weak ?? false;
  if (typeof weak !== 'boolean') throw new TypeError('etag: weak must be a boolean');
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  if (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`etag: maxBytes must be a non-negative integer, got ${String(maxBytes)}`);
  }
  return Object.freeze({ weak, maxBytes });
}

/**
 * The entity tag of a body: the first 128 bits of its SHA-256, base64url-encoded (characters
 * RFC 9110 §8.8.3 allows in an opaque tag), quoted, and `W/`-prefixed when `weak`.
 */
export async function entityTagOf(body: Uint8Array, weak = false): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
  const tag = `"${encodeBase64Url(digest.subarray(0, 16))}"`;
  return weak ? `W/${tag}` : tag;
}

/** The opaque-tags of an `If-None-Match` list (RFC 9110 §8.8.3), `W/` dropped; malformed members kept as written. */
function opaqueTags(header: string): string[] {
  const tags: string[] = [];
  let i = 0;
  const n = header.length;
  while (i < n) {
    const c = header[i];
    if (c === ' ' || c === '\t' || c === ',') {
      i++;
      continue;
    }
    if ((c === 'W' || c === 'w') && header[i + 1] === '/') i += 2;
    if (header[i] === '"') {
      const close = header.indexOf('"', i + 1);
      const end = close < 0 ? n : close + 1;
      tags.push(header.slice(i, end));
      i = end;
      continue;
    }
    const comma = header.indexOf(',', i);
    const end = comma < 0 ? n : comma;
    tags.push(header.slice(i, end).trim());
    i = end;
  }
  return tags;
}

function opaque(tag: string): string {
  const trimmed = tag.trim();
  return trimmed.startsWith('W/') || trimmed.startsWith('w/') ? trimmed.slice(2) : trimmed;
}

/**
 * Whether `If-None-Match` matches an entity tag: `*` matches any current representation, and list
 * members are compared with the weak comparison (RFC 9110 §13.1.2, §8.8.3.2).
 */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === '*') return true;
  const target = opaque(etag);
  for (const tag of opaqueTags(value)) if (tag === target) return true;
  return false;
}

// Representation metadata (RFC 9110 §8.3-8.6) a 304 must not describe (RFC 9110 §15.4.5); every
// other field stays, so CORS, cookies, request ids and security headers survive revalidation.
const NOT_ON_304: readonly string[] = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-range',
  'transfer-encoding',
];

function notModified(response: Response, etag: string): Response {
  const headers = new Headers(response.headers);
  for (const name of NOT_ON_304) headers.delete(name);
  headers.set('etag', etag);
  if (response.body !== null) void response.body.cancel().catch(() => {});
  return new Response(null, { status: 304, headers });
}

async function tagResponse(
  response: Response,
  ctx: AnyContext | undefined,
  resolved: ResolvedEtagOptions,
): Promise<Response | undefined> {
  // A GET route also answers HEAD. Other routes are left before their request (whose body the
  // pipeline may have consumed) is touched.
  const routeMethod = ctx?.route.method;
  if (ctx === undefined || response.status !== 200 || (routeMethod !== 'GET' && routeMethod !== 'HEAD')) {
    return undefined;
  }
  const request = ctx.request;
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  let out = response;
  let tag = response.headers.get('etag');
  if (tag === null) {
    // An event stream or NDJSON feed may never end: waiting for it to hash it would hold every item back.
    if (isStreamedMediaType(mediaTypeOf(response.headers.get('content-type')))) return undefined;
    const length = contentLengthOf(response.headers);
    if (length !== undefined && length > resolved.maxBytes) return undefined;
    let bytes = new Uint8Array(0);
    if (response.body !== null) {
      const prefix = await readBodyUpTo(response.body, resolved.maxBytes);
      const init = { status: response.status, statusText: response.statusText, headers: response.headers };
      if (!prefix.complete) return new Response(prefix.stream, init);
      bytes = prefix.bytes as Uint8Array<ArrayBuffer>;
    }
    tag = await entityTagOf(bytes, resolved.weak);
    const headers = new Headers(response.headers);
    headers.set('etag', tag);
    out = new Response(response.body === null ? null : bytes, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  }
  const condition = request.headers.get('if-none-match');
  if (condition !== null && ifNoneMatchMatches(condition, tag)) return notModified(out, tag);
  return out === response ? undefined : out;
}

/**
 * Adds an ETag to 200 responses of GET and HEAD (a SHA-256 of the body, or the handler's own ETag
 * kept as it is) and answers a matching `If-None-Match` with 304 and no body. Register it before
 * `compression()`, so the tag names the identity body and compression weakens it.
 *
 * @example app.use(etag());
 */
export function etag(options?: EtagOptions): Hooks {
  const resolved = resolveEtagOptions(options);
  return {
    onSend: (response, ctx) => tagResponse(response, ctx, resolved),
  };
}
