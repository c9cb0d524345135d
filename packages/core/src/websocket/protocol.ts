/**
 * The WebSocket protocol over a raw byte stream, for adapters that own the socket (the Node adapter,
 * or a custom one): frames in, messages and control frames handled, frames out, and the closing
 * handshake (RFC 6455 §5.5.1, §7). Runtime-neutral: the adapter gives it `write` and `end`.
 */
import { decodeWsClosePayload, encodeWsClosePayload, WS_CLOSE_CODES } from './close-codes.ts';
import { encodeWsFrame, type WsFrame, WsFrameParser, WS_OPCODES, WsProtocolError } from './frame.ts';
import { type WsMessage, WsMessageAssembler } from './message.ts';

/** Options of `WsProtocol`. */
export interface WsProtocolOptions {
  /** Largest message, in bytes; larger closes with 1009. */
  maxPayloadLength: number;
  /** Most data frames per message; default 4096; more closes with 1002. */
  maxFramesPerMessage?: number;
  /** Writes bytes to the socket. */
  write(bytes: Uint8Array): void;
  /** Ends the TCP connection (the server closes it first, §7.1.1). */
  end(): void;
  /** A complete message arrived. */
  onMessage(message: WsMessage): void;
  /** A Ping or Pong arrived (the Pong answering a Ping is already sent). */
  onControl?(opcode: number): void;
  /**
   * The closing handshake is over, or the connection failed: the code and reason the peer sent
   * (1005 without a code), or the code this side failed the connection with. Called once.
   */
  onClose(code: number, reason: string): void;
  /** How long to wait for the peer's Close after sending ours before ending anyway; default 5000 ms. */
  closeTimeoutMs?: number;
}

/** One side of a connection, server role: client frames must be masked, ours are not (§5.1). */
export class WsProtocol {
  readonly #options: WsProtocolOptions;
  readonly #parser: WsFrameParser;
  readonly #assembler: WsMessageAssembler;
  /** `open`, `closing` (our Close sent), or `closed` (handshake done or connection failed). */
  #state: 'open' | 'closing' | 'closed' = 'open';
  #closeTimer: ReturnType<typeof setTimeout> | undefined;
  #sentCode = 0;
  #sentReason = '';

  constructor(options: WsProtocolOptions) {
    this.#options = options;
    this.#parser = new WsFrameParser({
      maxPayloadLength: options.maxPayloadLength,
      requireMask: true,
      // A fragment is refused from its header when the message would outgrow the cap: what is held
      // in memory (assembled fragments plus the frame being read) stays within maxPayloadLength.
      dataPayloadLimit: () => options.maxPayloadLength - this.#assembler.size,
    });
    this.#assembler = new WsMessageAssembler({
      maxPayloadLength: options.maxPayloadLength,
      maxFramesPerMessage: options.maxFramesPerMessage,
    });
  }

  get state(): 'open' | 'closing' | 'closed' {
    return this.#state;
  }

  /** Feeds bytes read from the socket; frames are handled one by one, up to the first violation. */
  receive(chunk: Uint8Array): void {
    if (this.#state === 'closed') return;
    this.#parser.feed(chunk);
    try {
      for (;;) {
        // A frame before this one may have closed the connection.
        if ((this.#state as string) === 'closed') return;
        const frame = this.#parser.next();
        if (frame === undefined) return;
        this.#frame(frame);
      }
    } catch (error) {
      this.#fail(error);
    }
  }

  #frame(frame: WsFrame): void {
    switch (frame.opcode) {
      case WS_OPCODES.close:
        this.#peerClosed(frame.payload);
        return;
      case WS_OPCODES.ping:
        // §5.5.2: answer with a Pong carrying the same data, unless our Close is already out.
        if (this.#state === 'open') this.#write(WS_OPCODES.pong, frame.payload);
        this.#options.onControl?.(WS_OPCODES.ping);
        return;
      case WS_OPCODES.pong:
        this.#options.onControl?.(WS_OPCODES.pong);
        return;
      default: {
        const message = this.#assembler.push(frame);
        // §7.1.2: after sending Close, data that still arrives is discarded.
        if (message !== undefined && this.#state === 'open') this.#options.onMessage(message);
      }
    }
  }

  sendText(text: string): void {
    this.#write(WS_OPCODES.text, new TextEncoder().encode(text));
  }

  sendBinary(data: Uint8Array): void {
    this.#write(WS_OPCODES.binary, data);
  }

  ping(data: Uint8Array): void {
    this.#write(WS_OPCODES.ping, data);
  }

  /** Starts the closing handshake (§7.1.2): sends Close, then waits for the peer's. */
  close(code: number, reason: string): void {
    if (this.#state !== 'open') return;
    this.#write(WS_OPCODES.close, encodeWsClosePayload(code, reason));
    this.#state = 'closing';
    this.#sentCode = code;
    this.#sentReason = reason;
    const timer = setTimeout(() => this.#finish(code, reason), this.#options.closeTimeoutMs ?? 5000);
    (timer as { unref?: () => void }).unref?.();
    this.#closeTimer = timer;
  }

  /** The socket ended or failed under us: no Close frame, 1006 (§7.1.5) unless a handshake was done. */
  socketClosed(): void {
    if (this.#state === 'closed') return;
    if (this.#state === 'closing') this.#finish(this.#sentCode, this.#sentReason, false);
    else this.#finish(WS_CLOSE_CODES.abnormal, '', false);
  }

  #write(opcode: number, payload: Uint8Array): void {
    if (this.#state !== 'open') return;
    this.#options.write(encodeWsFrame({ opcode, payload }));
  }

  #peerClosed(payload: Uint8Array): void {
    const parsed = decodeWsClosePayload(payload);
    if (!parsed.ok) throw new WsProtocolError(parsed.failWith, parsed.detail);
    if (this.#state === 'open') {
      // §5.5.1: answer with a Close; echoing the code is the usual answer. 1005 is never sent (§7.4.1).
      const echo =
        parsed.code === WS_CLOSE_CODES.noStatus ? new Uint8Array(0) : encodeWsClosePayload(parsed.code);
      this.#options.write(encodeWsFrame({ opcode: WS_OPCODES.close, payload: echo }));
    }
    this.#finish(parsed.code, parsed.reason);
  }

  /** Fails the connection (§7.1.7): a Close with the error's code, then the TCP connection ends. */
  #fail(error: unknown): void {
    const code = error instanceof WsProtocolError ? error.code : WS_CLOSE_CODES.internalError;
    const reason =
      error instanceof WsProtocolError && code !== WS_CLOSE_CODES.internalError
        ? error.message.slice(0, 100)
        : '';
    if (this.#state === 'open') {
      this.#options.write(
        encodeWsFrame({ opcode: WS_OPCODES.close, payload: encodeWsClosePayload(code, reason) }),
      );
    }
    this.#finish(code, reason);
  }

  #finish(code: number, reason: string, end = true): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    if (this.#closeTimer !== undefined) clearTimeout(this.#closeTimer);
    if (end) this.#options.end();
    this.#options.onClose(code, reason);
  }
}
