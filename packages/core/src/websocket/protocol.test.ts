import { describe, expect, test } from 'bun:test';
import { encodeWsClosePayload } from './close-codes.ts';
import { encodeWsFrame, type WsFrame, WsFrameParser, WS_OPCODES } from './frame.ts';
import type { WsMessage } from './message.ts';
import { WsProtocol, type WsProtocolOptions } from './protocol.ts';

const MASK = new Uint8Array([9, 8, 7, 6]);

/** A WsProtocol whose socket is an array: what it wrote, whether it ended, what it reported. */
function harness(options: Partial<WsProtocolOptions> = {}) {
  const written: Uint8Array[] = [];
  const messages: WsMessage[] = [];
  const closes: [number, string][] = [];
  let ended = 0;
  const protocol = new WsProtocol({
    maxPayloadLength: 1000,
    write: (bytes) => void written.push(bytes),
    end: () => void ended++,
    onMessage: (message) => void messages.push(message),
    onClose: (code, reason) => void closes.push([code, reason]),
    ...options,
  });
  const frames = (): WsFrame[] => {
    const parser = new WsFrameParser({ maxPayloadLength: 1 << 20, requireMask: false, forbidMask: true });
    return written.flatMap((bytes) => parser.push(bytes));
  };
  const send = (opcode: number, payload: Uint8Array | string = new Uint8Array(0), fin = true): void => {
    const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
    protocol.receive(encodeWsFrame({ opcode, payload: bytes, fin, mask: MASK }));
  };
  return { protocol, written, messages, closes, frames, send, ended: () => ended };
}

/** The code of the Close frame the protocol wrote, if any. */
function closeCode(frames: WsFrame[]): number | undefined {
  const close = frames.find((f) => f.opcode === WS_OPCODES.close);
  if (close === undefined) return undefined;
  return ((close.payload[0] as number) << 8) | (close.payload[1] as number);
}

