import { describe, expect, test } from 'bun:test';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RECEIVED_BODY, userRequest } from '@charter/core';
import { NodeLightRequest } from './light-request.ts';
import {
  awaitsContinue,
  declaresMoreThan,
  formatHost,
  hasBody,
  isPlainTarget,
  requestHeaders,
  requestUrl,
  scanHead,
  socketAuthority,
  toNodeRequest,
} from './request.ts';

interface FakeRequest {
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  rawHeaders?: string[];
  socket?: { localAddress?: string; localPort?: number; encrypted?: boolean };
}

const fake = (init: FakeRequest): IncomingMessage =>
  ({
    url: '/',
    method: 'GET',
    headers: {},
    rawHeaders: [],
    ...init,
    socket: { localAddress: '127.0.0.1', localPort: 3000, ...init.socket },
  }) as unknown as IncomingMessage;

describe('charter/node request conversion', () => {
  test('an origin-form target is joined to a well-formed Host header', () => {
    expect(requestUrl(fake({ url: '/a/b?c=1', headers: { host: 'api.example.test:8080' } }))).toBe(
      'http://api.example.test:8080/a/b?c=1',
    );
    expect(requestUrl(fake({ url: '/', headers: { host: '[::1]:3000' } }))).toBe('http://[::1]:3000/');
    expect(
      requestUrl(fake({ url: '/', headers: { host: 'secure.test' }, socket: { encrypted: true } })),
    ).toBe('https://secure.test/');
  });

  test('a Host header that is not an authority never reaches the URL: the fallback is used', () => {
    for (const host of ['evil.test/x?', 'a@b.test', 'a b', 'x.test#frag', '', 'x.test:99999', 'x.test:']) {
      expect(requestUrl(fake({ url: '/p', headers: { host } }), 'fallback.test:1')).toBe(
        'http://fallback.test:1/p',
      );
    }
    expect(requestUrl(fake({ url: '/p' }))).toBe('http://127.0.0.1:3000/p');
  });

  test('an absolute-form target wins over Host, and other forms are refused', () => {
    expect(requestUrl(fake({ url: 'http://target.test/x', headers: { host: 'other.test' } }))).toBe(
      'http://target.test/x',
    );
    expect(requestUrl(fake({ url: 'http://[bad/x' }))).toBeUndefined();
    expect(requestUrl(fake({ url: '*' }))).toBeUndefined();
    expect(requestUrl(fake({ url: 'example.test:443' }))).toBeUndefined();
  });

  test('the socket address is the last resort authority, IPv6 in brackets', () => {
    expect(socketAuthority(fake({ socket: { localAddress: '::1', localPort: 8080 } }))).toBe('[::1]:8080');
    expect(socketAuthority(fake({ socket: { localAddress: undefined, localPort: undefined } }))).toBe(
      'localhost',
    );
    expect(formatHost('0.0.0.0')).toBe('0.0.0.0');
    expect(formatHost('[::1]')).toBe('[::1]');
  });

  test('only a request that announces content has a body', () => {
    expect(hasBody(fake({ method: 'POST', headers: { 'content-length': '3' } }))).toBe(true);
    expect(hasBody(fake({ method: 'PATCH', headers: { 'transfer-encoding': 'chunked' } }))).toBe(true);
    expect(hasBody(fake({ method: 'POST', headers: { 'content-length': '0' } }))).toBe(false);
    expect(hasBody(fake({ method: 'DELETE', headers: {} }))).toBe(false);
    expect(hasBody(fake({ method: 'GET', headers: { 'content-length': '3' } }))).toBe(false);
    expect(hasBody(fake({ method: 'HEAD', headers: { 'transfer-encoding': 'chunked' } }))).toBe(false);
  });

  test('every raw header line is kept, repeated names included', () => {
    const headers = requestHeaders(
      fake({
        rawHeaders: ['Host', 'a.test', 'Accept', 'text/html', 'accept', 'application/json', 'X-Empty', ''],
      }),
    );
    expect(headers.get('accept')).toBe('text/html, application/json');
    expect(headers.get('host')).toBe('a.test');
    expect(headers.get('x-empty')).toBe('');
  });
});

describe('declaresMoreThan: Content-Length against the body limit, without rounding', () => {
  test('lengths over the limit are over, whatever their size (2^53 and up lose precision as numbers)', () => {
    for (const length of ['1025', '9007199254740992', '9007199254740993', '18446744073709551615', '01025']) {
      expect(declaresMoreThan(length, 1024)).toBe(true);
    }
    // 2^53 + 1 against a limit of 2^53: equal as JS numbers, one more as digits.
    expect(declaresMoreThan('9007199254740993', 9007199254740992)).toBe(true);
  });

  test('lengths within the limit, absent or not 1*DIGIT are not over', () => {
    for (const length of ['0', '1024', '0001024', '999', undefined, '', '1e9', '+2000', '0x800', ' 2000']) {
      expect(declaresMoreThan(length, 1024)).toBe(false);
    }
    expect(declaresMoreThan('0', 0)).toBe(false);
    expect(declaresMoreThan('1', 0)).toBe(true);
  });
});

