import { beforeAll, describe, expect, test } from 'bun:test';
import { algorithmSpec, JWT_ALGORITHMS, type JwtAlgorithm } from './algorithms.ts';
import { decodeBase64Url, decodeBase64UrlText } from './base64url.ts';
import { createJwtSigner, DEFAULT_EXPIRES_IN_SECONDS, type JwtSignerOptions } from './sign.ts';
import { generateTestKeys, type TestKeys } from './__fixtures__/test-keys.ts';
import { createJwtVerifier } from './verify.ts';

let keys: Record<JwtAlgorithm, TestKeys>;
const NOW = 1_700_000_000;
const now = (): number => NOW;

beforeAll(async () => {
  keys = await generateTestKeys();
});

function parts(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: Uint8Array;
} {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return {
    header: JSON.parse(decodeBase64UrlText(header) as string),
    payload: JSON.parse(decodeBase64UrlText(payload) as string),
    signature: decodeBase64Url(signature) as Uint8Array,
  };
}

function hsSigner(opts: Partial<JwtSignerOptions> = {}) {
  return createJwtSigner({ algorithm: 'HS256', key: keys.HS256.privateJwk, now, ...opts });
}

describe('createJwtSigner', () => {
  test('signs with every algorithm, and the verifier accepts each token (JWK and CryptoKey keys)', async () => {
    for (const alg of JWT_ALGORITHMS) {
      const set = keys[alg];
      for (const [signKey, verifyKey] of [
        [set.privateJwk, set.publicJwk],
        [set.signKey, set.verifyKey],
      ] as const) {
        const token = await createJwtSigner({ algorithm: alg, key: signKey }).sign({ role: 'reader' });
        const { header, payload } = await createJwtVerifier({ algorithms: [alg], key: verifyKey }).verify(
          token,
        );
        expect(header.alg).toBe(alg);
        expect(payload.role).toBe('reader');
      }
    }
  });

  test('writes ECDSA and EdDSA signatures in their raw fixed size (RFC 7518 §3.4)', async () => {
    for (const alg of ['ES256', 'ES384', 'ES512', 'EdDSA'] as const) {
      const token = await createJwtSigner({ algorithm: alg, key: keys[alg].signKey }).sign({});
      expect(parts(token).signature.length).toBe(algorithmSpec(alg).signatureBytes as number);
    }
  });

  test('sets alg, typ JWT, iat, exp 15 minutes later and a random jti', async () => {
    const signer = hsSigner();
    const first = parts(await signer.sign({ scope: 'read' }));
    const second = parts(await signer.sign({ scope: 'read' }));
    expect(first.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(DEFAULT_EXPIRES_IN_SECONDS).toBe(900);
    expect(first.payload).toMatchObject({ scope: 'read', iat: NOW, exp: NOW + 900 });
    expect(first.payload.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(second.payload.jti).not.toBe(first.payload.jti);
  });

  test('floors a fractional clock for iat', async () => {
    const token = await hsSigner({ now: () => NOW + 0.9 }).sign({});
    expect(parts(token).payload).toMatchObject({ iat: NOW, exp: NOW + 900 });
  });

  test('sets kid, issuer, audience and typ from the options', async () => {
    const token = await hsSigner({
      kid: 'k1',
      issuer: 'https://a.example',
      audience: ['x', 'y'],
      typ: 'at+jwt',
    }).sign({});
    const { header, payload } = parts(token);
    expect(header).toEqual({ alg: 'HS256', typ: 'at+jwt', kid: 'k1' });
    expect(payload).toMatchObject({ iss: 'https://a.example', aud: ['x', 'y'] });
  });

  test('lets each token choose its subject, audience, jti, kid, lifetime and nbf', async () => {
    const signer = hsSigner({ kid: 'k1', audience: 'default' });
    const token = await signer.sign(
      { sub: 'payload-sub', aud: 'payload-aud', jti: 'payload-jti' },
      { subject: 's', audience: 'a', jti: 'j', kid: 'k2', expiresInSeconds: 60, notBefore: NOW + 5 },
    );
    const { header, payload } = parts(token);
    expect(header.kid).toBe('k2');
    expect(payload).toMatchObject({ sub: 's', aud: 'a', jti: 'j', exp: NOW + 60, nbf: NOW + 5, iat: NOW });
  });

  test('keeps the payload sub, aud, iss and jti when no option sets them, options win otherwise', async () => {
    const plain = parts(await hsSigner().sign({ sub: 'u1', aud: 'p', iss: 'pi', jti: 'pj' })).payload;
    expect(plain).toMatchObject({ sub: 'u1', aud: 'p', iss: 'pi', jti: 'pj' });
    const configured = parts(
      await hsSigner({ issuer: 'oi', audience: 'oa' }).sign({ iss: 'pi', aud: 'p' }),
    ).payload;
    expect(configured).toMatchObject({ iss: 'oi', aud: 'oa' });
  });

  test('adds extra header members but never lets them change alg', async () => {
    const token = await hsSigner().sign({}, { header: { cty: 'x', typ: 'custom' } });
    expect(parts(token).header).toEqual({ alg: 'HS256', typ: 'custom', cty: 'x' });
    await expect(hsSigner().sign({}, { header: { alg: 'none' } })).rejects.toMatchObject({
      code: 'invalid-options',
    });
  });

  test('refuses payload exp and nbf: the signer owns them', async () => {
    for (const claim of ['exp', 'nbf']) {
      await expect(hsSigner().sign({ [claim]: NOW })).rejects.toMatchObject({ code: 'invalid-options' });
    }
  });

  test('keeps a numeric payload iat (as jose callers set it); exp still counts from the signing time', async () => {
    for (const iat of [NOW, NOW - 60, NOW - 0.5]) {
      const token = await hsSigner().sign({ iat, scope: 'read' });
      expect(parts(token).payload).toMatchObject({ iat, exp: NOW + 900, scope: 'read' });
    }
    // Absent: the signer's own, the signing time.
    expect(parts(await hsSigner().sign({})).payload.iat).toBe(NOW);
  });

  test('refuses a payload iat that is no number (invalid-iat) or is in the future beyond the skew', async () => {
    for (const iat of ['1700000000', null, Number.NaN, Number.POSITIVE_INFINITY, -1, true]) {
      await expect(hsSigner().sign({ iat })).rejects.toMatchObject({
        code: 'invalid-iat',
        message: 'payload.iat must be a finite number of seconds since the epoch',
      });
    }
    await expect(hsSigner().sign({ iat: NOW + 1 })).rejects.toMatchObject({ code: 'issued-in-future' });
    const skewed = hsSigner({ clockSkewSeconds: 30 });
    expect(parts(await skewed.sign({ iat: NOW + 30 })).payload.iat).toBe(NOW + 30);
    await expect(skewed.sign({ iat: NOW + 31 })).rejects.toMatchObject({ code: 'issued-in-future' });
    expect(() => hsSigner({ clockSkewSeconds: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
  });

  test('a payload iat cannot stretch a token past the lifetime cap', async () => {
    const capped = hsSigner({ maxLifetimeSeconds: 3600 });
    expect(parts(await capped.sign({ iat: NOW - 2700 })).payload).toMatchObject({
      iat: NOW - 2700,
      exp: NOW + 900,
    });
    await expect(capped.sign({ iat: NOW - 2701 })).rejects.toMatchObject({ code: 'lifetime-too-long' });
  });

  test('a token signed with a payload iat passes the verifier', async () => {
    const key = new Uint8Array(32).fill(7);
    const token = await createJwtSigner({ algorithm: 'HS256', key, now }).sign({ iat: NOW - 10 });
    const verified = await createJwtVerifier({ algorithms: ['HS256'], key, now }).verify(token);
    expect(verified.payload.iat).toBe(NOW - 10);
  });

  test('lifetime-too-long: refuses a lifetime over the cap before signing, accepts exactly 30 days', async () => {
    const token = await hsSigner().sign({}, { expiresInSeconds: 2592000 });
    expect(parts(token).payload.exp).toBe(NOW + 2592000);
    await expect(hsSigner().sign({}, { expiresInSeconds: 2592001 })).rejects.toMatchObject({
      code: 'lifetime-too-long',
    });
    expect(() => hsSigner({ expiresInSeconds: 2592001 })).toThrow(
      expect.objectContaining({ code: 'lifetime-too-long' }),
    );
    expect(() => hsSigner({ expiresInSeconds: 3601, maxLifetimeSeconds: 3600 })).toThrow(
      expect.objectContaining({ code: 'lifetime-too-long' }),
    );
    const long = await hsSigner({ expiresInSeconds: 400 * 86400, maxLifetimeSeconds: Infinity }).sign({});
    expect(parts(long).payload.exp).toBe(NOW + 400 * 86400);
  });

  test('refuses a notBefore that is not a number or not before the expiry', async () => {
    await expect(hsSigner().sign({}, { notBefore: NOW + 900 })).rejects.toMatchObject({
      code: 'invalid-options',
    });
    await expect(hsSigner().sign({}, { notBefore: 'soon' as never })).rejects.toMatchObject({
      code: 'invalid-options',
    });
  });

  test('refuses payloads that are not JSON objects', async () => {
    for (const bad of [null, [], 'text', 42]) {
      await expect(hsSigner().sign(bad as never)).rejects.toMatchObject({ code: 'invalid-options' });
    }
    await expect(hsSigner().sign({ n: 10n })).rejects.toMatchObject({ code: 'invalid-options' });
    await expect(hsSigner().sign(JSON.parse('{"__proto__":{"admin":true}}'))).rejects.toMatchObject({
      code: 'invalid-options',
    });
    await expect(hsSigner().sign({ nested: JSON.parse('{"constructor":1}') })).rejects.toMatchObject({
      code: 'invalid-options',
    });
    await expect(hsSigner().sign({}, { header: JSON.parse('{"__proto__":1}') })).rejects.toMatchObject({
      code: 'invalid-options',
    });
    await expect(hsSigner().sign({ sub: 42 })).rejects.toMatchObject({ code: 'invalid-options' });
    await expect(hsSigner().sign({ aud: [] })).rejects.toMatchObject({ code: 'invalid-options' });
  });

  test('invalid-key: refuses at construction a key that cannot sign with the algorithm', () => {
    const cases: Array<[JwtAlgorithm, unknown]> = [
      ['RS256', keys.RS256.publicJwk],
      ['ES256', keys.ES256.verifyKey],
      ['HS256', keys.RS256.publicJwk],
      ['RS256', crypto.getRandomValues(new Uint8Array(64))],
      ['HS256', crypto.getRandomValues(new Uint8Array(16))],
      ['ES384', keys.ES256.privateJwk],
      ['EdDSA', keys.ES256.signKey],
    ];
    for (const [algorithm, key] of cases) {
      expect(() => createJwtSigner({ algorithm, key: key as never })).toThrow(
        expect.objectContaining({ code: 'invalid-key' }),
      );
    }
  });

  test('invalid-options: refuses unknown algorithms, none, and bad option values, naming the option', () => {
    const key = keys.HS256.privateJwk;
    const bad: Array<[Partial<JwtSignerOptions>, RegExp]> = [
      [{ algorithm: 'none' as never }, /algorithm/],
      [{ algorithm: 'HS257' as never }, /algorithm/],
      [{ key: 'secret' as never }, /key/],
      [{ expiresInSeconds: 0 }, /expiresInSeconds/],
      [{ expiresInSeconds: Number.NaN }, /expiresInSeconds/],
      [{ maxLifetimeSeconds: -1 }, /maxLifetimeSeconds/],
      [{ kid: '' }, /kid/],
      [{ issuer: 7 as never }, /issuer/],
      [{ audience: [] }, /audience/],
      [{ typ: '' }, /typ/],
      [{ now: 5 as never }, /now/],
    ];
    for (const [opts, message] of bad) {
      expect(() => createJwtSigner({ algorithm: 'HS256', key, ...opts })).toThrow(message);
      expect(() => createJwtSigner({ algorithm: 'HS256', key, ...opts })).toThrow(
        expect.objectContaining({ code: 'invalid-options' }),
      );
    }
    expect(() => createJwtSigner(undefined as never)).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
  });
});
