/**
 * `subscriptions/listen` (MCP 2026-07-28, SEP-2575 "Subscriptions"): the modern era's way to hear
 * about changes outside any one request, in place of the legacy GET stream and `resources/subscribe`.
 * The client POSTs the request with the notifications it opts in to; the answer is an event stream
 * that stays open:
 *
 *   1. `notifications/subscriptions/acknowledged` first, with the subset of the filter this server
 *      honours (listen-params.ts) and `_meta["io.modelcontextprotocol/subscriptionId"]`, which is the
 *      request's JSON-RPC id ("MUST be the first message ... carrying the subscription's ID");
 *   2. then only the opted-in change notifications, each tagged with the same id;
 *   3. a comment line every `listen.keepaliveMs`, so idle timeouts do not close it;
 *   4. a graceful end (`closeListenStreams()`, e.g. at shutdown) sends the `SubscriptionsListenResult`
 *      `{ resultType: "complete", _meta: { subscriptionId } }` and closes. The client cancels by
 *      closing the stream (2026-07-28 "Transports": cancellation over HTTP is closing the stream):
 *      the stream stops and everything it held (its place in the caller's budget, its timer, its
 *      store subscription) is freed.
 *
 * What can change: resources, announced by the app with `handler.notifyResourceUpdated(uri)`. With
 * a `sessions` store the announcement goes through the store's pub/sub (the channel legacy GET
 * streams use), so a change announced on one instance reaches listen streams on every instance;
 * without one it reaches the streams of this process only. The catalog is fixed when the handler is
 * created, so the list-changed types are never honoured (and `listChanged` is never declared).
 */
import type { JsonRpcId } from '@charter/json-rpc';
import { HttpError } from '@charter/core';
import { MCP_ERROR_CODES, MCP_META_KEYS } from './constants.ts';
import { requestEra } from './era.ts';
import { McpError } from './errors.ts';
import { principalOf } from './input-required.ts';
import type { ResolvedListenOptions } from './listen-options.ts';
import { honouredFilter, type ListenAbilities, readListenFilter } from './listen-params.ts';
import { acceptsEventStream, sseMessageEvent } from './notifications.ts';
import { invalidParams, type McpCall, type MethodResult } from './server.ts';
import type { McpSessionStore } from './session-store.ts';
import { RESOURCES_CHANNEL } from './session.ts';
import type { McpServerInfo } from './types.ts';

/** The `_meta` key naming the listen stream a notification or result belongs to. */
export const MCP_SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

export const LISTEN_METHOD = 'subscriptions/listen';

const encoder = new TextEncoder();
const KEEPALIVE = encoder.encode(': keepalive\n\n');

/**
 * Most messages a `subscriptions/listen` stream may hold for a client that does not read them: past
 * this, the stream is closed rather than left to grow in memory (the client may listen again and
 * re-read what it watches).
 */
export const MCP_MAX_UNREAD_LISTEN_MESSAGES = 1000;

/** One open listen stream on this instance. */
interface OpenListen {
  readonly uris: ReadonlySet<string>;
  /** Sends `notifications/resources/updated` for `uri` (the stream watches it). */
  updated(uri: string): void;
  /** Ends the stream; `graceful` sends the listen result first. */
  end(graceful: boolean): void;
}

/** What a server with these resources can emit on a listen stream. */
export function listenAbilities(catalog: {
  readonly resources: ReadonlyMap<string, unknown>;
  readonly templates: readonly unknown[];
}): ListenAbilities {
  return { resourceSubscriptions: catalog.resources.size > 0 || catalog.templates.length > 0 };
}

/** Whether `subscriptions/listen` is served: only when the server can emit something on it. */
export function offersListen(abilities: ListenAbilities): boolean {
  return abilities.resourceSubscriptions;
}

/**
 * The listen streams of one handler on this instance: their budgets per caller, their fan-out, and
 * their graceful end.
 */
