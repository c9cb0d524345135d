/**
 * A POST's own event stream inside a session, resumable (MCP 2025-11-25 "Transports" §Resumability
 * and Redelivery; 2025-03-26 and 2025-06-18 likewise): it opens with a priming event (an id, empty
 * data), and each message on it gets an event id `<stream key>.<n>`, recorded in the session store's event log of that stream before it is sent. If
 * the connection drops, the request keeps running and its later messages (notifications, a
 * server-to-client request, the response) are still recorded; the client resumes with `GET` and
 * `Last-Event-ID`, on any instance, and gets the events of *that* stream after the id, then the live
 * ones, and the stream ends after the response. The key (12 CSPRNG bytes) makes ids unique across
 * the session's streams, as the transport asks, and tells the GET which stream to replay.
 *
 * Used only when the store records events (`appendEvent`/`eventsAfter`); otherwise a POST stream is
 * the plain one of notifications.ts and a dropped stream loses its answer.
 */
import { BadRequestError, encodeBase64Url, type HttpError } from '@charter/core';
import type { JsonRpcResponse } from '@charter/json-rpc';
import { type NotificationChannel, sseJsonEvent } from './notifications.ts';
import type { McpSessionStore } from './session-store.ts';

const encoder = new TextEncoder();

/** The channel live events of POST stream `stream` travel on, as `<n> <json>`, to a resumed GET. */
export function postStreamChannel(sessionId: string, stream: string): string {
  return `post:${sessionId}:${stream}`;
}

/** A `Last-Event-ID` naming an event of a POST stream: its key and the event's number. */
export interface PostStreamCursor {
  readonly stream: string;
  readonly after: number;
}

/** The POST stream a `Last-Event-ID` names, if it names one (`<16 base64url>.<digits>`). */
export function postStreamCursor(request: Request): PostStreamCursor | undefined {
  const value = request.headers.get('last-event-id');
  // Fixed lengths, no nested quantifier: linear on any input.
  const match = value === null ? null : /^([A-Za-z0-9_-]{16})\.(\d{1,15})$/.exec(value);
  if (match === null) return undefined;
  return { stream: match[1] as string, after: Number(match[2]) };
}

/** The POST's response is its stream's last message: the only one without a method. */
function isResponse(json: string): boolean {
  try {
    const message = JSON.parse(json) as unknown;
    return typeof message === 'object' && message !== null && !('method' in message);
  } catch {
    return false;
  }
}

/**
 * The SSE body of a session POST whose events are recorded: what is queued, every later message,
 * then the response, then the end. A client that goes away stops the writing, not the recording.
 */
export function resumablePostStream(
  store: McpSessionStore,
  sessionId: string,
  channel: NotificationChannel,
  answer: Promise<JsonRpcResponse | undefined>,
  signal: AbortSignal,
  keepaliveMs: number,
): ReadableStream<Uint8Array> {
  const stream = encodeBase64Url(crypto.getRandomValues(new Uint8Array(12)));
  let connected = true;
  let keepalive: ReturnType<typeof setInterval> | undefined;
  // Messages are recorded one after the other, so their ids follow the order they were sent in.
  let recorded: Promise<void> = Promise.resolve();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const disconnect = () => {
        connected = false;
        clearInterval(keepalive);
      };
      const write = (bytes: Uint8Array) => {
        if (!connected) return;
        try {
          controller.enqueue(bytes);
        } catch {
          disconnect();
        }
      };
      // Records one message (JSON text; '' is the priming event) and writes it with its id.
      const record = (json: string) => {
        recorded = recorded.then(async () => {
          let id: string | undefined;
          try {
            const number = await (store.appendEvent as NonNullable<McpSessionStore['appendEvent']>)(
              sessionId,
              json,
              stream,
            );
            id = `${stream}.${number}`;
            await store.publish(postStreamChannel(sessionId, stream), `${number} ${json}`);
          } catch {
            // The store failed: the message still goes to the connected client, without an id
            // when it could not be recorded (this part of the stream cannot be resumed).
          }
          if (json !== '') write(sseJsonEvent(json, id));
          else if (id !== undefined) write(encoder.encode(`id: ${id}\ndata: \n\n`));
        });
      };
      const end = () => {
        channel.close();
        if (!connected) return;
        disconnect();
        try {
          controller.close();
        } catch {
          // Already cancelled by the client.
        }
      };
      // Inside a session the stream may wait on the client (a sampling request): a comment line now
      // and then keeps the connection from being closed as idle.
      keepalive = setInterval(() => write(encoder.encode(': keepalive\n\n')), keepaliveMs);
      // First the priming event, an id with empty data (2025-11-25 "Transports" §Sending Messages
      // to the Server): a stream cut before its first message can be resumed too.
      record('');
      const flush = () => {
        for (const message of channel.take()) record(JSON.stringify(message));
      };
      flush();
      channel.listen(flush);
      // The client went away: the request goes on and its messages are recorded for a resume.
      signal.addEventListener('abort', disconnect, { once: true });
      answer.then(
        (body) => {
          flush();
          if (body !== undefined) record(JSON.stringify(body));
          void recorded.then(end);
        },
        () => void recorded.then(end),
      );
    },
    cancel() {
      connected = false;
      clearInterval(keepalive);
    },
  });
}

