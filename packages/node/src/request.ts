/**
 * Node `IncomingMessage` to Web `Request`: method, absolute URL, every header line, and a body that is
 * streamed from the socket (never buffered here) with backpressure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PayloadTooLargeError, WIRE_ANSWERS } from '@charter/core';

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

/** Collects the rest of a request's content into one fresh Uint8Array. */
function readWhole(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const detach = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.byteLength;
    };
    const onEnd = (): void => {
      detach();
      const bytes = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
      resolve(bytes);
    };
    const onError = (error: Error): void => {
      detach();
      reject(notReceived(error));
    };
    const onClose = (): void => onError(new Error('the connection closed'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    req.resume();
  });
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
 * The Request the adapter hands to the app: a real Fetch `Request` (method, URL, headers and body as
 * Node received them), whose `signal` is made only when someone reads it. A signal passed to the
 * Request constructor instead would cost every request an AbortController that the Request follows
 * (listeners, a WeakRef and a FinalizationRegistry entry in Node's undici), though few handlers ever
 * look at it. The adapter calls `disconnect` when the client leaves; a signal read later is already
 * aborted with the same reason.
 */
export class NodeRequest extends Request {
  /**
   * The header section announced content (Content-Length above 0 or Transfer-Encoding, whatever the
   * method): unless it was read to the end, the connection closes after the response (RFC 9112 §9.6).
   */
  readonly announcesContent: boolean;
  #controller: AbortController | undefined = undefined;
  #disconnected = false;
  #reason: unknown = undefined;
  #readAll: RequestContent['readAll'] | undefined;

  constructor(
    url: string,
    init: RequestInit | undefined,
    announcesContent: boolean,
    readAll?: RequestContent['readAll'],
  ) {
    super(url, init);
    this.announcesContent = announcesContent;
    this.#readAll = readAll;
  }

  /**
   * The whole body, as Fetch's `bytes()`. While the body stream is untouched (the common case: the
   * pipeline reads a framed body before anything else looks at it), it is collected straight off the
   * socket; otherwise, read through the stream.
   */
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const readAll = this.#readAll;
    if (readAll !== undefined) {
      this.#readAll = undefined;
      const read = readAll();
      if (read !== undefined) return read as Promise<Uint8Array<ArrayBuffer>>;
    }
    return super.bytes();
  }

  /** This adapter writes the pipeline's planned answers itself (planned-response.ts in the core). */
  get [WIRE_ANSWERS](): boolean {
    return true;
  }

  /** Aborts when the client leaves before the response is complete, or the server ends the connection. */
  override get signal(): AbortSignal {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = new AbortController();
      if (this.#disconnected) controller.abort(this.#reason);
      this.#controller = controller;
    }
    return controller.signal;
  }

  /** The connection is gone: `signal` aborts with `reason` (now, or as soon as it is made). */
  disconnect(reason: unknown): void {
    if (this.#disconnected) return;
    this.#disconnected = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

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
        if (facts.host === undefined && name.toLowerCase() === 'host') facts.host = raw[i + 1];
        break;
      case 6:
        if (!facts.expectsContinue && name.toLowerCase() === 'expect')
          facts.expectsContinue = EXPECTS_CONTINUE.test(raw[i + 1] as string);
        break;
      case 7:
        if (name.toLowerCase() === 'upgrade') facts.upgrade = true;
        break;
      case 14:
        if (facts.contentLength === undefined && name.toLowerCase() === 'content-length')
          facts.contentLength = raw[i + 1];
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') facts.chunked = true;
        break;
    }
  }
  return facts;
}

/**
 * The NodeRequest for a Node request, or undefined when its target cannot form a URL (answer 400);
 * throws the Fetch TypeError for a method or header value a Request refuses. `head` is what
 * `scanHead` found; every raw header line is appended to the Request's own headers (repeated fields
 * stay repeated, RFC 9110 §5.3). `fallbackAuthority` replaces a missing or malformed Host; by default,
 * the address the socket accepted on. `res` tells whether a `100 Continue` is still owed (RFC 9110
 * §10.1.1): it is then sent when the app first reads the body.
 */
export function toNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  head: HeadFacts,
  fallbackAuthority: string | undefined,
  limit: number | undefined,
): NodeRequest | undefined {
  const method = req.method ?? 'GET';
  const { host, contentLength } = head;
  // RFC 9112 §6.3: content only when Transfer-Encoding or a non-zero Content-Length says so.
  const announcesContent = head.chunked || (contentLength !== undefined && contentLength !== '0');
  let init: RequestInit | undefined;
  let stream: ReadableStream<Uint8Array> | undefined;
  let readAll: RequestContent['readAll'] | undefined;
  if (announcesContent && method !== 'GET' && method !== 'HEAD') {
    const sendContinue =
      head.expectsContinue && awaitsContinueOn(req, res) ? () => res.writeContinue() : undefined;
    if (limit !== undefined && declaresMoreThan(contentLength, limit)) stream = refusedBody(limit);
    else ({ stream, readAll } = requestContent(req, sendContinue));
    // A streamed request body needs `duplex: 'half'` (Fetch standard, RequestInit.duplex) in Node's undici.
    init = { method, body: stream, duplex: 'half' } as RequestInit;
  } else if (method !== 'GET') {
    init = { method };
  }

  let request: NodeRequest | undefined;
  // The common case: an origin-form target and a Host that is a valid authority, joined without
  // parsing the URL twice (the constructor parses it; a URL it refuses takes the careful path below).
  const target = req.url ?? '/';
  if (
    host !== undefined &&
    target.charCodeAt(0) === SLASH &&
    (host === lastAuthority || AUTHORITY.test(host))
  ) {
    try {
      request = new NodeRequest(`${schemeOf(req)}://${host}${target}`, init, announcesContent, readAll);
      lastAuthority = host;
    } catch {
      request = undefined;
    }
  }
  if (request === undefined) {
    const url = urlOf(req, host, fallbackAuthority);
    try {
      if (url !== undefined) request = new NodeRequest(url, init, announcesContent, readAll);
    } finally {
      // Refused: nothing will read the body, so the listeners its stream attached come off again.
      if (request === undefined) stream?.cancel().catch(() => {});
    }
    if (request === undefined) return undefined;
  }
  // RFC 9110 §7.8: a server MUST ignore Upgrade in an HTTP/1.0 request (so no WebSocket handshake,
  // which needs HTTP/1.1, RFC 6455 §4.1).
  const ignoreUpgrade = head.upgrade && req.httpVersionMajor === 1 && req.httpVersionMinor === 0;
  const raw = req.rawHeaders;
  const headers = request.headers;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (ignoreUpgrade && name.length === 7 && name.toLowerCase() === 'upgrade') continue;
    headers.append(name, raw[i + 1] as string);
  }
  return request;
}
