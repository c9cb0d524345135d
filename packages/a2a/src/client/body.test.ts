import { describe, expect, test } from 'bun:test';
import { isJsonContentType, parseJsonBytes, readBodyLimited, untilAborted } from './body.ts';
import { A2aClientError } from './errors.ts';

const never = new AbortController().signal;

function streamOf(chunks: Uint8Array[], onCancel?: () => void): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel: onCancel,
  });
}

describe('isJsonContentType', () => {
  test('accepts application/json and application/a2a+json, with a UTF-8 charset or none', () => {
    for (const value of [
      'application/json',
      'Application/JSON; charset=utf-8',
      'application/a2a+json',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8; x=y',
    ]) {
      expect(isJsonContentType(value)).toBe(true);
    }
  });

  test('refuses other types, another charset and a missing header', () => {
    for (const value of [
      'text/html',
      'application/problem+json',
      'application/jsonx',
      'application/json; charset=latin1',
      'text/json',
    ]) {
      expect(isJsonContentType(value)).toBe(false);
    }
    expect(isJsonContentType(null)).toBe(false);
  });
});

describe('readBodyLimited', () => {
  test('reads a body in several chunks up to the cap', async () => {
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5])];
    const bytes = await readBodyLimited(new Response(streamOf(chunks)), 5, never);
    expect([...bytes]).toEqual([1, 2, 3, 4, 5]);
    expect((await readBodyLimited(new Response(null), 5, never)).byteLength).toBe(0);
  });

  test('stops reading and cancels the stream once the body passes the cap', async () => {
    let cancelled = false;
    const chunks = Array.from({ length: 10 }, () => new Uint8Array(4));
    const error = await readBodyLimited(
      new Response(streamOf(chunks, () => (cancelled = true))),
      10,
      never,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2aClientError);
    expect((error as A2aClientError).reason).toBe('too-large');
    expect((error as A2aClientError).code).toBe(0);
    expect(cancelled).toBe(true);
  });

  test('refuses a declared Content-Length above the cap without reading', async () => {
    const response = new Response('x'.repeat(20), { headers: { 'content-length': '20' } });
    const error = await readBodyLimited(response, 10, never).catch((e: unknown) => e);
    expect((error as A2aClientError).reason).toBe('too-large');
    expect((await readBodyLimited(new Response('x'.repeat(10)), 10, never)).byteLength).toBe(10);
  });

  test('rejects with the abort reason when the signal aborts mid-body', async () => {
    const controller = new AbortController();
    const stalled = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const reading = readBodyLimited(new Response(stalled), 10, controller.signal);
    controller.abort(new Error('stop'));
    expect(await reading.catch((e: unknown) => (e as Error).message)).toBe('stop');
  });
});

describe('untilAborted', () => {
  test('passes a settled value through and rejects at once on an aborted signal', async () => {
    expect(await untilAborted(Promise.resolve(3), never)).toBe(3);
    expect(await untilAborted(Promise.reject(new Error('no')), never).catch((e: Error) => e.message)).toBe(
      'no',
    );
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    expect(await untilAborted(new Promise(() => {}), controller.signal).catch((e: Error) => e.message)).toBe(
      'gone',
    );
  });
});

describe('parseJsonBytes', () => {
  test('parses UTF-8 JSON and skips a byte order mark', () => {
    expect(parseJsonBytes(new TextEncoder().encode('{"a":"é"}'))).toEqual({ a: 'é' });
    expect(parseJsonBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))).toBe(1);
  });

  test('throws on invalid UTF-8 and on invalid JSON', () => {
    expect(() => parseJsonBytes(new Uint8Array([0x22, 0xff, 0x22]))).toThrow();
    expect(() => parseJsonBytes(new TextEncoder().encode('{"a":'))).toThrow(SyntaxError);
  });
});
