/**
 * Request smuggling: framing a front proxy and the app could read differently (RFC 9112 §6.3, §11.2),
 * through both adapters over a real socket. Most bodies hide `GET /canary`, a route that counts its
 * hits; a canary count above zero would mean a request the client never framed as one was served.
 *
 * RFC 9112 §6.3: a request with both Transfer-Encoding and Content-Length "ought to be handled as an
 * error" and the server MUST close the connection after answering it (item 3); a Transfer-Encoding
 * whose final coding is not chunked, and an invalid Content-Length, MUST be answered 400 and the
 * connection closed (items 4 and 5). Both runtimes' parsers refuse all of these before the app runs:
 * Bun with its bare 400 (see expectBunParserRefusal), Node through the adapter's problem document.
 */
import { describe, expect, test } from 'bun:test';
import {
  canaryHits,
  expectBunParserRefusal,
  expectNodeParserRefusal,
  expectProblem,
  expectServing,
  HIDDEN,
  json,
} from './fixtures/expect.ts';
import { type RawResponse, send } from './fixtures/raw-http.ts';
import { ADAPTERS, serveDefaultApp } from './fixtures/servers.ts';

const servers = serveDefaultApp();

const POST = 'POST /raw HTTP/1.1\r\nHost: app.test\r\n';
const HEALTH_CLOSE = 'GET /health HTTP/1.1\r\nHost: app.test\r\nConnection: close\r\n\r\n';

interface FramingCase {
  name: string;
  /** The whole request: head and whatever body bytes follow. */
  bytes: string;
  /** llhttp's error code, which the Node adapter's problem detail names. */
  nodeCode: string;
}

const REFUSED: FramingCase[] = [
  {
    name: 'two Content-Length lines with different values',
    bytes: `${POST}Content-Length: 5\r\nContent-Length: ${5 + HIDDEN.length}\r\n\r\nabcde${HIDDEN}`,
    nodeCode: 'HPE_UNEXPECTED_CONTENT_LENGTH',
  },
  {
    name: 'a Content-Length list "5, 5"',
    bytes: `${POST}Content-Length: 5, 5\r\n\r\nabcde`,
    nodeCode: 'HPE_INVALID_CONTENT_LENGTH',
  },
  {
    name: 'Content-Length then Transfer-Encoding: chunked (CL.TE)',
    bytes: `${POST}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_TRANSFER_ENCODING',
  },
  {
    name: 'Transfer-Encoding: chunked then Content-Length (TE.CL)',
    bytes: `${POST}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n${(HIDDEN.length + 5).toString(16)}\r\nabcde${HIDDEN}\r\n0\r\n\r\n`,
    nodeCode: 'HPE_INVALID_CONTENT_LENGTH',
  },
  {
    name: 'Transfer-Encoding: chunked, identity (chunked not final)',
    bytes: `${POST}Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_TRANSFER_ENCODING',
  },
  {
    name: 'Transfer-Encoding: identity',
    bytes: `${POST}Transfer-Encoding: identity\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_TRANSFER_ENCODING',
  },
  {
    name: 'Transfer-Encoding: xchunked',
    bytes: `${POST}Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_TRANSFER_ENCODING',
  },
  {
    name: 'two Transfer-Encoding lines (chunked, then identity)',
    bytes: `${POST}Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_TRANSFER_ENCODING',
  },
  {
    name: '"Transfer-Encoding : chunked" (space before the colon)',
    bytes: `${POST}Transfer-Encoding : chunked\r\nContent-Length: ${HIDDEN.length}\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_HEADER_TOKEN',
  },
  {
    name: '" Transfer-Encoding: chunked" (a folded line)',
    bytes: `${POST}Content-Length: ${HIDDEN.length}\r\n Transfer-Encoding: chunked\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_HEADER_TOKEN',
  },
  {
    name: 'a negative Content-Length',
    bytes: `${POST}Content-Length: -1\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_CONTENT_LENGTH',
  },
  {
    name: 'a non-numeric Content-Length',
    bytes: `${POST}Content-Length: abc\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_CONTENT_LENGTH',
  },
  {
    name: 'an overflowing Content-Length (2^76)',
    bytes: `${POST}Content-Length: 99999999999999999999999\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_CONTENT_LENGTH',
  },
  {
    name: 'a signed Content-Length "+5"',
    bytes: `${POST}Content-Length: +5\r\n\r\nabcde`,
    nodeCode: 'HPE_INVALID_CONTENT_LENGTH',
  },
  {
    name: 'a hexadecimal Content-Length "0x5"',
    bytes: `${POST}Content-Length: 0x5\r\n\r\nabcde`,
    nodeCode: 'HPE_INVALID_CONTENT_LENGTH',
  },
];

// Invalid chunk framing is found only once the body is read, after the app already has the request.
const BAD_CHUNKS: FramingCase[] = [
  {
    name: 'a chunk size that is not hex ("zz")',
    bytes: `${POST}Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_CHUNK_SIZE',
  },
  {
    name: 'a negative chunk size ("-1")',
    bytes: `${POST}Transfer-Encoding: chunked\r\n\r\n-1\r\nabc\r\n0\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_CHUNK_SIZE',
  },
  {
    name: 'an overflowing chunk size (20 hex digits)',
    bytes: `${POST}Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nabc\r\n0\r\n\r\n${HIDDEN}`,
    nodeCode: 'HPE_INVALID_CHUNK_SIZE',
  },
  {
    name: 'chunk data longer than its size',
    bytes: `${POST}Transfer-Encoding: chunked\r\n\r\n3\r\nabc${HIDDEN}\r\n0\r\n\r\n`,
    nodeCode: 'HPE_STRICT',
  },
];

