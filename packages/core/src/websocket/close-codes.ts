/**
 * WebSocket close status codes (RFC 6455 §7.4) and close frame bodies (§5.5.1): which codes may be
 * sent, which received codes are valid, and how a Close frame's payload is built and read.
 */

/** The codes RFC 6455 §7.4.1 and the IANA registry (§11.7) define, by name. */
export const WS_CLOSE_CODES = Object.freeze({
  normal: 1000,
  goingAway: 1001,
  protocolError: 1002,
  unsupportedData: 1003,
  /** Reserved: never sent, reported when a Close frame had no status code (§7.1.5). */
  noStatus: 1005,
  /** Reserved: never sent, reported when the connection closed without a Close frame (§7.1.5). */
  abnormal: 1006,
  invalidPayload: 1007,
  policyViolation: 1008,
  messageTooBig: 1009,
  mandatoryExtension: 1010,
  internalError: 1011,
  serviceRestart: 1012,
  tryAgainLater: 1013,
  badGateway: 1014,
} as const);

/** Most bytes of a close reason: a control frame carries at most 125 bytes, 2 of them the code (§5.5). */
export const WS_MAX_CLOSE_REASON_BYTES = 123;

/**
 * True for a code a peer may put in a Close frame (§7.4.1, §7.4.2): 1000-1003, 1007-1014 and the
 * application range 3000-4999. 1004, 1005, 1006 and 1015 are reserved and never on the wire; the rest
 * of 0-2999 is reserved for the protocol, so a Close frame carrying one is a protocol error (1002).
 */
export function isValidWsCloseCode(code: number): boolean {
  if (!Number.isInteger(code)) return false;
  if (code >= 3000 && code <= 4999) return true;
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014);
}

/**
 * Checks a code and reason a server is about to send, throwing a RangeError naming the problem.
 * 1010 is the client's code (it expected an extension the server did not negotiate, §7.4.1), so a
 * server never sends it.
 */
export function assertWsCloseArguments(code: number, reason: string): void {
  if (!isValidWsCloseCode(code) || code === WS_CLOSE_CODES.mandatoryExtension) {
    throw new RangeError(
      `WebSocket close code ${String(code)} cannot be sent: use 1000-1003, 1007-1009, 1011-1014 or ` +
        '3000-4999 (RFC 6455 §7.4)',
    );
  }
  if (typeof reason !== 'string') throw new TypeError('WebSocket close reason must be a string');
  const bytes = utf8.encode(reason).length;
  if (bytes > WS_MAX_CLOSE_REASON_BYTES) {
    throw new RangeError(
      `WebSocket close reason is ${bytes} bytes of UTF-8; at most ${WS_MAX_CLOSE_REASON_BYTES} fit in a ` +
        'Close frame (RFC 6455 §5.5)',
    );
  }
}

const utf8 = new TextEncoder();

/** The payload of a Close frame: the code as 2 big-endian bytes, then the UTF-8 reason (§5.5.1). */
export function encodeWsClosePayload(code: number, reason = ''): Uint8Array {
  const text = utf8.encode(reason);
  const out = new Uint8Array(2 + text.length);
  out[0] = code >> 8;
  out[1] = code & 0xff;
  out.set(text, 2);
  return out;
}

/** A Close frame body read back, or the close code the connection must fail with. */
export type WsClosePayload =
  | { readonly ok: true; readonly code: number; readonly reason: string }
  | { readonly ok: false; readonly failWith: 1002 | 1007; readonly detail: string };

/**
 * Reads a received Close frame's payload (§5.5.1). An empty body means "no status" (1005, §7.1.5);
 * one byte, or a code that is not valid on the wire, is a protocol error (1002); a reason that is not
 * UTF-8 is invalid data (1007, §8.1).
 */
export function decodeWsClosePayload(payload: Uint8Array): WsClosePayload {
  if (payload.length === 0) return { ok: true, code: WS_CLOSE_CODES.noStatus, reason: '' };
  if (payload.length === 1) {
    return { ok: false, failWith: 1002, detail: 'A Close frame body of one byte has no room for a code' };
  }
  const code = ((payload[0] as number) << 8) | (payload[1] as number);
  if (!isValidWsCloseCode(code)) {
    return { ok: false, failWith: 1002, detail: `Close code ${code} is not valid on the wire` };
  }
  try {
    const reason = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload.subarray(2));
    return { ok: true, code, reason };
  } catch {
    return { ok: false, failWith: 1007, detail: 'The close reason is not valid UTF-8' };
  }
}
