/**
 * The shapes of a WebSocket route (`app.ws(path, handler)`): the handler's phases and the
 * connection object every adapter hands to them.
 */
import type { Context } from '../types/index.ts';
import type { WsMessage } from './message.ts';

type MaybePromise<T> = T | Promise<T>;

/**
 * The context of a WebSocket route: the upgrade request's context (params typed from the path, raw
 * query and headers, `state` as the hooks and `beforeUpgrade` left it). The same object is passed to
 * every phase of one connection.
 */
export type WsContext<P extends string = string> = Context<P>;

/**
 * Runs before the handshake is accepted, after the app's hooks and the Origin check. Return a
 * Response (or throw an HttpError) to refuse the upgrade; return nothing to accept it.
 */
export type WsBeforeUpgrade<P extends string = string> = (ctx: WsContext<P>) => MaybePromise<Response | void>;

/** Where a `WsOriginOption` predicate is asked. */
export type WsOriginPredicate = (origin: string, request: Request) => MaybePromise<boolean>;

/**
 * Browser origins allowed besides the request's own: an origin (`https://app.example`), a list of
 * them, `'*'` for any origin, or a predicate.
 */
export type WsOriginOption = string | readonly string[] | WsOriginPredicate;

/** The readyState values of `WsConnection`, as the WHATWG WebSocket interface numbers them. */
export type WsReadyState = 0 | 1 | 2 | 3;

/** One open WebSocket connection, the same shape on every adapter. */
export interface WsConnection {
  /**
   * Sends a message: a string as a text frame, bytes as a binary frame. Returns the bytes queued;
   * -1 when the message was queued but more than `backpressureLimit` bytes now wait to be written
   * (wait for the `drain` phase); 0 when it was dropped (the buffer was already over the limit, or
   * the connection is closing).
   */
  send(data: string | ArrayBuffer | ArrayBufferView): number;
  /** Sends a text frame. Same return values as `send`. */
  sendText(text: string): number;
  /** Sends a binary frame. Same return values as `send`. */
  sendBinary(data: ArrayBuffer | ArrayBufferView): number;
  /** Sends a Ping (payload at most 125 bytes, §5.5.2); the peer answers with a Pong. */
  ping(data?: string | ArrayBuffer | ArrayBufferView): void;
  /**
   * Starts the closing handshake (§7.1.2) with `code` (default 1000) and `reason` (default empty, at
   * most 123 bytes of UTF-8). Throws a RangeError for a code RFC 6455 §7.4 does not let a server send.
   */
  close(code?: number, reason?: string): void;
  /** Closes the TCP connection at once, without a closing handshake. */
  terminate(): void;
  /** The subprotocol agreed in the handshake, or `''` (RFC 6455 §1.9). */
  readonly protocol: string;
  /** The peer's IP address as the adapter sees it (not a forwarded header), if known. */
  readonly remoteAddress: string | undefined;
  /** Bytes queued by `send` and not yet written to the network. */
  readonly bufferedAmount: number;
  /** 1 open, 2 closing, 3 closed (0, connecting, is never seen: `open` runs once the handshake is done). */
  readonly readyState: WsReadyState;
}

/**
 * A WebSocket route: the phases of a connection and its limits. Every field is optional; the
 * defaults are the spec's (1 MiB payload and backpressure, 120 s idle).
 */
export interface WsHandler<P extends string = string> {
  /**
   * Refuses or accepts the upgrade after the app's hooks and the Origin check: return a Response (or
   * throw an HttpError) to refuse; may put data in `ctx.state` for later phases. A list runs in order
   * until one refuses.
   */
  beforeUpgrade?: WsBeforeUpgrade<P> | readonly WsBeforeUpgrade<P>[];
  /** The handshake is done: the connection is open. */
  open?(conn: WsConnection, ctx: WsContext<P>): MaybePromise<void>;
  /** A complete message: a string for text, bytes for binary. */
  message?(conn: WsConnection, message: WsMessage, ctx: WsContext<P>): MaybePromise<void>;
  /**
   * The connection closed: the code and reason of the Close frame (1005 when it had no code, 1006 when
   * the connection ended without one, RFC 6455 §7.1.5). Runs once per connection.
   */
  close?(conn: WsConnection, code: number, reason: string, ctx: WsContext<P>): MaybePromise<void>;
  /**
   * `open`, `message` or `drain` threw or rejected. The connection is then closed with 1011 (§7.4.1),
   * whether this phase is given or not (without it, the error is logged).
   */
  error?(conn: WsConnection, error: unknown, ctx: WsContext<P>): MaybePromise<void>;
  /** The send buffer fell back under `backpressureLimit` after a `send` returned -1. */
  drain?(conn: WsConnection, ctx: WsContext<P>): MaybePromise<void>;
  /** Largest message accepted, in bytes (all fragments together); default 1 MiB; larger closes with 1009. */
  maxPayloadLength?: number;
  /**
   * Bytes `send` may queue before it reports backpressure (-1) and then drops (0); default 1 MiB. Also
   * the budget of incoming messages waiting for an async `open` (past it: close 1008).
   */
  backpressureLimit?: number;
  /**
   * Seconds without receiving anything before the connection is closed with 1001; default 120; 0
   * disables. A Ping is sent halfway, so a live peer (browsers answer pings) is never cut.
   */
  idleTimeoutSeconds?: number;
  /**
   * Subprotocols this route speaks (`Sec-WebSocket-Protocol`, RFC 6455 §1.9), in order of preference.
   * Default none: a handshake that offers any subprotocol is refused with 400.
   */
  allowedSubprotocols?: readonly string[];
  /** Browser origins allowed besides the request's own; default none (same origin only). */
  origin?: WsOriginOption;
}
