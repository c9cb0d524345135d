/**
 * The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header-07): a retried
 * POST or PATCH carrying the same key gets the first response again instead of running twice.
 */
import { BadRequestError, ConflictError, ValidationError } from '../errors/index.ts';
import { isHttpToken } from '../security/header-guards.ts';
import { encodeHex } from '../security/hex.ts';
import { type AnyContext, type Hooks, withHookTraits } from '../types/index.ts';
import { readBodyUpTo } from './compression.ts';
import { type IdempotencyStore, memoryIdempotencyStore, type StoredResponse } from './idempotency-store.ts';

/** Options of `idempotency()`. */
export interface IdempotencyOptions {
  /** Where keys and responses are kept. Default a `memoryIdempotencyStore()` of this hook set's own. */
  store?: IdempotencyStore;
  /** Methods the key applies to; other methods ignore it. Default `['POST', 'PATCH']` (draft §1). */
  methods?: readonly string[];
  /** Refuse a request without the header with 400 (draft §2.7). Default false. */
  required?: boolean;
  /** The header carrying the key. Default `Idempotency-Key`. */
  header?: string;
  /** Longest key accepted, in characters. Default 255. */
  maxKeyLength?: number;
  /** How long a completed response is replayed, in ms (draft §2.3 "expiry"). Default 24 h (86400000). */
  ttlMs?: number;
  /**
   * How long a claim stays in flight when its request never finishes (a crash, with a shared store),
   * in ms. Keep it above the request timeout. Default 5 minutes (300000).
   */
  lockTtlMs?: number;
  /**
   * Namespaces keys, e.g. by the authenticated user, so one client can never replay (and read)
   * another's response. Default: one namespace for everybody.
   */
  scope?: (ctx: AnyContext) => string | undefined | Promise<string | undefined>;
  /** Largest response body stored, in bytes; a bigger response is sent but not kept (the key is released). Default 1 MiB. */
  maxResponseBytes?: number;
  /** Header set to `true` on a replayed response, or false for none. Default `Idempotent-Replayed`. */
  replayedHeader?: string | false;
}

/** Idempotency options with defaults filled in. */
export interface ResolvedIdempotencyOptions {
  readonly store: IdempotencyStore;
  readonly methods: ReadonlySet<string>;
  readonly required: boolean;
  readonly header: string;
  readonly maxKeyLength: number;
  readonly ttlMs: number;
  readonly lockTtlMs: number;
  readonly scope: ((ctx: AnyContext) => string | undefined | Promise<string | undefined>) | undefined;
  readonly maxResponseBytes: number;
  readonly replayedHeader: string | undefined;
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(`idempotency: ${name} must be a positive integer, got ${String(n)}`);
  }
  return n;
}

function headerName(name: string, value: unknown): string {
  if (typeof value !== 'string' || !isHttpToken(value)) {
    throw new TypeError(`idempotency: ${name} must be a header name, got ${JSON.stringify(value)}`);
  }
  return value.toLowerCase();
}

/** Validates idempotency options (TypeError/RangeError naming the option) and fills defaults. */
export function resolveIdempotencyOptions(options: IdempotencyOptions = {}): ResolvedIdempotencyOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('idempotency: options must be an object');
  }
  const store = options.store ?? memoryIdempotencyStore();
  for (const method of ['begin', 'complete', 'release', 'get'] as const) {
    if (typeof store?.[method] !== 'function') {
      throw new TypeError(`idempotency: store must implement IdempotencyStore (missing ${method})`);
    }
  }
  const methods = options.methods ?? ['POST', 'PATCH'];
  if (!Array.isArray(methods) || methods.length === 0) {
    throw new TypeError('idempotency: methods must be a non-empty array of methods');
  }
  for (const method of methods) {
    if (typeof method !== 'string' || !isHttpToken(method)) {
      throw new TypeError(`idempotency: methods has an invalid method ${JSON.stringify(method)}`);
    }
  }
  const required = options.required ?? false;
  if (typeof required !== 'boolean') throw new TypeError('idempotency: required must be a boolean');
  if (options.scope !== undefined && typeof options.scope !== 'function') {
    throw new TypeError('idempotency: scope must be a function');
  }
  const replayed = options.replayedHeader ?? 'idempotent-replayed';
  return Object.freeze({
    store,
    methods: new Set(methods.map((m) => m.toUpperCase())),
    required,
    header: headerName('header', options.header ?? 'idempotency-key'),
    maxKeyLength: positiveInteger('maxKeyLength', options.maxKeyLength, 255),
    ttlMs: positiveInteger('ttlMs', options.ttlMs, 24 * 60 * 60 * 1000),
    lockTtlMs: positiveInteger('lockTtlMs', options.lockTtlMs, 5 * 60 * 1000),
    scope: options.scope,
    maxResponseBytes: positiveInteger('maxResponseBytes', options.maxResponseBytes, 1024 * 1024),
    replayedHeader: replayed === false ? undefined : headerName('replayedHeader', replayed),
  });
}

