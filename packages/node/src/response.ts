/**
 * Web `Response` to Node `ServerResponse`: status, reason phrase, every header (each Set-Cookie on its
 * own line), and the body streamed chunk by chunk, waiting for 'drain' whenever the socket is full.
 */
import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { http } from './node-http.ts';
import type { PlannedAnswer } from '@charter/core';

/** What the writer reports back: whether the body was cut short because the response was closed. */
export type WriteOutcome = 'finished' | 'closed';

/**
 * A body reader the adapter can cancel from outside (client disconnect) while the writer awaits it.
 * Cancelling resolves the pending read with `done`, and runs the source stream's `cancel`.
 */
export interface BodyHandle {
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
}

/** RFC 9110 §6.4.1: 1xx, 204 and 304 responses never carry content; HEAD answers never do (§9.3.2). */
export function allowsBody(method: string | undefined, status: number): boolean {
  return method !== 'HEAD' && status >= 200 && status !== 204 && status !== 304;
}

/** The reason phrase: the Response's own, else the standard one for its status. */
const reasonOf = (response: Response): string =>
  response.statusText !== '' ? response.statusText : (http.STATUS_CODES[response.status] ?? '');

/**
 * The header lines of a response as one flat list for `res.writeHead` (the Headers iterator gives each
 * Set-Cookie its own line, RFC 6265 §3), with `Connection: close` when `closeConnection`; undefined
 * when the response sets its own framing (Content-Length, Transfer-Encoding), which Node's
 * setHeader path handles.
 */
function headerLines(response: Response, closeConnection: boolean): string[] | undefined {
  const lines: string[] = [];
  let connection = -1;
  for (const [name, value] of response.headers) {
    if (name === 'content-length' || name === 'transfer-encoding') return undefined;
    if (name === 'connection') connection = lines.length + 1;
    lines.push(name, value);
  }
  if (closeConnection) {
    if (connection < 0) lines.push('connection', 'close');
    else lines[connection] = 'close';
  }
  return lines;
}

/** Sends the head (status, reason, `lines`, and the Content-Length of a known body) in one writeHead. */
function head(res: ServerResponse, response: Response, lines: string[], length?: number): void {
  if (length !== undefined) lines.push('content-length', String(length));
  res.writeHead(response.status, reasonOf(response), lines);
}

/**
 * Writes a response whose whole content is known: `payload`, the text the pipeline built the body
 * from (`responsePayload`), or nothing (a null body, or a status or method that carries none). One
 * `writeHead` with the header lines as a flat list, the Content-Length of the text, then one `end`:
 * Node sends the head and a text body in a single write, and the body stream is never read. Returns
 * false, writing nothing, when the response sets its own framing: writeResponse handles that.
 */
export function writeWhole(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  payload: string | undefined,
  closeConnection: boolean,
): boolean {
  const lines = headerLines(response, closeConnection);
  if (lines === undefined) return false;
  if (!allowsBody(req.method, response.status)) {
    head(res, response, lines);
    res.end();
  } else if (payload === undefined) {
    head(res, response, lines, 0);
    res.end();
  } else {
    head(res, response, lines, Buffer.byteLength(payload));
    res.end(payload);
  }
  return true;
}

/**
 * For each planned header set, its lines with a Content-Length line after them, whose value is filled
 * in before each writeHead: one array per header set instead of a copy per response. writeHead reads
 * the list while it builds the head and keeps no reference to it, so reusing it is safe.
 */
const withLength = new WeakMap<readonly string[], string[]>();

/**
 * A planned header set as node:http's own field table of an outgoing message (OutgoingMessage's
 * `kOutHeaders`, what `setHeader` fills): `{ name: [name, value] }`, with a Content-Length entry whose
 * value is filled in before each writeHead. node:http writes each entry as `name: value` CRLF, and
 * looks at a few names itself (Connection, Content-Length, Transfer-Encoding, Date, Expect, Trailer,
 * Keep-Alive: its framing and keep-alive decisions): those keep entries of their own; every run of
 * other fields between them is one entry whose value carries the rest of the run's lines already
 * joined (`value` CRLF `name: value`...), so the head is built from a few strings instead of four
 * concatenations per field. A fast-properties object, so node:http's `for...in` over it is cheap.
 */
