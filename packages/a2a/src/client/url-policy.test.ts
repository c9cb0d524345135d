import { describe, expect, test } from 'bun:test';
import { A2aClientError } from './errors.ts';
import {
  insecureUrlProblem,
  isLoopbackHost,
  parseAllowedOrigins,
  resolveInterfaceUrl,
} from './url-policy.ts';

describe('isLoopbackHost', () => {
  test('accepts localhost names and loopback literals', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      'localhost.',
      'api.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
    ]) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    expect(isLoopbackHost(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe(true);
  });

  test('refuses public, private and look-alike hosts', () => {
    for (const host of [
      'example.com',
      'localhost.example.com',
      '10.0.0.1',
      '0.0.0.0',
      '[::]',
      '128.0.0.1',
      'mylocalhost',
    ]) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

describe('insecureUrlProblem', () => {
  test('accepts https anywhere and http on loopback', () => {
    expect(insecureUrlProblem(new URL('https://agent.example.com'), false)).toBeUndefined();
    expect(insecureUrlProblem(new URL('http://127.0.0.1:8080/a2a'), false)).toBeUndefined();
    expect(insecureUrlProblem(new URL('http://localhost/a2a'), false)).toBeUndefined();
  });

  test('refuses http to other hosts unless allowInsecureHttp is set', () => {
    expect(insecureUrlProblem(new URL('http://agent.example.com'), false)).toContain('allowInsecureHttp');
    expect(insecureUrlProblem(new URL('http://agent.example.com'), true)).toBeUndefined();
  });

  test('refuses other schemes and credentials in the URL whatever the flag', () => {
    expect(insecureUrlProblem(new URL('ftp://agent.example.com'), true)).toContain('ftp:');
    expect(insecureUrlProblem(new URL('https://user:pw@agent.example.com'), true)).toContain('credentials');
  });
});

describe('parseAllowedOrigins', () => {
  test('stores each entry as its URL origin', () => {
    const origins = parseAllowedOrigins([
      'https://RPC.example.com/',
      'http://127.0.0.1:9000',
      'https://a.example:443',
    ]);
    expect([...origins]).toEqual(['https://rpc.example.com', 'http://127.0.0.1:9000', 'https://a.example']);
    expect(parseAllowedOrigins(undefined).size).toBe(0);
  });

  test('refuses entries with a path, query, credentials, another scheme, or no URL at all', () => {
    for (const entry of [
      'https://a.example/rpc',
      'https://a.example?x=1',
      'https://u@a.example',
      'ws://a.example',
      'a.example',
      42,
    ]) {
      expect(() => parseAllowedOrigins([entry])).toThrow(/allowedOrigins\[0\]/);
    }
    expect(() => parseAllowedOrigins('https://a.example')).toThrow(TypeError);
  });
});

describe('resolveInterfaceUrl', () => {
  const card = new URL('https://agent.example.com/.well-known/agent-card.json');
  const none = { allowedOrigins: new Set<string>(), allowInsecureHttp: false };

  test("accepts an interface on the card's own origin and drops the fragment", () => {
    expect(resolveInterfaceUrl('https://agent.example.com/a2a#x', card, none).href).toBe(
      'https://agent.example.com/a2a',
    );
  });

  test('accepts another origin only when it is listed', () => {
    const allowed = { ...none, allowedOrigins: new Set(['https://rpc.example.com']) };
    expect(resolveInterfaceUrl('https://rpc.example.com/v1', card, allowed).href).toBe(
      'https://rpc.example.com/v1',
    );
    expect(() => resolveInterfaceUrl('https://rpc.example.com/v1', card, none)).toThrow(A2aClientError);
    expect(() => resolveInterfaceUrl('https://evil.example.com/v1', card, allowed)).toThrow(
      /not in allowedOrigins/,
    );
  });

  test('refuses a downgrade to http on the same host, a relative URL and a metadata-style target', () => {
    expect(() => resolveInterfaceUrl('http://agent.example.com/a2a', card, none)).toThrow(/plain http/);
    expect(() => resolveInterfaceUrl('/a2a', card, none)).toThrow(/absolute/);
    expect(() => resolveInterfaceUrl('http://169.254.169.254/latest', card, none)).toThrow(/plain http/);
    try {
      resolveInterfaceUrl('https://127.0.0.1/a2a', card, none);
      throw new Error('not refused');
    } catch (error) {
      expect((error as A2aClientError).reason).toBe('interface-not-allowed');
      expect((error as A2aClientError).code).toBe(0);
    }
  });
});