describe('awaitsContinue: a 100 Continue is still owed (RFC 9110 §10.1.1)', () => {
  const request = (expect: string | undefined, minor = 1): IncomingMessage =>
    ({
      httpVersionMajor: 1,
      httpVersionMinor: minor,
      headers: expect === undefined ? {} : { expect },
    }) as unknown as IncomingMessage;
  const response = (sent100?: boolean): ServerResponse =>
    ({ _sent100: sent100 }) as unknown as ServerResponse;

  test('an HTTP/1.1 request expecting 100-continue that Node has not answered awaits it', () => {
    expect(awaitsContinue(request('100-continue'), response())).toBe(true);
    expect(awaitsContinue(request('100-Continue'), response(false))).toBe(true);
  });

  test('no Expect, another expectation, HTTP/1.0, or a 100 already sent: nothing is owed', () => {
    expect(awaitsContinue(request(undefined), response())).toBe(false);
    expect(awaitsContinue(request('something-else'), response())).toBe(false);
    expect(awaitsContinue(request('100-continue', 0), response())).toBe(false);
    expect(awaitsContinue(request('100-continue'), response(true))).toBe(false);
  });
});

describe('scanHead and toNodeRequest: one pass over the raw lines, a real Request', () => {
  const raw = (
    rawHeaders: string[],
    init: FakeRequest & { httpVersionMinor?: number } = {},
  ): IncomingMessage =>
    ({
      ...fake({ ...init, rawHeaders }),
      httpVersionMajor: 1,
      httpVersionMinor: init.httpVersionMinor ?? 1,
    }) as unknown as IncomingMessage;
  const res = {} as ServerResponse;

  test('names match whatever their case; the first Host and Content-Length win; Expect and framing are seen', () => {
    const head = scanHead(
      raw([
        'HOST',
        'a.test',
        'host',
        'b.test',
        'Content-length',
        '5',
        'content-length',
        '6',
        'X-Other',
        'x',
        'EXPECT',
        '100-Continue',
        'Transfer-Encoding',
        'chunked',
        'Upgrade',
        'websocket',
      ]),
    );
    expect(head).toEqual({
      host: 'a.test',
      contentLength: '5',
      chunked: true,
      expectsContinue: true,
      upgrade: true,
    });
    expect(scanHead(raw(['Expect', 'something-else']))).toMatchObject({
      host: undefined,
      expectsContinue: false,
      chunked: false,
      upgrade: false,
    });
  });

  test('a GET becomes a Request with every raw line, and no body', async () => {
    const req = raw(['Host', 'api.test:8080', 'Accept', 'a', 'accept', 'b', 'X-Empty', ''], {
      url: '/p?q=1',
    });
    const request = toNodeRequest(req, res, scanHead(req), undefined, 1024) as NodeLightRequest;
    expect(request).toBeInstanceOf(NodeLightRequest);
    expect(Object.prototype.toString.call(request)).toBe('[object Request]');
    expect(request.url).toBe('http://api.test:8080/p?q=1');
    expect(request.method).toBe('GET');
    expect(request.headers.get('accept')).toBe('a, b');
    expect(request.headers.get('x-empty')).toBe('');
    expect(request.body).toBeNull();
    expect(request.bodyUsed).toBe(false);
    expect(request.announcesContent).toBe(false);
    expect(await request.text()).toBe('');
    // User code gets the real Request, which any Fetch consumer takes as it is.
    expect(request.built).toBeUndefined();
    const real = userRequest(request as unknown as Request);
    expect(real).not.toBeInstanceOf(NodeLightRequest);
    expect(request.built).toBe(real);
    // Once a real Request exists the light ones are linked to Request.prototype (linkLightRequests).
    expect(request).toBeInstanceOf(Request);
    expect(new Request(real).headers.get('host')).toBe('api.test:8080');
    expect(real.url).toBe(request.url);
    expect(real.headers.get('accept')).toBe('a, b');
  });

  test('the URL is what a Request would say: dot segments resolved, backslashes and quotes normalised', () => {
    const cases: Array<[string, string]> = [
      ['/files/../users/7', 'http://a.test/users/7'],
      ['/a/%2e%2e/b', 'http://a.test/b'],
      ['/a\\b', 'http://a.test/a/b'],
      ["/q?x='1'", 'http://a.test/q?x=%271%27'],
      ['/caf\u00e9', 'http://a.test/caf%C3%A9'],
      ['/users/42?page=2&sort=name', 'http://a.test/users/42?page=2&sort=name'],
    ];
    for (const [target, expected] of cases) {
      // Twice: the second request with the same Host takes the remembered-authority path.
      for (let round = 0; round < 2; round++) {
        const req = raw(['Host', 'a.test'], { url: target });
        const request = toNodeRequest(req, res, scanHead(req), undefined, 1024);
        expect(request?.url).toBe(expected);
        expect(request?.url).toBe(new Request(`http://a.test${target}`).url);
      }
    }
  });

  test('isPlainTarget: only targets the URL parser keeps as they are', () => {
    for (const plain of ['/', '/users/42', '/search?q=a+b&page=2', '/x(1)*,;:@!$']) {
      expect(isPlainTarget(plain)).toBe(true);
    }
    for (const other of [
      '',
      'x',
      '/a/./b',
      '/a/../b',
      '/%2e',
      '/a\\b',
      "/q?x='",
      '/#f',
      '/a b',
      '/\u00e9',
      '/{x}',
    ]) {
      expect(isPlainTarget(other)).toBe(false);
    }
  });

  test('the signal is made when read, and aborts on disconnect, before or after it was read', () => {
    const req = raw(['Host', 'a.test']);
    const early = toNodeRequest(req, res, scanHead(req), undefined, 1024) as NodeLightRequest;
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    expect(early.signal).toBe(signal);
    early.disconnect(new Error('gone'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('gone');
    const late = toNodeRequest(req, res, scanHead(req), undefined, 1024) as NodeLightRequest;
    late.disconnect(new Error('left'));
    late.disconnect(new Error('again'));
    expect(late.signal.aborted).toBe(true);
    expect((late.signal.reason as Error).message).toBe('left');
  });

  test('a body the pipeline read whole reads as used on the real Request too', async () => {
    const { PassThrough } = await import('node:stream');
    const socket = new PassThrough();
    const req = Object.assign(socket, {
      url: '/upload',
      method: 'POST',
      rawHeaders: ['Host', 'a.test', 'Content-Type', 'application/json', 'Content-Length', '11'],
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      socket: { localAddress: '127.0.0.1', localPort: 3000 },
    }) as unknown as IncomingMessage;
    const request = toNodeRequest(req, res, scanHead(req), undefined, 1024) as NodeLightRequest;
    expect(request.announcesContent).toBe(true);
    socket.end('{"ok":true}');
    expect(await request.json()).toEqual({ ok: true });
    expect(request.bodyUsed).toBe(true);
    await expect(request.text()).rejects.toThrow(TypeError);
    const real = userRequest(request as unknown as Request);
    expect(real.bodyUsed).toBe(true);
    await expect(real.text()).rejects.toThrow(TypeError);
    // What the core does for ctx.request once the body was read: a Request with the same head.
    expect(new Request(real.url, { method: real.method, headers: real.headers }).method).toBe('POST');
  });

  test('an unread body streams through the real Request', async () => {
    const { PassThrough } = await import('node:stream');
    const socket = new PassThrough();
    const req = Object.assign(socket, {
      url: '/upload',
      method: 'POST',
      rawHeaders: ['Host', 'a.test', 'Content-Length', '5'],
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      socket: { localAddress: '127.0.0.1', localPort: 3000 },
    }) as unknown as IncomingMessage;
    const request = toNodeRequest(req, res, scanHead(req), undefined, 1024) as NodeLightRequest;
    const real = userRequest(request as unknown as Request);
    socket.end('hello');
    expect(await real.text()).toBe('hello');
    expect(request.bodyUsed).toBe(true);
  });

  describe('content that arrived with the head (takeArrived)', () => {
    /** A POST whose `body` is in the message: all its content when `complete`, else 4 bytes short. */
    const arriving = async (body: string, complete: boolean, extra: string[] = []) => {
      const { PassThrough } = await import('node:stream');
      const socket = new PassThrough();
      const length = String(Buffer.byteLength(body) + (complete ? 0 : 4));
      const req = Object.assign(socket, {
        url: '/upload',
        method: 'POST',
        rawHeaders: ['Host', 'a.test', 'Content-Length', length, ...extra],
        httpVersionMajor: 1,
        httpVersionMinor: 1,
        complete: false,
        socket: { localAddress: '127.0.0.1', localPort: 3000 },
      }) as unknown as IncomingMessage;
      socket.write(body);
      const request = toNodeRequest(req, res, scanHead(req), undefined, 1024) as NodeLightRequest;
      return { socket, req, request };
    };
    const take = (request: NodeLightRequest): Uint8Array | undefined =>
      (request as unknown as { [RECEIVED_BODY](): Uint8Array | undefined })[RECEIVED_BODY]();

    test('a complete body is taken off the message once, as a fresh array, and then reads as used', async () => {
      const { req, request } = await arriving('{"ok":true}', true);
      expect(request.mayHaveArrived).toBe(true);
      expect(request.contentReceived).toBe(false);
      expect(request.takeArrived()).toBe(true);
      expect(request.contentReceived).toBe(true);
      expect(req.readableLength).toBe(0);
      const bytes = take(request) as Uint8Array;
      expect(new TextDecoder().decode(bytes)).toBe('{"ok":true}');
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
      expect(take(request)).toBeUndefined();
      expect(request.bodyUsed).toBe(true);
      await expect(request.text()).rejects.toThrow(TypeError);
      await expect(userRequest(request as unknown as Request).text()).rejects.toThrow(TypeError);
    });

    test('a taken body nobody parsed is what the real Request reads, once', async () => {
      const { request } = await arriving('hello', true);
      expect(request.takeArrived()).toBe(true);
      const real = userRequest(request as unknown as Request);
      expect(await real.text()).toBe('hello');
      expect(take(request)).toBeUndefined();
      const { request: direct } = await arriving('hi', true);
      direct.takeArrived();
      expect(await direct.text()).toBe('hi');
      expect(take(direct)).toBeUndefined();
    });

    test('an incomplete body is left on the message and read off the socket as before', async () => {
      const { socket, request } = await arriving('hell', false);
      expect(request.takeArrived()).toBe(false);
      expect(request.contentReceived).toBe(false);
      expect(take(request)).toBeUndefined();
      const text = request.text();
      socket.end('o wo');
      expect(await text).toBe('hello wo');
    });

    test('a body read already, one owed a 100 Continue, or chunked is never taken', async () => {
      const read = await arriving('{"a":1}', true);
      const first = read.request.bytes();
      expect(read.request.takeArrived()).toBe(false);
      read.socket.end();
      expect(new TextDecoder().decode(await first)).toBe('{"a":1}');
      const expecting = await arriving('x', true, ['Expect', '100-continue']);
      expect(expecting.request.mayHaveArrived).toBe(false);
      expect(expecting.request.takeArrived()).toBe(false);
      const chunked = await arriving('x', true, ['Transfer-Encoding', 'chunked']);
      expect(chunked.request.mayHaveArrived).toBe(false);
    });
  });

  test("the real Request follows the light one's signal", () => {
    const req = raw(['Host', 'a.test']);
    const request = toNodeRequest(req, res, scanHead(req), undefined, 1024) as NodeLightRequest;
    const real = userRequest(request as unknown as Request);
    expect(real.signal.aborted).toBe(false);
    request.disconnect(new Error('gone'));
    expect(real.signal.aborted).toBe(true);
  });

  test('a forbidden method or a header line a Headers refuses throws, as the Request constructor does', () => {
    const trace = raw(['Host', 'a.test'], { method: 'TRACE' });
    expect(() => toNodeRequest(trace, res, scanHead(trace), undefined, 1024)).toThrow(TypeError);
    const badValue = raw(['Host', 'a.test', 'X-Bad', `a${String.fromCharCode(0)}b`]);
    expect(() => toNodeRequest(badValue, res, scanHead(badValue), undefined, 1024)).toThrow(TypeError);
  });

  test('a Host that is not an authority falls back; a target that forms no URL is undefined', () => {
    const bad = raw(['Host', 'evil.test/x?'], { url: '/p' });
    expect(toNodeRequest(bad, res, scanHead(bad), 'fallback.test:1', 1024)?.url).toBe(
      'http://fallback.test:1/p',
    );
    const absolute = raw(['Host', 'other.test'], { url: 'http://target.test/x' });
    expect(toNodeRequest(absolute, res, scanHead(absolute), undefined, 1024)?.url).toBe(
      'http://target.test/x',
    );
    const asterisk = raw(['Host', 'a.test'], { url: '*', method: 'OPTIONS' });
    expect(toNodeRequest(asterisk, res, scanHead(asterisk), undefined, 1024)).toBeUndefined();
  });

  test('an HTTP/1.0 request loses its Upgrade line (RFC 9110 §7.8); an HTTP/1.1 one keeps it', () => {
    const lines = ['Host', 'a.test', 'Upgrade', 'websocket', 'Connection', 'Upgrade'];
    const old = raw(lines, { httpVersionMinor: 0 });
    expect(toNodeRequest(old, res, scanHead(old), undefined, 1024)?.headers.has('upgrade')).toBe(false);
    const current = raw(lines);
    expect(toNodeRequest(current, res, scanHead(current), undefined, 1024)?.headers.get('upgrade')).toBe(
      'websocket',
    );
  });
});
