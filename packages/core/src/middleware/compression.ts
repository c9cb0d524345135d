/**
 * Response compression: content codings (RFC 9110 §8.4.1) produced with the runtime's
 * `CompressionStream`, chosen by `Accept-Encoding` negotiation (RFC 9110 §12.5.3).
 */
import { concatBytes, parseContentLength } from '../security/body-limit.ts';
import type { AnyContext, Hooks } from '../types/index.ts';
import { appendVary, mergeVary } from '../pipeline/response-headers.ts';
import { isStreamedMediaType } from './streamed-media.ts';

/** A content coding this helper can produce, by its HTTP name (IANA content coding registry). */
export type ContentCoding = 'zstd' | 'br' | 'gzip' | 'deflate';

const CODINGS: readonly ContentCoding[] = ['zstd', 'br', 'gzip', 'deflate'];

// The `CompressionStream` format names tried for each coding: Bun calls brotli `brotli`. HTTP
// `deflate` is the zlib format (RFC 9110 §8.4.1.2), which is the stream format `deflate`.
const STREAM_FORMATS: Readonly<Record<ContentCoding, readonly string[]>> = {
  zstd: ['zstd'],
  br: ['brotli', 'br'],
  gzip: ['gzip'],
  deflate: ['deflate'],
};

let formatCache: ReadonlyMap<ContentCoding, string> | undefined;

/** The stream format name for each coding the runtime can compress (probed once per process). */
function streamFormats(): ReadonlyMap<ContentCoding, string> {
  if (formatCache !== undefined) return formatCache;
  const found = new Map<ContentCoding, string>();
  if (typeof CompressionStream === 'function') {
    for (const coding of CODINGS) {
      for (const format of STREAM_FORMATS[coding]) {
        try {
          new CompressionStream(format as CompressionFormat);
          found.set(coding, format);
          break;
        } catch {
          // This runtime does not know the format: try the next name, or leave the coding out.
        }
      }
    }
  }
  formatCache = found;
  return found;
}

/** The content codings the runtime's `CompressionStream` can produce, e.g. `['zstd', 'br', 'gzip', 'deflate']`. */
export function supportedContentCodings(): ContentCoding[] {
  return CODINGS.filter((coding) => streamFormats().has(coding));
}

/** Options of `compression()`. */
export interface CompressionOptions {
  /**
   * Codings offered, in the server's order of preference (used to break ties between equal
   * q-values). Codings the runtime cannot produce are left out; with none left, responses are sent
   * unchanged. Default `['zstd', 'br', 'gzip']`.
   */
  encodings?: readonly ContentCoding[];
  /** Smallest body compressed, in bytes; smaller bodies are sent as they are. Default 1024. */
  threshold?: number;
  /**
   * Whether a media type (lower case, parameters dropped) is worth compressing. Default
   * `isCompressibleMediaType`: text, JSON, XML, JavaScript, SVG, `+json` and `+xml` types.
   */
  filter?: (mediaType: string) => boolean;
}

/** Compression options with defaults filled in and the codings narrowed to what the runtime has. */
export interface ResolvedCompressionOptions {
  readonly encodings: readonly ContentCoding[];
  readonly threshold: number;
  readonly filter: (mediaType: string) => boolean;
}

/** Validates compression options (TypeError/RangeError naming the option) and fills defaults. */
export function resolveCompressionOptions(options: CompressionOptions = {}): ResolvedCompressionOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('compression: options must be an object');
  }
  const encodings = options.encodings ?? ['zstd', 'br', 'gzip'];
  if (!Array.isArray(encodings) || encodings.length === 0) {
    throw new TypeError('compression: encodings must be a non-empty array of content codings');
  }
  const seen = new Set<string>();
  for (const coding of encodings) {
    if (!(CODINGS as readonly unknown[]).includes(coding)) {
      throw new TypeError(
        `compression: encodings has an unknown coding ${JSON.stringify(coding)}; expected ${CODINGS.join(', ')}`,
      );
    }
    if (seen.has(coding)) throw new TypeError(`compression: encodings lists "${coding}" twice`);
    seen.add(coding);
  }
  const threshold = options.threshold ?? 1024;
  if (typeof threshold !== 'number' || !Number.isSafeInteger(threshold) || threshold < 0) {
    throw new RangeError(`compression: threshold must be a non-negative integer, got ${String(threshold)}`);
  }
  const filter = options.filter ?? isCompressibleMediaType;
  if (typeof filter !== 'function') throw new TypeError('compression: filter must be a function');
  const available = streamFormats();
  return Object.freeze({
    encodings: Object.freeze(encodings.filter((coding) => available.has(coding))),
    threshold,
    filter,
  });
}

