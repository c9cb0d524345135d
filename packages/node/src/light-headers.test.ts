import { describe, expect, test } from 'bun:test';
import { isFieldName, linkLightHeaders, NodeLightHeaders } from './light-headers.ts';

/** The Headers a Request would hold for the same raw lines, to compare with. */
function realOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

describe('NodeLightHeaders: a Node header section read without building a Headers', () => {
  const raw = ['Host', 'a.test', 'Accept', 'text/html', 'accept', ' application/json\t', 'X-Empty', ''];

  test('get and has answer as Headers does: any case, repeated fields joined, values trimmed', () => {
    const light = new NodeLightHeaders(raw, false);
    const real = realOf(raw);
    for (const name of ['host', 'HOST', 'accept', 'Accept', 'x-empty', 'missing']) {
      expect(light.get(name)).toBe(real.get(name));
      expect(light.has(name)).toBe(real.has(name));
    }
    expect(light.get('accept')).toBe('text/html, application/json');
    expect(light.get('x-empty')).toBe('');
    expect(light.get('missing')).toBeNull();
    expect(light.count).toBe(4);
  });

  test('it is a Headers to everyone else: instanceof, iteration, copies, a Request built from it', () => {
    // What the adapter does when it builds its first real Headers or Request (see linkLightHeaders).
    linkLightHeaders();
    const light = new NodeLightHeaders(raw, false) as unknown as Headers;
    expect(light).toBeInstanceOf(Headers);
    expect(Object.prototype.toString.call(light)).toBe('[object Headers]');
    expect([...light]).toEqual([...realOf(raw)]);
    expect(new Headers(light).get('accept')).toBe('text/html, application/json');
    const request = new Request('http://a.test/', { headers: light });
    expect(request.headers.get('host')).toBe('a.test');
    const seen: string[] = [];
    light.forEach((value, name, parent) => {
      seen.push(`${name}=${value}`);
      expect(parent).toBe(light);
    });
    expect(seen).toContain('accept=text/html, application/json');
  });

  test('a change goes to the real Headers, which answers from then on', () => {
    const light = new NodeLightHeaders(raw, false);
    light.set('accept', 'text/plain');
    light.append('x-added', '1');
    light.delete('host');
    expect(light.get('accept')).toBe('text/plain');
    expect(light.get('x-added')).toBe('1');
    expect(light.has('host')).toBe(false);
    expect(light.count).toBe(3);
    expect(light.real().get('x-added')).toBe('1');
  });

  test('an HTTP/1.0 request loses its Upgrade line (RFC 9110 §7.8), light and real alike', () => {
    const lines = ['Host', 'a.test', 'Upgrade', 'websocket', 'Connection', 'Upgrade'];
    const old = new NodeLightHeaders(lines, true);
    expect(old.has('upgrade')).toBe(false);
    expect(old.get('upgrade')).toBeNull();
    expect(old.get('connection')).toBe('Upgrade');
    expect(old.real().has('upgrade')).toBe(false);
    expect(new NodeLightHeaders(lines, false).get('upgrade')).toBe('websocket');
  });

  test('a line Headers refuses is refused when the request is made: a TypeError', () => {
    expect(() => new NodeLightHeaders(['X-Bad', `a${String.fromCharCode(0)}b`], false)).toThrow(TypeError);
    expect(() => new NodeLightHeaders(['X-Bad', 'a\r\nInjected: 1'], false)).toThrow(TypeError);
    expect(() => new NodeLightHeaders(['Bad Name', 'v'], false)).toThrow(TypeError);
    expect(() => new NodeLightHeaders(['', 'v'], false)).toThrow(TypeError);
    // An invalid name asked for is refused as Headers refuses it.
    expect(() => new NodeLightHeaders(raw, false).get('bad name')).toThrow(TypeError);
  });

  test('names of lengths no line has, and of lengths 32 apart, answer as Headers does', () => {
    // 1, 33 and 65 characters share a bit of the length set; 14 is both Content-Length and
    // Sec-Fetch-Site; 15 is X-Forwarded-For, absent.
    const long = `x-${'l'.repeat(31)}`;
    const longer = `x-${'m'.repeat(63)}`;
    const lines = ['A', '1', long, 'long', 'Content-Length', '2', 'Host', 'a.test'];
    const light = new NodeLightHeaders(lines, false);
    const real = realOf(lines);
    for (const name of ['a', 'b', long, `x-${'k'.repeat(31)}`, longer, 'content-length', 'sec-fetch-site']) {
      expect(light.get(name)).toBe(real.get(name));
      expect(light.has(name)).toBe(real.has(name));
    }
    for (const name of ['x-forwarded-for', 'forwarded', 'origin']) {
      expect(light.has(name)).toBe(false);
      expect(light.get(name)).toBeNull();
    }
    expect(light.get(long.toUpperCase())).toBe('long');
    // An invalid name is refused even when no line has its length.
    expect(() => light.has('bad name with spaces')).toThrow(TypeError);
    expect(() => light.get('')).toThrow(TypeError);
  });

  test('values: a tab or any other character but NUL, CR and LF is kept; those three are refused', () => {
    const allowed = `a\tb${String.fromCharCode(1)}c${String.fromCharCode(0x0e)}d\u00ff`;
    expect(new NodeLightHeaders(['X-Ok', allowed], false).get('x-ok')).toBe(
      new Headers({ 'x-ok': allowed }).get('x-ok'),
    );
    for (const bad of [0x00, 0x0a, 0x0d]) {
      expect(() => new NodeLightHeaders(['X-Bad', `v${String.fromCharCode(bad)}`], false)).toThrow(TypeError);
    }
  });

  test('isFieldName compares names ASCII case-insensitively, and nothing else', () => {
    expect(isFieldName('Host', 'host')).toBe(true);
    expect(isFieldName('CONTENT-LENGTH', 'content-length')).toBe(true);
    expect(isFieldName('host', 'host')).toBe(true);
    expect(isFieldName('Hosts', 'host')).toBe(false);
    expect(isFieldName('Hpst', 'host')).toBe(false);
    // Only A-Z fold: no other character maps onto a letter (U+212A KELVIN SIGN is not "k").
    expect(isFieldName('\u212aeep', 'keep')).toBe(false);
    expect(isFieldName('x[y', 'x{y')).toBe(false);
  });
});
