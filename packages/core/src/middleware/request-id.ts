/**
 * Request ids: one id per request, taken from the caller when it is safe or made here, exposed to
 * hooks and handlers, echoed on the response (error responses included) and, given a logger,
 * written on one log line per request. The id correlates a client report, a log line and the
 * calls this service makes on the request's behalf.
 */
import type { Logger } from '../logger/index.ts';
import { originalRequest } from '../pipeline/client-address.ts';
import { splitUrl } from '../pipeline/request-parts.ts';
import { isHttpToken } from '../security/header-guards.ts';
import { randomId } from '../security/tokens.ts';
import type { Hooks, State } from '../types/index.ts';
import { setResponseHeaders } from '../pipeline/response-headers.ts';

/** Options of `requestId()`. */
export interface RequestIdOptions {
  /** The request and response header carrying the id; default `x-request-id`. */
  header?: string;
  /**
   * Adopt the id the caller sent when it is safe (see `isSafeRequestId`); default true. Set false
   * at a public edge where callers should not choose the ids your logs are keyed by.
   */
  trustIncoming?: boolean;
  /** Longest incoming id accepted, in characters; default 128; an integer from 1 to 1024. */
  maxLength?: number;
  /** Makes a new id; default 16 random bytes as base64url (22 characters). Must return a safe id. */
  generate?: () => string;
  /**
   * When given, one `info` line per request once it is answered: `request` with `requestId`,
   * `method`, `path` (no query string: it may carry secrets), `route`, `status` and `durationMs`.
   * Pass `app.logger` to use the App's logger. Default: no line.
   */
  logger?: Logger;
}

/** `requestId` options with every default filled in. */
export interface ResolvedRequestIdOptions {
  readonly header: string;
  readonly trustIncoming: boolean;
  readonly maxLength: number;
  readonly generate: () => string;
  readonly logger: Logger | undefined;
}

export const DEFAULT_REQUEST_ID_HEADER = 'x-request-id';
export const DEFAULT_REQUEST_ID_MAX_LENGTH = 128;

/**
 * Characters of a safe id: RFC 3986 unreserved (`A-Z a-z 0-9 - . _ ~`) plus `: @ / + =`, which
 * admits UUIDs, base64 and base64url, W3C trace ids and `Root=1-...` style ids. No spaces, quotes,
 * commas, semicolons or controls: the id goes verbatim into log lines and headers.
 */
const SAFE_ID_CHAR = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) SAFE_ID_CHAR[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) SAFE_ID_CHAR[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) SAFE_ID_CHAR[c] = 1;
for (const c of '-._~:@/+=') SAFE_ID_CHAR[c.charCodeAt(0)] = 1;

/** True when `value` is 1 to `maxLength` characters, each one of `A-Za-z0-9-._~:@/+=`. Scans, no regex. */
export function isSafeRequestId(value: string, maxLength = DEFAULT_REQUEST_ID_MAX_LENGTH): boolean {
  if (value.length === 0 || value.length > maxLength) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128 || SAFE_ID_CHAR[c] !== 1) return false;
  }
  return true;
}

/** Validates `requestId` options and fills defaults; throws a TypeError or RangeError naming the option. */
export function resolveRequestIdOptions(options: RequestIdOptions = {}): ResolvedRequestIdOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('requestId options must be an object');
  const header = options.header ?? DEFAULT_REQUEST_ID_HEADER;
  if (typeof header !== 'string' || !isHttpToken(header)) {
    throw new TypeError(
      `requestId option "header" must be a header name (an RFC 9110 token), got ${String(header)}`,
    );
  }
  const trustIncoming = options.trustIncoming ?? true;
  if (typeof trustIncoming !== 'boolean')
    throw new TypeError('requestId option "trustIncoming" must be a boolean');
  const maxLength = options.maxLength ?? DEFAULT_REQUEST_ID_MAX_LENGTH;
  if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > 1024) {
    throw new RangeError(
      `requestId option "maxLength" must be an integer from 1 to 1024, got ${String(maxLength)}`,
    );
  }
  const generate = options.generate ?? (() => randomId(16));
  if (typeof generate !== 'function') throw new TypeError('requestId option "generate" must be a function');
  const logger = options.logger;
  if (
    logger !== undefined &&
    (typeof logger !== 'object' || logger === null || typeof logger.info !== 'function')
  ) {
    throw new TypeError('requestId option "logger" must be a Logger (an object with an info method)');
  }
  return Object.freeze({ header: header.toLowerCase(), trustIncoming, maxLength, generate, logger });
}

