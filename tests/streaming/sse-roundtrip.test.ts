/**
 * The encoder against a spec-conforming parser (support/sse-parser.ts, WHATWG HTML §9.2.5-§9.2.6): for
 * any messages, cut into chunks at any byte, the parser recovers exactly the data, event type and last
 * event ID of each message after the normalisation rules, and the last `retry`. The expected values are
 * computed here by a model written apart from the encoder (character loops, no shared helpers).
 */
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { type SseMessage, sseStream } from '@charter/streaming';
import { type ParsedSseEvent, SseParser } from './support/sse-parser.ts';

const encoder = new TextEncoder();

/** CRLF, lone CR and lone LF all become LF: what `EventSource` makes of multi-line data. */
function linesJoinedWithLf(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\r') {
      out += '\n';
      if (text[i + 1] === '\n') i++;
    } else out += char;
  }
  return out;
}

/** Each maximal run of characters in `set` becomes one space. */
function runsToSpace(text: string, set: string): string {
  let out = '';
  let inRun = false;
  for (const char of text) {
    if (set.includes(char)) {
      if (!inRun) out += ' ';
      inRun = true;
    } else {
      out += char;
      inRun = false;
    }
  }
  return out;
}

interface Expected {
  events: ParsedSseEvent[];
  lastEventId: string;
  retry: number | undefined;
}

function expectedOf(messages: readonly SseMessage[]): Expected {
  const events: ParsedSseEvent[] = [];
  let lastEventId = '';
  let retry: number | undefined;
  for (const message of messages) {
    if (message.id !== undefined) lastEventId = runsToSpace(message.id, '\r\n\0');
    if (message.retry !== undefined) retry = message.retry;
    if (message.data === undefined) continue;
    const text = typeof message.data === 'string' ? message.data : JSON.stringify(message.data);
    const type = message.event === undefined ? '' : runsToSpace(message.event, '\r\n');
    events.push({ type: type === '' ? 'message' : type, data: linesJoinedWithLf(text), lastEventId });
  }
  return { events, lastEventId, retry };
}

// Text rich in what breaks framing: every line ending, NUL, colons, spaces, a BOM, multi-byte UTF-8.
const tricky = fc.constantFrom('\r', '\n', '\r\n', '\0', ' ', ':', '\uFEFF', 'é', '€', '😀', 'data: ', 'id:');
const text = fc.string({
  unit: fc.oneof(tricky, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
});

const message: fc.Arbitrary<SseMessage> = fc.record(
  {
    data: fc.oneof(text, fc.jsonValue()),
    event: text,
    id: text,
    retry: fc.nat(),
    comment: text,
  },
  { requiredKeys: [] },
);

async function bytesOf(messages: readonly SseMessage[]): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of sseStream(messages, { keepAliveMs: 0 })) chunks.push(chunk);
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function parseInChunks(bytes: Uint8Array, cuts: readonly number[]): SseParser {
  const parser = new SseParser();
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  for (const point of [...points, bytes.length]) {
    parser.push(bytes.subarray(start, point));
    start = point;
  }
  parser.end();
  return parser;
}

describe('SseParser (the test parser itself)', () => {
  const parse = (text: string): SseParser => parseInChunks(encoder.encode(text), []);

  test('follows the examples of WHATWG HTML §9.2.6', () => {
    expect(parse('data: YHOO\ndata: +2\ndata: 10\n\n').events).toEqual([
      { type: 'message', data: 'YHOO\n+2\n10', lastEventId: '' },
    ]);
    const second = parse(
      ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n',
    );
    expect(second.events).toEqual([
      { type: 'message', data: 'first event', lastEventId: '1' },
      { type: 'message', data: 'second event', lastEventId: '' },
      { type: 'message', data: ' third event', lastEventId: '' },
    ]);
    expect(parse('data\n\ndata\ndata\n\ndata:').events).toEqual([
      { type: 'message', data: '', lastEventId: '' },
      { type: 'message', data: '\n', lastEventId: '' },
    ]);
  });

  test('strips one leading BOM, accepts CR and CRLF, ignores an id with NUL and a non-numeric retry', () => {
    const parser = parse('\uFEFFevent: a\rdata: 1\r\rid: x\0y\r\nretry: 12a\r\ndata: 2\r\n\r\nretry: 30\n\n');
    expect(parser.events).toEqual([
      { type: 'a', data: '1', lastEventId: '' },
      { type: 'message', data: '2', lastEventId: '' },
    ]);
    expect(parser.retry).toBe(30);
  });
});

describe('sseStream through a spec-conforming parser', () => {
  test('any messages, cut at any bytes, give back their data, event type, id and retry', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (messages, cuts) => {
          const parser = parseInChunks(await bytesOf(messages), cuts);
          const expected = expectedOf(messages);
          expect(parser.events).toEqual(expected.events);
          expect(parser.lastEventId).toBe(expected.lastEventId);
          expect(parser.retry).toBe(expected.retry);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('any message read one byte at a time gives the same events as read whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 4 }), async (messages) => {
        const bytes = await bytesOf(messages);
        const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
        expect(parseInChunks(bytes, everyByte).events).toEqual(parseInChunks(bytes, []).events);
      }),
      { numRuns: 150 },
    );
  });

  test('a CRLF cut between its CR and its LF is one line break, not two', async () => {
    const bytes = await bytesOf([{ data: 'a\r\nb' }, { data: 'c' }]);
    const text = new TextDecoder().decode(bytes);
    // The encoder writes LF only; the split is checked on a hand-made CRLF stream too.
    expect(text).not.toContain('\r');
    const crlf = encoder.encode('data: a\r\ndata: b\r\n\r\n');
    const parser = parseInChunks(crlf, [8, 16, 17]);
    expect(parser.events).toEqual([{ type: 'message', data: 'a\nb', lastEventId: '' }]);
  });

  test('a BOM at the start of data is kept: the stream itself never starts with one', async () => {
    const parser = parseInChunks(await bytesOf([{ data: '\uFEFFhello' }]), []);
    expect(parser.events).toEqual([{ type: 'message', data: '\uFEFFhello', lastEventId: '' }]);
  });
});
