// Interoperability with an independent implementation: the `jose` package (v6, test-only).
// Tokens jose signs verify here, and tokens signed here verify with jose, for every algorithm,
// with keys as CryptoKeys and as JWKs.
import { beforeAll, describe, expect, test } from 'bun:test';
import * as jose from 'jose';
import { JWT_ALGORITHMS, type JwtAlgorithm } from './algorithms.ts';
import { JwtError } from './errors.ts';
import { createJwtSigner } from './sign.ts';
import { createJwtVerifier } from './verify.ts';

interface JoseKeys {
  signKey: CryptoKey;
  verifyKey: CryptoKey;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
}

const ISSUER = 'https://issuer.example';
const AUDIENCE = 'https://api.example';
let keys: Record<JwtAlgorithm, JoseKeys>;

beforeAll(async () => {
  const entries = await Promise.all(
    JWT_ALGORITHMS.map(async (alg): Promise<[JwtAlgorithm, JoseKeys]> => {
      if (alg.startsWith('HS')) {
        const secret = (await jose.generateSecret(alg, { extractable: true })) as CryptoKey;
        const jwk = (await jose.exportJWK(secret)) as JsonWebKey;
        return [alg, { signKey: secret, verifyKey: secret, privateJwk: jwk, publicJwk: jwk }];
      }
      const pair = await jose.generateKeyPair(alg, { extractable: true });
      return [
        alg,
        {
          signKey: pair.privateKey,
          verifyKey: pair.publicKey,
          privateJwk: (await jose.exportJWK(pair.privateKey)) as JsonWebKey,
          publicJwk: (await jose.exportJWK(pair.publicKey)) as JsonWebKey,
        },
      ];
    }),
  );
  keys = Object.fromEntries(entries) as Record<JwtAlgorithm, JoseKeys>;
});

function joseToken(alg: JwtAlgorithm, claims: jose.JWTPayload = {}): Promise<string> {
  return new jose.SignJWT({ scope: 'read write', ...claims })
    .setProtectedHeader({ alg, kid: `${alg}-key`, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(keys[alg].signKey);
}

describe('jose interop', () => {
  for (const alg of JWT_ALGORITHMS) {
    test(`${alg}: a token signed by jose verifies here (CryptoKey and JWK)`, async () => {
      const token = await joseToken(alg);
      for (const key of [keys[alg].verifyKey, keys[alg].publicJwk]) {
        const verifier = createJwtVerifier({
          algorithms: [alg],
          key,
          issuer: ISSUER,
          audience: AUDIENCE,
          typ: 'JWT',
        });
        const { header, payload } = await verifier.verify(token);
        expect(header).toEqual({ alg, kid: `${alg}-key`, typ: 'JWT' });
        expect(payload).toMatchObject({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', scope: 'read write' });
        expect((payload.exp as number) - (payload.iat as number)).toBe(300);
      }
    });

    test(`${alg}: a token signed here verifies with jose (CryptoKey and JWK)`, async () => {
      for (const key of [keys[alg].signKey, keys[alg].privateJwk]) {
        const signer = createJwtSigner({
          algorithm: alg,
          key,
          kid: 'k1',
          issuer: ISSUER,
          audience: AUDIENCE,
        });
        const token = await signer.sign({ scope: 'admin' }, { subject: 'svc', expiresInSeconds: 120 });
        const { payload, protectedHeader } = await jose.jwtVerify(token, keys[alg].verifyKey, {
          algorithms: [alg],
          issuer: ISSUER,
          audience: AUDIENCE,
          typ: 'JWT',
          maxTokenAge: '2m',
        });
        expect(protectedHeader).toEqual({ alg, typ: 'JWT', kid: 'k1' });
        expect(payload).toMatchObject({ iss: ISSUER, aud: AUDIENCE, sub: 'svc', scope: 'admin' });
        expect(typeof payload.jti).toBe('string');
        expect((payload.exp as number) - (payload.iat as number)).toBe(120);
      }
    });
  }

  test('both refuse a token signed by the other after its payload is changed', async () => {
    const fromJose = (await joseToken('ES256')).split('.');
    const fromHere = (
      await createJwtSigner({ algorithm: 'ES256', key: keys.ES256.signKey, audience: AUDIENCE }).sign({
        role: 'user',
      })
    ).split('.');
    const forgedForHere = [fromJose[0], fromHere[1], fromJose[2]].join('.');
    const forgedForJose = [fromHere[0], fromJose[1], fromHere[2]].join('.');
    const verifier = createJwtVerifier({
      algorithms: ['ES256'],
      key: keys.ES256.publicJwk,
      audience: AUDIENCE,
    });
    await expect(verifier.verify(forgedForHere)).rejects.toMatchObject({ code: 'invalid-signature' });
    await expect(jose.jwtVerify(forgedForJose, keys.ES256.verifyKey)).rejects.toThrow();
  });

  test('an unsecured jose token (alg none) is refused with alg-none', async () => {
    const token = new jose.UnsecuredJWT({ sub: 'admin' }).setExpirationTime('5m').encode();
    const verifier = createJwtVerifier({ algorithms: ['HS256'], key: keys.HS256.publicJwk });
    const error = await verifier.verify(token).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JwtError);
    expect((error as JwtError).code).toBe('alg-none');
  });

  test('a jose token past its exp or for another audience is refused with the matching code', async () => {
    const verifier = createJwtVerifier({
      algorithms: ['EdDSA'],
      key: keys.EdDSA.publicJwk,
      audience: AUDIENCE,
    });
    const token = await joseToken('EdDSA');
    const later = () => Math.floor(Date.now() / 1000) + 301;
    await expect(verifier.verify(token, { now: later })).rejects.toMatchObject({ code: 'expired' });
    await expect(verifier.verify(token, { audience: 'https://other.example' })).rejects.toMatchObject({
      code: 'invalid-audience',
    });
    const long = await new jose.SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA' })
      .setIssuedAt()
      .setExpirationTime('31d')
      .setAudience(AUDIENCE)
      .sign(keys.EdDSA.signKey);
    await expect(verifier.verify(long)).rejects.toMatchObject({ code: 'lifetime-too-long' });
  });
});
