/**
 * CR, LF, NUL and obsolete line folding in request header names and values (written raw on the socket,
 * since `fetch` refuses to send them), and CR/LF in a value the app echoes into a response header.
 * Through both adapters over a real socket.
 *
 * RFC 9110 §5.5: a recipient of CR, LF or NUL in a field value MUST reject the message or replace them
 * with SP; RFC 9112 §5.2: obs-fold outside message/http MUST be rejected (400) or replaced with SP;
 * RFC 9112 §5.1: whitespace between a field name and the colon MUST be answered with 400. Both runtimes'
 * parsers reject all of these before the app runs: Bun with its bare 400 (see expectBunParserRefusal),
 * Node through the adapter's `clientError` problem document.
 */
import { describe, expect, test } from 'bun:test';
import {
  expectBunParserRefusal,
  expectNodeParserRefusal,
  expectNoLeak,
  expectProblem,
  expectServing,
  json,
} from './fixtures/expect.ts';
import { header, type RawResponse, send } from './fixtures/raw-http.ts';
import { ADAPTERS, serveDefaultApp } from './fixtures/servers.ts';

const servers = serveDefaultApp();

const REQUEST = 'GET /health HTTP/1.1\r\nHost: app.test\r\n';

interface Case {
  name: string;
  /** Raw header lines (each with its own line ending), inserted after Host. */
  lines: string;
  /** llhttp's error code in the Node adapter's problem detail. */
  nodeCode: string;
}

const CASES: Case[] = [
  {
    name: 'a bare CR inside a value',
    lines: 'X-Note: a\rSet-Cookie: pwned=1\r\n',
    nodeCode: 'HPE_LF_EXPECTED',
  },
  {
    name: 'a bare LF splitting a value into a second field',
    lines: 'X-Note: a\nX-Injected: 1\r\n',
    nodeCode: 'HPE_CR_EXPECTED',
  },
  { name: 'NUL inside a value', lines: 'X-Note: a\x00b\r\n', nodeCode: 'HPE_INVALID_HEADER_TOKEN' },
  { name: 'obs-fold with a space', lines: 'X-Note: a\r\n folded\r\n', nodeCode: 'HPE_INVALID_HEADER_TOKEN' },
  { name: 'obs-fold with a tab', lines: 'X-Note: a\r\n\tfolded\r\n', nodeCode: 'HPE_INVALID_HEADER_TOKEN' },
  { name: 'NUL inside a name', lines: 'X-No\x00te: a\r\n', nodeCode: 'HPE_INVALID_HEADER_TOKEN' },
  { name: 'a space inside a name', lines: 'X Note: a\r\n', nodeCode: 'HPE_INVALID_HEADER_TOKEN' },
  { name: 'whitespace before the colon', lines: 'X-Note : a\r\n', nodeCode: 'HPE_INVALID_HEADER_TOKEN' },
  { name: 'a line without a colon', lines: 'X-Note\r\n', nodeCode: 'HPE_INVALID_HEADER_TOKEN' },
  { name: 'an empty name', lines: ': a\r\n', nodeCode: 'HPE_INVALID_HEADER_TOKEN' },
];

/** `/greet?name=` values carrying control characters the app would copy into `x-greeting`. */
const ECHO_CASES: Array<[string, string]> = [
  ['CRLF + Set-Cookie', 'a%0d%0aSet-Cookie:%20pwned=1'],
  ['LF + a header', 'a%0aX-Injected:%201'],
  ['CR alone', 'a%0dX-Injected:%201'],
  ['CRLF CRLF + a body', 'a%0d%0a%0d%0a%3Chtml%3E'],
  ['NUL', 'a%00b'],
];

