/**
 * Reading HTTP/1.1 responses off the wire, for the tests that talk to a server over a raw socket
 * (`tests/adapters`, `tests/security`): `fetch` repairs or hides exactly what those tests look at
 * (framing, repeated header lines, a second response that should not be there).
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** The reason phrase (may be empty). */
  reason: string;
  /** The status line as received, e.g. `HTTP/1.1 400 Bad Request`. */
  statusLine: string;
  /** Header lines in order, names lower-cased, repeated lines kept apart. */
  headers: Array<[string, string]>;
  /** The header section exactly as received (status line included), for injection checks. */
  head: string;
  body: string;
  /** False when the connection ended before the body's framing said it was complete. */
  complete: boolean;
}

/** One header's value; repeated lines joined with ', '. */
export function header(response: RawResponse, name: string): string | undefined {
  const values = response.headers.filter(([n]) => n === name.toLowerCase()).map(([, v]) => v);
  return values.length === 0 ? undefined : values.join(', ');
}

/** The body parsed as JSON. */
export function json(response: RawResponse): unknown {
  return JSON.parse(response.body);
}

/** `count` header lines for the header-count tests: `x-h0: v`, `x-h1: v`, ..., or `sameName: v` each. */
export function headerLines(count: number, sameName?: string): string[] {
  return Array.from({ length: count }, (_, i) => `${sameName ?? `x-h${i}`}: v`);
}

/** A request head: request line, Host, the given header lines, blank line. */
export function head(method: string, target: string, headers: string[], host: string): string {
  return `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
}

export interface ParseOptions {
  /** The method of the i-th request (a HEAD answer has no body); default GET. */
  methods?: readonly string[];
  /** The connection has closed: a close-delimited body (RFC 9112 §6.3 item 8) is then complete. */
  closed?: boolean;
}

/** Parses consecutive responses, stopping at the first incomplete one. */
export function parseResponses(text: string, options: ParseOptions = {}): RawResponse[] {
  const out: RawResponse[] = [];
  let offset = 0;
  while (offset < text.length) {
    const parsed = parseOne(text, offset, options.methods?.[out.length] ?? 'GET', options.closed === true);
    if (parsed === undefined) break;
    out.push(parsed.response);
    if (!parsed.response.complete) break;
    offset = parsed.next;
  }
  return out;
}

function parseOne(
  text: string,
  offset: number,
  method: string,
  closed: boolean,
): { response: RawResponse; next: number } | undefined {
  const headEnd = text.indexOf('\r\n\r\n', offset);
  if (headEnd < 0) return undefined;
  const head = text.slice(offset, headEnd);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
  if (match === null) throw new Error(`Not a status line: ${JSON.stringify(statusLine)}`);
  const status = Number(match[1]);
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
  const response: RawResponse = {
    status,
    reason: match[2] ?? '',
    statusLine,
    headers,
    head,
    body: '',
    complete: false,
  };
  let cursor = headEnd + 4;
  const te = header(response, 'transfer-encoding');
  const length = header(response, 'content-length');
  if (method === 'HEAD' || status === 204 || status === 304 || status < 200) {
    response.complete = true;
  } else if (te !== undefined && te.toLowerCase().includes('chunked')) {
    for (;;) {
      const lineEnd = text.indexOf('\r\n', cursor);
      if (lineEnd < 0) break;
      const size = Number.parseInt(text.slice(cursor, lineEnd), 16);
      if (size === 0) {
        const trailerEnd = text.indexOf('\r\n', lineEnd + 2);
        if (trailerEnd >= 0) {
          response.complete = true;
          cursor = trailerEnd + 2;
        }
        break;
      }
      if (text.length < lineEnd + 2 + size + 2) break;
      response.body += text.slice(lineEnd + 2, lineEnd + 2 + size);
      cursor = lineEnd + 2 + size + 2;
    }
  } else if (length !== undefined) {
    const n = Number(length);
    response.body = text.slice(cursor, cursor + n);
    response.complete = response.body.length === n;
    cursor += response.body.length;
  } else {
    // Close-delimited (RFC 9112 §6.3 item 8): whatever arrived; complete once the connection closed.
    response.body = text.slice(cursor);
    response.complete = closed;
    cursor = text.length;
  }
  return { response, next: cursor };
}

/**
 * A TCP connection whose received bytes accumulate in `text` (latin1: one char per byte), with a
 * way to wait for a condition on what arrived. The adapter and red-team clients build on it.
 */
export class RawSocket {
  readonly socket: Socket;
  text = '';
  closed = false;
  /** Milliseconds from the first write to the first byte received (undefined: nothing came). */
  firstByteMs: number | undefined;
  #started = 0;
  readonly #waiters = new Set<() => void>();
  /** How strings are written: `latin1` keeps hostile bytes (NUL, DEL, 0xE9) exactly as written. */
  protected readonly encoding: 'utf8' | 'latin1' = 'utf8';

  constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.firstByteMs ??= performance.now() - this.#started;
      this.text += chunk;
      for (const waiter of this.#waiters) waiter();
    });
    socket.on('close', () => {
      this.closed = true;
      for (const waiter of this.#waiters) waiter();
    });
    // A reset after the server refused the request is an answer too (closed), never a test crash.
    socket.on('error', () => {});
  }

  /** Connects, resolving with an instance of the class it is called on. */
  static open<T extends RawSocket>(
    this: new (
      socket: Socket,
    ) => T,
    port: number,
    host = '127.0.0.1',
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host);
      socket.once('connect', () => resolve(new this(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Uint8Array): boolean {
    if (this.#started === 0) this.#started = performance.now();
    return typeof data === 'string'
      ? this.socket.write(Buffer.from(data, this.encoding))
      : this.socket.write(data);
  }

  /** Resolves once `predicate(this)` holds; rejects with what was received after `timeoutMs`. */
  waitFor(predicate: (socket: this) => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
    if (predicate(this)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!predicate(this)) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(
          new Error(
            `Timed out after ${timeoutMs} ms waiting for ${what}; received: ${JSON.stringify(this.text.slice(0, 400))}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** Waits until the server closes the connection. */
  waitClosed(timeoutMs = 3000): Promise<void> {
    return this.waitFor((c) => c.closed, timeoutMs, 'the server to close the connection');
  }

  destroy(): void {
    this.socket.destroy();
  }
}