for (const adapter of ADAPTERS) {
  describe(`request smuggling, ${adapter} adapter`, () => {
    test('a chunked body is read and the next pipelined request served (the good path)', async () => {
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        `${POST}Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n${HEALTH_CLOSE}`,
      );
      expect(exchange.responses.map((r) => r.status)).toEqual([200, 200]);
      expect(json(exchange.responses[0] as RawResponse)).toEqual({ bytes: 3 });
      expect(await canaryHits(target)).toBe(0);
    });

    for (const c of [...REFUSED, ...BAD_CHUNKS]) {
      test(`${c.name}: 400, connection closed, nothing hidden in it served`, async () => {
        const target = servers.get(adapter);
        const exchange = await send(target.port, c.bytes);
        if (adapter === 'bun') expectBunParserRefusal(exchange, 400);
        else expectNodeParserRefusal(exchange, 400, c.nodeCode);
        expect(await canaryHits(target)).toBe(0);
        await expectServing(target);
      });
    }

    test('a request hidden in a Content-Length body stays body bytes; the next real request is served', async () => {
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        `${POST}Content-Length: ${HIDDEN.length}\r\n\r\n${HIDDEN}${HEALTH_CLOSE}`,
      );
      expect(exchange.responses.map((r) => r.status)).toEqual([200, 200]);
      expect(json(exchange.responses[0] as RawResponse)).toEqual({ bytes: HIDDEN.length });
      expect(json(exchange.responses[1] as RawResponse)).toEqual({ status: 'pass' });
      expect(await canaryHits(target)).toBe(0);
    });

    test('Transfer-Encoding with extra whitespace ("  chunked", "\\tchunked") is plain chunked', async () => {
      // RFC 9110 §5.6.3: optional whitespace around a field value is not part of it, so both parsers
      // read these as `chunked`, agreeing with any RFC-conforming proxy: no framing disagreement.
      const target = servers.get(adapter);
      for (const te of ['Transfer-Encoding:  chunked', 'Transfer-Encoding:\tchunked']) {
        const exchange = await send(target.port, `${POST}${te}\r\n\r\n3\r\nabc\r\n0\r\n\r\n${HEALTH_CLOSE}`);
        expect(exchange.responses.map((r) => r.status)).toEqual([200, 200]);
        expect(json(exchange.responses[0] as RawResponse)).toEqual({ bytes: 3 });
      }
      expect(await canaryHits(target)).toBe(0);
    });

    test('two equal Content-Length lines: Bun merges them, Node refuses them', async () => {
      // RFC 9110 §8.6 lets a recipient of identical repeated lengths either reject the message or use the
      // one value. Node's llhttp rejects; Bun uses the value, so the body is 5 bytes either way and the
      // next request is read where both parsers agree it starts.
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        `${POST}Content-Length: 5\r\nContent-Length: 5\r\n\r\nabcde${HEALTH_CLOSE}`,
      );
      if (adapter === 'bun') {
        expect(exchange.responses.map((r) => r.status)).toEqual([200, 200]);
        expect(json(exchange.responses[0] as RawResponse)).toEqual({ bytes: 5 });
      } else {
        expectNodeParserRefusal(exchange, 400, 'HPE_UNEXPECTED_CONTENT_LENGTH');
      }
      expect(await canaryHits(target)).toBe(0);
      await expectServing(target);
    });

    test('two Host lines: 400 problem (RFC 9112 §3.2)', async () => {
      // RFC 9112 §3.2: a server MUST answer 400 to a request with more than one Host line (a proxy and the
      // app may each pick a different one). Neither runtime's parser refuses it, so the App's perimeter
      // guard does (pipeline/perimeter.ts).
      const target = servers.get(adapter);
      const exchange = await send(
        target.port,
        'GET /health HTTP/1.1\r\nHost: app.test\r\nHost: internal.test\r\nConnection: close\r\n\r\n',
      );
      expectProblem(exchange.response, 400, 'bad-request', /Host/i);
      await expectServing(target);
    });

    test('no Host line in an HTTP/1.1 request: 400, as a problem document where the adapter can write one', async () => {
      // RFC 9112 §3.2: 400 for an HTTP/1.1 request without Host. Bun's parser answers it bare. Node's own
      // `requireHostHeader` check would answer a bare 400 too, outside `clientError`; the Node adapter
      // turns it off and answers this 400 itself as a problem document.
      const target = servers.get(adapter);
      const exchange = await send(target.port, 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
      if (adapter === 'bun') expectBunParserRefusal(exchange, 400);
      else expectProblem(exchange.response, 400, 'bad-request', /Host/i);
      await expectServing(target);
    });

    test('invalid chunk framing is a client error, not logged as an unexpected server error', async () => {
      // The body read fails once the parser gives up on the chunk framing (Bun: "The connection was
      // closed."; Node: an AbortError). That is the client's doing, so it is a 400 (security/body-limit.ts),
      // never an unexpected 500 logged at error level: otherwise any client could fill the error log.
      const target = servers.get(adapter);
      const before = target.logs.length;
      for (const c of BAD_CHUNKS) await send(target.port, c.bytes);
      await expectServing(target);
      const errors = target.logs.slice(before).filter((line) => line.level === 'error');
      expect(errors.map((line) => line.msg)).toEqual([]);
    });
  });
}