interface IdRecord {
  readonly id: string;
  /** `performance.now()` when the id was assigned, for the log line's duration. */
  readonly start: number;
}

// Every requestId() instance records into this one map, keyed by the Request the adapter handed
// in (`originalRequest` maps a context's wrapper back to it), so `requestIdOf` needs no instance.
const records = new WeakMap<Request, IdRecord>();

/**
 * The id of a request: pass a Request (the one onRequest received, or `ctx.request`) or a hook's
 * or handler's context. Undefined when no `requestId()` hook has run.
 */
export function requestIdOf(
  source: Request | { readonly request: Request; readonly state: State },
): string | undefined {
  if (source instanceof Request) return records.get(originalRequest(source))?.id;
  const fromState = source.state.requestId;
  return typeof fromState === 'string' ? fromState : records.get(originalRequest(source.request))?.id;
}

/**
 * Hooks that give every request an id.
 *
 * - onRequest: adopts the incoming header when `trustIncoming` and the value is safe, otherwise
 *   makes a new id; the request's own header is set to the id in use (where the runtime lets
 *   request headers change), so later code reading the header sees the same, safe value.
 * - preBody: `ctx.state.requestId` is set for hooks and handlers.
 * - onSend: the id is echoed in the response header, error responses included, unless the
 *   response already carries that header.
 * - onResponse (with `logger`): one line per request.
 *
 * Register it first, in `new App({ hooks })` or `app.use`, so every other hook sees the id;
 * unmatched 404/405 responses are echoed and logged too.
 */
export function requestId(options?: RequestIdOptions): Hooks {
  const resolved = resolveRequestIdOptions(options);
  const { header, trustIncoming, maxLength, generate, logger } = resolved;

  const fresh = (): string => {
    const id = generate();
    if (typeof id !== 'string' || !isSafeRequestId(id, 1024)) {
      throw new TypeError(
        'requestId option "generate" returned an id that is not safe (see isSafeRequestId)',
      );
    }
    return id;
  };

  const assign = (request: Request): IdRecord => {
    const original = originalRequest(request);
    const known = records.get(original);
    if (known !== undefined) return known;
    const incoming = original.headers.get(header);
    const id =
      trustIncoming && incoming !== null && isSafeRequestId(incoming, maxLength) ? incoming : fresh();
    const record = { id, start: performance.now() };
    records.set(original, record);
    if (incoming !== id) {
      // Later code reading the header sees the id in use, never an unsafe value.
      try {
        original.headers.set(header, id);
      } catch {
        // Immutable request headers (some worker runtimes): requestIdOf still answers.
      }
    }
    return record;
  };

  const hooks: Hooks = {
    onRequest(request) {
      assign(request);
    },
    preBody(ctx) {
      if (typeof ctx.state.requestId !== 'string') ctx.state.requestId = assign(ctx.request).id;
    },
    // Unmatched requests (404/405) have no context, but the request itself is passed along.
    onSend(response, _ctx, request) {
      return setResponseHeaders(response, [[header, assign(request).id]], { overwrite: false });
    },
  };
  if (logger !== undefined) {
    hooks.onResponse = (response, ctx, request) => {
      const record = assign(request);
      logger.info('request', {
        requestId: record.id,
        method: request.method,
        path: splitUrl(request.url).pathname,
        route: ctx?.route.path,
        status: response.status,
        durationMs: Math.round((performance.now() - record.start) * 100) / 100,
      });
    };
  }
  return hooks;
}
