import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import {
  applyWsMask,
  encodeWsFrame,
  WS_OPCODES,
  type WsFrame,
  WsFrameParser,
  WsProtocolError,
} from './frame.ts';

const MASK = new Uint8Array([0x37, 0xfa, 0x21, 0x3d]);

/** Splits bytes at the given cut points (sorted, deduplicated, within range). */
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
}

function parseAll(bytes: Uint8Array, options = { maxPayloadLength: 1 << 20 }): WsFrame[] {
  return new WsFrameParser(options).push(bytes);
}

function failure(bytes: Uint8Array, options = { maxPayloadLength: 1 << 20 }): number | undefined {
  try {
    parseAll(bytes, options);
    return undefined;
  } catch (error) {
    return (error as WsProtocolError).code;
  }
}

describe('encodeWsFrame and WsFrameParser', () => {
  test('the RFC 6455 §5.7 examples encode byte for byte', () => {
    const hello = new TextEncoder().encode('Hello');
    expect([...encodeWsFrame({ opcode: WS_OPCODES.text, payload: hello })]).toEqual([
      0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f,
    ]);
    expect([...encodeWsFrame({ opcode: WS_OPCODES.text, payload: hello, mask: MASK })]).toEqual([
      0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58,
    ]);
    expect([
      ...encodeWsFrame({ opcode: WS_OPCODES.binary, payload: new Uint8Array(256) }).subarray(0, 4),
    ]).toEqual([0x82, 0x7e, 0x01, 0x00]);
    expect([
      ...encodeWsFrame({ opcode: WS_OPCODES.binary, payload: new Uint8Array(65536) }).subarray(0, 10),
    ]).toEqual([0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0]);
  });

  test('masking twice with the same key gives the data back', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.uint8Array({ minLength: 4, maxLength: 4 }),
        (data, key) => {
          const copy = data.slice();
          applyWsMask(applyWsMask(copy, key), key);
          expect(copy).toEqual(data);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('any masked frame sequence parses back to the same frames, however the bytes are chunked', () => {
    const frame = fc.record({
      opcode: fc.constantFrom(0x1, 0x2, 0x0, 0x9, 0xa, 0x8),
      fin: fc.boolean(),
      payload: fc.oneof(
        fc.uint8Array({ maxLength: 125 }),
        fc.uint8Array({ minLength: 126, maxLength: 70_000 }),
      ),
      mask: fc.uint8Array({ minLength: 4, maxLength: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(frame, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (frames, cuts) => {
          const valid = frames.map((f) =>
            f.opcode >= 0x8 ? { ...f, fin: true, payload: f.payload.subarray(0, 125) } : f,
          );
          const bytes = Uint8Array.from(valid.flatMap((f) => [...encodeWsFrame(f)]));
          const parser = new WsFrameParser({ maxPayloadLength: 1 << 20 });
          const parsed = chunked(bytes, cuts).flatMap((chunk) => parser.push(chunk));
          expect(parsed.map((f) => [f.opcode, f.fin, f.masked, [...f.payload]])).toEqual(
            valid.map((f) => [f.opcode, f.fin, true, [...f.payload]]),
          );
          expect(parser.buffered).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('an unmasked client frame fails with 1002; a server-role parser refuses masked ones', () => {
    expect(failure(encodeWsFrame({ opcode: 1, payload: new Uint8Array([1]) }))).toBe(1002);
    const masked = encodeWsFrame({ opcode: 1, payload: new Uint8Array([1]), mask: MASK });
    expect(failure(masked)).toBeUndefined();
    expect(() =>
      new WsFrameParser({ maxPayloadLength: 10, requireMask: false, forbidMask: true }).push(masked),
    ).toThrow(WsProtocolError);
  });

  test('reserved opcodes and reserved bits fail with 1002', () => {
    for (const opcode of [0x3, 0x7, 0xb, 0xf])
      expect(failure(encodeWsFrame({ opcode, mask: MASK }))).toBe(1002);
    for (const rsv of [1, 2, 4]) expect(failure(encodeWsFrame({ opcode: 1, rsv, mask: MASK }))).toBe(1002);
    expect(
      failure(encodeWsFrame({ opcode: 1, rsv: 4, mask: MASK }), {
        maxPayloadLength: 9,
        allowedRsv: 4,
      } as never),
    ).toBeUndefined();
  });

  test('control frames over 125 bytes or fragmented fail with 1002', () => {
    expect(failure(encodeWsFrame({ opcode: 0x9, payload: new Uint8Array(126), mask: MASK }))).toBe(1002);
    expect(failure(encodeWsFrame({ opcode: 0x9, payload: new Uint8Array(125), mask: MASK }))).toBeUndefined();
    expect(failure(encodeWsFrame({ opcode: 0x8, fin: false, mask: MASK }))).toBe(1002);
  });

  test('a payload over the cap fails with 1009 from the header alone; control frames are not capped by it', () => {
    const header = encodeWsFrame({ opcode: 2, payload: new Uint8Array(2000), mask: MASK }).subarray(0, 8);
    expect(failure(header, { maxPayloadLength: 1999 })).toBe(1009);
    expect(
      failure(encodeWsFrame({ opcode: 2, payload: new Uint8Array(1999), mask: MASK }), {
        maxPayloadLength: 1999,
      }),
    ).toBeUndefined();
    expect(
      failure(encodeWsFrame({ opcode: 0x9, payload: new Uint8Array(50), mask: MASK }), {
        maxPayloadLength: 10,
      }),
    ).toBeUndefined();
  });

  test('non-minimal length encodings and a 64-bit length with its top bit set fail with 1002', () => {
    expect(failure(new Uint8Array([0x82, 0xfe, 0x00, 0x05, ...MASK, 1, 2, 3, 4, 5]))).toBe(1002);
    expect(failure(new Uint8Array([0x82, 0xff, 0, 0, 0, 0, 0, 0, 0x01, 0x00, ...MASK]))).toBe(1002);
    expect(failure(new Uint8Array([0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, ...MASK]))).toBe(1002);
  });

  test('an incomplete frame waits for more bytes', () => {
    const bytes = encodeWsFrame({ opcode: 1, payload: new Uint8Array(300), mask: MASK });
    const parser = new WsFrameParser({ maxPayloadLength: 1000 });
    expect(parser.push(bytes.subarray(0, 3))).toEqual([]);
    expect(parser.push(bytes.subarray(3, 100))).toEqual([]);
    expect(parser.push(bytes.subarray(100))).toHaveLength(1);
  });

  test('bad encoder arguments throw', () => {
    expect(() => encodeWsFrame({ opcode: 16 })).toThrow(RangeError);
    expect(() => encodeWsFrame({ opcode: 1, mask: new Uint8Array(3) })).toThrow(RangeError);
    expect(() => encodeWsFrame({ opcode: 1, rsv: 8 })).toThrow(RangeError);
  });
});
