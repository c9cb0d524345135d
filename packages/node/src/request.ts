/**
 * Node `IncomingMessage` to Web `Request`: method, absolute URL, every header line, and a body that is
 * streamed from the socket (never buffered here) with backpressure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PayloadTooLargeError } from '@charter/core';
import { isFieldName } from './light-headers.ts';
import { type LightBody, NodeLightRequest } from './light-request.ts';

/** Request bodies are queued up to this many bytes before the socket is paused. */
const BODY_HIGH_WATER_MARK = 64 * 1024;

/**
 * RFC 9110 §7.2 / RFC 3986 §3.2.2: `host [":" port]`, where host is an IP-literal in brackets or a
 * reg-name/IPv4 address. Anything else (a path, a query, `@`, spaces) is not an authority and must never be
 * spliced into the URL, or a client could choose the path the app sees.
 */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{1,5})?$/;
const ABSOLUTE_FORM = /^https?:\/\//i;

const schemeOf = (req: IncomingMessage): 'http' | 'https' =>
  (req.socket as { encrypted?: boolean } | null)?.encrypted === true ? 'https' : 'http';

/** Where the request arrived (`host:port`), for requests whose Host header cannot be used. */
export function socketAuthority(req: IncomingMessage): string {
  const { localAddress, localPort } = req.socket;
  if (localAddress === undefined) return 'localhost';
  return `${formatHost(localAddress)}${localPort === undefined ? '' : `:${localPort}`}`;
}

/** An address as it appears in a URL authority: IPv6 in brackets (RFC 3986 §3.2.2). */
export function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The absolute URL of a request; undefined when the request target cannot form one. */
export function requestUrl(req: IncomingMessage, fallbackAuthority?: string): string | undefined {
  return urlOf(req, req.headers.host, fallbackAuthority);
}

/** `requestUrl`, given the Host field value (the first Host line), so `req.headers` need not be built. */
function urlOf(
  req: IncomingMessage,
  host: string | undefined,
  fallbackAuthority?: string,
): string | undefined {
  const target = req.url ?? '/';
  // RFC 9112 §3.2.2: an absolute-form target carries its own authority, which wins over Host.
  if (ABSOLUTE_FORM.test(target)) return URL.canParse(target) ? target : undefined;
  // RFC 9112 §3.2.1: anything else but origin-form (`/path?query`) is not for an origin server here
  // (asterisk-form `OPTIONS *` included).
  if (!target.startsWith('/')) return undefined;
  const scheme = schemeOf(req);
  // RFC 9112 §3.2 asks for a 400 on a missing or invalid Host; we fall back to the address the request
  // arrived on instead, so HTTP/1.0 clients (which send no Host) and sloppy ones still reach the app,
  // while a hostile value never becomes part of the URL.
  if (host !== undefined && AUTHORITY.test(host)) {
    const url = `${scheme}://${host}${target}`;
    if (URL.canParse(url)) return url;
  }
  const url = `${scheme}://${fallbackAuthority ?? socketAuthority(req)}${target}`;
  return URL.canParse(url) ? url : undefined;
}

/** Every header line, in order; repeated fields stay repeated (`Headers` joins them per RFC 9110 §5.3). */
export function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  // RFC 9110 §7.8: a server MUST ignore Upgrade in an HTTP/1.0 request (so no WebSocket handshake,
  // which needs HTTP/1.1, RFC 6455 §4.1).
  const ignoreUpgrade = req.httpVersionMajor === 1 && req.httpVersionMinor === 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (ignoreUpgrade && name.length === 7 && name.toLowerCase() === 'upgrade') continue;
    headers.append(name, raw[i + 1] as string);
  }
  return headers;
}

/**
 * RFC 9112 §6.3: a request has content only when it says so, with Transfer-Encoding or a non-zero
 * Content-Length; without either the body length is zero.
 */
