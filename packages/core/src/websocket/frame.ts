/**
 * RFC 6455 §5.2 base framing: encode a frame, and parse frames incrementally from a byte stream in
 * chunks of any size. The parser enforces the rules that hold for one frame on its own (reserved
 * bits, opcodes, masking, control frame size, minimal length encoding, the payload cap); rules that
 * span frames (fragmentation, UTF-8 of text messages) are `WsMessageAssembler`'s.
 */

/** Frame opcodes (RFC 6455 §5.2, §11.8). */
export const WS_OPCODES = Object.freeze({
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
} as const);

/** Most payload bytes of a control frame (§5.5). */
export const WS_MAX_CONTROL_PAYLOAD = 125;

/** One frame, payload already unmasked. */
export interface WsFrame {
  readonly fin: boolean;
  /** RSV1-3 as a 3-bit number (bits 6-4 of the first byte); 0 unless an extension was negotiated. */
  readonly rsv: number;
  readonly opcode: number;
  /** Whether the frame carried a masking key (every client frame must, §5.1). */
  readonly masked: boolean;
  readonly payload: Uint8Array;
}

/** A frame to encode. */
export interface WsFrameInit {
  /** Final fragment of its message; default true. */
  fin?: boolean;
  /** Reserved bits (0-7); default 0. For tests of peers' error handling. */
  rsv?: number;
  opcode: number;
  payload?: Uint8Array;
  /** A 4-byte masking key: clients mask every frame (§5.3), servers never do. */
  mask?: Uint8Array;
}

/** A violation of RFC 6455 by the peer: the connection must be failed with `code` (§7.1.7). */
export class WsProtocolError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'WsProtocolError';
    this.code = code;
  }
}

/** True for the opcodes RFC 6455 defines; 0x3-0x7 and 0xB-0xF are reserved (§5.2). */
export function isKnownWsOpcode(opcode: number): boolean {
  return opcode <= 0x2 || (opcode >= 0x8 && opcode <= 0xa);
}

/** True for Close, Ping and Pong (opcodes with the high bit set, §5.5). */
export function isWsControlOpcode(opcode: number): boolean {
  return (opcode & 0x8) !== 0;
}

/**
 * XORs `data` with the 4-byte masking key in place, starting at key byte `offset % 4` (§5.3): the
 * same operation masks and unmasks. Returns `data`.
 */
export function applyWsMask(data: Uint8Array, mask: Uint8Array, offset = 0): Uint8Array {
  if (mask.length !== 4) throw new RangeError('A WebSocket masking key is 4 bytes');
  for (let i = 0; i < data.length; i++) data[i] = (data[i] as number) ^ (mask[(i + offset) & 3] as number);
  return data;
}

/** The frame's bytes (§5.2): header, the masking key if any, then the (masked) payload. */
export function encodeWsFrame(init: WsFrameInit): Uint8Array {
  const payload = init.payload ?? new Uint8Array(0);
  const length = payload.length;
  const rsv = init.rsv ?? 0;
  if (!Number.isInteger(init.opcode) || init.opcode < 0 || init.opcode > 0xf) {
    throw new RangeError(`A WebSocket opcode is 0 to 15, got ${String(init.opcode)}`);
  }
  if (!Number.isInteger(rsv) || rsv < 0 || rsv > 7) throw new RangeError('rsv is 0 to 7');
  const mask = init.mask;
  if (mask !== undefined && mask.length !== 4) throw new RangeError('A WebSocket masking key is 4 bytes');
  // §5.2: the minimal length encoding: 7 bits, else 16, else 64.
  const lengthBytes = length < 126 ? 0 : length <= 0xffff ? 2 : 8;
  const headerLength = 2 + lengthBytes + (mask === undefined ? 0 : 4);
  const out = new Uint8Array(headerLength + length);
  out[0] = ((init.fin ?? true) ? 0x80 : 0) | (rsv << 4) | init.opcode;
  const maskBit = mask === undefined ? 0 : 0x80;
  if (lengthBytes === 0) {
    out[1] = maskBit | length;
  } else if (lengthBytes === 2) {
    out[1] = maskBit | 126;
    out[2] = length >> 8;
    out[3] = length & 0xff;
  } else {
    out[1] = maskBit | 127;
    // Payloads stay far below 2^53, so the high half fits a double exactly.
    const high = Math.floor(length / 0x1_0000_0000);
    new DataView(out.buffer).setUint32(2, high);
    new DataView(out.buffer).setUint32(6, length >>> 0);
  }
  let at = 2 + lengthBytes;
  if (mask !== undefined) {
    out.set(mask, at);
    at += 4;
  }
  out.set(payload, at);
  if (mask !== undefined) applyWsMask(out.subarray(at), mask);
  return out;
}

