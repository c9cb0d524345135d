/**
 * Streamed bodies over real HTTP on 127.0.0.1: one Charter App served by `@charter/bun` and by
 * `@charter/node` (`node:http` as this Bun process implements it), read with `fetch`. Events and lines
 * must arrive while the source is still producing (nothing buffered), and a client that goes away
 * mid-stream must make the producer's `finally` run on both adapters.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { serve as serveBun } from '@charter/bun';
import { serve as serveNode } from '@charter/node';
import { ndjsonResponse, type SseMessage, sseResponse } from '@charter/streaming';
import { type } from 'arktype';
import { parseSseStream, SseParser } from './support/sse-parser.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const decoder = new TextDecoder();

/** Rejects when `promise` does not settle within `ms`: a hang fails the test with a reason. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A promise the test resolves by hand. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** What the producers did, for the test to wait on. */
class Journal {
  readonly entries: string[] = [];
  #waiters = new Set<() => void>();

  add(entry: string): void {
    this.entries.push(entry);
    for (const waiter of this.#waiters) waiter();
  }

  waitFor(entry: string, ms: number): Promise<void> {
    return within(
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (!this.entries.includes(entry)) return;
          this.#waiters.delete(check);
          resolve();
        };
        this.#waiters.add(check);
        check();
      }),
      ms,
      `"${entry}"`,
    );
  }
}

const stream200 = (contentType: string) => ({
  responses: { 200: { contentType } },
  acknowledgeNoResponseBodySchema: true,
});

/**
 * `signal=yes` passes `ctx.request.signal` to the stream; without it, only the adapter cancelling the
 * body on disconnect can stop the producer.
 */
const watched = type({ name: 'string', 'signal?': "'yes' | 'no'" });

function buildApp(journal: Journal, held: { opened: Promise<void> }): App {
  const app = new App({ logger: false });
  const quiet = {
    keepAliveMs: 0,
    onError: (error: unknown) => journal.add(`error: ${(error as Error).message}`),
  };

  app.get('/events', stream200('text/event-stream'), (ctx) => {
    async function* messages(): AsyncGenerator<SseMessage> {
      yield { retry: 2500, comment: 'hello' };
      yield { event: 'greeting', id: '1', data: 'hello\nworld' };
      yield { event: 'update', id: '2', data: { items: [1, 2], note: 'line\r\nbreak' } };
      yield { id: '3', data: 'plain\r\nCRLF\rCR' };
    }
    return sseResponse(messages(), { ...quiet, signal: ctx.request.signal });
  });

  app.get('/held', stream200('text/event-stream'), () => {
    async function* messages(): AsyncGenerator<SseMessage> {
      yield { data: 'before' };
      await held.opened;
      yield { data: 'after' };
    }
    return sseResponse(messages(), quiet);
  });

  app.get('/ticks', { ...stream200('text/event-stream'), request: { query: watched } }, (ctx) => {
    const name = ctx.query.name;
    const signal = ctx.query.signal === 'yes' ? ctx.request.signal : undefined;
    async function* ticks(): AsyncGenerator<SseMessage> {
      journal.add(`${name} started`);
      try {
        for (let i = 0; ; i++) {
          yield { event: 'tick', id: String(i), data: String(i) };
          await sleep(10);
        }
      } finally {
        journal.add(`${name} finally`);
      }
    }
    return sseResponse(ticks(), { ...quiet, signal });
  });

  app.get('/failing', stream200('text/event-stream'), () => {
    async function* failing(): AsyncGenerator<SseMessage> {
      yield { data: 'ok' };
      throw new Error('internal detail that must not leak');
    }
    return sseResponse(failing(), quiet);
  });

  app.get('/rows', stream200('application/x-ndjson'), (ctx) => {
    async function* rows(): AsyncGenerator<unknown> {
      for (let id = 1; id <= 3; id++) yield { id, name: `row ${id}` };
    }
    return ndjsonResponse(rows(), { ...quiet, signal: ctx.request.signal });
  });

  app.get('/rows/endless', { ...stream200('application/x-ndjson'), request: { query: watched } }, (ctx) => {
    const name = ctx.query.name;
    const signal = ctx.query.signal === 'yes' ? ctx.request.signal : undefined;
    async function* rows(): AsyncGenerator<unknown> {
      try {
        for (let id = 0; ; id++) {
          yield { id };
          await sleep(10);
        }
      } finally {
        journal.add(`${name} finally`);
      }
    }
    return ndjsonResponse(rows(), { ...quiet, signal });
  });

  app.get('/rows/bad', stream200('application/x-ndjson'), () =>
    ndjsonResponse([{ ok: true }, { big: 1n }], quiet),
  );
  return app;
}

interface Running {
  readonly base: string;
  close(): Promise<void>;
}

const ADAPTERS: Record<string, (app: App) => Promise<Running>> = {
  '@charter/bun': async (app) => {
    const server = await serveBun(app, { port: 0, signals: false });
    return { base: `http://127.0.0.1:${server.port}`, close: () => server.close(1000) };
  },
  '@charter/node': async (app) => {
    const server = await serveNode(app, { port: 0, signals: false });
    return { base: `http://127.0.0.1:${server.port}`, close: () => server.close(1000) };
  },
};

