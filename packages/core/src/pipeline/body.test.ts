import { describe, expect, test } from 'bun:test';
import { BadRequestError } from '../errors/index.ts';
import { type BodyReadOptions, mediaType, readAndParseBody } from './body.ts';

const OPTIONS: BodyReadOptions = {
  limit: 1024,
  allowed: ['application/json', 'text/plain'],
  multipart: { maxFileBytes: 1024, maxFields: 10, maxFiles: 1 },
};

function post(bytes: Uint8Array, type: string): Request {
  return new Request('http://charter.local/x', {
    method: 'POST',
    body: bytes as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': type, 'content-length': String(bytes.byteLength) },
  });
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readAndParseBody: UTF-8', () => {
  test('a body holding a real U+FFFD (valid UTF-8: EF BF BD) is accepted and kept', async () => {
    expect(await readAndParseBody(post(utf8('{"a":"x\uFFFDy"}'), 'application/json'), OPTIONS)).toEqual({
      a: 'x\uFFFDy',
    });
    expect(await readAndParseBody(post(utf8('caf\u00e9 \uFFFD'), 'text/plain'), OPTIONS)).toBe(
      'caf\u00e9 \uFFFD',
    );
  });

  const invalid: [string, number[]][] = [
    ['a lone 0xFF', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]],
    ['an overlong encoding of "."', [0x22, 0xc0, 0xae, 0x22]],
    ['an encoded surrogate', [0x22, 0xed, 0xa0, 0x80, 0x22]],
    ['a truncated sequence', [0x22, 0xe2, 0x82, 0x22]],
    ['a real U+FFFD beside an invalid byte', [0x22, 0xef, 0xbf, 0xbd, 0xff, 0x22]],
  ];
  for (const [label, bytes] of invalid) {
    test(`a body with ${label} is a 400, for JSON and for text`, async () => {
      for (const type of ['application/json', 'text/plain']) {
        const read = Promise.resolve().then(() =>
          readAndParseBody(post(new Uint8Array(bytes), type), OPTIONS),
        );
        const error = await read.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(BadRequestError);
        expect((error as BadRequestError).detail).toBe('The request body is not valid UTF-8');
      }
    });
  }

  test('a leading byte order mark is dropped, as the strict decoder does', async () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a":1}')]);
    expect(await readAndParseBody(post(withBom, 'application/json'), OPTIONS)).toEqual({ a: 1 });
  });
});

describe('mediaType', () => {
  test('the same answer for a value read again, and for values that alternate', () => {
    const values: [string | null, string | undefined][] = [
      ['application/json', 'application/json'],
      ['Application/JSON; charset=utf-8', 'application/json'],
      ['text/plain;charset=utf-8', 'text/plain'],
      ['  ; x=1', undefined],
      [null, undefined],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [value, type] of values) {
        expect(mediaType(value)).toBe(type);
        expect(mediaType(value)).toBe(type);
      }
    }
  });
});
