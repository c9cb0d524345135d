import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { WsFrame } from './frame.ts';
import { WsMessageAssembler } from './message.ts';
import type { WsProtocolError } from './frame.ts';

const frame = (opcode: number, payload: Uint8Array | string, fin = true): WsFrame => ({
  opcode,
  fin,
  rsv: 0,
  masked: true,
  payload: typeof payload === 'string' ? new TextEncoder().encode(payload) : payload,
});

function codeOf(run: () => void): number | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as WsProtocolError).code;
  }
}

describe('WsMessageAssembler', () => {
  test('fragments of any text split at any byte (UTF-8 sequences included) rebuild the text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (text, cuts) => {
          const bytes = new TextEncoder().encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const parts: Uint8Array[] = [];
          let at = 0;
          for (const p of points) {
            parts.push(bytes.subarray(at, p));
            at = p;
          }
          parts.push(bytes.subarray(at));
          const assembler = new WsMessageAssembler({ maxPayloadLength: 1000 });
          let out: unknown;
          parts.forEach((part, i) => {
            out = assembler.push(frame(i === 0 ? 1 : 0, part, i === parts.length - 1));
          });
          expect(out).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('binary fragments concatenate; a byte-order mark in text is kept', () => {
    const assembler = new WsMessageAssembler({ maxPayloadLength: 100 });
    expect(assembler.push(frame(2, new Uint8Array([1, 2]), false))).toBeUndefined();
    expect(assembler.inProgress).toBe(true);
    expect(assembler.push(frame(0, new Uint8Array([3]), true))).toEqual(new Uint8Array([1, 2, 3]));
    expect(assembler.push(frame(1, '\uFEFFhi'))).toBe('\uFEFFhi');
  });

  test('a continuation with no message, or a new message inside a fragmented one, fails with 1002', () => {
    expect(codeOf(() => new WsMessageAssembler({ maxPayloadLength: 10 }).push(frame(0, 'a')))).toBe(1002);
    const assembler = new WsMessageAssembler({ maxPayloadLength: 10 });
    assembler.push(frame(1, 'a', false));
    expect(codeOf(() => assembler.push(frame(2, 'b')))).toBe(1002);
  });

  test('invalid UTF-8 fails with 1007, as soon as it is seen or when the message ends mid-sequence', () => {
    expect(
      codeOf(() =>
        new WsMessageAssembler({ maxPayloadLength: 10 }).push(frame(1, new Uint8Array([0xff]), false)),
      ),
    ).toBe(1007);
    expect(
      codeOf(() =>
        new WsMessageAssembler({ maxPayloadLength: 10 }).push(frame(1, new Uint8Array([0xe2, 0x82]))),
      ),
    ).toBe(1007);
    expect(
      codeOf(() =>
        new WsMessageAssembler({ maxPayloadLength: 10 }).push(frame(1, new Uint8Array([0xed, 0xa0, 0x80]))),
      ),
    ).toBe(1007);
  });

  test('a message over maxPayloadLength across fragments fails with 1009', () => {
    const assembler = new WsMessageAssembler({ maxPayloadLength: 4 });
    assembler.push(frame(2, new Uint8Array(3), false));
    expect(codeOf(() => assembler.push(frame(0, new Uint8Array(2))))).toBe(1009);
    expect(new WsMessageAssembler({ maxPayloadLength: 4 }).push(frame(2, new Uint8Array(4)))).toHaveLength(4);
  });

  test('4096 data frames make a message; the 4097th fails with 1002', () => {
    const ok = new WsMessageAssembler({ maxPayloadLength: 10_000 });
    for (let i = 0; i < 4095; i++) ok.push(frame(i === 0 ? 2 : 0, new Uint8Array([1]), false));
    expect(ok.push(frame(0, new Uint8Array([1])))).toHaveLength(4096);
    const over = new WsMessageAssembler({ maxPayloadLength: 10_000 });
    for (let i = 0; i < 4096; i++) over.push(frame(i === 0 ? 2 : 0, new Uint8Array(0), false));
    expect(codeOf(() => over.push(frame(0, new Uint8Array(0))))).toBe(1002);
  });
});