export function hasBody(req: IncomingMessage): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * Whether a Content-Length value declares more than `limit` bytes. Node's parser accepts lengths up to
 * 2^64-1, past what a JS number holds exactly (2^53-1), so the decimal string is compared by its digit
 * count and then digit by digit: never rounded, whatever its size. Anything but `1*DIGIT` (RFC 9110
 * §8.6) is false here; Node's parser has refused such values before a request exists.
 */
export function declaresMoreThan(contentLength: string | undefined, limit: number): boolean {
  if (contentLength === undefined || contentLength === '') return false;
  let start = 0;
  for (let i = 0; i < contentLength.length; i++) {
    const c = contentLength.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
    if (c === 0x30 && start === i) start = i + 1;
  }
  const digits = contentLength.slice(start);
  const max = String(limit);
  if (digits.length !== max.length) return digits.length > max.length;
  return digits > max;
}

/**
 * RFC 9110 §10.1.1: the client asked to hear `100 Continue` before it sends the content, and nobody has
 * sent it yet (Node writes it itself, before the request event, unless the server listens for
 * 'checkContinue'; `_sent100` is how its ServerResponse records that it did).
 */
export function awaitsContinue(req: IncomingMessage, res: ServerResponse): boolean {
  const expect = req.headers.expect;
  return expect !== undefined && EXPECTS_CONTINUE.test(expect) && awaitsContinueOn(req, res);
}

const EXPECTS_CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/** `awaitsContinue` once the Expect field is known to ask for it: HTTP/1.1, and no 100 sent yet. */
function awaitsContinueOn(req: IncomingMessage, res: ServerResponse): boolean {
  const sent = (res as ServerResponse & { _sent100?: boolean })._sent100 === true;
  return req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && !sent;
}

/** The content of a request, as the Request's body stream and as one direct read of all of it. */
export interface RequestContent {
  stream: ReadableStream<Uint8Array>;
  /**
   * All the content at once, collected straight off the IncomingMessage (no stream reader, no promise
   * per chunk): only while the stream has taken none of it and nobody holds a reader. The stream is
   * then cancelled, so the body reads as used, as after any read. Undefined when that is too late.
   */
  readAll(): Promise<Uint8Array> | undefined;
}

/** The error a body read fails with when the connection fails or closes before the content ended. */
const notReceived = (error: Error): DOMException =>
  new DOMException(`The request body was not fully received: ${error.message}`, 'AbortError');

/**
 * The request body as a byte stream. The socket is paused while the queue is full and resumed when the
 * reader pulls, so a slow consumer slows the client down instead of filling memory. Cancelling (the app
 * refused the body) detaches the stream; the connection is then closed after the response (see
 * response.ts) rather than reading an unbounded remainder.
 */
export function requestBody(req: IncomingMessage, sendContinue?: () => void): ReadableStream<Uint8Array> {
  return requestContent(req, sendContinue).stream;
}

/** `requestBody`, with the direct read of the whole content beside it (see RequestContent). */
export function requestContent(req: IncomingMessage, sendContinue?: () => void): RequestContent {
  let finished = false;
  // The stream has taken content off the request: a direct read would miss it.
  let received = false;
  const detach = (): void => {
    finished = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer): void => {
    if (finished) return;
    received = true;
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = (): void => {
    if (finished) return;
    detach();
    controller.close();
  };
  const onError = (error: Error): void => {
    if (finished) return;
    detach();
    controller.error(notReceived(error));
  };
  // 'close' before 'end': the client went away mid-body (Node also emits 'error', Bun may not).
  const onClose = (): void => onError(new Error('the connection closed'));
  // The app reads the content: only now is the client invited to send it (RFC 9110 §10.1.1).
  const invite = (): void => {
    if (sendContinue !== undefined) {
      sendContinue();
      sendContinue = undefined;
    }
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
        req.on('close', onClose);
      },
      pull() {
        invite();
        req.resume();
      },
      cancel() {
        detach();
      },
    },
    // A stream with a high-water mark pulls as soon as it exists; one that waits for the 100 must pull
    // only when the app reads, so it queues nothing ahead.
    {
      highWaterMark: sendContinue === undefined ? BODY_HIGH_WATER_MARK : 0,
      size: (chunk) => chunk?.byteLength ?? 0,
    },
  );
  const readAll = (): Promise<Uint8Array> | undefined => {
    if (received || finished || stream.locked) return undefined;
    // The stream lets go of the request (and reads as used); its listeners never saw a byte.
    stream.cancel().catch(() => {});
    invite();
    return readWhole(req);
  };
  return { stream, readAll };
}