for (const adapter of ADAPTERS) {
  describe(`request header injection, ${adapter} adapter`, () => {
    for (const c of CASES) {
      test(`${c.name}: refused 400 before the app, connection closed`, async () => {
        const target = servers.get(adapter);
        const exchange = await send(target.port, `${REQUEST}${c.lines}Connection: close\r\n\r\n`);
        if (adapter === 'bun') expectBunParserRefusal(exchange, 400);
        else expectNodeParserRefusal(exchange, 400, c.nodeCode);
        await expectServing(target);
      });
    }

    test('DEL inside a value: Bun lets it through to the app, Node refuses it', async () => {
      // RFC 9110 §5.5 makes DEL invalid in a field value (it is neither VCHAR nor obs-text), but only CR,
      // LF and NUL carry a MUST. Node's llhttp refuses every CTL; Bun's parser accepts DEL, and the
      // value reaches the app, where it cannot split anything (it is not a line ending).
      const target = servers.get(adapter);
      const exchange = await send(target.port, `${REQUEST}X-Note: a\x7fb\r\nConnection: close\r\n\r\n`);
      if (adapter === 'bun') {
        expect(exchange.response?.status).toBe(200);
        expect(json(exchange.response as RawResponse)).toEqual({ status: 'pass' });
      } else {
        expectNodeParserRefusal(exchange, 400, 'HPE_INVALID_HEADER_TOKEN');
      }
      await expectServing(target);
    });

    test('bare LF line endings throughout: refused, never read as a different request', async () => {
      // RFC 9112 §2.2 lets a recipient accept a lone LF as a line ending; neither runtime does. Bun reads
      // the version token up to a CR, finds `HTTP/1.1\n...`, and answers 505; Node answers 400.
      const target = servers.get(adapter);
      const exchange = await send(target.port, 'GET /health HTTP/1.1\nHost: app.test\nConnection: close\n\n');
      if (adapter === 'bun') expectBunParserRefusal(exchange, 505);
      else expectNodeParserRefusal(exchange, 400, 'HPE_INVALID_VERSION');
      await expectServing(target);
    });
  });

  describe(`response header injection through an echoed value, ${adapter} adapter`, () => {
    test('a plain value is echoed into the response header (the good path)', async () => {
      const exchange = await send(
        servers.get(adapter).port,
        `GET /greet?name=bob HTTP/1.1\r\nHost: app.test\r\nConnection: close\r\n\r\n`,
      );
      expect(exchange.response?.status).toBe(200);
      expect(header(exchange.response as RawResponse, 'x-greeting')).toBe('bob');
    });

    for (const [name, value] of ECHO_CASES) {
      test(`${name} in the value: no header line is ever injected`, async () => {
        const target = servers.get(adapter);
        const exchange = await send(
          target.port,
          `GET /greet?name=${value} HTTP/1.1\r\nHost: app.test\r\nConnection: close\r\n\r\n`,
        );
        expect(exchange.responses).toHaveLength(1);
        const response = exchange.response as RawResponse;
        // Nothing the attacker wrote became a header line, and no x-greeting was sent at all.
        expect(response.headers.map(([n]) => n)).not.toContainAnyValues([
          'set-cookie',
          'x-injected',
          'x-greeting',
        ]);
        expect(response.head).not.toMatch(/pwned|X-Injected|<html>/i);
        // The only CR LF pairs on the wire are the response's own framing: the body holds none raw.
        expect(response.body).not.toMatch(/[\r\n\0]/);
        expectNoLeak(response);
        await expectServing(target);
      });
    }

    test('a handler that echoes a control character into a header gets a 500 naming the header, never the value', async () => {
      // The framework cannot know the value came from the request: returning a header a response
      // cannot carry is the handler's fault (RFC 9110 §5.5), so it is a clear 500 that names the
      // field and never repeats the hostile value. The careful route below turns it into a 400.
      const target = servers.get(adapter);
      for (const [, value] of ECHO_CASES) {
        const exchange = await send(
          target.port,
          `GET /greet?name=${value} HTTP/1.1\r\nHost: app.test\r\nConnection: close\r\n\r\n`,
        );
        const problem = expectProblem(exchange.response, 500, 'internal', /header "x-greeting"/);
        expect(JSON.stringify(problem)).not.toContain('pwned');
        expectNoLeak(exchange.response as RawResponse);
      }
      await expectServing(target);
    });

    test('a handler that checks the value with sanitizeHeaderValue answers 400 naming the header', async () => {
      const target = servers.get(adapter);
      const statuses: Record<string, number | undefined> = {};
      const answers: Array<RawResponse | undefined> = [];
      for (const [name, value] of ECHO_CASES) {
        const exchange = await send(
          target.port,
          `GET /greet-safe?name=${value} HTTP/1.1\r\nHost: app.test\r\nConnection: close\r\n\r\n`,
        );
        statuses[name] = exchange.response?.status;
        answers.push(exchange.response);
      }
      expect(statuses).toEqual(Object.fromEntries(ECHO_CASES.map(([name]) => [name, 400])));
      for (const answer of answers) expectProblem(answer, 400, 'bad-request', /x-greeting/);
      await expectServing(target);
    });
  });
}