/**
 * The key from the header value. The draft defines it as a Structured Field String (RFC 9651
 * §3.3.3, `"..."`); the bare form most clients send is accepted too when it is visible ASCII
 * without quotes, commas or backslashes (a comma means the field was sent twice).
 */
export function parseIdempotencyKey(value: string, maxLength = 255): string | undefined {
  const text = value.trim();
  let key = '';
  if (text.startsWith('"')) {
    let i = 1;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        const next = text[++i];
        if (next !== '"' && next !== '\\') return undefined;
        key += next;
      } else if (c < 0x20 || c > 0x7e) return undefined;
      else key += text[i];
    }
    if (i !== text.length - 1) return undefined;
  } else {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x21 || c > 0x7e || c === 0x22 || c === 0x2c || c === 0x5c) return undefined;
    }
    key = text;
  }
  return key.length === 0 || key.length > maxLength ? undefined : key;
}

const encoder = new TextEncoder();

async function sha256Hex(data: Uint8Array): Promise<string> {
  return encodeHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)));
}

/** JSON with object keys sorted, so equal bodies give equal text whatever their key order. */
async function canonical(value: unknown): Promise<string> {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'bigint') return JSON.stringify(`${value}n`);
  if (typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Blob) {
    const name = (value as { name?: unknown }).name;
    const digest = await sha256Hex(new Uint8Array(await value.arrayBuffer()));
    return JSON.stringify({
      $blob: { name: typeof name === 'string' ? name : null, type: value.type, sha256: digest },
    });
  }
  if (value instanceof Date) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) items.push(await canonical(item));
    return `[${items.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    members.push(`${JSON.stringify(key)}:${await canonical(record[key])}`);
  }
  return `{${members.join(',')}}`;
}

function pathAndQuery(url: string): string {
  const schemeEnd = url.indexOf('://');
  const start = url.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  if (start < 0) return '/';
  const hash = url.indexOf('#', start);
  return url.slice(start, hash < 0 ? url.length : hash);
}

/**
 * The request fingerprint (draft §2.4): SHA-256 of the method, the path with its query, and the
 * canonical JSON of the validated body. The body was read and parsed before beforeHandle, so its
 * raw bytes are gone; the parsed value is what the handler acts on, and key order or whitespace
 * changes do not make a retry look like a different request.
 */
async function fingerprintOf(ctx: AnyContext): Promise<string> {
  const request = ctx.request;
  const text = `${request.method}\n${pathAndQuery(request.url)}\n${await canonical(ctx.body)}`;
  return sha256Hex(encoder.encode(text));
}

/** A store key namespaced by scope, length-prefixed so no scope and key pair can forge another. */
function storeKey(scope: string, key: string): string {
  return `${scope.length}:${scope}:${key}`;
}

// Not replayed: hop-by-hop fields (RFC 9110 §7.6.1), fields describing this exchange rather than
// the result (Date, request ids, trace context, timing, rate-limit state: the replay gets its
// own), and Set-Cookie (a replay must not hand out credentials again). Content-Length is recomputed.
const NOT_STORED: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'date',
  'set-cookie',
  'x-request-id',
  'request-id',
  'traceparent',
  'tracestate',
  'server-timing',
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);

// Decoders for the codings compression() may have applied, so replays are stored identity-coded and
// the replay is compressed afresh for whoever asks.
const DECODE_FORMATS: Readonly<Record<string, readonly string[]>> = {
  gzip: ['gzip'],
  'x-gzip': ['gzip'],
  deflate: ['deflate'],
  br: ['brotli', 'br'],
  zstd: ['zstd'],
};

function decompressor(coding: string): DecompressionStream | undefined {
  if (typeof DecompressionStream !== 'function') return undefined;
  // hasOwn: a coding named `constructor` or `__proto__` must not reach Object.prototype.
  for (const format of Object.hasOwn(DECODE_FORMATS, coding) ? (DECODE_FORMATS[coding] ?? []) : []) {
    try {
      return new DecompressionStream(format as CompressionFormat);
    } catch {
      // Not known to this runtime under that name.
    }
  }
  return undefined;
}

/** The response as stored: undefined when its body is bigger than `limit`. */
async function capture(response: Response, limit: number): Promise<StoredResponse | undefined> {
  const copy = response.clone();
  let body = new Uint8Array(0);
  let decoded = false;
  if (copy.body !== null) {
    let stream: ReadableStream<Uint8Array> = copy.body;
    const coding = response.headers.get('content-encoding')?.trim().toLowerCase();
    const decoder = coding === undefined ? undefined : decompressor(coding);
    if (decoder !== undefined) {
      stream = stream.pipeThrough(decoder as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
      decoded = true;
    }
    const read = await readBodyUpTo(stream, limit);
    if (!read.complete) {
      void read.stream.cancel().catch(() => {});
      return undefined;
    }
    body = read.bytes as Uint8Array<ArrayBuffer>;
  }
  const headers: [string, string][] = [];
  for (const [name, value] of response.headers) {
    if (NOT_STORED.has(name) || (decoded && name === 'content-encoding')) continue;
    headers.push([name, value]);
  }
  return { status: response.status, headers, body };
}

// RFC 9110 §15.3.5, §15.4.5: statuses without content.
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/**
 * Which outcomes release the key instead of being stored. 5xx: the request failed, a retry may
 * succeed. 401, 403: a check refused it before anything happened, and a retry with credentials
 * must run. 408, 425, 429: "try again later" answers (a timeout, too early, rate limited). Every
 * other status (2xx, 3xx, 4xx such as 404 or 422 from the handler) is the request's result, and is
 * replayed, as the draft's §2.6 asks for a completed request.
 */
function releases(status: number): boolean {
  return (
    status >= 500 || status === 401 || status === 403 || status === 408 || status === 425 || status === 429
  );
}

function replay(stored: StoredResponse, replayedHeader: string | undefined): Response {
  const headers = new Headers(stored.headers as [string, string][]);
  if (replayedHeader !== undefined) headers.set(replayedHeader, 'true');
  const body = NULL_BODY_STATUSES.has(stored.status) ? null : stored.body.slice();
  return new Response(body, { status: stored.status, headers });
}

interface Claim {
  readonly key: string;
  readonly fingerprint: string;
}

/**
 * Makes POST and PATCH retry-safe with the `Idempotency-Key` header. The first request with a key
 * runs and its response is stored (TTL 24 h); the same key and request again replays it (with
 * `Idempotent-Replayed: true`); the same key while the first is running answers 409; the same key
 * with a different request answers 422; a 5xx or thrown error releases the key for a retry. A
 * replay is a raw Response answered from beforeHandle; its body was validated when first sent, so
 * the hooks declare the `replaysResponses` trait and the route needs no
 * `acknowledgeNoResponseBodySchema`.
 *
 * @example app.post('/orders', { ...contract, hooks: idempotency({ scope: (ctx) => String(ctx.state.userId) }) }, handler);
 */
export function idempotency(options?: IdempotencyOptions): Hooks {
  const resolved = resolveIdempotencyOptions(options);
  const { store } = resolved;
  const claims = new WeakMap<object, Claim>();
  const hooks: Hooks = {
    beforeHandle: async (ctx) => {
      const request = ctx.request;
      if (!resolved.methods.has(request.method)) return undefined;
      const value = request.headers.get(resolved.header);
      if (value === null) {
        if (resolved.required) {
          throw new BadRequestError(
            `This request needs an ${resolved.header} header (draft-ietf-httpapi-idempotency-key-header §2.7)`,
          );
        }
        return undefined;
      }
      const key = parseIdempotencyKey(value, resolved.maxKeyLength);
      if (key === undefined) {
        throw new BadRequestError(
          `The ${resolved.header} header must be a string of 1 to ${resolved.maxKeyLength} visible ASCII characters`,
        );
      }
      const scope = resolved.scope === undefined ? '' : ((await resolved.scope(ctx)) ?? '');
      const scoped = storeKey(scope, key);
      const fingerprint = await fingerprintOf(ctx);
      const existing = await store.begin(scoped, fingerprint, resolved.lockTtlMs);
      if (existing === undefined) {
        claims.set(ctx, { key: scoped, fingerprint });
        return undefined;
      }
      // Draft §2.7: reusing a key for another request is 422; a key still in use is 409.
      if (existing.fingerprint !== fingerprint) {
        throw new ValidationError(
          [
            {
              in: 'headers',
              path: [resolved.header],
              message: 'this key was already used for a different request',
            },
          ],
          `The ${resolved.header} was already used for a different request; use a new key`,
        );
      }
      if (existing.state === 'in-flight') {
        throw new ConflictError({
          detail: `A request with this ${resolved.header} is still being processed; retry later`,
          headers: { 'retry-after': '1' },
        });
      }
      return replay(existing.response, resolved.replayedHeader);
    },
    // onResponse sees the final response (after every onSend), and runs even when another hook threw.
    onResponse: async (response, ctx) => {
      if (ctx === undefined) return;
      const claim = claims.get(ctx);
      if (claim === undefined) return;
      claims.delete(ctx);
      if (releases(response.status)) {
        await store.release(claim.key, claim.fingerprint);
        return;
      }
      const stored = await capture(response, resolved.maxResponseBytes);
      if (stored === undefined) await store.release(claim.key, claim.fingerprint);
      else await store.complete(claim.key, claim.fingerprint, stored, resolved.ttlMs);
    },
  };
  return withHookTraits(hooks, {
    replaysResponses: true,
    answers: [
      { status: 409, description: `A request with this ${resolved.header} is still being processed` },
      {
        status: 422,
        description: `This ${resolved.header} was used with another request`,
        problem: 'validation',
      },
    ],
  });
}
