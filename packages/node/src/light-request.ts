/**
 * The request the Node adapter hands to the pipeline: what the pipeline reads (method, URL, headers,
 * the whole body at once) without building an undici `Request`, whose constructor alone costs more
 * than a small route's own work on Node (light-request.ts in the core). The real `Request` is built
 * the first time anything else is asked for (the body stream, clone(), `new Request(...)` in user
 * code, which always receives the real one): same method, URL, headers and body, the signal of this
 * request, and the peer address and TLS client certificate the adapter recorded.
 *
 * Once a real Request was built, its prototype chain runs through `Request.prototype`, so
 * `instanceof Request` holds (`linkLightRequests`); every member of Request is defined here, each
 * either answered from Node's message or delegated to the real Request.
 */
import type { IncomingMessage } from 'node:http';
import { REAL_REQUEST, RECEIVED_BODY, setRequestPeer, WIRE_ANSWERS } from '@charter/core';
import { linkLightHeaders, NodeLightHeaders } from './light-headers.ts';
import { recordPeerCertificate } from './peer-certificate.ts';
import type { RequestContent } from './request.ts';

/** Where the body comes from: nothing, the socket (read on demand), or a refusal (over the limit). */
export interface LightBody {
  /** Builds the body stream and its direct whole read; called at most once, on first need. */
  content(): RequestContent;
  /** Reads all the content at once without making a stream; only while `content` was never called. */
  whole?(): Promise<Uint8Array>;
  /** Whether the content may all be in already (framed by Content-Length, no `100 Continue` owed). */
  readonly mayHaveArrived: boolean;
  /** The whole content when all of it has arrived and none was read, taken now; else undefined. */
  arrived(): Uint8Array | undefined;
}

const decoder = new TextDecoder();

/** The light request; see the module comment. */
export class NodeLightRequest {
  readonly method: string;
  readonly url: string;
  /**
   * The header section announced content (Content-Length above 0 or Transfer-Encoding, whatever the
   * method): unless it was read to the end, the connection closes after the response (RFC 9112 §9.6).
   */
  readonly announcesContent: boolean;
  readonly #req: IncomingMessage;
  readonly #body: LightBody | undefined;
  #content: RequestContent | undefined = undefined;
  /** The whole content, taken off the message before the pipeline started (see `takeArrived`). */
  #received: Uint8Array | undefined = undefined;
  #peer: string | undefined = undefined;
  readonly #headers: NodeLightHeaders;
  #real: Request | undefined = undefined;
  #used = false;
  #controller: AbortController | undefined = undefined;
  #disconnected = false;
  #reason: unknown = undefined;

  constructor(
    req: IncomingMessage,
    method: string,
    url: string,
    announcesContent: boolean,
    ignoreUpgrade: boolean,
    body: LightBody | undefined,
  ) {
    this.#req = req;
    this.method = method;
    this.url = url;
    this.announcesContent = announcesContent;
    this.#body = body;
    // Checked now, so a line a Headers refuses is refused before the app runs (400), as a Request would.
    this.#headers = new NodeLightHeaders(req.rawHeaders, ignoreUpgrade);
  }

