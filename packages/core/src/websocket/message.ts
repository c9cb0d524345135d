/**
 * Reassembles messages from data frames (RFC 6455 §5.4): a text or binary frame starts a message,
 * continuation frames extend it, the FIN bit ends it. Control frames may come between fragments and
 * are not this class's business. Text is checked as UTF-8 while it arrives (§8.1: invalid data fails
 * the connection with 1007 as soon as it is seen).
 */
import { type WsFrame, WS_OPCODES, WsProtocolError } from './frame.ts';

/** A complete message: text as a string, binary as bytes. */
export type WsMessage = string | Uint8Array;

/** Most data frames one message may span by default (more closes with 1002). */
export const WS_DEFAULT_MAX_FRAMES_PER_MESSAGE = 4096;

/** Options of `WsMessageAssembler`. */
export interface WsMessageAssemblerOptions {
  /** Largest message (all fragments together), in bytes; larger fails with 1009 (§7.4.1). */
  maxPayloadLength: number;
  /** Most data frames per message; default 4096. More fails with 1002: a flood of tiny fragments. */
  maxFramesPerMessage?: number;
}

/** Builds messages from the data frames of one connection, in order (one per connection). */
export class WsMessageAssembler {
  readonly #max: number;
  readonly #maxFrames: number;
  /** Opcode of the message in progress (text or binary), or undefined between messages. */
  #opcode: number | undefined;
  #parts: Uint8Array[] = [];
  #size = 0;
  #frames = 0;
  #decoder: TextDecoder | undefined;
  #text = '';

  constructor(options: WsMessageAssemblerOptions) {
    this.#max = options.maxPayloadLength;
    this.#maxFrames = options.maxFramesPerMessage ?? WS_DEFAULT_MAX_FRAMES_PER_MESSAGE;
  }

  /** Payload bytes of the fragmented message in progress (0 between messages). */
  get size(): number {
    return this.#size;
  }

  /** True while a fragmented message is incomplete. */
  get inProgress(): boolean {
    return this.#opcode !== undefined;
  }

  /**
   * Takes one data frame (opcode 0, 1 or 2); returns the message it completes, or undefined. Throws a
   * WsProtocolError with the close code on a violation.
   */
  push(frame: WsFrame): WsMessage | undefined {
    const { opcode } = frame;
    if (opcode === WS_OPCODES.continuation) {
      if (this.#opcode === undefined) {
        throw new WsProtocolError(1002, 'A continuation frame arrived with no message to continue');
      }
    } else if (opcode === WS_OPCODES.text || opcode === WS_OPCODES.binary) {
      // §5.4: fragments of one message are not interleaved with another data message.
      if (this.#opcode !== undefined) {
        throw new WsProtocolError(1002, 'A new data frame arrived before the fragmented message ended');
      }
      this.#opcode = opcode;
      if (opcode === WS_OPCODES.text)
        this.#decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    } else {
      throw new TypeError(`WsMessageAssembler takes data frames, got opcode ${opcode}`);
    }
    this.#frames++;
    if (this.#frames > this.#maxFrames) {
      throw new WsProtocolError(1002, `A message may span at most ${this.#maxFrames} frames`);
    }
    this.#size += frame.payload.length;
    if (this.#size > this.#max) {
      throw new WsProtocolError(1009, `The message exceeds ${this.#max} bytes`);
    }
    if (this.#decoder !== undefined) {
      try {
        this.#text += this.#decoder.decode(frame.payload, { stream: !frame.fin });
      } catch {
        throw new WsProtocolError(1007, 'A text message is not valid UTF-8');
      }
    } else if (frame.payload.length > 0) {
      this.#parts.push(frame.payload);
    }
    if (!frame.fin) return undefined;
    const message = this.#decoder !== undefined ? this.#text : concat(this.#parts, this.#size);
    this.#opcode = undefined;
    this.#parts = [];
    this.#size = 0;
    this.#frames = 0;
    this.#decoder = undefined;
    this.#text = '';
    return message;
  }
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
