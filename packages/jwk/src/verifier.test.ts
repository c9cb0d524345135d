import { describe, expect, test } from 'bun:test';
import { JwtError } from '@charter/jwt';
import { JwksUnavailableError } from './jwks-source.ts';
import { createJwksVerifier } from './verifier.ts';
import { generateTestKey, jwkSet, signToken, testClock } from './__fixtures__/test-support.ts';

const ISSUER = 'https://id.example/';
const rsa = await generateTestKey('RS256', 'r1');
const ed = await generateTestKey('EdDSA', 'd1');
const clock = testClock();
const now = Math.floor(clock.now() / 1000);
const claims = { iss: ISSUER, aud: 'api', sub: 'u', iat: now, exp: now + 60 };

const verifierFor = (jwks: Parameters<typeof createJwksVerifier>[0]['jwks']) =>
  createJwksVerifier({
    jwks,
    algorithms: ['RS256', 'EdDSA'],
    issuer: ISSUER,
    audience: 'api',
    now: clock.now,
  });

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof JwtError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('createJwksVerifier', () => {
  test('resolves header and payload of a valid token, RSA or EdDSA', async () => {
    const verifier = verifierFor(jwkSet(rsa, ed));
    expect((await verifier.verify(await signToken(rsa, claims))).payload.sub).toBe('u');
    const verified = await verifier.verify(await signToken(ed, claims));
    expect(verified.header).toEqual({ alg: 'EdDSA', typ: 'JWT', kid: 'd1' });
  });

  test('uses the clock option for the time claims', async () => {
    const verifier = verifierFor(jwkSet(rsa));
    const token = await signToken(rsa, claims);
    const later = testClock(clock.now() + 61_000);
    const lateVerifier = createJwksVerifier({
      jwks: jwkSet(rsa),
      algorithms: ['RS256'],
      issuer: ISSUER,
      audience: 'api',
      now: later.now,
    });
    expect(await code(verifier.verify(token))).toBe('accepted');
    expect(await code(lateVerifier.verify(token))).toBe('expired');
  });

  test('a key that cannot be imported (RSA modulus under 2048 bits) refuses the token', async () => {
    const weakPair = (await crypto.subtle.generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 1024,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair;
    const exported = (await crypto.subtle.exportKey('jwk', weakPair.publicKey)) as { n: string; e: string };
    const weak = {
      alg: 'RS256' as const,
      kid: 'weak',
      privateKey: weakPair.privateKey,
      jwk: { kty: 'RSA', n: exported.n, e: exported.e, kid: 'weak' },
    };
    const verifier = verifierFor({ keys: [weak.jwk, rsa.jwk] });
    expect(await code(verifier.verify(await signToken(weak, claims)))).toBe('invalid-key');
  });

  test('a key of the right kid but another algorithm is not used', async () => {
    const verifier = verifierFor({ keys: [{ ...ed.jwk, kid: 'r1' }] });
    expect(await code(verifier.verify(await signToken(rsa, claims)))).toBe('unknown-kid');
  });

  test('an unavailable source surfaces as JwksUnavailableError', async () => {
    const verifier = verifierFor(() => {
      throw new Error('down');
    });
    await expect(verifier.verify(await signToken(rsa, claims))).rejects.toBeInstanceOf(JwksUnavailableError);
  });

  test('a malformed token never reaches the source', async () => {
    let calls = 0;
    const verifier = verifierFor(() => {
      calls++;
      return rsa.jwk;
    });
    expect(await code(verifier.verify('a.b'))).toBe('malformed');
    expect(await code(verifier.verify(`${'x'.repeat(9000)}.a.b`))).toBe('malformed');
    expect(calls).toBe(0);
  });
});