for (const [adapter, start] of Object.entries(ADAPTERS)) {
  describe(`streaming over ${adapter}`, () => {
    let running: Running | undefined;
    let journal = new Journal();
    let held = gate();

    afterEach(async () => {
      held.open();
      await running?.close();
      running = undefined;
    });

    async function base(): Promise<string> {
      journal = new Journal();
      held = gate();
      running = await start(buildApp(journal, held));
      return running.base;
    }

    test('an SSE route streams named events, multi-line data, ids and retry to fetch', async () => {
      const res = await fetch(`${await base()}/events`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-accel-buffering')).toBe('no');
      const parsed = await parseSseStream(res.body as ReadableStream<Uint8Array>);
      expect(parsed.retry).toBe(2500);
      expect(parsed.comments).toContain(' hello');
      expect(parsed.events).toEqual([
        { type: 'greeting', data: 'hello\nworld', lastEventId: '1' },
        { type: 'update', data: '{"items":[1,2],"note":"line\\r\\nbreak"}', lastEventId: '2' },
        { type: 'message', data: 'plain\nCRLF\nCR', lastEventId: '3' },
      ]);
    });

    test('headers and the first event arrive while the source is still producing', async () => {
      const res = await within(fetch(`${await base()}/held`), 2000, 'the response headers');
      expect(res.status).toBe(200);
      // A stream still producing has no length: HTTP/1.1 frames it with chunked coding (RFC 9112 §7.1).
      // (A short stream that is complete by the first write may be sent with a Content-Length.)
      expect(res.headers.get('content-length')).toBeNull();
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const parser = new SseParser();
      while (parser.events.length === 0) {
        const { done, value } = await within(reader.read(), 2000, 'the first event');
        if (done) throw new Error('the stream ended early');
        parser.push(value);
      }
      expect(parser.events.map((e) => e.data)).toEqual(['before']);
      held.open();
      for (;;) {
        const { done, value } = await within(reader.read(), 2000, 'the rest of the stream');
        if (done) break;
        parser.push(value);
      }
      parser.end();
      expect(parser.events.map((e) => e.data)).toEqual(['before', 'after']);
    });

    for (const signal of ['no', 'yes']) {
      test(`a client that disconnects mid-stream makes the SSE producer's finally run (signal: ${signal})`, async () => {
        const controller = new AbortController();
        const res = await fetch(`${await base()}/ticks?name=sse&signal=${signal}`, {
          signal: controller.signal,
        });
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        const parser = new SseParser();
        while (parser.events.length < 3) {
          parser.push((await within(reader.read(), 2000, 'three ticks')).value as Uint8Array);
        }
        expect(parser.events.slice(0, 3).map((e) => e.type)).toEqual(['tick', 'tick', 'tick']);
        expect(journal.entries).toEqual(['sse started']);
        controller.abort();
        await journal.waitFor('sse finally', 3000);
      });
    }

    test('a source error ends the SSE stream with a generic error event and a complete response', async () => {
      const res = await fetch(`${await base()}/failing`);
      const text = await within(res.text(), 2000, 'the end of the stream');
      expect(text).toBe(
        ':\n\ndata: ok\n\nevent: error\ndata: ' +
          '{"type":"https://charter.dev/errors/internal","title":"Internal Server Error","status":500}\n\n',
      );
      expect(journal.entries).toEqual(['error: internal detail that must not leak']);
    });

    test('an NDJSON route streams one JSON line per item to fetch', async () => {
      const res = await fetch(`${await base()}/rows`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-ndjson');
      const lines = (await res.text()).split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((line) => JSON.parse(line))).toEqual([
        { id: 1, name: 'row 1' },
        { id: 2, name: 'row 2' },
        { id: 3, name: 'row 3' },
      ]);
    });

    test('an item JSON cannot encode ends the NDJSON stream with the error line', async () => {
      const text = await (await fetch(`${await base()}/rows/bad`)).text();
      expect(text).toBe(
        '{"ok":true}\n{"error":{"type":"https://charter.dev/errors/internal","title":"Internal Server Error","status":500}}\n',
      );
    });

    for (const signal of ['no', 'yes']) {
      test(`a client that disconnects mid-stream makes the NDJSON producer's finally run (signal: ${signal})`, async () => {
        const controller = new AbortController();
        const url = `${await base()}/rows/endless?name=ndjson&signal=${signal}`;
        const res = await fetch(url, { signal: controller.signal });
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        let text = '';
        while (text.split('\n').length < 4) {
          text += decoder.decode((await within(reader.read(), 2000, 'three rows')).value);
        }
        expect(text.startsWith('{"id":0}\n{"id":1}\n{"id":2}\n')).toBe(true);
        controller.abort();
        await journal.waitFor('ndjson finally', 3000);
      });
    }
  });
}

describe('keep-alive over @charter/bun', () => {
  test("keep-alive comments hold a quiet stream open past Bun's idle timeout; a stream without them is cut", async () => {
    // requestTimeoutMs 1000 makes the adapter set Bun's idleTimeout to 1 + 5 = 6 s.
    const app = new App({ logger: false, requestTimeoutMs: 1000 });
    const silent = (): AsyncIterable<SseMessage> => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<SseMessage>>(() => {}) }),
    });
    app.get('/kept', stream200('text/event-stream'), () => sseResponse(silent(), { keepAliveMs: 1000 }));
    app.get('/quiet', stream200('text/event-stream'), () => sseResponse(silent(), { keepAliveMs: 0 }));
    const server = await serveBun(app, { port: 0, signals: false });
    try {
      const watch = async (path: string): Promise<string> => {
        const reader = (
          (await fetch(`http://127.0.0.1:${server.port}${path}`)).body as ReadableStream<Uint8Array>
        ).getReader();
        const started = performance.now();
        try {
          while (performance.now() - started < 7500) {
            const { done } = await within(reader.read(), 8000, `a chunk of ${path}`);
            if (done) return 'ended';
          }
          await reader.cancel();
          return 'open';
        } catch {
          return 'cut';
        }
      };
      const [kept, quiet] = await Promise.all([watch('/kept'), watch('/quiet')]);
      expect(kept).toBe('open');
      expect(quiet).not.toBe('open');
    } finally {
      await server.close(100);
    }
  }, 15_000);
});
