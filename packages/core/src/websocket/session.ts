/**
 * One WebSocket connection as the route's handler sees it, on any adapter. The adapter supplies a
 * `WsTransport` (how to put frames on the wire) and reports what arrives; the session runs the
 * handler's phases, enforces the route's limits (payload, backpressure, idle) and turns a thrown
 * phase into a 1011 close.
 */
import type { Logger } from '../logger/index.ts';
import { assertWsCloseArguments, WS_CLOSE_CODES } from './close-codes.ts';
import { WS_MAX_CONTROL_PAYLOAD } from './frame.ts';
import type { WsMessage } from './message.ts';
import type { ResolvedWsHandler } from './options.ts';
import type { WsConnection, WsContext, WsReadyState } from './types.ts';

/** What an adapter provides: frames out, and the state of its send buffer. */
export interface WsTransport {
  sendText(text: string): void;
  sendBinary(data: Uint8Array): void;
  ping(data: Uint8Array): void;
  /** Sends a Close frame and finishes the closing handshake (§7.1.2); the adapter then reports `closed`. */
  close(code: number, reason: string): void;
  /** Drops the TCP connection at once; the adapter then reports `closed` (1006). */
  terminate(): void;
  /** Bytes queued and not yet written. */
  readonly bufferedAmount: number;
  readonly remoteAddress: string | undefined;
}

/** Options of `WsSession`. */
export interface WsSessionOptions {
  route: ResolvedWsHandler;
  ctx: WsContext;
  protocol: string;
  transport: WsTransport;
  logger: Logger;
  /**
   * Check each message against the route's `maxPayloadLength` here (close 1009): for adapters whose
   * own cap is server-wide and may be larger (Bun). Default false (the adapter's parser enforces it).
   */
  checkPayloadLength?: boolean;
}

const encoder = new TextEncoder();

// Memory a waiting message costs beyond its payload (its closure and promise reaction), charged so
// that a flood of empty messages is bounded too.
const WAITING_MESSAGE_COST = 64;