interface FieldTable {
  readonly fields: Record<string, [string, string]>;
  readonly length: [string, string];
}

/** Per planned header set, its field table; null for a set that cannot be one (a repeated name). */
const fieldTables = new WeakMap<readonly string[], FieldTable | null>();

/**
 * The symbol under which node:http keeps a response's field table (`kOutHeaders`), when this runtime
 * has one that works as described below: undefined until looked for; null when it has none (another
 * runtime's node:http, another shape), and the lines are passed instead.
 */
let fieldTableKey: symbol | null | undefined;

function fieldTableKeyOf(res: ServerResponse): symbol | null {
  if (fieldTableKey === undefined) fieldTableKey = findFieldTableKey(res);
  return fieldTableKey;
}

/** Whether heads of planned answers are written from checked field tables on this runtime (tests). */
export function lendsFieldTables(res: ServerResponse): boolean {
  return fieldTableKeyOf(res) !== null;
}

/**
 * Finds the field table's symbol by its description on a response that has none yet, then proves it
 * on a response of its own that is never sent: a table lent for a writeHead must come out in the head.
 */
function findFieldTableKey(res: ServerResponse): symbol | null {
  // Node's own node:http only: Bun's (and Deno's) keep a field table under the same name and build
  // `_header` from it, but send the head from storage of their own, so a lent table passes the probe
  // below and never reaches the wire (Bun 1.4: a planned answer without its header fields).
  if (process.versions.bun !== undefined || 'Deno' in globalThis) return null;
  const key = Object.getOwnPropertySymbols(res).find((symbol) => symbol.description === 'kOutHeaders');
  if (key === undefined || (res as unknown as Record<symbol, unknown>)[key] !== null) return null;
  try {
    const fake = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} };
    const probe = new http.ServerResponse(fake as IncomingMessage);
    const own = probe as unknown as Record<symbol, unknown> & { _header?: unknown };
    if (own[key] !== null) return null;
    const fields = {
      'x-probe': ['x-probe', 'lent\r\nx-probe-run: joined'],
      'content-length': ['content-length', '0'],
    };
    own[key] = Object.setPrototypeOf(fields, null);
    probe.writeHead(200, 'OK');
    own[key] = null;
    const head = own._header;
    return typeof head === 'string' &&
      head.includes('\r\nx-probe: lent\r\nx-probe-run: joined\r\ncontent-length: 0\r\n')
      ? key
      : null;
  } catch {
    return null;
  }
}

/** Field names node:http's writeHead looks at itself (its `matchHeader`): never inside a joined run. */
const NODE_READS = new Set([
  'connection',
  'content-length',
  'transfer-encoding',
  'date',
  'expect',
  'trailer',
  'keep-alive',
]);

/**
 * The field table of a planned header set, built once (see FieldTable). Every name and value goes
 * through node:http's own checks (`validateHeaderName`, `validateHeaderValue`) here, once, so no value
 * holds a CR or LF and the joined lines are exactly the lines writeHead would have accepted one by
 * one (RFC 9112 §5: `field-name ":" OWS field-value OWS`, each line ended by CRLF); a set that fails
 * them, repeats a name or has its own Content-Length has none.
 */
