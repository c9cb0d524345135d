import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { HttpError, type Logger } from '@charter/core';
import type { JwtHeader } from '@charter/jwt';
import { parseJwkSet } from './jwk-set.ts';
import {
  JwksUnavailableError,
  type KeyCandidate,
  resolverJwksSource,
  staticJwksSource,
  urlJwksSource,
} from './jwks-source.ts';
import { JWK_DEFAULTS } from './options.ts';
import { generateTestKey, jwkSet, startJwksServer, testClock } from './__fixtures__/test-support.ts';

const k1 = await generateTestKey('RS256', 'k1');
const k2 = await generateTestKey('RS256', 'k2');
const server = await startJwksServer(jwkSet(k1));
afterAll(() => server.stop());
afterEach(() => {
  server.mode = 'ok';
  server.set = jwkSet(k1);
  server.headers = {};
});

const kidsOf = (candidates: readonly KeyCandidate[]) =>
  candidates.map((candidate) => (candidate.key instanceof CryptoKey ? 'crypto-key' : candidate.kid));

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
  return {
    lines,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
}

function source(overrides: Partial<Parameters<typeof urlJwksSource>[1]> = {}) {
  const clock = testClock();
  const logger = recordingLogger();
  const jwks = urlJwksSource(new URL(server.url), {
    ...JWK_DEFAULTS,
    fetch: server.fetch,
    logger,
    now: clock.now,
    ...overrides,
  });
  return { jwks, clock, logger, hitsAtStart: server.hits };
}

const header = (kid?: string): JwtHeader => ({ alg: 'RS256', ...(kid === undefined ? {} : { kid }) });

async function unavailable(promise: Promise<unknown>): Promise<JwksUnavailableError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(JwksUnavailableError);
    return error as JwksUnavailableError;
  }
  throw new Error('expected JwksUnavailableError');
}

describe('urlJwksSource: caching', () => {
  test('fetches once and serves the cached set for fetchTtlSeconds', async () => {
    const { jwks, clock, hitsAtStart } = source();
    expect(kidsOf(await jwks.candidates(header('k1')))).toEqual(['k1']);
    clock.advance(299);
    expect(kidsOf(await jwks.candidates(header('k1')))).toEqual(['k1']);
    expect(server.hits - hitsAtStart).toBe(1);
    clock.advance(1);
    await jwks.candidates(header('k1'));
    expect(server.hits - hitsAtStart).toBe(2);
  });

  test('concurrent requests share one fetch', async () => {
    const { jwks, hitsAtStart } = source();
    await Promise.all(Array.from({ length: 10 }, () => jwks.candidates(header('k1'))));
    expect(server.hits - hitsAtStart).toBe(1);
  });

  test('Cache-Control max-age shortens the freshness, but not below the cooldown', async () => {
    server.headers = { 'cache-control': 'max-age=60' };
    const short = source();
    await short.jwks.candidates(header('k1'));
    short.clock.advance(60);
    await short.jwks.candidates(header('k1'));
    expect(server.hits - short.hitsAtStart).toBe(2);

    server.headers = { 'cache-control': 'no-store' };
    const floor = source();
    await floor.jwks.candidates(header('k1'));
    floor.clock.advance(29);
    await floor.jwks.candidates(header('k1'));
    expect(server.hits - floor.hitsAtStart).toBe(1);
    floor.clock.advance(1);
    await floor.jwks.candidates(header('k1'));
    expect(server.hits - floor.hitsAtStart).toBe(2);
  });

  test('Cache-Control max-age cannot lengthen the freshness past fetchTtlSeconds', async () => {
    server.headers = { 'cache-control': 'max-age=86400' };
    const { jwks, clock, hitsAtStart } = source();
    await jwks.candidates(header('k1'));
    clock.advance(300);
    await jwks.candidates(header('k1'));
    expect(server.hits - hitsAtStart).toBe(2);
  });
});