/** Options of `WsFrameParser`. */
export interface WsFrameParserOptions {
  /** Largest payload of one frame; a bigger one fails with 1009 (§7.4.1) before it is buffered. */
  maxPayloadLength: number;
  /** Every frame must be masked (a server reading a client, §5.1: else 1002); default true. */
  requireMask?: boolean;
  /** Frames must not be masked (a client reading a server, §5.1); default false. */
  forbidMask?: boolean;
  /** Reserved bits an extension gave meaning to; default 0 (none: no extension is negotiated). */
  allowedRsv?: number;
  /**
   * Most payload bytes the next data frame may carry, asked before it is buffered: the message's
   * remaining allowance, so the fragments of one message never hold more than `maxPayloadLength` in
   * memory altogether. Default: `maxPayloadLength` for every frame.
   */
  dataPayloadLimit?: () => number;
}

/**
 * Parses frames out of a byte stream. `push(chunk)` returns the frames the bytes completed, and
 * throws a `WsProtocolError` (with the close code to fail with) on the first violation; after one,
 * the parser must not be used again.
 */
export class WsFrameParser {
  readonly #max: number;
  readonly #requireMask: boolean;
  readonly #forbidMask: boolean;
  readonly #allowedRsv: number;
  readonly #dataLimit: (() => number) | undefined;
  #chunks: Uint8Array[] = [];
  #buffered = 0;

  constructor(options: WsFrameParserOptions) {
    if (!Number.isSafeInteger(options.maxPayloadLength) || options.maxPayloadLength < 0) {
      throw new RangeError('WsFrameParser option "maxPayloadLength" must be a non-negative integer');
    }
    this.#max = options.maxPayloadLength;
    this.#requireMask = options.requireMask ?? true;
    this.#forbidMask = options.forbidMask ?? false;
    this.#allowedRsv = options.allowedRsv ?? 0;
    this.#dataLimit = options.dataPayloadLimit;
  }

  /** Bytes received but not yet part of a complete frame. */
  get buffered(): number {
    return this.#buffered;
  }

  /**
   * Buffers `chunk` and returns every frame it completes. A violation throws, and the frames before
   * it in the same chunk are lost: a peer that must see them (an adapter) uses `feed` and `next`.
   */
  push(chunk: Uint8Array): WsFrame[] {
    this.feed(chunk);
    const frames: WsFrame[] = [];
    for (;;) {
      const frame = this.next();
      if (frame === undefined) return frames;
      frames.push(frame);
    }
  }

  /** Buffers bytes read from the stream. */
  feed(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
  }

  /** The next complete frame, or undefined until more bytes arrive; throws a WsProtocolError on a violation. */
  next(): WsFrame | undefined {
    return this.#next();
  }