describe('WsProtocol', () => {
  test('a fragmented message with a Ping between its fragments is delivered once, the Ping answered', () => {
    const h = harness();
    h.send(WS_OPCODES.text, 'frag', false);
    h.send(WS_OPCODES.ping, 'p');
    h.send(WS_OPCODES.continuation, 'ment', false);
    h.send(WS_OPCODES.continuation, 'ed');
    expect(h.messages).toEqual(['fragmented']);
    expect(h.frames().map((f) => [f.opcode, new TextDecoder().decode(f.payload)])).toEqual([[0xa, 'p']]);
  });

  test('invalid UTF-8 in a first fragment fails with 1007 before the message ends', () => {
    const h = harness();
    h.send(WS_OPCODES.text, new Uint8Array([0x68, 0xc0]), false);
    expect(closeCode(h.frames())).toBe(1007);
    expect(h.closes).toEqual([[1007, 'A text message is not valid UTF-8']]);
    expect(h.ended()).toBe(1);
    // A valid prefix cut inside a sequence is waited on, not refused.
    const ok = harness();
    ok.send(WS_OPCODES.text, new Uint8Array([0x68, 0xe2, 0x82]), false);
    ok.send(WS_OPCODES.continuation, new Uint8Array([0xac]));
    expect(ok.messages).toEqual(['h€']);
    expect(ok.closes).toEqual([]);
  });

  test('fragments are refused from the header once the message would outgrow maxPayloadLength', () => {
    const h = harness({ maxPayloadLength: 1000 });
    h.send(WS_OPCODES.binary, new Uint8Array(600), false);
    // Only the header of the next fragment: it announces 500 bytes, 100 more than the message may take.
    const header = encodeWsFrame({ opcode: 0, payload: new Uint8Array(500), mask: MASK }).subarray(0, 8);
    h.protocol.receive(header);
    expect(closeCode(h.frames())).toBe(1009);
    expect(h.ended()).toBe(1);
    // Exactly up to the cap is fine.
    const fits = harness({ maxPayloadLength: 1000 });
    fits.send(WS_OPCODES.binary, new Uint8Array(600), false);
    fits.send(WS_OPCODES.continuation, new Uint8Array(400));
    expect((fits.messages[0] as Uint8Array).length).toBe(1000);
  });

  test('a header announcing 2^62 bytes fails with 1009 and buffers nothing; 2^63 is a protocol error', () => {
    const big = harness();
    big.protocol.receive(new Uint8Array([0x82, 0xff, 0x40, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]));
    expect(closeCode(big.frames())).toBe(1009);
    const top = harness();
    top.protocol.receive(new Uint8Array([0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]));
    expect(closeCode(top.frames())).toBe(1002);
  });

  test('4096 fragments make a message; a 4097th fails with 1002', () => {
    const h = harness();
    h.send(WS_OPCODES.binary, new Uint8Array([1]), false);
    for (let i = 1; i < 4095; i++) h.send(WS_OPCODES.continuation, new Uint8Array(0), false);
    h.send(WS_OPCODES.continuation, new Uint8Array([2]));
    expect(h.messages).toEqual([new Uint8Array([1, 2])]);
    h.send(WS_OPCODES.binary, new Uint8Array(0), false);
    for (let i = 1; i < 4097; i++) h.send(WS_OPCODES.continuation, new Uint8Array(0), false);
    expect(closeCode(h.frames())).toBe(1002);
  });

  test("the peer's Close is echoed with its code; later frames in the same chunk are not read", () => {
    const h = harness();
    const bytes = [
      encodeWsFrame({ opcode: WS_OPCODES.close, payload: encodeWsClosePayload(4000, 'bye'), mask: MASK }),
      encodeWsFrame({ opcode: WS_OPCODES.text, payload: new TextEncoder().encode('late'), mask: MASK }),
    ];
    h.protocol.receive(new Uint8Array([...(bytes[0] as Uint8Array), ...(bytes[1] as Uint8Array)]));
    expect(closeCode(h.frames())).toBe(4000);
    expect(h.messages).toEqual([]);
    expect(h.closes).toEqual([[4000, 'bye']]);
    expect(h.protocol.state).toBe('closed');
    h.send(WS_OPCODES.text, 'later still');
    expect(h.messages).toEqual([]);
  });

  test('after our Close, data is discarded and the Ping not answered; the peer Close ends it', () => {
    const h = harness();
    h.protocol.close(1000, 'done');
    h.send(WS_OPCODES.text, 'in flight');
    h.send(WS_OPCODES.ping, 'p');
    expect(h.messages).toEqual([]);
    expect(h.frames().map((f) => f.opcode)).toEqual([WS_OPCODES.close]);
    expect(h.ended()).toBe(0);
    h.send(WS_OPCODES.close, encodeWsClosePayload(1000));
    expect(h.ended()).toBe(1);
    expect(h.closes).toEqual([[1000, '']]);
  });

  test('a peer that never answers our Close is cut after closeTimeoutMs, reported once', async () => {
    const h = harness({ closeTimeoutMs: 20 });
    h.protocol.close(4001, 'bye');
    await Bun.sleep(60);
    expect(h.ended()).toBe(1);
    expect(h.closes).toEqual([[4001, 'bye']]);
    h.protocol.socketClosed();
    expect(h.closes.length).toBe(1);
  });

  test('an answered Close clears the close timer: end runs once', async () => {
    const h = harness({ closeTimeoutMs: 20 });
    h.protocol.close(1000, '');
    h.send(WS_OPCODES.close, encodeWsClosePayload(1000));
    await Bun.sleep(60);
    expect(h.ended()).toBe(1);
  });

  test('a socket that drops without a Close reports 1006 and writes nothing', () => {
    const h = harness();
    h.protocol.socketClosed();
    expect(h.closes).toEqual([[1006, '']]);
    expect(h.written).toEqual([]);
    h.protocol.sendText('x');
    expect(h.written).toEqual([]);
  });
});
