import { describe, expect, test } from 'bun:test';
import {
  A2A_CLIENT_DEFAULT_MAX_RESPONSE_BYTES,
  A2A_CLIENT_DEFAULT_TIMEOUT_MS,
  cardUrlFor,
  resolveA2aClientOptions,
} from './options.ts';

describe('resolveA2aClientOptions', () => {
  test('fills the defaults', () => {
    const options = resolveA2aClientOptions({ url: 'https://agent.example.com/a2a#frag' });
    expect(options.url.href).toBe('https://agent.example.com/a2a');
    expect(options.cardUrl.href).toBe('https://agent.example.com/.well-known/agent-card.json');
    expect(options.timeoutMs).toBe(A2A_CLIENT_DEFAULT_TIMEOUT_MS);
    expect(options.maxResponseBytes).toBe(A2A_CLIENT_DEFAULT_MAX_RESPONSE_BYTES);
    expect(options.cardMaxAgeMs).toBeUndefined();
    expect(options.extensions).toBeUndefined();
    expect(options.propagateTrace).toBe(false);
    expect(options.allowInsecureHttp).toBe(false);
    expect(typeof options.fetch).toBe('function');
    expect(Object.isFrozen(options)).toBe(true);
  });

  test('keeps valid settings', () => {
    const fetch = async () => new Response();
    const tracer = () => undefined;
    const options = resolveA2aClientOptions({
      url: new URL('http://localhost:3000'),
      fetch,
      headers: { authorization: 'Bearer t' },
      allowedOrigins: ['https://rpc.example.com'],
      timeoutMs: 5,
      maxResponseBytes: 100,
      cardMaxAgeMs: 0,
      extensions: ['https://example.com/ext/a', 'urn:example:b'],
      propagateTrace: tracer,
    });
    expect(options.fetch).toBe(fetch);
    expect(options.extensions).toBe('https://example.com/ext/a, urn:example:b');
    expect(options.cardMaxAgeMs).toBe(0);
    expect([...options.allowedOrigins]).toEqual(['https://rpc.example.com']);
    expect(options.propagateTrace).toBe(tracer);
  });

  test('refuses a missing, relative or non-http url', () => {
    expect(() => resolveA2aClientOptions({} as never)).toThrow(/url is required/);
    expect(() => resolveA2aClientOptions({ url: '/agent' })).toThrow(/not an absolute URL/);
    expect(() => resolveA2aClientOptions({ url: 'ftp://agent.example.com' })).toThrow(/ftp:/);
    expect(() => resolveA2aClientOptions({ url: 'https://u:p@agent.example.com' })).toThrow(/credentials/);
    expect(() => resolveA2aClientOptions(null as never)).toThrow(TypeError);
  });

  test('refuses plain http to a non-loopback host unless allowInsecureHttp, without echoing credentials', () => {
    expect(() => resolveA2aClientOptions({ url: 'http://agent.example.com' })).toThrow(/allowInsecureHttp/);
    expect(
      resolveA2aClientOptions({ url: 'http://agent.example.com', allowInsecureHttp: true }).url.protocol,
    ).toBe('http:');
    expect(() => resolveA2aClientOptions({ url: 'http://127.0.0.1:1' })).not.toThrow();
    expect(() =>
      resolveA2aClientOptions({ url: 'https://agent.example.com', allowInsecureHttp: 'yes' as never }),
    ).toThrow(/allowInsecureHttp must be a boolean/);
  });

  test('refuses unknown options and options of the wrong type', () => {
    const url = 'https://agent.example.com';
    expect(() => resolveA2aClientOptions({ url, timeout: 5 } as never)).toThrow(/unknown option "timeout"/);
    expect(() => resolveA2aClientOptions({ url, fetch: 'x' as never })).toThrow(/fetch must be a function/);
    expect(() => resolveA2aClientOptions({ url, propagateTrace: 'yes' as never })).toThrow(/propagateTrace/);
    expect(() => resolveA2aClientOptions({ url, headers: [['bad name', 'x']] })).toThrow(/headers/);
    expect(() => resolveA2aClientOptions({ url, allowedOrigins: ['https://a.example/path'] })).toThrow(
      /allowedOrigins\[0\]/,
    );
  });

  test('refuses numbers out of range with a RangeError naming the option', () => {
    const url = 'https://agent.example.com';
    expect(() => resolveA2aClientOptions({ url, timeoutMs: 0 })).toThrow(RangeError);
    expect(() => resolveA2aClientOptions({ url, timeoutMs: 2 ** 31 })).toThrow(/timeoutMs/);
    expect(() => resolveA2aClientOptions({ url, timeoutMs: 1.5 })).toThrow(/timeoutMs/);
    expect(() => resolveA2aClientOptions({ url, maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
    expect(() => resolveA2aClientOptions({ url, cardMaxAgeMs: -1 })).toThrow(/cardMaxAgeMs/);
  });

  test('refuses extension URIs that are relative or would break the comma-separated header', () => {
    const url = 'https://agent.example.com';
    for (const bad of ['relative/ext', 'https://a.example/x,y', 'https://a.example/x y', 3]) {
      expect(() => resolveA2aClientOptions({ url, extensions: [bad as string] })).toThrow(/extensions\[0\]/);
    }
    expect(() => resolveA2aClientOptions({ url, extensions: 'https://a.example' as never })).toThrow(
      TypeError,
    );
    expect(resolveA2aClientOptions({ url, extensions: [] }).extensions).toBeUndefined();
  });
});

describe('cardUrlFor', () => {
  test('uses the well-known path at the origin, or the url itself when it names a .json card', () => {
    expect(cardUrlFor(new URL('https://a.example/agents/x')).href).toBe(
      'https://a.example/.well-known/agent-card.json',
    );
    expect(cardUrlFor(new URL('https://a.example:8443')).href).toBe(
      'https://a.example:8443/.well-known/agent-card.json',
    );
    expect(cardUrlFor(new URL('https://a.example/agents/x/card.json?v=2')).href).toBe(
      'https://a.example/agents/x/card.json?v=2',
    );
  });
});