  /** Copies the first `n` buffered bytes out without consuming them (n is small: a frame header). */
  #peek(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let at = 0;
    for (const chunk of this.#chunks) {
      const take = Math.min(chunk.length, n - at);
      out.set(chunk.subarray(0, take), at);
      at += take;
      if (at === n) break;
    }
    return out;
  }

  /** Removes `n` bytes from the front and returns them (a view when one chunk holds them all). */
  #take(n: number): Uint8Array {
    const first = this.#chunks[0];
    this.#buffered -= n;
    if (first !== undefined && first.length >= n) {
      const out = first.subarray(0, n);
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
      // A copy, so unmasking in place never writes into the caller's buffer.
      return out.slice();
    }
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const chunk = this.#chunks[0] as Uint8Array;
      const take = Math.min(chunk.length, n - at);
      out.set(chunk.subarray(0, take), at);
      at += take;
      if (take === chunk.length) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(take);
    }
    return out;
  }

  #next(): WsFrame | undefined {
    if (this.#buffered < 2) return undefined;
    const head = this.#peek(Math.min(this.#buffered, 14));
    const b0 = head[0] as number;
    const b1 = head[1] as number;
    const fin = (b0 & 0x80) !== 0;
    const rsv = (b0 >> 4) & 0x7;
    const opcode = b0 & 0x0f;
    const masked = (b1 & 0x80) !== 0;
    // §5.2: reserved bits must be 0 unless an extension defines them; unknown opcodes fail (1002).
    if ((rsv & ~this.#allowedRsv) !== 0) {
      throw new WsProtocolError(1002, 'A reserved bit is set but no extension was negotiated');
    }
    if (!isKnownWsOpcode(opcode))
      throw new WsProtocolError(1002, `Opcode 0x${opcode.toString(16)} is reserved`);
    // §5.1: a server closes the connection on an unmasked client frame; a client on a masked one.
    if (this.#requireMask && !masked) throw new WsProtocolError(1002, 'Client frames must be masked');
    if (this.#forbidMask && masked) throw new WsProtocolError(1002, 'Server frames must not be masked');
    const control = isWsControlOpcode(opcode);
    // §5.5: control frames are never fragmented.
    if (control && !fin) throw new WsProtocolError(1002, 'A control frame must not be fragmented');
    let length = b1 & 0x7f;
    let at = 2;
    if (length === 126) {
      if (this.#buffered < 4) return undefined;
      length = ((head[2] as number) << 8) | (head[3] as number);
      if (length < 126) throw new WsProtocolError(1002, 'The payload length is not minimally encoded');
      at = 4;
    } else if (length === 127) {
      if (this.#buffered < 10) return undefined;
      const view = new DataView(head.buffer, 2, 8);
      const high = view.getUint32(0);
      // §5.2: the most significant bit of a 64-bit length must be 0.
      if (high & 0x8000_0000)
        throw new WsProtocolError(1002, 'The 64-bit payload length has its top bit set');
      length = high * 0x1_0000_0000 + view.getUint32(4);
      if (length <= 0xffff) throw new WsProtocolError(1002, 'The payload length is not minimally encoded');
      at = 10;
    }
    if (control && length > WS_MAX_CONTROL_PAYLOAD) {
      throw new WsProtocolError(1002, `A control frame carries at most ${WS_MAX_CONTROL_PAYLOAD} bytes`);
    }
    // §7.4.1 1009, decided from the header: an oversized payload is never buffered. Control frames
    // have their own cap above (a Close must get through whatever the message limit).
    if (!control) {
      const limit = Math.min(this.#max, this.#dataLimit?.() ?? this.#max);
      if (length > limit) {
        throw new WsProtocolError(
          1009,
          limit === this.#max
            ? `The frame payload of ${length} bytes exceeds ${this.#max}`
            : `The message would exceed ${this.#max} bytes with a fragment of ${length}`,
        );
      }
    }
    const maskAt = at;
    if (masked) at += 4;
    if (this.#buffered < at + length) return undefined;
    const headerBytes = this.#take(at);
    const payload = this.#take(length);
    if (masked) applyWsMask(payload, headerBytes.subarray(maskAt, maskAt + 4));
    return { fin, rsv, opcode, masked, payload };
  }
}
