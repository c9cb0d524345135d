import { afterEach, describe, expect, test } from 'bun:test';
import { ConflictError } from '@charter/core';
import {
  NDJSON_CONTENT_TYPE,
  type NdjsonStreamOptions,
  ndjsonLine,
  ndjsonResponse,
  ndjsonStream,
  resolveNdjsonStreamOptions,
} from './ndjson.ts';

const decoder = new TextDecoder();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const GENERIC_ERROR_LINE =
  '{"error":{"type":"https://charter.dev/errors/internal","title":"Internal Server Error","status":500}}\n';

let reported: unknown[] = [];
afterEach(() => {
  reported = [];
});
const quiet: NdjsonStreamOptions = { onError: (error) => void reported.push(error) };

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text;
}

describe('ndjsonLine', () => {
  test('is the JSON text of the value and one LF', () => {
    expect(decoder.decode(ndjsonLine({ a: 'x\ny', b: [1, null] }))).toBe('{"a":"x\\ny","b":[1,null]}\n');
    expect(decoder.decode(ndjsonLine('text'))).toBe('"text"\n');
    expect(decoder.decode(ndjsonLine(null))).toBe('null\n');
  });

  test('never spans two lines: control characters and line separators stay inside one line', () => {
    const line = decoder.decode(ndjsonLine({ s: '\r\n\u2028\u2029\0' }));
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(line).not.toContain('\r');
    expect(JSON.parse(line)).toEqual({ s: '\r\n\u2028\u2029\0' });
  });

  test('refuses values JSON cannot encode', () => {
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    for (const value of [undefined, () => 1, Symbol('s'), 1n, cycle]) {
      expect(() => ndjsonLine(value)).toThrow(TypeError);
    }
  });
});

describe('ndjsonStream', () => {
  test('sends one line per item, from a sync or an async source', async () => {
    expect(await readAll(ndjsonStream([1, 'two', { three: 3 }], quiet))).toBe('1\n"two"\n{"three":3}\n');
    async function* rows(): AsyncGenerator<unknown> {
      yield { id: 1 };
      await sleep(1);
      yield { id: 2 };
    }
    expect(await readAll(ndjsonStream(rows(), quiet))).toBe('{"id":1}\n{"id":2}\n');
  });

  test('an empty source gives an empty body', async () => {
    expect(await readAll(ndjsonStream([], quiet))).toBe('');
  });

  test('sends nothing before the first read and takes one item per read', async () => {
    let produced = 0;
    function* counting(): Generator<number> {
      for (;;) yield ++produced;
    }
    const reader = ndjsonStream(counting(), quiet).getReader();
    await sleep(5);
    expect(produced).toBe(0);
    for (let read = 1; read <= 4; read++) {
      expect(decoder.decode((await reader.read()).value)).toBe(`${read}\n`);
      await sleep(5);
      expect(produced).toBe(read);
    }
    await reader.cancel();
  });

  test('a value JSON cannot encode ends the stream with a generic error line and runs the finally', async () => {
    for (const bad of [undefined, () => 1, 7n]) {
      let cleaned = false;
      function* items(): Generator<unknown> {
        try {
          yield 'ok';
          yield bad;
          yield 'never';
        } finally {
          cleaned = true;
        }
      }
      expect(await readAll(ndjsonStream(items(), quiet))).toBe(`"ok"\n${GENERIC_ERROR_LINE}`);
      expect(cleaned).toBe(true);
    }
    expect(reported).toHaveLength(3);
    expect(reported.every((error) => error instanceof TypeError)).toBe(true);
  });

  test('a cycle ends the stream the same way', async () => {
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    expect(await readAll(ndjsonStream([cycle], quiet))).toBe(GENERIC_ERROR_LINE);
  });

  test('a source that throws ends with the error line; its message never reaches the client', async () => {
    async function* failing(): AsyncGenerator<unknown> {
      yield 1;
      throw new Error('secret internals');
    }
    const text = await readAll(ndjsonStream(failing(), quiet));
    expect(text).toBe(`1\n${GENERIC_ERROR_LINE}`);
    expect(text).not.toContain('secret');
    expect((reported[0] as Error).message).toBe('secret internals');
  });

  test('a 4xx HttpError keeps its public problem document in the error line', async () => {
    async function* failing(): AsyncGenerator<unknown> {
      yield* [];
      throw new ConflictError('The export was restarted');
    }
    const text = await readAll(ndjsonStream(failing(), quiet));
    expect(JSON.parse(text)).toEqual({
      error: {
        type: 'https://charter.dev/errors/conflict',
        title: 'Conflict',
        status: 409,
        detail: 'The export was restarted',
      },
    });
  });

  test("cancelling calls the source's return() so its finally runs", async () => {
    let cleaned = false;
    async function* endless(): AsyncGenerator<number> {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        cleaned = true;
      }
    }
    const reader = ndjsonStream(endless(), quiet).getReader();
    await reader.read();
    await reader.cancel();
    await sleep(1);
    expect(cleaned).toBe(true);
  });

  test('an aborted signal ends the stream normally and runs the finally', async () => {
    let cleaned = false;
    async function* endless(): AsyncGenerator<number> {
      try {
        for (let i = 0; ; i++) {
          await sleep(5);
          yield i;
        }
      } finally {
        cleaned = true;
      }
    }
    const controller = new AbortController();
    const reader = ndjsonStream(endless(), { ...quiet, signal: controller.signal }).getReader();
    expect(decoder.decode((await reader.read()).value)).toBe('0\n');
    controller.abort();
    expect((await reader.read()).done).toBe(true);
    await sleep(10);
    expect(cleaned).toBe(true);
  });

  test('refuses a source that is not iterable, naming ndjsonStream', () => {
    expect(() => ndjsonStream(5 as unknown as number[])).toThrow(/ndjsonStream: the source must be/);
    expect(() => ndjsonStream('{"a":1}' as unknown as string[])).toThrow(TypeError);
  });
});