describe('urlJwksSource: unknown kid', () => {
  test('an unknown kid refetches once, then gives no candidate; a second unknown kid inside the cooldown does not refetch', async () => {
    const { jwks, clock, hitsAtStart } = source();
    await jwks.candidates(header('k1'));
    clock.advance(30);
    expect(await jwks.candidates(header('nope'))).toEqual([]);
    expect(server.hits - hitsAtStart).toBe(2);
    clock.advance(29);
    expect(await jwks.candidates(header('other'))).toEqual([]);
    expect(server.hits - hitsAtStart).toBe(2);
    clock.advance(1);
    expect(await jwks.candidates(header('third'))).toEqual([]);
    expect(server.hits - hitsAtStart).toBe(3);
  });

  test('an unknown kid right after a fetch waits for the cooldown: the set is brand new', async () => {
    const { jwks, hitsAtStart } = source();
    expect(await jwks.candidates(header('nope'))).toEqual([]);
    expect(server.hits - hitsAtStart).toBe(1);
  });

  test('key rotation: a new kid published at the URL is picked up by the refetch', async () => {
    const { jwks, clock, hitsAtStart } = source();
    await jwks.candidates(header('k1'));
    server.set = jwkSet(k2);
    clock.advance(45);
    expect(kidsOf(await jwks.candidates(header('k2')))).toEqual(['k2']);
    expect(server.hits - hitsAtStart).toBe(2);
    // The new set replaced the old one: k1 is gone.
    clock.advance(30);
    expect(await jwks.candidates(header('k1'))).toEqual([]);
  });

  test('a known kid whose key does not fit does not refetch', async () => {
    const { jwks, clock, hitsAtStart } = source();
    clock.advance(0);
    await jwks.candidates(header('k1'));
    clock.advance(60);
    expect(await jwks.candidates({ alg: 'ES256', kid: 'k1' })).toEqual([]);
    expect(server.hits - hitsAtStart).toBe(1);
  });
});

describe('urlJwksSource: outages', () => {
  test('serves the stale set while the endpoint is down, then refuses after maxStaleSeconds', async () => {
    const { jwks, clock, logger, hitsAtStart } = source();
    await jwks.candidates(header('k1'));
    server.mode = 'down';
    clock.advance(300);
    expect(kidsOf(await jwks.candidates(header('k1')))).toEqual(['k1']);
    expect(logger.lines).toEqual(['warn: JWKS fetch failed; the cached key set is still used']);
    clock.advance(3599);
    expect(kidsOf(await jwks.candidates(header('k1')))).toEqual(['k1']);
    clock.advance(1);
    const error = await unavailable(jwks.candidates(header('k1')));
    expect(error.message).toContain('503');
    // The next attempt (after the cooldown) fails with nothing left to serve: logged as an error.
    clock.advance(30);
    await unavailable(jwks.candidates(header('k1')));
    expect(logger.lines.at(-1)).toBe('error: JWKS fetch failed; no usable key set');
    // Recovery: the next fetch after the cooldown replaces the set.
    server.mode = 'ok';
    clock.advance(30);
    expect(kidsOf(await jwks.candidates(header('k1')))).toEqual(['k1']);
    expect(server.hits - hitsAtStart).toBeGreaterThan(2);
  });

  test('a failed fetch is not retried before the cooldown: requests in between get the stale set without a fetch', async () => {
    const { jwks, clock, hitsAtStart } = source();
    await jwks.candidates(header('k1'));
    server.mode = 'down';
    clock.advance(300);
    await jwks.candidates(header('k1'));
    const hits = server.hits;
    clock.advance(10);
    await jwks.candidates(header('k1'));
    await jwks.candidates(header('k1'));
    expect(server.hits).toBe(hits);
    clock.advance(20);
    await jwks.candidates(header('k1'));
    expect(server.hits).toBe(hits + 1);
    expect(hits - hitsAtStart).toBe(2);
  });

  test('maxStaleSeconds 0 refuses as soon as the set expires and the refresh fails', async () => {
    const { jwks, clock } = source({ maxStaleSeconds: 0 });
    await jwks.candidates(header('k1'));
    server.mode = 'down';
    clock.advance(300);
    await unavailable(jwks.candidates(header('k1')));
  });

  test('a malformed set is handled like an outage: the previous set stays in use', async () => {
    const { jwks, clock, logger } = source();
    await jwks.candidates(header('k1'));
    server.mode = 'malformed';
    clock.advance(300);
    expect(kidsOf(await jwks.candidates(header('k1')))).toEqual(['k1']);
    expect(logger.lines).toHaveLength(1);
  });

  test('with no set ever fetched, an outage is a JwksUnavailableError with a Retry-After of the cooldown', async () => {
    server.mode = 'down';
    const { jwks, clock, hitsAtStart } = source();
    const first = await unavailable(jwks.candidates(header('k1')));
    expect(first.retryAfterSeconds).toBe(30);
    clock.advance(10);
    const second = await unavailable(jwks.candidates(header('k1')));
    expect(second.retryAfterSeconds).toBe(20);
    expect(server.hits - hitsAtStart).toBe(1);
  });

  test('an unknown-kid refetch that fails keeps the current set', async () => {
    const { jwks, clock } = source();
    await jwks.candidates(header('k1'));
    server.mode = 'down';
    clock.advance(60);
    expect(await jwks.candidates(header('k9'))).toEqual([]);
    expect(kidsOf(await jwks.candidates(header('k1')))).toEqual(['k1']);
  });
});

