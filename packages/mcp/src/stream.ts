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
import { acceptsEventStream, sseJsonEvent } from './notifications.ts';
import { postStreamCursor, resumePostStream } from './session-post-stream.ts';
import {
  END_OF_SESSION,
  RESOURCES_CHANNEL,
  type SessionKeeper,
  storeDown,
  streamChannel,
} from './session.ts';

/**
 * A comment line now and then keeps an idle stream open: under Bun's default idle timeout (10 s)
 * and proxies' longer ones. The POST streams of a session use it too (handler.ts).
 */
export const KEEPALIVE_MS = 8_000;

const encoder = new TextEncoder();

/**
 * One `message` event per JSON-RPC message (HTML "Server-sent events" §9.2.6). `text` is
 * `<event id> <json>` as `publishToStream` sends it; the id (`-` when the store records no events)
 * becomes the event's `id:` field, which the client sends back as `Last-Event-ID`.
 */
function messageEvent(text: string): Uint8Array {
  const space = text.indexOf(' ');
  const id = text.slice(0, space);
  return sseJsonEvent(text.slice(space + 1), id === '-' ? undefined : id);
}

/** The event id a message travels with, as a number (NaN for `-`). */
function eventNumber(text: string): number {
  return Number(text.slice(0, text.indexOf(' ')));
}

/** A `Last-Event-ID` this handler could have issued: a decimal integer. */
function lastEventId(request: Request): string | undefined {
  const value = request.headers.get('last-event-id');
  return value !== null && /^\d{1,15}$/.test(value) ? value : undefined;
}

/** What a GET asked for: a stream body, or the refusal to answer. */
export type StreamOutcome = { readonly body: ReadableStream<Uint8Array> } | { readonly error: HttpError };

/** The open GET streams of one handler on this instance. */
export class SessionStreams {
  readonly #keeper: SessionKeeper;
  /** Session id to the function writing a message text on its stream. */
  readonly #open = new Map<string, (text: string) => void>();
  /** `<session id> <stream key>` of the POST streams being resumed here. */
  readonly #resumed = new Set<string>();
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
    // A Last-Event-ID of a POST's own stream resumes that stream, not the session's GET stream.
    const cursor = this.#keeper.store.eventsAfter === undefined ? undefined : postStreamCursor(request);
    if (cursor !== undefined) {
      // One resume of a POST stream at a time per instance, as for the GET stream.
      const resuming = `${id} ${cursor.stream}`;
      if (this.#resumed.has(resuming)) {
        return { error: new ConflictError('This POST stream is already being resumed on this server') };
      }
      this.#resumed.add(resuming);
      const release = () => this.#resumed.delete(resuming);
      const outcome = await resumePostStream(
        this.#keeper.store,
        id,
        cursor,
        request.signal,
        KEEPALIVE_MS,
        storeDown,
        release,
      );
      if ('error' in outcome) release();
      return outcome;
    }
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
    // Resuming (2025-11-25 "Transports" §Resumability and Redelivery): live messages are held while
    // the recorded ones after Last-Event-ID are replayed, then sent unless already replayed.
    const resumeAfter = this.#keeper.store.eventsAfter === undefined ? undefined : lastEventId(request);
    let held: string[] | undefined = resumeAfter === undefined ? undefined : [];
    const deliver = (text: string) => (held === undefined ? write(text) : held.push(text));
    this.#open.set(id, deliver);
    try {
      stop = await this.#keeper.store.subscribe(streamChannel(id), deliver);
    } catch {
      close();
      return { error: storeDown() };
    }
    if (resumeAfter !== undefined) {
      let last = Number(resumeAfter);
      try {
        const events = await this.#keeper.store.eventsAfter?.(id, resumeAfter);
        for (const event of events ?? []) {
          write(`${event.id} ${event.message}`);
          last = Math.max(last, Number(event.id));
        }
      } catch {
        close();
        return { error: storeDown() };
      }
      const waiting = held ?? [];
      held = undefined;
      for (const text of waiting) {
        const number = eventNumber(text);
        if (text === END_OF_SESSION || Number.isNaN(number) || number > last) write(text);
      }
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
    const { store } = this.#keeper;
    for (const [id, write] of [...this.#open]) {
      try {
        // The subscription may have been recorded on another instance: read the session now.
        const record = await store.get(id);
        if (record?.subscriptions.includes(uri) !== true) continue;
        const eventId = store.appendEvent === undefined ? '-' : await store.appendEvent(id, notification);
        write(`${eventId} ${notification}`);
      } catch {
        // The store failed: this update is lost for this stream, as a pub/sub message would be.
      }
    }
  }
}