  /**
   * Every raw header line, in order; repeated fields stay repeated (RFC 9110 §5.3): the light headers
   * (light-headers.ts) until the real Request exists, then its own.
   */
  get headers(): Headers {
    const real = this.#real;
    return real !== undefined ? real.headers : (this.#headers as unknown as Headers);
  }

  /** The body content, made on first need (its stream attaches to the socket only then). */
  #contentOf(): RequestContent | undefined {
    if (this.#content === undefined) {
      const received = this.#received;
      if (received !== undefined) this.#content = { stream: streamOf(received), readAll: noRead };
      else if (this.#body !== undefined) this.#content = this.#body.content();
    }
    return this.#content;
  }

  /** Whether the content may have arrived whole with the head (see `takeArrived`). */
  get mayHaveArrived(): boolean {
    return this.#body?.mayHaveArrived === true;
  }

  /**
   * Takes the whole content off the message when all of it is in already (the common case for a
   * small body: it came in the same packets as the head), so the pipeline parses it without waiting
   * for a read (`RECEIVED_BODY`). Only before anything read the body; true when it was taken.
   */
  takeArrived(): boolean {
    if (this.#received !== undefined || this.#content !== undefined || this.#used || this.#real !== undefined)
      return false;
    this.#received = this.#body?.arrived();
    return this.#received !== undefined;
  }

  /** True once `takeArrived` took the whole content: nothing of it is left to come off the socket. */
  get contentReceived(): boolean {
    return this.#received !== undefined;
  }

  /** The content taken by `takeArrived`, handed over once (core light-request.ts). */
  [RECEIVED_BODY](): Uint8Array | undefined {
    const received = this.#received;
    if (received === undefined || this.#used || this.#content !== undefined || this.#real !== undefined)
      return undefined;
    this.#used = true;
    return received;
  }

  /** The real Request, built once: method, URL, headers and body as here, this request's signal. */
  [REAL_REQUEST](): Request {
    let real = this.#real;
    if (real === undefined) {
      linkLightRequests();
      // A body read whole already made no stream, and none is made for it now.
      const content = this.#used ? undefined : this.#contentOf();
      const init: RequestInit & { duplex?: 'half' } = {
        method: this.method,
        headers: this.#headers.real(),
        signal: this.signal,
      };
      if (this.#body !== undefined) {
        // Read already (the pipeline took it whole): the real Request's body is used up as well, so it
        // reads as a Request whose body was consumed, never as one without a body.
        init.body =
          content === undefined
            ? new ReadableStream({ start: (controller) => controller.close() })
            : content.stream;
        // A streamed request body needs `duplex: 'half'` (Fetch standard, RequestInit.duplex).
        init.duplex = 'half';
      }
      real = new Request(this.url, init);
      if (this.#used) void real.body?.cancel().catch(() => {});
      // The connection's facts, for clientIp() and mutualTls(): the remote address and the TLS client
      // certificate.
      const peer = this.peer;
      if (peer !== undefined) setRequestPeer(real, peer);
      recordPeerCertificate(this.#req, real);
      this.#real = real;
    }
    return real;
  }

  /**
   * The remote address of the connection this request arrived on (for `clientIp()`, through the App's
   * peer resolver: see `lightRequestPeer`), read when first asked.
   */
  get peer(): string | undefined {
    this.#peer ??= this.#req.socket?.remoteAddress;
    return this.#peer;
  }

  /** The real Request when it was built (user code holds that one), else undefined. */
  get built(): Request | undefined {
    return this.#real;
  }

  /** This adapter writes the pipeline's planned answers itself (planned-response.ts in the core). */
  get [WIRE_ANSWERS](): boolean {
    return true;
  }

  /**
   * The whole body. While the body stream is untouched (the common case: the pipeline reads a framed
   * body before anything else looks at it), it is collected straight off the socket, with no stream;
   * otherwise, read through the real Request.
   */
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#real === undefined) {
      if (this.#used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
      const received = this[RECEIVED_BODY]();
      if (received !== undefined) return Promise.resolve(received as Uint8Array<ArrayBuffer>);
      const body = this.#body;
      if (this.#content === undefined && body?.whole !== undefined) {
        this.#used = true;
        return body.whole() as Promise<Uint8Array<ArrayBuffer>>;
      }
      const content = this.#contentOf();
      if (content === undefined) {
        this.#used = true;
        return Promise.resolve(new Uint8Array(0));
      }
      const read = content.readAll();
      if (read !== undefined) {
        this.#used = true;
        return read as Promise<Uint8Array<ArrayBuffer>>;
      }
    }
    return this[REAL_REQUEST]().bytes();
  }

  async text(): Promise<string> {
    return decoder.decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes.buffer
      : bytes.slice().buffer;
  }

  blob(): Promise<Blob> {
    return this[REAL_REQUEST]().blob();
  }

  formData(): Promise<FormData> {
    return this[REAL_REQUEST]().formData();
  }

  clone(): Request {
    return this[REAL_REQUEST]().clone();
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined && this.#real === undefined) return null;
    return this[REAL_REQUEST]().body;
  }

  get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? this.#used;
  }

  /** Aborts when the client leaves before the response is complete, or the server ends the connection. */
  get signal(): AbortSignal {
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

  // The rest of the Request interface: what a server-side request always says (Fetch standard §5.4).
  get cache(): Request['cache'] {
    return 'default';
  }
  get credentials(): Request['credentials'] {
    return 'same-origin';
  }
  get destination(): Request['destination'] {
    return '';
  }
  get integrity(): string {
    return '';
  }
  get keepalive(): boolean {
    return false;
  }
  get mode(): Request['mode'] {
    return 'cors';
  }
  get redirect(): Request['redirect'] {
    return 'follow';
  }
  get referrer(): string {
    return 'about:client';
  }
  get referrerPolicy(): Request['referrerPolicy'] {
    return '';
  }
  get duplex(): 'half' {
    return 'half';
  }
}

/** A stream of bytes already held: one chunk, then the end. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

function noRead(): undefined {
  return undefined;
}

// `Object.prototype.toString` says Request.
Object.defineProperty(NodeLightRequest.prototype, Symbol.toStringTag, { value: 'Request' });

let linked = false;

/**
 * Puts `Request.prototype` under the light requests (and `Headers.prototype` under their headers), so
 * `instanceof Request` holds and a member this class does not define would reach Request.prototype
 * and fail its brand check loudly, never silently. Done when the first real Request is built, not at
 * import: naming `Request` on Node loads undici (about 35 ms of a start), and user code never holds a
 * light request (the pipeline hands it the real one: core light-request.ts).
 */
function linkLightRequests(): void {
  if (linked) return;
  linked = true;
  linkLightHeaders();
  Object.setPrototypeOf(NodeLightRequest.prototype, Request.prototype);
}

/**
 * The App's peer resolver for requests this adapter made (`app.setPeerResolver`): the remote address
 * a light request recorded; undefined for any other request (a real one built from it has its own
 * entry, see `REAL_REQUEST`).
 */
export function lightRequestPeer(request: Request): string | undefined {
  const candidate: unknown = request;
  return candidate instanceof NodeLightRequest ? candidate.peer : undefined;
}
