import { describe, expect, test } from 'bun:test';
import { encodeSseMessage, type SseMessage, splitSseLines } from './sse-message.ts';

describe('splitSseLines', () => {
  test('splits on CRLF, lone CR and lone LF, each counting once', () => {
    expect(splitSseLines('a\r\nb\rc\nd')).toEqual(['a', 'b', 'c', 'd']);
  });

  test('keeps empty lines between consecutive breaks (LF CR is two breaks, CR LF one)', () => {
    expect(splitSseLines('a\n\rb')).toEqual(['a', '', 'b']);
    expect(splitSseLines('a\r\nb')).toEqual(['a', 'b']);
    expect(splitSseLines('\n')).toEqual(['', '']);
  });

  test('leaves text without a line break as one line', () => {
    expect(splitSseLines('no break here')).toEqual(['no break here']);
  });
});

describe('encodeSseMessage', () => {
  test('writes comment, event, id, retry and data, then the blank line that dispatches', () => {
    expect(encodeSseMessage({ comment: 'c', event: 'tick', id: '7', retry: 1500, data: 'hello' })).toBe(
      ': c\nevent: tick\nid: 7\nretry: 1500\ndata: hello\n\n',
    );
  });

  test('splits data on every kind of line break into several data lines', () => {
    expect(encodeSseMessage({ data: 'one\r\ntwo\rthree\nfour' })).toBe(
      'data: one\ndata: two\ndata: three\ndata: four\n\n',
    );
  });

  test('keeps empty lines of data, and sends empty data as one empty data line', () => {
    expect(encodeSseMessage({ data: 'a\n\nb' })).toBe('data: a\ndata: \ndata: b\n\n');
    expect(encodeSseMessage({ data: '' })).toBe('data: \n\n');
    expect(encodeSseMessage({ data: '\n' })).toBe('data: \ndata: \n\n');
  });

  test('keeps a leading space of a value (the parser strips only the one after the colon)', () => {
    expect(encodeSseMessage({ data: '  indented' })).toBe('data:   indented\n\n');
  });

  test('sends a non-string data value as its JSON text on one line', () => {
    expect(encodeSseMessage({ data: { text: 'a\nb', n: 1 } })).toBe('data: {"text":"a\\nb","n":1}\n\n');
    expect(encodeSseMessage({ data: 42 })).toBe('data: 42\n\n');
    expect(encodeSseMessage({ data: null })).toBe('data: null\n\n');
    expect(encodeSseMessage({ data: [true] })).toBe('data: [true]\n\n');
  });

  test('refuses data JSON cannot encode', () => {
    expect(() => encodeSseMessage({ data: () => 1 })).toThrow(TypeError);
    expect(() => encodeSseMessage({ data: Symbol('s') })).toThrow(/"data" cannot be serialised as JSON/);
    expect(() => encodeSseMessage({ data: 1n })).toThrow(TypeError);
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    expect(() => encodeSseMessage({ data: cycle })).toThrow(TypeError);
  });

  test('splits a comment on line breaks into several comment lines', () => {
    expect(encodeSseMessage({ comment: 'a\r\nb\rc' })).toBe(': a\n: b\n: c\n\n');
    expect(encodeSseMessage({ comment: '' })).toBe(':\n\n');
  });

  test('turns each run of CR and LF in event into one space', () => {
    expect(encodeSseMessage({ event: 'a\r\n\r\nb\rc\nd' })).toBe('event: a b c d\n\n');
  });

  test('leaves an event without line breaks as it is', () => {
    expect(encodeSseMessage({ event: 'user.created: v2' })).toBe('event: user.created: v2\n\n');
  });

  test('turns each run of CR, LF and NUL in id into one space', () => {
    expect(encodeSseMessage({ id: 'a\0b\r\n\0c' })).toBe('id: a b c\n\n');
  });

  test('sends an empty id, which resets the last event ID', () => {
    expect(encodeSseMessage({ id: '' })).toBe('id: \n\n');
  });

  test('accepts retry 0 and any non-negative safe integer', () => {
    expect(encodeSseMessage({ retry: 0 })).toBe('retry: 0\n\n');
    expect(encodeSseMessage({ retry: Number.MAX_SAFE_INTEGER })).toBe(
      `retry: ${Number.MAX_SAFE_INTEGER}\n\n`,
    );
  });

  test('refuses a negative, fractional, infinite or non-number retry', () => {
    for (const retry of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '100']) {
      expect(() => encodeSseMessage({ retry } as unknown as SseMessage)).toThrow(
        /"retry" must be a non-negative/,
      );
    }
  });

  test('refuses a non-string event, id or comment, naming the field', () => {
    expect(() => encodeSseMessage({ event: 1 } as unknown as SseMessage)).toThrow(/"event" must be a string/);
    expect(() => encodeSseMessage({ id: 2 } as unknown as SseMessage)).toThrow(/"id" must be a string/);
    expect(() => encodeSseMessage({ comment: null } as unknown as SseMessage)).toThrow(/"comment"/);
  });

  test('refuses a message that is not an object', () => {
    for (const message of [null, 'data', 3, ['data']]) {
      expect(() => encodeSseMessage(message as unknown as SseMessage)).toThrow(/must be an object/);
    }
  });

  test('encodes a message with no field as nothing', () => {
    expect(encodeSseMessage({})).toBe('');
    expect(encodeSseMessage({ data: undefined })).toBe('');
  });
});
