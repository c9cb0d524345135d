import { describe, expect, test } from 'bun:test';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  awaitsContinue,
  declaresMoreThan,
  formatHost,
  hasBody,
  requestHeaders,
  requestUrl,
  socketAuthority,
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