function bytesOf(data: string | ArrayBuffer | ArrayBufferView): Uint8Array {
  if (typeof data === 'string') return encoder.encode(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError('WebSocket data must be a string, an ArrayBuffer or an ArrayBufferView');
}

/** UTF-8 length of a string, without encoding it when it cannot matter. */
function utf8Length(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : encoder.encode(text).length;
}

/** The `WsConnection` of one socket, plus the entry points its adapter calls. */
export class WsSession implements WsConnection {
  readonly protocol: string;
  readonly #route: ResolvedWsHandler;
  readonly #ctx: WsContext;
  readonly #transport: WsTransport;
  readonly #logger: Logger;
  readonly #checkPayload: boolean;
  #state: WsReadyState = 1;
  /** Set while an async `open` runs: messages wait for it, so they never overtake it. */
  #opening: Promise<void> | undefined;
  /** Bytes of the messages waiting for `open` (see WAITING_MESSAGE_COST). */
  #waitingBytes = 0;
  #overLimit = false;
  #lastSeen = Date.now();
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: WsSessionOptions) {
    this.#route = options.route;
    this.#ctx = options.ctx;
    this.protocol = options.protocol;
    this.#transport = options.transport;
    this.#logger = options.logger;
    this.#checkPayload = options.checkPayloadLength ?? false;
  }

  get remoteAddress(): string | undefined {
    return this.#transport.remoteAddress;
  }

  get bufferedAmount(): number {
    return this.#transport.bufferedAmount;
  }

  get readyState(): WsReadyState {
    return this.#state;
  }

  send(data: string | ArrayBuffer | ArrayBufferView): number {
    return typeof data === 'string' ? this.sendText(data) : this.sendBinary(data);
  }

  sendText(text: string): number {
    if (typeof text !== 'string') throw new TypeError('sendText() takes a string');
    return this.#send(encoder.encode(text).length, () => this.#transport.sendText(text));
  }

  sendBinary(data: ArrayBuffer | ArrayBufferView): number {
    const bytes = bytesOf(data);
    return this.#send(bytes.length, () => this.#transport.sendBinary(bytes));
  }

  #send(size: number, write: () => void): number {
    // Like Bun's (uWS) semantics, so both adapters agree: over the limit, the message is dropped.
    if (this.#state !== 1 || this.#transport.bufferedAmount > this.#route.backpressureLimit) return 0;
    write();
    if (this.#transport.bufferedAmount > this.#route.backpressureLimit) {
      this.#overLimit = true;
      return -1;
    }
    return size;
  }

  ping(data: string | ArrayBuffer | ArrayBufferView = new Uint8Array(0)): void {
    const bytes = bytesOf(data);
    if (bytes.length > WS_MAX_CONTROL_PAYLOAD) {
      throw new RangeError(`A Ping carries at most ${WS_MAX_CONTROL_PAYLOAD} bytes (RFC 6455 §5.5)`);
    }
    if (this.#state === 1) this.#transport.ping(bytes);
  }

  close(code: number = WS_CLOSE_CODES.normal, reason = ''): void {
    assertWsCloseArguments(code, reason);
    if (this.#state !== 1) return;
    this.#state = 2;
    this.#transport.close(code, reason);
  }

  terminate(): void {
    if (this.#state === 3) return;
    this.#state = 2;
    this.#transport.terminate();
  }

  // ------------------------------------------------------------------------------------------------
  // Called by the adapter.

  /** The handshake is complete: runs `open` and starts the idle timer. */
  opened(): void {
    this.#lastSeen = Date.now();
    this.#armIdle(this.#idleMs / 2);
    const open = this.#route.handler.open;
    if (open === undefined) return;
    const opening = this.#run('open', () => open.call(this.#route.handler, this, this.#ctx));
    this.#opening = opening;
    // Registered before any waiting message's delivery, so those still run in arrival order; a
    // message arriving later (a later I/O event) finds `open` done and is delivered at once.
    void opening.then(() => {
      this.#opening = undefined;
      this.#waitingBytes = 0;
    });
  }

  /** A complete message arrived. Messages wait for `open` to settle, so they never overtake it. */
  received(message: WsMessage): void {
    this.#lastSeen = Date.now();
    if (this.#state !== 1) return;
    if (this.#checkPayload) {
      const max = this.#route.maxPayloadLength;
      const size = typeof message === 'string' ? utf8Length(message, max) : message.length;
      if (size > max) {
        this.close(WS_CLOSE_CODES.messageTooBig, `Message larger than ${max} bytes`);
        return;
      }
    }
    const onMessage = this.#route.handler.message;
    if (onMessage === undefined) return;
    const deliver = (): void => {
      if (this.#state !== 1) return;
      void this.#run('message', () => onMessage.call(this.#route.handler, this, message, this.#ctx));
    };
    if (this.#opening === undefined) {
      deliver();
      return;
    }
    // A peer can send faster than a slow `open` (a database lookup, an auth call) finishes: what waits
    // is held in memory, so it gets the route's send budget; past it the peer is breaking the
    // application's protocol (RFC 6455 §7.4.1, 1008).
    this.#waitingBytes += message.length + WAITING_MESSAGE_COST;
    if (this.#waitingBytes > this.#route.backpressureLimit) {
      this.close(WS_CLOSE_CODES.policyViolation, 'Too many messages before the connection was ready');
      return;
    }
    void this.#opening.then(deliver);
  }

  /** A Ping or Pong arrived: the peer is alive. */
  activity(): void {
    this.#lastSeen = Date.now();
  }

  /** The send buffer was written out. Runs `drain` when a send had reported backpressure. */
  drained(): void {
    if (!this.#overLimit || this.#transport.bufferedAmount > this.#route.backpressureLimit) return;
    this.#overLimit = false;
    const drain = this.#route.handler.drain;
    if (drain !== undefined && this.#state === 1)
      void this.#run('drain', () => drain.call(this.#route.handler, this, this.#ctx));
  }

  /** The connection is gone (closing handshake done, or the socket dropped): runs `close` once. */
  closed(code: number, reason: string): void {
    if (this.#state === 3) return;
    this.#state = 3;
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    const onClose = this.#route.handler.close;
    if (onClose === undefined) return;
    const run = (): void => {
      this.#guard('close', () => onClose.call(this.#route.handler, this, code, reason, this.#ctx));
    };
    if (this.#opening === undefined) run();
    else void this.#opening.then(run);
  }

  // ------------------------------------------------------------------------------------------------

  get #idleMs(): number {
    return this.#route.idleTimeoutSeconds * 1000;
  }

  #armIdle(delay: number): void {
    if (this.#idleMs === 0 || this.#state === 3) return;
    const timer = setTimeout(() => this.#checkIdle(), Math.max(1, delay));
    (timer as { unref?: () => void }).unref?.();
    this.#idleTimer = timer;
  }

  #checkIdle(): void {
    if (this.#state !== 1) return;
    const idle = this.#idleMs;
    const quiet = Date.now() - this.#lastSeen;
    if (quiet >= idle) {
      // §7.4.1 1001: the server is going away from this connection.
      this.close(WS_CLOSE_CODES.goingAway, 'Idle timeout');
      return;
    }
    if (quiet >= idle / 2) {
      // A Ping asks a live peer to answer (§5.5.2); its Pong resets the clock.
      this.#transport.ping(new Uint8Array(0));
      this.#armIdle(idle - quiet);
    } else {
      this.#armIdle(idle / 2 - quiet);
    }
  }

  /** Runs a phase; a throw or rejection goes to `error`, then closes with 1011. */
  #run(phase: string, call: () => unknown): Promise<void> {
    let out: unknown;
    try {
      out = call();
    } catch (error) {
      this.#failed(phase, error);
      return Promise.resolve();
    }
    if (out instanceof Promise)
      return out.then(
        () => {},
        (error: unknown) => this.#failed(phase, error),
      );
    return Promise.resolve();
  }

  /** Runs `close` or `error`: a throw there can only be logged. */
  #guard(phase: string, call: () => unknown): void {
    const log = (error: unknown): void =>
      this.#logger.error(`The WebSocket ${phase} phase threw`, { route: this.#ctx.route.path, error });
    try {
      const out = call();
      if (out instanceof Promise) out.catch(log);
    } catch (error) {
      log(error);
    }
  }

  #failed(phase: string, error: unknown): void {
    const onError = this.#route.handler.error;
    if (onError === undefined) {
      this.#logger.error(`The WebSocket ${phase} phase threw; closing with 1011`, {
        route: this.#ctx.route.path,
        error,
      });
    } else {
      this.#guard('error', () => onError.call(this.#route.handler, this, error, this.#ctx));
    }
    // §7.4.1 1011: the server met a condition that kept it from fulfilling the request.
    if (this.#state === 1) this.close(WS_CLOSE_CODES.internalError, 'Internal error');
  }
}