function fieldTableFor(lines: readonly string[]): FieldTable | null {
  let table = fieldTables.get(lines);
  if (table !== undefined) return table;
  table = null;
  try {
    const fields: Record<string, [string, string]> = {};
    const seen = new Set<string>();
    // The run being joined: its entry and its parts (the first value, then `name: value` lines).
    let run: { entry: [string, string]; parts: string[] } | undefined;
    const runs: { entry: [string, string]; parts: string[] }[] = [];
    for (let i = 0; i < lines.length; i += 2) {
      const name = lines[i] as string;
      const value = lines[i + 1] as string;
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
      const key = name.toLowerCase();
      if (seen.has(key) || key === 'content-length') throw new TypeError(`repeated field ${name}`);
      seen.add(key);
      if (NODE_READS.has(key)) {
        fields[key] = [name, value];
        run = undefined;
      } else if (run === undefined) {
        run = { entry: [name, value], parts: [value] };
        runs.push(run);
        fields[key] = run.entry;
      } else {
        run.parts.push(`${name}: ${value}`);
      }
    }
    // Joined by Array#join: one flat string, which node:http copies as it is (a chain of `+` would be
    // walked again on every response).
    for (const { entry, parts } of runs) entry[1] = parts.join('\r\n');
    const length: [string, string] = ['content-length', ''];
    fields['content-length'] = length;
    table = { fields: Object.setPrototypeOf(fields, null), length };
  } catch {
    table = null;
  }
  fieldTables.set(lines, table);
  return table;
}

/**
 * The decimal text of the Content-Length of small bodies, made once per length: a planned answer's
 * length is usually one of a few (each route answers bodies of about the same size), and the string
 * kept in the shared field table is then one that already lives as long as the table.
 */
const CACHED_LENGTHS = 4096;
// Filled, so the array keeps fast elements however sparse the lengths seen.
const LENGTH_TEXTS: (string | undefined)[] = new Array<string | undefined>(CACHED_LENGTHS).fill(undefined);

function lengthText(length: number): string {
  if (length >= CACHED_LENGTHS) return String(length);
  let text = LENGTH_TEXTS[length];
  if (text === undefined) {
    text = String(length);
    LENGTH_TEXTS[length] = text;
  }
  return text;
}

/**
 * Writes the head of a planned answer with a body of `length` bytes and no `Connection: close` (the
 * common case), as one writeHead. Given an array of lines, node:http checks every name and value
 * again on each response (two regular expressions per field, a dozen fields: most of what the head
 * costs); given none while the response's own field table is set, it writes that table as already
 * checked (as it does for fields set one by one with `setHeader`). So the header set's table, checked
 * once when it was built and with its runs of fields already joined (FieldTable), is lent to the
 * response for the writeHead and taken back at once: the head is byte for byte what the lines would
 * give. Without such a table, the lines are passed as before.
 */
function writePlannedHead(
  res: ServerResponse,
  status: number,
  reason: string,
  lines: readonly string[],
  length: number,
): void {
  const key = fieldTableKeyOf(res);
  const table = key === null ? null : fieldTableFor(lines);
  const own = res as unknown as Record<symbol, unknown>;
  if (table !== null && key !== null && own[key] === null) {
    table.length[1] = lengthText(length);
    own[key] = table.fields;
    try {
      res.writeHead(status, reason);
    } finally {
      own[key] = null;
    }
    return;
  }
  let withContentLength = withLength.get(lines);
  if (withContentLength === undefined) {
    withContentLength = [...lines, 'content-length', ''];
    withLength.set(lines, withContentLength);
  }
  withContentLength[withContentLength.length - 1] = lengthText(length);
  res.writeHead(status, reason, withContentLength);
}

/**
 * Writes a planned answer (planned-response.ts in the core): the plan's header lines as they are, with
 * `Connection: close` when `closeConnection`, the Content-Length of the text, one writeHead, one end.
 */
export function writePlanned(
  req: IncomingMessage,
  res: ServerResponse,
  answer: PlannedAnswer,
  closeConnection: boolean,
): void {
  const status = answer.status;
  const reason = http.STATUS_CODES[status] ?? '';
  const payload = answer.payload;
  const length = payload === null ? 0 : Buffer.byteLength(payload);
  if (closeConnection) {
    const lines = [...answer.lines, 'connection', 'close'];
    if (allowsBody(req.method, status)) lines.push('content-length', String(length));
    res.writeHead(status, reason, lines);
  } else if (!allowsBody(req.method, status)) {
    res.writeHead(status, reason, answer.lines as string[]);
  } else {
    writePlannedHead(res, status, reason, answer.lines, length);
  }
  if (payload === null || !allowsBody(req.method, status)) res.end();
  else res.end(payload);
}

