import { describe, expect, test } from 'bun:test';
import { JWK_DEFAULTS, type JwkOptions, resolveJwkOptions } from './options.ts';
import { generateTestKey, jwkSet } from './__fixtures__/test-support.ts';

const rsa = await generateTestKey('RS256', 'r1');
const base: JwkOptions = {
  jwks: 'https://id.example/.well-known/jwks.json',
  algorithms: ['RS256'],
  issuer: 'https://id.example/',
  audience: 'api',
};
const resolve = (overrides: Record<string, unknown>) =>
  resolveJwkOptions({ ...base, ...overrides } as JwkOptions);

describe('resolveJwkOptions', () => {
  test('fills the defaults', () => {
    const options = resolveJwkOptions(base);
    expect(options.source).toEqual({ kind: 'url', url: new URL(base.jwks as string) });
    expect(options.issuer).toEqual(['https://id.example/']);
    expect(options.audience).toEqual(['api']);
    expect(options.realm).toBe('api');
    expect(options.clockSkewSeconds).toBe(0);
    expect(options.fetchTtlSeconds).toBe(300);
    expect(options.maxStaleSeconds).toBe(3600);
    expect(options.cooldownSeconds).toBe(30);
    expect(options.timeoutMs).toBe(5000);
    expect(options.maxJwksBytes).toBe(262_144);
    expect(options.maxLifetimeSeconds).toBe(2_592_000);
    expect(options.maxTokenLength).toBe(8192);
    expect(options.now).toBe(Date.now);
    expect(Object.isFrozen(options)).toBe(true);
    expect(JWK_DEFAULTS.realm).toBe('api');
  });

  test('accepts a URL object, a JWK set and a resolver as jwks', () => {
    expect(resolve({ jwks: new URL('https://id.example/k') }).source.kind).toBe('url');
    expect(resolve({ jwks: jwkSet(rsa) }).source.kind).toBe('set');
    expect(resolve({ jwks: () => undefined }).source.kind).toBe('resolver');
  });

  test('refuses an http URL, credentials in the URL, text that is no URL, and other values', () => {
    expect(() => resolve({ jwks: 'http://id.example/jwks.json' })).toThrow(/https: URL, got http:/);
    expect(() => resolve({ jwks: 'https://user:pw@id.example/jwks.json' })).toThrow(/credentials/);
    expect(() => resolve({ jwks: 'not a url' })).toThrow(/not a valid URL/);
    expect(() => resolve({ jwks: 42 })).toThrow(TypeError);
    expect(() => resolve({ jwks: undefined })).toThrow(/jwks/);
  });

  test('refuses a static set that is malformed, leaks private members, or cannot serve the algorithms', () => {
    expect(() => resolve({ jwks: { keys: 'x' } })).toThrow(/"jwks"/);
    expect(() => resolve({ jwks: { keys: [{ ...rsa.jwk, d: 'x' }] } })).toThrow(/private member "d"/);
    expect(() => resolve({ jwks: jwkSet(rsa), algorithms: ['ES256'] })).toThrow(/no key of the set/);
  });

  test('algorithms are required and non-empty; HS*, none and unknown names are refused', () => {
    expect(() => resolve({ algorithms: undefined })).toThrow(/"algorithms" is required/);
    expect(() => resolve({ algorithms: [] })).toThrow(/"algorithms" is required/);
    for (const alg of ['HS256', 'HS384', 'HS512']) {
      expect(() => resolve({ algorithms: ['RS256', alg] })).toThrow(`${alg} is symmetric`);
    }
    expect(() => resolve({ algorithms: ['none'] })).toThrow(/"none" is never accepted/);
    expect(() => resolve({ algorithms: ['NONE'] })).toThrow(/"none" is never accepted/);
    expect(() => resolve({ algorithms: ['RS1'] })).toThrow(/unknown algorithm "RS1"/);
    expect(resolve({ algorithms: ['RS256', 'RS256', 'EdDSA'] }).algorithms).toEqual(['RS256', 'EdDSA']);
  });

  test('issuer and audience are required; audience may be false', () => {
    expect(() => resolve({ issuer: undefined })).toThrow(/"issuer" is required/);
    expect(() => resolve({ issuer: [] })).toThrow(/"issuer" is required/);
    expect(() => resolve({ issuer: [''] })).toThrow(/"issuer" must hold non-empty strings/);
    expect(() => resolve({ audience: undefined })).toThrow(/"audience" is required/);
    expect(resolve({ audience: false }).audience).toBe(false);
    expect(resolve({ audience: ['a', 'b'] }).audience).toEqual(['a', 'b']);
  });

  test('numbers are checked and named', () => {
    expect(() => resolve({ clockSkewSeconds: -1 })).toThrow(/"clockSkewSeconds"/);
    expect(() => resolve({ fetchTtlSeconds: 0 })).toThrow(/"fetchTtlSeconds" must be an integer >= 1/);
    expect(() => resolve({ maxStaleSeconds: -1 })).toThrow(/"maxStaleSeconds"/);
    expect(resolve({ maxStaleSeconds: 0 }).maxStaleSeconds).toBe(0);
    expect(() => resolve({ cooldownSeconds: 0 })).toThrow(/"cooldownSeconds"/);
    expect(() => resolve({ timeoutMs: 1.5 })).toThrow(/"timeoutMs"/);
    expect(() => resolve({ maxJwksBytes: '1' })).toThrow(/"maxJwksBytes"/);
    expect(() => resolve({ maxLifetimeSeconds: 0 })).toThrow(/"maxLifetimeSeconds"/);
    expect(resolve({ maxLifetimeSeconds: Number.POSITIVE_INFINITY }).maxLifetimeSeconds).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(() => resolve({ maxTokenLength: 8 })).toThrow(/"maxTokenLength"/);
  });

  test('functions, realm, typ and logger are checked', () => {
    expect(() => resolve({ fetch: 'fetch' })).toThrow(/"fetch" must be a function/);
    expect(() => resolve({ verify: true })).toThrow(/"verify" must be a function/);
    expect(() => resolve({ now: 1 })).toThrow(/"now" must be a function/);
    expect(() => resolve({ realm: 'bad\nrealm' })).toThrow(/"realm"/);
    expect(() => resolve({ realm: 7 })).toThrow(/"realm"/);
    expect(() => resolve({ typ: '' })).toThrow(/"typ"/);
    expect(() => resolve({ logger: {} })).toThrow(/"logger"/);
  });

  test('an unknown option is refused by name (a typo must not silently weaken the check)', () => {
    expect(() => resolve({ audiences: 'api' })).toThrow('jwk: unknown option "audiences"');
    expect(() => resolveJwkOptions(undefined as never)).toThrow(TypeError);
  });
});
