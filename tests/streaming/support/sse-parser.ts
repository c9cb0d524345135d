/**
 * An incremental event-stream parser written from the WHATWG HTML Standard, §9.2.5 "Parsing an event
 * stream" and §9.2.6 "Interpreting an event stream", independently of the encoder it checks: bytes in
 * arbitrary chunks (a chunk may end inside a UTF-8 sequence or between CR and LF), UTF-8 decoding with
 * one leading BOM stripped, the three line endings, comments, the four fields, and dispatch on a blank
 * line. It reports what an `EventSource` would: each dispatched event, the last event ID and the
 * reconnection time.
 */

/** One event as `EventSource` would dispatch it. */
export interface ParsedSseEvent {
  type: string;
  data: string;
  lastEventId: string;
}

export class SseParser {
  readonly events: ParsedSseEvent[] = [];
  /** The reconnection time set by the last valid `retry` field, if any. */
  retry: number | undefined = undefined;
  /** The event source's last event ID string (updated at each dispatch, §9.2.6). */
  lastEventId = '';
  /** Comment lines seen (without the leading colon). */
  readonly comments: string[] = [];
  readonly #decoder = new TextDecoder('utf-8');
  #pending = '';
  #skipLf = false;
  #data = '';
  #eventType = '';
  #idBuffer = '';

  /** Feeds one chunk of bytes. */
  push(bytes: Uint8Array): void {
    this.#text(this.#decoder.decode(bytes, { stream: true }));
  }

  /** Ends the stream: an event not followed by its blank line is discarded (§9.2.6). */
  end(): void {
    this.#text(this.#decoder.decode());
  }

  #text(text: string): void {
    for (const char of text) {
      if (this.#skipLf) {
        this.#skipLf = false;
        if (char === '\n') continue;
      }
      if (char === '\r') {
        // A CR ends the line at once; an LF right after it (maybe in the next chunk) belongs to it.
        this.#skipLf = true;
        this.#line(this.#pending);
        this.#pending = '';
      } else if (char === '\n') {
        this.#line(this.#pending);
        this.#pending = '';
      } else {
        this.#pending += char;
      }
    }
  }

  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.startsWith(':')) {
      this.comments.push(line.slice(1));
      return;
    }
    const colon = line.indexOf(':');
    let field = line;
    let value = '';
    if (colon !== -1) {
      field = line.slice(0, colon);
      value = line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
    }
    this.#field(field, value);
  }

  #field(field: string, value: string): void {
    if (field === 'event') this.#eventType = value;
    else if (field === 'data') this.#data += `${value}\n`;
    else if (field === 'id') {
      if (!value.includes('\0')) this.#idBuffer = value;
    } else if (field === 'retry') {
      if (value !== '' && [...value].every((c) => c >= '0' && c <= '9')) this.retry = Number(value);
    }
    // Any other field is ignored.
  }

  #dispatch(): void {
    this.lastEventId = this.#idBuffer;
    if (this.#data === '') {
      this.#eventType = '';
      return;
    }
    const data = this.#data.endsWith('\n') ? this.#data.slice(0, -1) : this.#data;
    this.events.push({
      type: this.#eventType === '' ? 'message' : this.#eventType,
      data,
      lastEventId: this.lastEventId,
    });
    this.#data = '';
    this.#eventType = '';
  }
}

/** Parses a whole byte stream. */
export async function parseSseStream(stream: ReadableStream<Uint8Array>): Promise<SseParser> {
  const parser = new SseParser();
  for await (const chunk of stream) parser.push(chunk);
  parser.end();
  return parser;
}
