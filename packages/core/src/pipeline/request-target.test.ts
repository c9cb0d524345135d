import { describe, expect, test } from 'bun:test';
import { HttpError } from '../errors/index.ts';
import { checkRequestTarget, hostProblem } from './request-target.ts';

/**
 * What Bun's server hands over for an HTTP/1.0 request without Host, or a Host it cannot combine:
 * a relative `url`. A Fetch `Request` cannot be built with one, so the shape is written by hand.
 */
function serverRequest(url: string, host: string | null, method = 'GET', body?: string): Request {
  const real = new Request('http://placeholder.test/', { method, body });
  const headers = new Headers(host === null ? {} : { host });
  return new Proxy(real, {
    get(target, key) {
      if (key === 'url') return url;
      if (key === 'headers') return headers;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('hostProblem', () => {
  test('accepts every form of RFC 3986 §3.2.2 host with an optional port', () => {
    for (const host of [
      'a.test',
      'a.test:8080',
      'A-b_c~d.test',
      '127.0.0.1:0',
      '[::1]',
      '[::1]:443',
      'x:',
      'x:65535',
    ]) {
      expect(hostProblem(host)).toBeUndefined();
    }
  });

  test('refuses what is not an authority, saying which part is wrong', () => {
    expect(hostProblem('')).toBe('The Host header field is empty');
    expect(hostProblem('a.test, b.test')).toBe('The request has more than one Host header field');
    expect(hostProblem('x:65536')).toBe('The Host header field has an invalid port');
    expect(hostProblem('x:1.')).toBe('The Host header field has an invalid port');
    expect(hostProblem(':80')).toBe('The Host header field has no host');
    expect(hostProblem('[::1')).toBe('The Host header field has an invalid IP literal');
    expect(hostProblem('[v1.x]')).toBe('The Host header field has an invalid IP literal');
    for (const host of ['a@b', 'x/y', 'a b', 'a\tb', 'h\u00e9llo', 'a?b', 'a#b', 'a\\b']) {
      expect(hostProblem(host)).toBe('The Host header field is not a valid host name');
    }
  });
});

describe('checkRequestTarget', () => {
  test('passes a request with a valid Host and an absolute URL through untouched', () => {
    const request = new Request('http://a.test/p', { headers: { host: 'a.test' } });
    expect(checkRequestTarget(request, undefined)).toBe(request);
    // The second time the same Host takes the remembered path, with the same outcome.
    expect(checkRequestTarget(request, undefined)).toBe(request);
  });

  test('passes an in-process request (no Host, absolute URL) through untouched', () => {
    const request = new Request('http://charter.local/p');
    expect(checkRequestTarget(request, undefined)).toBe(request);
  });

  test('answers 400 for an invalid Host, even one the runtime spliced into an absolute URL', () => {
    const refused = checkRequestTarget(serverRequest('http://x:99999/p', 'x:99999'), undefined);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(400);
    expect((refused as HttpError).detail).toBe('The Host header field has an invalid port');
  });

  test('answers 501 for CONNECT, with a remembered Host too', () => {
    for (let i = 0; i < 2; i++) {
      const refused = checkRequestTarget(serverRequest('a.test:443', 'a.test:443', 'CONNECT'), undefined);
      expect((refused as HttpError).status).toBe(501);
      expect((refused as HttpError).toProblem(true).detail).toBe('The CONNECT method is not supported');
    }
  });

  test('rebuilds an HTTP/1.0 request without Host on the listening address, body and method kept', async () => {
    const rebuilt = checkRequestTarget(serverRequest('/p?q=1', null, 'POST', 'hello'), {
      url: new URL('http://localhost:3000/'),
    });
    expect(rebuilt).toBeInstanceOf(Request);
    expect((rebuilt as Request).url).toBe('http://localhost:3000/p?q=1');
    expect((rebuilt as Request).method).toBe('POST');
    expect(await (rebuilt as Request).text()).toBe('hello');
  });

  test('answers 400 for a relative target when the listening address is unknown', () => {
    const refused = checkRequestTarget(serverRequest('/p', null), undefined);
    expect((refused as HttpError).status).toBe(400);
    expect((refused as HttpError).detail).toBe('The request needs a Host header field (RFC 9112 §3.2)');
  });
});