describe('staticJwksSource', () => {
  test('selects from the fixed set and never fetches', async () => {
    const jwks = staticJwksSource(parseJwkSet(jwkSet(k1, k2)));
    expect(kidsOf(await jwks.candidates(header('k2')))).toEqual(['k2']);
    expect(kidsOf(await jwks.candidates(header()))).toEqual(['k1', 'k2']);
    expect(await jwks.candidates(header('k3'))).toEqual([]);
  });
});

describe('resolverJwksSource', () => {
  test('accepts a JWK set, a single JWK, a CryptoKey or undefined from the resolver', async () => {
    const set = jwkSet(k1, k2);
    const cryptoKey = (await crypto.subtle.importKey(
      'jwk',
      { kty: k1.jwk.kty, n: k1.jwk.n, e: k1.jwk.e },
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    )) as CryptoKey;
    const jwks = resolverJwksSource((h) => {
      if (h.kid === 'set') return set;
      if (h.kid === 'single') return { ...k2.jwk, kid: undefined };
      if (h.kid === 'crypto') return cryptoKey;
      return undefined;
    }, undefined);
    expect(await jwks.candidates(header('set'))).toEqual([]);
    expect(kidsOf(await jwks.candidates(header('single')))).toEqual([undefined]);
    expect(kidsOf(await jwks.candidates(header('crypto')))).toEqual(['crypto-key']);
    expect(await jwks.candidates(header('none'))).toEqual([]);
  });

  test('a single JWK with a different kid, or a secret CryptoKey, gives no candidate', async () => {
    const secret = await crypto.subtle.importKey(
      'raw',
      new Uint8Array(32),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    const jwks = resolverJwksSource((h) => (h.kid === 'secret' ? secret : k1.jwk), undefined);
    expect(await jwks.candidates(header('k2'))).toEqual([]);
    expect(kidsOf(await jwks.candidates(header('k1')))).toEqual(['k1']);
    expect(await jwks.candidates(header('secret'))).toEqual([]);
  });

  test('the same set object is parsed once, so its imported keys are reused', async () => {
    const set = jwkSet(k1);
    const jwks = resolverJwksSource(() => set, undefined);
    const [a] = await jwks.candidates(header('k1'));
    const [b] = await jwks.candidates(header('k1'));
    expect(a?.key).toBeDefined();
    expect(a?.key).toBe(b?.key as JsonWebKey);
    // A new object is a new version: new key objects.
    const fresh = resolverJwksSource(() => jwkSet(k1), undefined);
    const [c] = await fresh.candidates(header('k1'));
    const [d] = await fresh.candidates(header('k1'));
    expect(c?.key).not.toBe(d?.key as JsonWebKey);
  });

  test('a resolver that throws, or returns a set with private members, makes the keys unavailable (logged)', async () => {
    const logger = recordingLogger();
    const throwing = resolverJwksSource(() => {
      throw new Error('tenant database down');
    }, logger);
    expect((await unavailable(throwing.candidates(header('k1')))).message).toContain('tenant database down');
    const leaking = resolverJwksSource(() => ({ keys: [{ ...k1.jwk, d: 'x' }] }), logger);
    await unavailable(leaking.candidates(header('k1')));
    const odd = resolverJwksSource(() => 'key' as never, logger);
    await unavailable(odd.candidates(header('k1')));
    expect(logger.lines).toHaveLength(3);
  });

  test('an HttpError thrown by the resolver goes through unchanged', async () => {
    const jwks = resolverJwksSource(() => {
      throw new HttpError({ status: 403, detail: 'tenant suspended' });
    }, undefined);
    await expect(jwks.candidates(header('k1'))).rejects.toMatchObject({
      status: 403,
      detail: 'tenant suspended',
    });
  });
});
