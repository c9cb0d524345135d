/**
 * The session's GET stream (MCP 2025-11-25 "Transports" §Listening for Messages from the Server):
 * `GET` with `Accept: text/event-stream` and the session header opens the server-to-client stream
 * of that session, which carries what no POST is waiting for: `notifications/resources/updated`
 * and server-to-client requests sent while no POST stream could take them. One stream per session
 * per instance (a second gets 409), so a message goes out once. It closes when the client goes
 * away or the session ends (DELETE on any instance).
 *
 * Resource updates fan out through the store: `notifyResourceUpdated(uri)` publishes the URI to
 * every instance, and each one notifies those of its open streams whose session watches it.
 */
import { ConflictError, HttpError } from '@charter/core';
import { isModernProtocolVersion } from './era.ts';
import { acceptsEventStream } from './notifications.ts';
import {
  END_OF_SESSION,
  RESOURCES_CHANNEL,
  type SessionKeeper,
  storeDown,
  streamChannel,
} from './session.ts';

/** A comment line now and then keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

const encoder = new TextEncoder();

function messageEvent(text: string): Uint8Array {
  // One `message` event per JSON-RPC message (HTML "Server-sent events" §9.2.6).
  return encoder.encode(`event: message\ndata: ${text}\n\n`);
}

/** What a GET asked for: a stream body, or the refusal to answer. */
export type StreamOutcome = { readonly body: ReadableStream<Uint8Array> } | { readonly error: HttpError };

/** The open GET streams of one handler on this instance. */
export class SessionStreams {
  readonly #keeper: SessionKeeper;
  /** Session id to the function writing a message text on its stream. */
  readonly #open = new Map<string, (text: string) => void>();
  #watching: Promise<unknown> | undefined;

  constructor(keeper: SessionKeeper) {
    this.#keeper = keeper;
  }

  /** How many streams are open here (for tests and health pages). */
  get size(): number {
    return this.#open.size;
  }

  /** Opens the stream of the session the GET names. */
  async open(request: Request): Promise<StreamOutcome | undefined> {
    const version = request.headers.get('mcp-protocol-version');
    // 2026-07-28 has no GET stream: that era keeps the stateless 405.
    if (version !== null && isModernProtocolVersion(version)) return undefined;
    if (!acceptsEventStream(request)) {
      return {
        error: new HttpError({
          status: 406,
          detail: 'The GET stream is text/event-stream: send Accept: text/event-stream',
        }),
      };
    }
    const gate = await this.#keeper.open(request);
    if (gate.kind === 'refused') return { error: gate.error };
    if (gate.kind !== 'session') return undefined;
    const id = gate.session.id;
    if (this.#open.has(id)) {
      return { error: new ConflictError('This session already has a GET stream open on this server') };
    }
    try {
      await this.#watchResources();
    } catch {
      this.#watching = undefined;
      return { error: storeDown() };
    }
    let write: (text: string) => void = () => {};
    let ping: () => void = () => {};
    let close: () => void = () => {};
    let stop: (() => Promise<void>) | undefined;
    let keepalive: ReturnType<typeof setInterval> | undefined;
    const cleanup = () => {
      clearInterval(keepalive);
      if (this.#open.get(id) === deliver) this.#open.delete(id);
      void stop?.().catch(() => {});
    };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let open = true;
        const enqueue = (bytes: Uint8Array) => {
          if (!open) return;
          try {
            controller.enqueue(bytes);
          } catch {
            close();
          }
        };
        write = (text) => (text === END_OF_SESSION ? close() : enqueue(messageEvent(text)));
        ping = () => enqueue(encoder.encode(': keepalive\n\n'));
        close = () => {
          if (!open) return;
          open = false;
          cleanup();
          try {
            controller.close();
          } catch {
            // Already cancelled by the client.
          }
        };
        // A first comment line sends the headers and tells the client the stream is live.
        enqueue(encoder.encode(': stream open\n\n'));
      },
      cancel: () => close(),
    });
    const deliver = (text: string) => write(text);
    this.#open.set(id, deliver);
    try {
      stop = await this.#keeper.store.subscribe(streamChannel(id), deliver);
    } catch {
      close();
      return { error: storeDown() };
    }
    keepalive = setInterval(() => ping(), KEEPALIVE_MS);
    request.signal.addEventListener('abort', () => close(), { once: true });
    return { body };
  }

  /** Announces that `uri` changed: every instance notifies its streams whose session watches it. */
  async notifyResourceUpdated(uri: string): Promise<void> {
    if (typeof uri !== 'string' || uri.length === 0) {
      throw new TypeError('notifyResourceUpdated needs the resource URI (a non-empty string)');
    }
    await this.#keeper.store.publish(RESOURCES_CHANNEL, uri);
  }

  /** Listens to resource announcements once this instance has a stream to notify. */
  #watchResources(): Promise<unknown> {
    this.#watching ??= this.#keeper.store.subscribe(RESOURCES_CHANNEL, (uri) => void this.#deliver(uri));
    return this.#watching;
  }

  async #deliver(uri: string): Promise<void> {
    const notification = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri },
    });
    for (const [id, write] of [...this.#open]) {
      // The subscription may have been recorded on another instance: read the session now.
      const record = await this.#keeper.store.get(id).catch(() => undefined);
      if (record?.subscriptions.includes(uri) === true) write(notification);
    }
  }
}