describe('resolveNdjsonStreamOptions', () => {
  test('fills the defaults and freezes', () => {
    const resolved = resolveNdjsonStreamOptions();
    expect(resolved.signal).toBeUndefined();
    expect(typeof resolved.onError).toBe('function');
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  test('refuses a bad signal, onError or options value', () => {
    expect(() => resolveNdjsonStreamOptions({ signal: 'x' as unknown as AbortSignal })).toThrow(
      /ndjsonStream: signal must be an AbortSignal/,
    );
    expect(() => resolveNdjsonStreamOptions({ onError: 1 as unknown as () => void })).toThrow(/onError/);
    expect(() => resolveNdjsonStreamOptions(null as unknown as NdjsonStreamOptions)).toThrow(
      /options must be/,
    );
  });
});

describe('ndjsonResponse', () => {
  test('answers 200 application/x-ndjson with x-accel-buffering: no and no content-length', async () => {
    const response = ndjsonResponse([{ a: 1 }, { a: 2 }], quiet);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(NDJSON_CONTENT_TYPE);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-length')).toBeNull();
    expect(await response.text()).toBe('{"a":1}\n{"a":2}\n');
  });

  test('takes a status and headers that add to and override the defaults', async () => {
    const response = ndjsonResponse([], {
      ...quiet,
      status: 206,
      headers: { 'x-total': '0', 'content-type': 'application/jsonl' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('x-total')).toBe('0');
    expect(response.headers.get('content-type')).toBe('application/jsonl');
  });

  test('a content-type must name NDJSON (x-ndjson or jsonl); a content-encoding is refused', () => {
    const named = ndjsonResponse([], { headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } });
    expect(named.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    void named.body?.cancel();
    for (const other of ['text/plain', 'application/ndjson']) {
      expect(() => ndjsonResponse([], { headers: { 'content-type': other } })).toThrow(
        /ndjsonResponse: headers set content-type to "[a-z/]+", but the body is application\/x-ndjson/,
      );
    }
    expect(() => ndjsonResponse([], { headers: { 'content-encoding': 'br' } })).toThrow(
      /ndjsonResponse: headers must not set content-encoding/,
    );
  });

  test('refuses a bad status, a content-length header or a bad option, naming ndjsonResponse', () => {
    expect(() => ndjsonResponse([], { status: 204 })).toThrow(/ndjsonResponse: status must be/);
    expect(() => ndjsonResponse([], { headers: { 'content-length': '5' } })).toThrow(
      /ndjsonResponse: headers must not set content-length/,
    );
    expect(() => ndjsonResponse([], { signal: 1 as unknown as AbortSignal })).toThrow(
      /ndjsonResponse: signal/,
    );
  });
});