/** One whole read in progress (readWhole), kept on the request for the listeners every read shares. */
interface WholeRead {
  /** The first chunk, and the later ones when there are more (most small bodies come in one). */
  first: Buffer | undefined;
  rest: Buffer[] | undefined;
  size: number;
  done: boolean;
  resolve: (bytes: Uint8Array) => void;
  reject: (error: unknown) => void;
}

const WHOLE_READ = Symbol('charter.node.wholeRead');
type Reading = IncomingMessage & { [WHOLE_READ]?: WholeRead };

// Module-level listeners, called with the request as `this`: no closure per read. They stay attached
// once the read settled (the request is spent by then), and do nothing more.
function onWholeData(this: Reading, chunk: Buffer): void {
  const read = this[WHOLE_READ];
  if (read === undefined || read.done) return;
  if (read.first === undefined) read.first = chunk;
  else (read.rest ??= []).push(chunk);
  read.size += chunk.byteLength;
}

function onWholeEnd(this: Reading): void {
  const read = this[WHOLE_READ];
  if (read === undefined || read.done) return;
  read.done = true;
  // A fresh array, never a view of Node's read buffer (which holds the request head as well).
  const bytes = new Uint8Array(read.size);
  if (read.first !== undefined) bytes.set(read.first, 0);
  if (read.rest !== undefined) {
    let offset = read.first?.byteLength ?? 0;
    for (const chunk of read.rest) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  read.first = undefined;
  read.rest = undefined;
  read.resolve(bytes);
}

function onWholeError(this: Reading, error: Error): void {
  const read = this[WHOLE_READ];
  if (read === undefined || read.done) return;
  read.done = true;
  read.first = undefined;
  read.rest = undefined;
  read.reject(notReceived(error));
}

// 'close' before 'end': the client went away mid-body (Node also emits 'error', Bun may not).
function onWholeClose(this: Reading): void {
  const read = this[WHOLE_READ];
  if (read === undefined || read.done) return;
  onWholeError.call(this, new Error('the connection closed'));
}

/** Collects the rest of a request's content into one fresh Uint8Array. */
export function readWhole(req: IncomingMessage): Promise<Uint8Array> {
  if ((req as Reading)[WHOLE_READ] !== undefined) {
    return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
  }
  return new Promise((resolve, reject) => {
    (req as Reading)[WHOLE_READ] = {
      first: undefined,
      rest: undefined,
      size: 0,
      done: false,
      resolve,
      reject,
    };
    req.on('data', onWholeData);
    req.on('end', onWholeEnd);
    req.on('error', onWholeError);
    req.on('close', onWholeClose);
    req.resume();
  });
}

/** A body read off the socket: as a stream, or whole (the pipeline's usual read). */
class SocketBody implements LightBody {
  readonly #req: IncomingMessage;
  readonly #sendContinue: (() => void) | undefined;
  /** The Content-Length of a body framed by it (not chunked), awaiting no `100 Continue`. */
  readonly #length: string | undefined;

  constructor(
    req: IncomingMessage,
    sendContinue: (() => void) | undefined,
    contentLength: string | undefined,
  ) {
    this.#req = req;
    this.#sendContinue = sendContinue;
    this.#length = sendContinue === undefined ? contentLength : undefined;
  }

  content(): RequestContent {
    return requestContent(this.#req, this.#sendContinue);
  }

  /** The whole content straight off the socket, no stream made; the client is invited to send it now (RFC 9110 §10.1.1). */
  whole(): Promise<Uint8Array> {
    this.#sendContinue?.();
    return readWhole(this.#req);
  }

  get mayHaveArrived(): boolean {
    return this.#length !== undefined;
  }

  arrived(): Uint8Array | undefined {
    const length = this.#length;
    return length === undefined ? undefined : arrivedContent(this.#req, length);
  }
}

/** The body of a request declaring more than the limit: see refusedBody. */
class RefusedBody implements LightBody {
  readonly #limit: number;
  constructor(limit: number) {
    this.#limit = limit;
  }
  content(): RequestContent {
    return { stream: refusedBody(this.#limit), readAll: () => undefined };
  }
  get mayHaveArrived(): boolean {
    return false;
  }
  arrived(): undefined {
    return undefined;
  }
}

/**
 * The whole content of a request framed by Content-Length `length`, when all of it has arrived and
 * nobody has read any: taken off the message now, as one fresh array (never a view of Node's read
 * buffer, which holds the request head as well). Node's parser hands the message the content that
 * came in the same packets as the head right after the 'request' event, and the message keeps it
 * until it is read; holding `length` bytes, it holds all of it (RFC 9112 §6.2: the parser never
 * passes on more), even before the parser has flagged the message `complete`. Undefined when some
 * is still to come or was read already: read it the usual way then.
 */
export function arrivedContent(req: IncomingMessage, length: string): Uint8Array | undefined {
  if (req.readableFlowing !== null || (req as Reading)[WHOLE_READ] !== undefined) return undefined;
  if (String(req.readableLength) !== length) return undefined;
  const chunk = req.read() as Buffer | null;
  return chunk === null ? undefined : new Uint8Array(chunk);
}

/**
 * The body of a request whose Content-Length is over the App's limit: it fails with the App's 413 on
 * the first read, never touching the socket (so no 100 Continue goes out either). The core parses
 * Content-Length into a JS number and reads a length past 2^53-1 as a stream; without this, such a
 * request would wait for gigabytes that never come, until a timeout answered 408.
 */
export function refusedBody(limit: number): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.error(new PayloadTooLargeError(`The request body exceeds the limit of ${limit} bytes`));
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Whether an origin-form target is already what the WHATWG URL parser would serialise it to: it starts
 * with `/` and holds only characters the parser keeps as they are in a path and a query (RFC 3986
 * unreserved, `/`, `?`, `=`, `&`, `:`, `@`, `!`, `$`, `(`, `)`, `*`, `+`, `,`, `;`). Anything else (a
 * `.` that may form a dot segment, `%`, `\\`, `'`, `#`, spaces, non-ASCII...) goes through the parser.
 */
export function isPlainTarget(target: string): boolean {
  if (target.charCodeAt(0) !== SLASH) return false;
  for (let i = 1; i < target.length; i++) {
    if (!PLAIN_TARGET[target.charCodeAt(i)]) return false;
  }
  return true;
}

const PLAIN_TARGET: readonly boolean[] = (() => {
  const table: boolean[] = new Array(128).fill(false);
  const allow = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_~/?=&:@!$()*+,;';
  for (let i = 0; i < allow.length; i++) table[allow.charCodeAt(i)] = true;
  return table;
})();

// The last Host value that was a valid authority: nearly every request to a server carries the same
// one, so the pattern runs once and each later request pays one string comparison.
let lastAuthority: string | undefined;
const SLASH = 0x2f;

/**
 * What the adapter needs from a request's header section, found in one pass over the raw lines, so
 * Node's `req.headers` object is never built: the first Host line, the body framing, whether the
 * client awaits `100 Continue`, and whether an Upgrade line is present.
 */
export interface HeadFacts {
  host: string | undefined;
  contentLength: string | undefined;
  chunked: boolean;
  expectsContinue: boolean;
  upgrade: boolean;
}

/** Scans the raw header lines of `req` once (names compared by length first, then case-insensitively). */
export function scanHead(req: IncomingMessage): HeadFacts {
  const raw = req.rawHeaders;
  const facts: HeadFacts = {
    host: undefined,
    contentLength: undefined,
    chunked: false,
    expectsContinue: false,
    upgrade: false,
  };
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    switch (name.length) {
      case 4:
        if (facts.host === undefined && isFieldName(name, 'host')) facts.host = raw[i + 1];
        break;
      case 6:
        if (!facts.expectsContinue && isFieldName(name, 'expect'))
          facts.expectsContinue = EXPECTS_CONTINUE.test(raw[i + 1] as string);
        break;
      case 7:
        if (isFieldName(name, 'upgrade')) facts.upgrade = true;
        break;
      case 14:
        if (facts.contentLength === undefined && isFieldName(name, 'content-length'))
          facts.contentLength = raw[i + 1];
        break;
      case 17:
        if (isFieldName(name, 'transfer-encoding')) facts.chunked = true;
        break;
    }
  }
  return facts;
}

/**
 * Methods a Fetch `Request` refuses (Fetch standard, "forbidden method"): answered 501 by the handler.
 * Compared case-sensitively, as Fetch does; three comparisons cost less than a set lookup per request.
 */
const isForbiddenMethod = (method: string): boolean =>
  method.length >= 5 && (method === 'CONNECT' || method === 'TRACE' || method === 'TRACK');

/**
 * The request for a Node request (a NodeLightRequest: see light-request.ts), or undefined when its
 * target cannot form a URL (answer 400); throws a TypeError, as the Fetch `Request` constructor would,
 * for a forbidden method or a header line a `Headers` refuses. `head` is what `scanHead` found; every
 * raw header line goes into its headers (repeated fields stay repeated, RFC 9110 §5.3).
 * `fallbackAuthority` replaces a missing or malformed Host; by default, the address the socket
 * accepted on. `res` tells whether a `100 Continue` is still owed (RFC 9110 §10.1.1): it is then sent
 * when the app first reads the body.
 */
export function toNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  head: HeadFacts,
  fallbackAuthority: string | undefined,
  limit: number | undefined,
): NodeLightRequest | undefined {
  const method = req.method ?? 'GET';
  if (isForbiddenMethod(method)) throw new TypeError(`'${method}' HTTP method is unsupported.`);
  const { host, contentLength } = head;
  // RFC 9112 §6.3: content only when Transfer-Encoding or a non-zero Content-Length says so.
  const announcesContent = head.chunked || (contentLength !== undefined && contentLength !== '0');
  let body: LightBody | undefined;
  if (announcesContent && method !== 'GET' && method !== 'HEAD') {
    const sendContinue =
      head.expectsContinue && awaitsContinueOn(req, res) ? () => res.writeContinue() : undefined;
    body =
      limit !== undefined && declaresMoreThan(contentLength, limit)
        ? new RefusedBody(limit)
        : new SocketBody(req, sendContinue, head.chunked ? undefined : contentLength);
  }

  let url: string | undefined;
  // The common case: an origin-form target and the Host every request to this server carries, which
  // already made a URL once: joined without parsing (the core splits the URL itself).
  const target = req.url ?? '/';
  if (host !== undefined && host === lastAuthority && isPlainTarget(target)) {
    url = `${schemeOf(req)}://${host}${target}`;
  } else if (host !== undefined && target.charCodeAt(0) === SLASH && AUTHORITY.test(host)) {
    // The URL parser's own serialisation: dot segments resolved, backslashes made slashes, characters
    // percent-encoded as Fetch would (WHATWG URL), exactly what a Request's url says.
    const parsed = URL.parse(`${schemeOf(req)}://${host}${target}`);
    if (parsed !== null) {
      url = parsed.href;
      lastAuthority = host;
    }
  }
  url ??= urlOf(req, host, fallbackAuthority);
  if (url === undefined) return undefined;
  const request = new NodeLightRequest(
    req,
    method,
    url,
    announcesContent,
    // RFC 9110 §7.8: a server MUST ignore Upgrade in an HTTP/1.0 request (so no WebSocket handshake,
    // which needs HTTP/1.1, RFC 6455 §4.1).
    head.upgrade && req.httpVersionMajor === 1 && req.httpVersionMinor === 0,
    body,
  );
  return request;
}