/** Copies status and headers. Set-Cookie is set as an array so each cookie is its own field line (RFC 6265 §3). */
export function writeHead(res: ServerResponse, response: Response): void {
  res.statusCode = response.status;
  res.statusMessage = reasonOf(response);
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

/** Resolves once the socket can take more ('drain') or is gone ('close'). */
function writable(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

// One shared promise per turn of the event loop: every response waiting on it in this turn shares
// one setImmediate.
let turn: Promise<undefined> | undefined;
const nextTurn = (): Promise<undefined> => {
  turn ??= new Promise((resolve) =>
    setImmediate(() => {
      turn = undefined;
      resolve(undefined);
    }),
  );
  return turn;
};

/**
 * Writes the response. `closeConnection` (RFC 9112 §9.6): a server that is shutting down says so with
 * `Connection: close`; and answering before the request body was fully read (a refused upload), it
 * closes the connection after the response rather than read and discard an unbounded remainder.
 * A body that completes at once (a JSON document, a string) is sent with
 * `res.end(bytes)` and its Content-Length; a body still producing after one event-loop
 * turn is streamed (chunked, RFC 9112 §7.1) from its first chunk, so server-sent events are not delayed.
 * The head goes out in one writeHead once that is known (a response with its own framing headers is
 * copied with setHeader instead, and Node frames it as they say).
 * Rejects when reading the body fails; the caller decides between a 500 and destroying the socket.
 */
export async function writeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  handle: BodyHandle,
  closeConnection: boolean,
): Promise<WriteOutcome> {
  const body = response.body;
  if (body === null || !allowsBody(req.method, response.status)) {
    if (body !== null) await body.cancel().catch(() => {});
    if (!writeWhole(req, res, response, undefined, closeConnection)) {
      writeHead(res, response);
      if (closeConnection) res.setHeader('connection', 'close');
      res.end();
    }
    return 'finished';
  }
  const lines = headerLines(response, closeConnection);
  if (lines === undefined) {
    writeHead(res, response);
    if (closeConnection) res.setHeader('connection', 'close');
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  handle.reader = reader;
  let complete = false;
  try {
    const first = await reader.read();
    if (first.done || res.destroyed) {
      complete = first.done;
      if (lines !== undefined && !res.destroyed) head(res, response, lines, 0);
      return end(res);
    }
    const secondRead = reader.read();
    // Settled later or never: a rejection is seen where it is awaited, not reported as unhandled.
    secondRead.catch(() => {});
    let pending: Promise<ReadResult> | undefined = secondRead;
    const second = await Promise.race([secondRead, nextTurn()]);
    if (res.destroyed) return 'closed';
    if (second?.done === true) {
      complete = true;
      if (lines !== undefined) head(res, response, lines, first.value.byteLength);
      return end(res, first.value);
    }
    // Streamed: no Content-Length, so Node frames the body with chunked transfer coding.
    if (lines !== undefined) head(res, response, lines);
    let chunk = first.value;
    if (second !== undefined) {
      res.write(chunk);
      chunk = second.value;
      pending = undefined;
    }
    for (;;) {
      if (res.destroyed) return 'closed';
      // Backpressure: write() returning false means the socket buffer is full; wait for 'drain'.
      if (!res.write(chunk)) {
        await writable(res);
        if (res.destroyed) return 'closed';
      }
      const next: ReadResult = await (pending ?? reader.read());
      pending = undefined;
      if (next.done) {
        complete = true;
        return end(res);
      }
      chunk = next.value;
    }
  } finally {
    handle.reader = undefined;
    // Stopped early (client gone, or the source failed): cancel so the source's `cancel` runs and frees
    // whatever it holds (timers, file handles, upstream requests).
    if (!complete) await reader.cancel().catch(() => {});
  }
}

function end(res: ServerResponse, last?: Uint8Array): WriteOutcome {
  if (res.destroyed) return 'closed';
  if (last === undefined) res.end();
  else res.end(last);
  return 'finished';
}