/** What a resuming GET gets: the stream, or why not. */
export type ResumeOutcome = { readonly body: ReadableStream<Uint8Array> } | { readonly error: HttpError };

/**
 * The GET that resumes POST stream `cursor.stream` of session `sessionId`: the recorded events
 * after `cursor.after`, then the live ones, without duplicates; it ends after the response. A
 * stream the store has no events of (never sent, or expired) is a 400: there is nothing to resume.
 * `onClose` runs once the resumed stream has ended (not when an error is returned).
 */
export async function resumePostStream(
  store: McpSessionStore,
  sessionId: string,
  cursor: PostStreamCursor,
  signal: AbortSignal,
  keepaliveMs: number,
  storeDown: () => HttpError,
  onClose: () => void,
): Promise<ResumeOutcome> {
  const { stream } = cursor;
  let last = cursor.after;
  let finished = false;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let keepalive: ReturnType<typeof setInterval> | undefined;
  let stop: (() => Promise<void>) | undefined;
  const close = () => {
    if (finished && controller === undefined) return;
    finished = true;
    clearInterval(keepalive);
    onClose();
    void stop?.().catch(() => {});
    try {
      controller?.close();
    } catch {
      // Already cancelled by the client.
    }
    controller = undefined;
  };
  const enqueue = (bytes: Uint8Array) => {
    try {
      controller?.enqueue(bytes);
    } catch {
      close();
    }
  };
  const send = (number: number, json: string) => {
    if (finished || !(number > last)) return;
    last = number;
    // The priming event was for the first connection; a resumed stream has its own start line.
    if (json === '') return;
    enqueue(sseJsonEvent(json, `${stream}.${number}`));
    if (isResponse(json)) close();
  };
  // Live events wait while the recorded ones are replayed.
  let held: string[] | undefined = [];
  const live = (text: string) => {
    if (held !== undefined) {
      held.push(text);
      return;
    }
    const space = text.indexOf(' ');
    send(Number(text.slice(0, space)), text.slice(space + 1));
  };
  try {
    stop = await store.subscribe(postStreamChannel(sessionId, stream), live);
  } catch {
    return { error: storeDown() };
  }
  let events: Awaited<ReturnType<NonNullable<McpSessionStore['eventsAfter']>>>;
  try {
    events = (await store.eventsAfter?.(sessionId, '0', stream)) ?? [];
  } catch {
    await stop().catch(() => {});
    return { error: storeDown() };
  }
  if (events.length === 0) {
    await stop().catch(() => {});
    return {
      error: new BadRequestError(
        'Last-Event-ID names no stream of this session with events left to resume (it ended long ago or never existed)',
      ),
    };
  }
  const body = new ReadableStream<Uint8Array>({
    start: (streamController) => {
      controller = streamController;
      enqueue(encoder.encode(': stream resumed\n\n'));
    },
    cancel: () => close(),
  });
  for (const event of events) {
    const number = Number(event.id);
    // A response at or before the cursor: the client had it already, the stream is over.
    if (!(number > last) && isResponse(event.message)) finished = true;
    send(number, event.message);
  }
  const waiting = held;
  held = undefined;
  for (const text of waiting) live(text);
  if (finished) close();
  else {
    keepalive = setInterval(() => enqueue(encoder.encode(': keepalive\n\n')), keepaliveMs);
    signal.addEventListener('abort', close, { once: true });
  }
  return { body };
}
