// One server-sent event in the text/event-stream format of the WHATWG HTML Standard, §9.2.5 "Parsing an
// event stream" and §9.2.6 "Interpreting an event stream" (section numbers of the living standard).
// Values are normalised so that any message round-trips through a conforming parser: the format has no
// escaping, so a line break inside a value would otherwise end the field (or the whole event) early.

/** One server-sent event: every field is optional; a message with none sends nothing. */
export interface SseMessage {
  /**
   * The event's data. A string is sent as it is, one `data:` line per line of it (CRLF, lone CR and
   * lone LF all split, and `EventSource` joins the lines with LF). Any other value is sent as its
   * `JSON.stringify` text; a value JSON cannot encode (a function, a symbol, a BigInt, a cycle) ends
   * the stream with the error event. `undefined` (or leaving it out) sends no `data:` field.
   */
  data?: unknown;
  /** The event type (`addEventListener(type)` in the browser); CR/LF runs become one space. */
  event?: string;
  /**
   * The event ID the browser echoes as `Last-Event-ID` when it reconnects. Runs of CR, LF and NUL
   * become one space (a parser ignores an `id` holding NUL, §9.2.6). `''` resets the last event ID.
   */
  id?: string;
  /** The client's reconnection delay in milliseconds: a non-negative integer. */
  retry?: number;
  /** A comment (`:` lines), ignored by clients; split on line breaks like `data`. */
  comment?: string;
}

// §9.2.5: "The stream must then be parsed by reading everything line by line, with a U+000D CARRIAGE
// RETURN U+000A LINE FEED (CRLF) character pair, a single U+000A LINE FEED (LF) character not preceded
// by a U+000D CARRIAGE RETURN (CR) character, and a single U+000D CARRIAGE RETURN (CR) character not
// followed by a U+000A LINE FEED (LF) character being the ways in which a line can end."
const LINE_BREAK = /\r\n|\r|\n/;
const LINE_BREAK_RUN = /[\r\n]+/g;
const ID_BREAK_RUN = /[\r\n\0]+/g;

/** Splits text on CRLF, lone CR and lone LF (the three line endings of §9.2.5). */
export function splitSseLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

function optionalString(message: SseMessage, field: 'event' | 'id' | 'comment'): string | undefined {
  const value = message[field];
  if (value === undefined || typeof value === 'string') return value;
  throw new TypeError(`SSE message field "${field}" must be a string, got ${typeof value}`);
}

/** The text of `data`: a string as it is, anything else as JSON. */
function dataText(data: unknown): string | undefined {
  if (data === undefined || typeof data === 'string') return data;
  // JSON.stringify escapes every control character inside strings (RFC 8259 §7), so JSON text never
  // holds a CR or LF and always fits on one `data:` line.
  const text = JSON.stringify(data);
  if (text === undefined) {
    throw new TypeError(`SSE message field "data" cannot be serialised as JSON (got a ${typeof data})`);
  }
  return text;
}

/**
 * Encodes one message as event-stream text, ending with the blank line that dispatches it (§9.2.6),
 * or `''` for a message with no field. Field values are made unable to break the framing: `data`
 * and `comment` become one line each per line they hold; CR/LF runs in `event` and CR/LF/NUL runs
 * in `id` become one space. Throws a TypeError or RangeError naming the field for a malformed message.
 */
export function encodeSseMessage(message: SseMessage): string {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new TypeError(
      `An SSE message must be an object, got ${message === null ? 'null' : typeof message}`,
    );
  }
  const comment = optionalString(message, 'comment');
  const event = optionalString(message, 'event');
  const id = optionalString(message, 'id');
  const retry = message.retry;
  if (retry !== undefined && (typeof retry !== 'number' || !Number.isSafeInteger(retry) || retry < 0)) {
    // §9.2.6: a `retry` value that is not all ASCII digits is ignored by the client; refuse it here instead.
    throw new RangeError(
      `SSE message field "retry" must be a non-negative integer of milliseconds, got ${String(retry)}`,
    );
  }
  const data = dataText(message.data);
  let out = '';
  // Each value follows "<name>: ": the parser strips exactly one space after the colon (§9.2.6), so a
  // value that itself starts with a space keeps it.
  if (comment !== undefined) {
    for (const line of splitSseLines(comment)) out += line === '' ? ':\n' : `: ${line}\n`;
  }
  if (event !== undefined) out += `event: ${event.replace(LINE_BREAK_RUN, ' ')}\n`;
  if (id !== undefined) out += `id: ${id.replace(ID_BREAK_RUN, ' ')}\n`;
  if (retry !== undefined) out += `retry: ${retry}\n`;
  if (data !== undefined) {
    for (const line of splitSseLines(data)) out += `data: ${line}\n`;
  }
  return out === '' ? '' : `${out}\n`;
}