export class ListenHub {
  readonly #options: ResolvedListenOptions;
  readonly #store: McpSessionStore | undefined;
  readonly #serverInfo: McpServerInfo;
  readonly #open = new Set<OpenListen>();
  readonly #perCaller = new Map<string, number>();
  /** Places taken, streams still starting included, so concurrent requests cannot pass `maxStreams`. */
  #taken = 0;

  constructor(options: ResolvedListenOptions, store: McpSessionStore | undefined, serverInfo: McpServerInfo) {
    this.#options = options;
    this.#store = store;
    this.#serverInfo = serverInfo;
  }

  /** How many listen streams are open here (for tests and health pages). */
  get size(): number {
    return this.#open.size;
  }

  /** How many callers hold at least one stream here. */
  get callers(): number {
    return this.#perCaller.size;
  }

  /**
   * 406 for a 2026-07-28 `subscriptions/listen` whose Accept does not list `text/event-stream`:
   * its only answer is an event stream (RFC 9110 §15.5.7), and the transport requires clients to
   * accept one. Other messages, and legacy ones (where the method does not exist), pass.
   */
  refusal(request: Request, body: unknown): HttpError | undefined {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const message = body as { method?: unknown; params?: unknown; id?: unknown };
    if (message.method !== LISTEN_METHOD || message.id === undefined) return undefined;
    if (requestEra(message.params, request.headers.get('mcp-protocol-version')) !== 'modern')
      return undefined;
    if (acceptsEventStream(request)) return undefined;
    return new HttpError({
      status: 406,
      detail: 'subscriptions/listen is answered with an event stream: send Accept: text/event-stream',
    });
  }