// Compressible application/* and font types beyond the text/*, +json and +xml families.
const COMPRESSIBLE_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/wasm',
  'application/x-www-form-urlencoded',
  'application/graphql',
  'application/rtf',
  'application/x-sh',
  'application/vnd.ms-fontobject',
  'font/ttf',
  'font/otf',
  'font/collection',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

/**
 * The default compression filter. Text, JSON, XML, JavaScript, SVG and other `+json`/`+xml` types
 * are compressed; images (but SVG, BMP, ICO), audio, video, archives, woff/woff2 and PDF (whose
 * streams are already deflated) are not. Streamed sequences (`text/event-stream`, NDJSON) are left
 * alone: a compressor holds items back until it has a block's worth, which defeats streaming.
 */
export function isCompressibleMediaType(mediaType: string): boolean {
  if (isStreamedMediaType(mediaType)) return false;
  if (mediaType.startsWith('text/')) return true;
  if (mediaType.endsWith('+json') || mediaType.endsWith('+xml')) return true;
  return COMPRESSIBLE_TYPES.has(mediaType);
}

/** Parses a qvalue (RFC 9110 §12.4.2): `0`, `0.xxx`, `1`, `1.000`; anything else is undefined. */
function parseQ(text: string): number | undefined {
  if (text.length === 0 || text.length > 5) return undefined;
  const first = text.charCodeAt(0);
  if (first !== 48 && first !== 49) return undefined;
  if (text.length > 1 && text[1] !== '.') return undefined;
  for (let i = 2; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57 || (first === 49 && c !== 48)) return undefined;
  }
  return Number(text);
}

/** Accept-Encoding as a map from coding (lower case; `x-gzip` as `gzip`) to its q-value. */
function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const parts = element.split(';');
    let coding = (parts[0] ?? '').trim().toLowerCase();
    if (coding.length === 0) continue;
    if (coding === 'x-gzip') coding = 'gzip'; // RFC 9110 §8.4.1.3: an alias of gzip.
    let q: number | undefined = 1;
    for (let i = 1; i < parts.length; i++) {
      const param = parts[i] as string;
      const eq = param.indexOf('=');
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      q = parseQ(param.slice(eq + 1).trim());
    }
    // A malformed weight makes the element meaningless; the first mention of a coding counts.
    if (q !== undefined && !weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}

/**
 * Picks the coding for a response (RFC 9110 §12.5.3), or undefined for identity. Without an
 * Accept-Encoding field the response is not compressed: any coding would be allowed, but a client
 * that sends none (a script, `curl` without `--compressed`) rarely decodes one. The highest q-value
 * wins, ties go to the server's order, and an explicitly weighted identity wins over codings with a
 * lower q-value.
 */
export function negotiateContentCoding(
  acceptEncoding: string | null,
  offered: readonly ContentCoding[],
): ContentCoding | undefined {
  if (acceptEncoding === null || offered.length === 0) return undefined;
  const weights = parseAcceptEncoding(acceptEncoding);
  const star = weights.get('*');
  let best: ContentCoding | undefined;
  let bestQ = 0;
  for (const coding of offered) {
    const q = weights.get(coding) ?? star ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  // Identity is always acceptable unless refused (RFC 9110 §12.5.3), but only an explicit weight
  // (`identity;q=1`, or `*` covering it) competes with the codings the client listed.
  const identityQ = weights.get('identity') ?? star ?? 0;
  return best !== undefined && bestQ >= identityQ ? best : undefined;
}

// RFC 9110 §15.2, §15.3.5, §15.3.6, §15.4.5: statuses that carry no content.
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** The media type of a Content-Type value, lower case without parameters. */
export function mediaTypeOf(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  const semi = contentType.indexOf(';');
  const essence = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return essence.length === 0 ? undefined : essence;
}

/** Whether a Cache-Control value has a directive (names compare case-insensitively, RFC 9111 §5.2). */
function hasDirective(value: string | null, directive: string): boolean {
  if (value === null) return false;
  for (const item of value.split(',')) {
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim().toLowerCase();
    if (name === directive) return true;
  }
  return false;
}

/** A Content-Length value as a number, or undefined when absent or malformed. */
export function contentLengthOf(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  // An empty value is no length at all (Number('') would read it as 0).
  return value === '' ? undefined : parseContentLength(value);
}

/** A body read up to a limit: the bytes when it ended within it, else a stream replaying what was read. */
export type BodyPrefix =
  | { readonly complete: true; readonly bytes: Uint8Array }
  | { readonly complete: false; readonly stream: ReadableStream<Uint8Array> };

const encoder = new TextEncoder();

/**
 * Reads a body until it ends or passes `limit` bytes, so no more than about `limit` bytes are ever
 * buffered. Shared by compression (threshold), etag (maxBytes) and idempotency (stored size).
 */
export async function readBodyUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<BodyPrefix> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { complete: true, bytes: concatBytes(chunks, size) };
    const chunk = typeof value === 'string' ? encoder.encode(value) : value;
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > limit) return { complete: false, stream: resumeStream(chunks, reader) };
  }
}

