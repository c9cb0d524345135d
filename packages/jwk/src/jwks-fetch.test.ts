import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { fetchJwks, JwksFetchError, freshnessLifetime } from './jwks-fetch.ts';
import { generateTestKey, jwkSet, startJwksServer } from './__fixtures__/test-support.ts';

const key = await generateTestKey('ES256', 'k1');
const server = await startJwksServer(jwkSet(key));
afterAll(() => server.stop());
afterEach(() => {
  server.mode = 'ok';
  server.headers = {};
});

const settings = { fetch: server.fetch, timeoutMs: 2000, maxBytes: 262_144 };

async function failure(promise: Promise<unknown>): Promise<JwksFetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(JwksFetchError);
    return error as JwksFetchError;
  }
  throw new Error('expected the fetch to fail');
}

describe('fetchJwks', () => {
  test('fetches and parses a set over real HTTPS, asking for a JWK set media type', async () => {
    const result = await fetchJwks(new URL(server.url), settings);
    expect(result.set.keys.map((k) => k.kid)).toEqual(['k1']);
    expect(result.maxAgeSeconds).toBeUndefined();
    expect(server.lastHeaders?.get('accept')).toBe('application/jwk-set+json, application/json;q=0.9');
  });

  test('reports the freshness the server states', async () => {
    server.headers = { 'cache-control': 'public, max-age=120', age: '20' };
    expect((await fetchJwks(new URL(server.url), settings)).maxAgeSeconds).toBe(100);
  });

  test('a certificate the fetch does not trust is a network failure', async () => {
    const error = await failure(fetchJwks(new URL(server.url), { ...settings, fetch: undefined }));
    expect(error.reason).toBe('network');
  });

  test('a status other than 200 fails', async () => {
    server.mode = 'down';
    expect((await failure(fetchJwks(new URL(server.url), settings))).reason).toBe('status');
  });

  test('a redirect is refused, not followed', async () => {
    server.mode = 'redirect';
    const hits = server.hits;
    expect((await failure(fetchJwks(new URL(server.url), settings))).reason).toBe('network');
    expect(server.hits).toBe(hits + 1);
  });

  test('a malformed set fails as malformed', async () => {
    server.mode = 'malformed';
    expect((await failure(fetchJwks(new URL(server.url), settings))).reason).toBe('malformed');
  });

  test('a body larger than maxBytes is refused', async () => {
    server.mode = 'huge';
    const error = await failure(fetchJwks(new URL(server.url), settings));
    expect(error.reason).toBe('too-large');
  });

  test('a streamed body without content-length is cut off at maxBytes', async () => {
    const streaming = async () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.enqueue(new Uint8Array(1024).fill(0x20));
          },
        }),
      );
    const error = await failure(
      fetchJwks(new URL(server.url), { ...settings, fetch: streaming, maxBytes: 4096 }),
    );
    expect(error.reason).toBe('too-large');
  });

  test('JSON with a prototype-pollution key is malformed', async () => {
    const hostile = async () => new Response('{"keys": [], "__proto__": {"polluted": true}}');
    const error = await failure(fetchJwks(new URL(server.url), { ...settings, fetch: hostile }));
    expect(error.reason).toBe('malformed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a fetch slower than timeoutMs fails with timeout, even one that ignores the abort signal', async () => {
    server.mode = 'slow';
    expect((await failure(fetchJwks(new URL(server.url), { ...settings, timeoutMs: 50 }))).reason).toBe(
      'timeout',
    );
    const deaf = () => new Promise<Response>(() => {});
    expect(
      (await failure(fetchJwks(new URL(server.url), { ...settings, fetch: deaf, timeoutMs: 50 }))).reason,
    ).toBe('timeout');
  });
});

describe('freshnessLifetime', () => {
  const of = (fields: Record<string, string>) => freshnessLifetime(new Headers(fields));

  test('reads max-age, in token or quoted form, less the Age', () => {
    expect(of({ 'cache-control': 'max-age=600' })).toBe(600);
    expect(of({ 'cache-control': 'public, MAX-AGE="60"' })).toBe(60);
    expect(of({ 'cache-control': 'max-age=60', age: '100' })).toBe(0);
  });

  test('no-store and no-cache mean no freshness; an invalid or repeated max-age too', () => {
    expect(of({ 'cache-control': 'no-store' })).toBe(0);
    expect(of({ 'cache-control': 'max-age=600, no-cache' })).toBe(0);
    expect(of({ 'cache-control': 'max-age=-5' })).toBe(0);
    expect(of({ 'cache-control': 'max-age=1, max-age=2' })).toBe(0);
  });

  test('no Cache-Control, or none with max-age, states nothing; s-maxage is ignored', () => {
    expect(of({})).toBeUndefined();
    expect(of({ 'cache-control': 'public, s-maxage=900' })).toBeUndefined();
  });
});