  /**
   * Sends `notifications/resources/updated` to this instance's streams watching `uri`. For a handler
   * without a store: with one, announcements arrive through the store's pub/sub instead (every
   * instance hears them there, this one included).
   */
  deliver(uri: string): void {
    for (const stream of [...this.#open]) if (stream.uris.has(uri)) stream.updated(uri);
  }

  /** Ends every listen stream of this instance with the listen result (a graceful end, e.g. at shutdown). */
  closeAll(): void {
    for (const stream of [...this.#open]) stream.end(true);
  }

  /** Takes a place in the caller's budget and the instance's; -32602 naming the limit when full. */
  #reserve(caller: string): () => void {
    const held = this.#perCaller.get(caller) ?? 0;
    if (held >= this.#options.maxStreamsPerCaller) {
      throw invalidParams(
        `Too many listen streams: this caller already holds ${held} open; the limit (listen.maxStreamsPerCaller) is ${this.#options.maxStreamsPerCaller}. Close one first`,
        { limit: 'maxStreamsPerCaller', max: this.#options.maxStreamsPerCaller },
      );
    }
    if (this.#taken >= this.#options.maxStreams) {
      throw invalidParams(
        `Too many listen streams on this server: the limit (listen.maxStreams) is ${this.#options.maxStreams}; try again later`,
        { limit: 'maxStreams', max: this.#options.maxStreams },
      );
    }
    this.#perCaller.set(caller, held + 1);
    this.#taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#taken--;
      const left = (this.#perCaller.get(caller) ?? 1) - 1;
      if (left <= 0) this.#perCaller.delete(caller);
      else this.#perCaller.set(caller, left);
    };
  }

  /** `subscriptions/listen`: checks the filter, charges the caller, and answers the stream. */
  async listen(call: McpCall, abilities: ListenAbilities): Promise<MethodResult> {
    const filter = readListenFilter(call.params, this.#options, call.server.options.maxResourceUriLength);
    const honoured = honouredFilter(filter, abilities);
    // Charged to the credential the request carries (a digest of it, or requestStatePrincipal's
    // answer); callers without one share the anonymous budget.
    const caller = (await principalOf(call)) ?? '';
    const release = this.#reserve(caller);
    const id = call.ctx.id as JsonRpcId;
    const uris = new Set(honoured.resourceSubscriptions ?? []);
    let stop: (() => Promise<void>) | undefined;
    let stream: OpenListen | undefined;
    if (this.#store !== undefined && uris.size > 0) {
      try {
        // Listening before the acknowledgement: a change announced after the client reads it must arrive.
        stop = await this.#store.subscribe(RESOURCES_CHANNEL, (uri) => {
          if (uris.has(uri)) stream?.updated(uri);
        });
      } catch {
        release();
        throw new McpError(
          MCP_ERROR_CODES.internalError,
          'Internal error: the store that carries notifications between instances is unavailable; try again shortly',
          { status: 503 },
        );
      }
    }
    const tag = { [MCP_SUBSCRIPTION_ID_KEY]: id };
    const acknowledgement = {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: tag, notifications: honoured },
    };
    const result = {
      jsonrpc: '2.0',
      id,
      result: { resultType: 'complete', _meta: { ...tag, [MCP_META_KEYS.serverInfo]: this.#serverInfo } },
    };
    const signal = call.ctx.request.signal;
    let keepalive: ReturnType<typeof setInterval> | undefined;
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let open = true;
    /** Queues bytes for the client; false when the stream cannot take them (closed, or a reader far behind). */
    const enqueue = (bytes: Uint8Array): boolean => {
      if (controller === undefined) return false;
      try {
        controller.enqueue(bytes);
      } catch {
        return false;
      }
      return (controller.desiredSize ?? 0) > -MCP_MAX_UNREAD_LISTEN_MESSAGES;
    };
    const write = (bytes: Uint8Array) => {
      if (open && !enqueue(bytes)) end(false);
    };
    const end = (graceful: boolean) => {
      if (!open) return;
      open = false;
      if (graceful) enqueue(sseMessageEvent(result));
      clearInterval(keepalive);
      signal.removeEventListener('abort', aborted);
      this.#open.delete(stream as OpenListen);
      release();
      void stop?.().catch(() => {});
      try {
        controller?.close();
      } catch {
        // The client cancelled the body: already closed.
      }
    };
    const aborted = () => end(false);
    stream = {
      uris,
      updated: (uri) =>
        write(
          sseMessageEvent({
            jsonrpc: '2.0',
            method: 'notifications/resources/updated',
            params: { uri, _meta: tag },
          }),
        ),
      end,
    };
    this.#open.add(stream);
    const body = new ReadableStream<Uint8Array>({
      start: (started) => {
        controller = started;
        write(sseMessageEvent(acknowledgement));
        keepalive = setInterval(() => write(KEEPALIVE), this.#options.keepaliveMs);
      },
      // The client closed the stream: that is how it cancels a listen over HTTP.
      cancel: () => end(false),
    });
    if (signal.aborted) end(false);
    else signal.addEventListener('abort', aborted, { once: true });
    return { result: {}, stream: body };
  }
}

/** Each handler's hub, for `closeMcpListenStreams` (the handler's public shape stays as it is). */
const HUBS = new WeakMap<object, ListenHub>();

export function registerListenHub(handler: object, hub: ListenHub): void {
  HUBS.set(handler, hub);
}

/**
 * Ends every 2026-07-28 `subscriptions/listen` stream `handler` holds on this instance, gracefully:
 * each gets the listen result (`{ resultType: "complete", _meta: { subscriptionId } }`) and closes,
 * so its client knows the end was deliberate. Call it when the server shuts down.
 */
export function closeMcpListenStreams(handler: object): void {
  const hub = HUBS.get(handler);
  if (hub === undefined)
    throw new TypeError('closeMcpListenStreams needs a handler createMcpHandler returned');
  hub.closeAll();
}

/** How many listen streams `handler` holds open on this instance (for health pages and tests). */
export function mcpListenStreamCount(handler: object): number {
  return HUBS.get(handler)?.size ?? 0;
}