function resumeStream(
  chunks: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < chunks.length) {
        controller.enqueue(chunks[next] as Uint8Array);
        chunks[next++] = undefined as unknown as Uint8Array; // let replayed chunks be collected
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(typeof value === 'string' ? encoder.encode(value) : value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** `"x"` becomes `W/"x"`: a coded body is no longer byte-identical to the one the tag named (RFC 9110 §8.8.3). */
function weakenEtag(headers: Headers): void {
  const tag = headers.get('etag');
  if (tag !== null && tag.startsWith('"')) headers.set('etag', `W/${tag}`);
}

/** Whether a response may be compressed at all, judged on its status and headers alone. */
function isEligible(response: Response, resolved: ResolvedCompressionOptions): boolean {
  const status = response.status;
  // 206: a byte range of the identity representation cannot be re-coded (RFC 9110 §14).
  if (response.body === null || NULL_BODY_STATUSES.has(status) || status === 206) return false;
  const headers = response.headers;
  if (headers.has('content-encoding') || headers.has('content-range')) return false;
  // RFC 9111 §5.2.2.6: no-transform forbids changing the content.
  if (hasDirective(headers.get('cache-control'), 'no-transform')) return false;
  const type = mediaTypeOf(headers.get('content-type'));
  return type !== undefined && resolved.filter(type);
}

async function compressResponse(
  response: Response,
  ctx: AnyContext | undefined,
  resolved: ResolvedCompressionOptions,
): Promise<Response | undefined> {
  // Unmatched requests (ctx absent) carry small problem documents: they are sent as they are.
  if (ctx === undefined || !isEligible(response, resolved)) return undefined;
  const request = ctx.request;
  const coding = negotiateContentCoding(request.headers.get('accept-encoding'), resolved.encodings);
  // The choice depends on Accept-Encoding whatever it was, so caches must key on it (RFC 9110 §12.5.5).
  if (coding === undefined) return appendVary(response, 'Accept-Encoding');

  const headers = new Headers(response.headers);
  headers.set('vary', mergeVary(headers.get('vary'), 'Accept-Encoding'));
  const init = { status: response.status, statusText: response.statusText, headers };
  let body = response.body as ReadableStream<Uint8Array>;
  const length = contentLengthOf(response.headers);
  if (length !== undefined) {
    if (length < resolved.threshold) return appendVary(response, 'Accept-Encoding');
  } else if (resolved.threshold > 0) {
    // Size unknown: read just enough to know whether the body reaches the threshold.
    const prefix = await readBodyUpTo(body, resolved.threshold - 1);
    if (prefix.complete) return new Response(prefix.bytes as Uint8Array<ArrayBuffer>, init);
    body = prefix.stream;
  }
  headers.set('content-encoding', coding);
  headers.delete('content-length');
  weakenEtag(headers);
  // RFC 9110 §9.3.2: HEAD gets the header fields GET would get, and no content.
  if (request.method === 'HEAD') {
    void body.cancel().catch(() => {});
    return new Response(null, init);
  }
  const format = streamFormats().get(coding) as string;
  const compressor = new CompressionStream(format as CompressionFormat);
  return new Response(
    body.pipeThrough(compressor as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
    init,
  );
}

/**
 * Compresses responses with the best coding the client accepts (zstd, br, gzip where the runtime
 * has them). Skips small bodies, already-coded or `no-transform` responses, partial content,
 * statuses without content and media types that are already compressed; sets
 * `Vary: Accept-Encoding` and weakens a strong ETag. Register it after `etag()`.
 *
 * @example app.use([etag(), compression({ threshold: 2048 })]);
 */
export function compression(options?: CompressionOptions): Hooks {
  const resolved = resolveCompressionOptions(options);
  return {
    onSend: (response, ctx) => compressResponse(response, ctx, resolved),
  };
}
