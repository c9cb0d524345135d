/**
 * Node `IncomingMessage` to Web `Request`: method, absolute URL, every header line, and a body that is
 * streamed from the socket (never buffered here) with backpressure.
 */
import type { IncomingMessage } from 'node:http';

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
 * The request body as a byte stream. The socket is paused while the queue is full and resumed when the
 * reader pulls, so a slow consumer slows the client down instead of filling memory. Cancelling (the app
 * refused the body) detaches the stream; the connection is then closed after the response (see
 * response.ts) rather than reading an unbounded remainder.
 */
export function requestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
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
        req.resume();
      },
      cancel() {
        detach();
      },
    },
    { highWaterMark: BODY_HIGH_WATER_MARK, size: (chunk) => chunk?.byteLength ?? 0 },
  );
}

/**
 * The Web Request for a Node request, or undefined when its target cannot form a URL (answer 400).
 * `fallbackAuthority` replaces a missing or malformed Host; by default, the address the socket accepted on.
 */
export function toWebRequest(
  req: IncomingMessage,
  signal: AbortSignal,
  fallbackAuthority?: string,
): Request | undefined {
  const url = requestUrl(req, fallbackAuthority);
  if (url === undefined) return undefined;
  const method = req.method ?? 'GET';
  const body = hasBody(req) ? requestBody(req) : null;
  // A streamed request body needs `duplex: 'half'` (Fetch standard, RequestInit.duplex) in Node's undici.
  return new Request(url, {
    method,
    headers: requestHeaders(req),
    body,
    signal,
    duplex: 'half',
  } as RequestInit);
}
