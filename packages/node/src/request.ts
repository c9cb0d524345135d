/**
 * Node `IncomingMessage` to Web `Request`: method, absolute URL, every header line, and a body that is
 * streamed from the socket (never buffered here) with backpressure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PayloadTooLargeError } from '@charter/core';

/** Request bodies are queued up to this many bytes before the socket is paused. */
const BODY_HIGH_WATER_MARK = 64 * 1024;

/**
 * RFC 9110 §7.2 / RFC 3986 §3.2.2: `host [":" port]`, where host is an IP-literal in brackets or a
 * reg-name/IPv4 address. Anything else (a path, a query, `@`, spaces) is not an authority and must never be
 * spliced into the URL, or a client could choose the path the app sees.
 */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{1,5})?$/;
const ABSOLUTE_FORM = /^https?:\/\//i;

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
  const target = req.url ?? '/';
  // RFC 9112 §3.2.2: an absolute-form target carries its own authority, which wins over Host.
  if (ABSOLUTE_FORM.test(target)) return URL.canParse(target) ? target : undefined;
  // RFC 9112 §3.2.1: anything else but origin-form (`/path?query`) is not for an origin server here
  // (asterisk-form `OPTIONS *` included).
  if (!target.startsWith('/')) return undefined;
  const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  // RFC 9112 §3.2 asks for a 400 on a missing or invalid Host; we fall back to the address the request
  // arrived on instead, so HTTP/1.0 clients (which send no Host) and sloppy ones still reach the app,
  // while a hostile value never becomes part of the URL.
  const host = req.headers.host;
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
  const sent = (res as ServerResponse & { _sent100?: boolean })._sent100 === true;
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1 || sent) return false;
  const expect = req.headers.expect;
  return expect !== undefined && /(?:^|\W)100-continue(?:$|\W)/i.test(expect);
}

/**
 * The request body as a byte stream. The socket is paused while the queue is full and resumed when the
 * reader pulls, so a slow consumer slows the client down instead of filling memory. Cancelling (the app
 * refused the body) detaches the stream; the connection is then closed after the response (see
 * response.ts) rather than reading an unbounded remainder.
 */
export function requestBody(req: IncomingMessage, sendContinue?: () => void): ReadableStream<Uint8Array> {
  let finished = false;
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
    controller.error(
      new DOMException(`The request body was not fully received: ${error.message}`, 'AbortError'),
    );
  };
  // 'close' before 'end': the client went away mid-body (Node also emits 'error', Bun may not).
  const onClose = (): void => onError(new Error('the connection closed'));
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
        req.on('close', onClose);
      },
      pull() {
        // The app reads the content: only now is the client invited to send it (RFC 9110 §10.1.1).
        if (sendContinue !== undefined) {
          sendContinue();
          sendContinue = undefined;
        }
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

/** How the body of a request is handed to the app. */
export interface BodyOptions {
  /** The App's `bodyLimitBytes`: a Content-Length over it gets a body that fails with a 413 at once. */
  limit?: number;
  /** Sends `100 Continue`; called when the app first reads the body (the request awaits it). */
  sendContinue?: () => void;
}

/**
 * The Web Request for a Node request, or undefined when its target cannot form a URL (answer 400).
 * `fallbackAuthority` replaces a missing or malformed Host; by default, the address the socket accepted on.
 */
export function toWebRequest(
  req: IncomingMessage,
  signal: AbortSignal,
  fallbackAuthority?: string,
  body: BodyOptions = {},
): Request | undefined {
  const url = requestUrl(req, fallbackAuthority);
  if (url === undefined) return undefined;
  const method = req.method ?? 'GET';
  const stream = !hasBody(req)
    ? null
    : body.limit !== undefined && declaresMoreThan(req.headers['content-length'], body.limit)
      ? refusedBody(body.limit)
      : requestBody(req, body.sendContinue);
  // A streamed request body needs `duplex: 'half'` (Fetch standard, RequestInit.duplex) in Node's undici.
  return new Request(url, {
    method,
    headers: requestHeaders(req),
    body: stream,
    signal,
    duplex: 'half',
  } as RequestInit);
}
