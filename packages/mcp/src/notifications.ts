/**
 * Notifications related to one request (MCP 2025-11-25 and 2026-07-28 "Transports" §Sending
 * Messages: a POST may be answered with an SSE stream carrying notifications about that request,
 * then its response). Handlers report progress (`notifications/progress`, only when the request
 * sent a `progressToken`) and log messages (`notifications/message`); the handler answers plain
 * JSON when nothing was sent before the result, and switches to `text/event-stream` at the first
 * notification, when the client accepts it.
 */
import type { JsonRpcResponse } from '@charter/json-rpc';
import { MCP_LOG_LEVELS } from './constants.ts';
import { requestMeta } from './era.ts';

type Listener = () => void;

/** The notifications of one request, queued until the response stream takes them. */
export class NotificationChannel {
  readonly #queue: unknown[] = [];
  #listener: Listener | undefined;
  #closed = false;
  /** False when the client cannot take a stream (no `text/event-stream` in Accept, or a batch). */
  readonly enabled: boolean;

  constructor(enabled: boolean) {
    this.enabled = enabled;
  }

  push(method: string, params: Record<string, unknown>): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Queues any JSON-RPC message (a server-to-client request, session.ts); false when the stream cannot carry it. */
  send(message: Record<string, unknown>): boolean {
    if (!this.enabled || this.#closed) return false;
    this.#queue.push(message);
    this.#listener?.();
    return true;
  }

  /** Resolves at the first notification. */
  first(): Promise<void> {
    if (this.#queue.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#listener = resolve;
    });
  }

  /** The queued notifications, emptied. */
  take(): unknown[] {
    return this.#queue.splice(0);
  }

  listen(listener: Listener): void {
    this.#listener = listener;
  }

  /** No more notifications: the response is final. */
  close(): void {
    this.#closed = true;
    this.#listener = undefined;
  }
}

/** Whether the client accepts an SSE answer (RFC 9110 §12.5.1; `q=0` refuses). */
export function acceptsEventStream(request: Request): boolean {
  const accept = request.headers.get('accept');
  if (accept === null) return false;
  for (const range of accept.split(',')) {
    const [type, ...parameters] = range.split(';');
    if (type?.trim().toLowerCase() !== 'text/event-stream') continue;
    const q = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** `ctx.progress`: sends `notifications/progress` when the request asked for it; progress must increase. */
export function progressReporter(
  channel: NotificationChannel | undefined,
  params: Record<string, unknown>,
): (progress: number, total?: number, message?: string) => void {
  const token = requestMeta(params)?.progressToken;
  if (channel === undefined || (typeof token !== 'string' && !Number.isSafeInteger(token))) return () => {};
  let last = Number.NEGATIVE_INFINITY;
  return (progress, total, message) => {
    // 2025-11-25 "Progress": the value MUST increase with each notification.
    if (!Number.isFinite(progress) || progress <= last) return;
    last = progress;
    const out: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined && Number.isFinite(total)) out.total = total;
    if (typeof message === 'string') out.message = message;
    channel.push('notifications/progress', out);
  };
}

/**
 * `ctx.log`: sends `notifications/message` at or above the threshold: the request's `_meta`
 * `logLevel` in the modern era (none: nothing is sent); `info` in the legacy era, where a stateless
 * server cannot remember `logging/setLevel`.
 */
export function logReporter(
  channel: NotificationChannel | undefined,
  threshold: string | undefined,
): (level: string, data: unknown, logger?: string) => void {
  const floor = threshold === undefined ? -1 : MCP_LOG_LEVELS.indexOf(threshold);
  if (channel === undefined || floor === -1) return () => {};
  return (level, data, logger) => {
    const rank = MCP_LOG_LEVELS.indexOf(level);
    if (rank === -1 || rank < floor) return;
    const params: Record<string, unknown> = { level, data };
    if (typeof logger === 'string') params.logger = logger;
    channel.push('notifications/message', params);
  };
}

const encoder = new TextEncoder();

/** One SSE `message` event carrying a JSON-RPC message (also the listen streams', listen.ts). */
export function sseMessageEvent(message: unknown): Uint8Array {
  return sseJsonEvent(JSON.stringify(message));
}

/**
 * The `message` event of JSON text already serialised, with event id `id` when the stream can be
 * resumed (the client sends the last one back as `Last-Event-ID`).
 */
export function sseJsonEvent(json: string, id?: string): Uint8Array {
  // One `message` event per JSON-RPC message (HTML "Server-sent events" §9.2.6); JSON has no raw
  // newlines, so one data line carries it.
  return encoder.encode(`${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${json}\n\n`);
}

/**
 * The SSE body: what is queued, every later notification, then the response, then the end. A
 * client that goes away stops the writing (the handler may still finish; its result is dropped).
 */
export function eventStream(
  channel: NotificationChannel,
  answer: Promise<JsonRpcResponse | undefined>,
  signal: AbortSignal,
  keepaliveMs?: number,
): ReadableStream<Uint8Array> {
  let open = true;
  let keepalive: ReturnType<typeof setInterval> | undefined;
  // The reader went away (cancelled the body): nothing more is written, and the channel drops
  // later notifications.
  const stop = () => {
    open = false;
    clearInterval(keepalive);
    channel.close();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (bytes: Uint8Array) => {
        if (!open) return;
        try {
          controller.enqueue(bytes);
        } catch {
          stop();
        }
      };
      // Inside a session the stream may wait on the client (a sampling request): a comment line now
      // and then keeps the connection from being closed as idle (HTML "Server-sent events" §9.2.6).
      if (keepaliveMs !== undefined) {
        keepalive = setInterval(() => write(encoder.encode(': keepalive\n\n')), keepaliveMs);
      }
      const end = () => {
        if (!open) return;
        stop();
        controller.close();
      };
      const flush = () => {
        for (const message of channel.take()) write(sseMessageEvent(message));
      };
      flush();
      channel.listen(flush);
      signal.addEventListener('abort', end, { once: true });
      answer.then(
        (body) => {
          flush();
          if (body !== undefined) write(sseMessageEvent(body));
          end();
        },
        () => end(),
      );
    },
    cancel: stop,
  });
}
