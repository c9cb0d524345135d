import { beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { JwtAlgorithm } from './algorithms.ts';
import { encodeBase64Url } from './base64url.ts';
import { JwtError, type JwtErrorCode } from './errors.ts';
import { createJwtSigner } from './sign.ts';
import {
  encodePart,
  forgeToken,
  generateTestKeys,
  hmacKeyFromBytes,
  type TestKeys,
} from './__fixtures__/test-keys.ts';
import { createJwtVerifier, DEFAULT_MAX_TOKEN_LENGTH, type JwtVerifierOptions } from './verify.ts';

let keys: Record<JwtAlgorithm, TestKeys>;
const NOW = 1_700_000_000;
const now = (): number => NOW;
const CLAIMS = { sub: 'u1', iat: NOW, exp: NOW + 600 };
const HEADER = { alg: 'HS256', typ: 'JWT' };

beforeAll(async () => {
  keys = await generateTestKeys();
});

async function codeOf(promise: Promise<unknown>): Promise<JwtErrorCode | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (!(error instanceof JwtError)) throw error;
    return error.code;
  }
}

function hsVerifier(opts: Partial<JwtVerifierOptions> = {}) {
  return createJwtVerifier({ algorithms: ['HS256'], key: keys.HS256.publicJwk, now, ...opts });
}

function hsToken(payload: object | string = CLAIMS, header: object | string = HEADER): Promise<string> {
  return forgeToken(header, payload, 'HS256', keys.HS256.signKey);
}

describe('createJwtVerifier: structure', () => {
  test('accepts a well-formed token and returns its header and claims', async () => {
    const result = await hsVerifier().verify(await hsToken());
    expect(result).toEqual({ header: HEADER, payload: CLAIMS });
  });

  test('malformed: refuses anything but three base64url parts', async () => {
    const good = await hsToken();
    const [h, p, s] = good.split('.') as [string, string, string];
    const bad = [
      '',
      'abc',
      `${h}.${p}`,
      `${h}.${p}.${s}.`,
      `${h}.${p}.${s}.x.y`, // a JWE has five parts
      `${h}.${p}.`, // no signature
      `.${p}.${s}`,
      `${h}..${s}`,
      `${h}=.${p}.${s}`,
      `${h}.${p}.${s}=`,
      ` ${good}`,
      `Bearer ${good}`,
      `${h}.${p}.${s.replaceAll('-', '+').replaceAll('_', '/')}${s.includes('-') || s.includes('_') ? '' : '+'}`,
    ];
    for (const token of bad) expect(await codeOf(hsVerifier().verify(token))).toBe('malformed');
  });

  test('malformed: refuses a header or claims set that is not a JSON object', async () => {
    const cases: Array<[object | string, object | string]> = [
      ['not json', CLAIMS],
      ['[1]', CLAIMS],
      ['null', CLAIMS],
      [HEADER, 'not json'],
      [HEADER, '["sub"]'],
      [HEADER, '"text"'],
      ['{"alg":"HS256","alg":"HS256"}', CLAIMS],
      [HEADER, `{"sub":"a","sub":"b","exp":${NOW + 60}}`],
      [HEADER, `{"__proto__":{"admin":true},"exp":${NOW + 60}}`],
      [{ typ: 'JWT' }, CLAIMS],
      [{ alg: 256 }, CLAIMS],
      [{ alg: '' }, CLAIMS],
      [{ alg: 'HS256', kid: 7 }, CLAIMS],
      [{ alg: 'HS256', typ: ['JWT'] }, CLAIMS],
      [HEADER, { ...CLAIMS, sub: 42 }],
      [HEADER, { ...CLAIMS, jti: {} }],
    ];
    for (const [header, payload] of cases) {
      expect(await codeOf(hsVerifier().verify(await hsToken(payload, header)))).toBe('malformed');
    }
  });

  test('malformed: refuses parts that are not UTF-8', async () => {
    const [, p, s] = (await hsToken()).split('.') as [string, string, string];
    const header = encodeBase64Url(new Uint8Array([0x7b, 0xff, 0x7d]));
    expect(await codeOf(hsVerifier().verify(`${header}.${p}.${s}`))).toBe('malformed');
  });

  test('malformed: refuses a token longer than maxTokenLength before decoding it', async () => {
    expect(DEFAULT_MAX_TOKEN_LENGTH).toBe(8192);
    const token = await hsToken({ ...CLAIMS, pad: 'x'.repeat(6000) });
    expect(token.length).toBeGreaterThan(8000);
    expect(token.length).toBeLessThan(8192);
    expect(await codeOf(hsVerifier().verify(token))).toBe('ok');
    expect(await codeOf(hsVerifier({ maxTokenLength: token.length }).verify(token))).toBe('ok');
    expect(await codeOf(hsVerifier({ maxTokenLength: token.length - 1 }).verify(token))).toBe('malformed');
    expect(await codeOf(hsVerifier().verify('a'.repeat(8193)))).toBe('malformed');
  });

  test('malformed: refuses a token that is not a string', async () => {
    for (const bad of [undefined, null, 42, {}, ['a', 'b', 'c']]) {
      expect(await codeOf(hsVerifier().verify(bad as never))).toBe('malformed');
    }
  });

  test('throws only JwtErrors for arbitrary input (property)', async () => {
    const verifier = hsVerifier();
    const good = await hsToken();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc
            .array(fc.base64String({ maxLength: 60 }), { minLength: 1, maxLength: 6 })
            .map((xs) => xs.join('.')),
          fc
            .tuple(fc.nat({ max: good.length - 1 }), fc.constantFrom(...'AZaz09-_.=+/ '.split('')))
            .map(([i, c]) => good.slice(0, i) + c + good.slice(i + 1)),
        ),
        async (token) => {
          const code = await codeOf(verifier.verify(token));
          // Replacing a character with itself leaves the token valid; nothing else may be.
          if (token !== good) expect(code).not.toBe('ok');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('createJwtVerifier: algorithms', () => {
  test('alg-none: refuses unsecured tokens in any letter case, signed or not', async () => {
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      const unsigned = `${encodePart({ alg })}.${encodePart(CLAIMS)}.`;
      const signed = await hsToken(CLAIMS, { alg });
      expect(await codeOf(hsVerifier().verify(unsigned))).toBe('alg-none');
      expect(await codeOf(hsVerifier().verify(signed))).toBe('alg-none');
    }
  });

  test('alg-not-allowed: refuses an algorithm outside the pinned list', async () => {
    const es = await forgeToken({ alg: 'ES256' }, CLAIMS, 'ES256', keys.ES256.signKey);
    expect(await codeOf(hsVerifier().verify(es))).toBe('alg-not-allowed');
    expect(
      await codeOf(createJwtVerifier({ algorithms: ['ES256'], key: keys.ES256.publicJwk, now }).verify(es)),
    ).toBe('ok');
    for (const alg of ['hs256', 'HS257', 'ES256K', 'RSA-OAEP', 'Ed25519']) {
      expect(await codeOf(hsVerifier().verify(await hsToken(CLAIMS, { alg })))).toBe('alg-not-allowed');
    }
  });

  test('alg-not-allowed: an RSA public key used as an HS256 secret is refused (algorithm confusion)', async () => {
    const { publicJwk, verifyKey } = keys.RS256;
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', verifyKey));
    const jwkText = new TextEncoder().encode(JSON.stringify(publicJwk));
    // The attacker signs HS256 with whatever public form of the key the server may hold.
    for (const secret of [spki, jwkText]) {
      const forged = await forgeToken({ alg: 'HS256' }, CLAIMS, 'HS256', await hmacKeyFromBytes(secret));
      // Pinned to RS256: refused before any key is touched.
      const pinned = createJwtVerifier({ algorithms: ['RS256'], key: publicJwk, now });
      expect(await codeOf(pinned.verify(forged))).toBe('alg-not-allowed');
      // Even with HS256 allowed, the RSA key cannot become an HMAC secret.
      const mixed = createJwtVerifier({ algorithms: ['RS256', 'HS256'], key: () => publicJwk, now });
      expect(await codeOf(mixed.verify(forged))).toBe('alg-not-allowed');
      const mixedCryptoKey = createJwtVerifier({ algorithms: ['RS256', 'HS256'], key: () => verifyKey, now });
      expect(await codeOf(mixedCryptoKey.verify(forged))).toBe('alg-not-allowed');
    }
  });

  test('alg-not-allowed: a resolved key of another curve or scheme is refused', async () => {
    const es384 = await forgeToken({ alg: 'ES384' }, CLAIMS, 'ES384', keys.ES384.signKey);
    const verifier = createJwtVerifier({
      algorithms: ['ES256', 'ES384'],
      key: () => keys.ES256.publicJwk,
      now,
    });
    expect(await codeOf(verifier.verify(es384))).toBe('alg-not-allowed');
    const ps = await forgeToken({ alg: 'PS256' }, CLAIMS, 'PS256', keys.PS256.signKey);
    const rsOnly = createJwtVerifier({
      algorithms: ['RS256', 'PS256'],
      key: () => keys.RS256.verifyKey,
      now,
    });
    expect(await codeOf(rsOnly.verify(ps))).toBe('alg-not-allowed');
  });

  test('invalid-key: a static key must fit every pinned algorithm', () => {
    const cases: Array<[JwtAlgorithm[], unknown]> = [
      [['RS256', 'HS256'], keys.RS256.publicJwk],
      [['HS256'], keys.RS256.publicJwk],
      [['RS256'], crypto.getRandomValues(new Uint8Array(64))],
      [['HS256'], crypto.getRandomValues(new Uint8Array(31))],
      [['ES256', 'ES384'], keys.ES256.publicJwk],
      [['RS256', 'RS384'], keys.RS256.verifyKey],
    ];
    for (const [algorithms, key] of cases) {
      expect(() => createJwtVerifier({ algorithms, key: key as never })).toThrow(
        expect.objectContaining({ code: 'invalid-key' }),
      );
    }
    expect(() =>
      createJwtVerifier({ algorithms: ['RS256', 'PS512'], key: keys.RS256.publicJwk }),
    ).not.toThrow();
  });

  test('invalid-signature: refuses a tampered signature, payload or header', async () => {
    const token = await hsToken();
    const [h, p, s] = token.split('.') as [string, string, string];
    const otherPayload = encodePart({ ...CLAIMS, sub: 'admin' });
    const otherHeader = encodePart({ ...HEADER, kid: 'x' });
    const flipped = `${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
    for (const tampered of [
      `${h}.${p}.${flipped}`,
      `${h}.${otherPayload}.${s}`,
      `${otherHeader}.${p}.${s}`,
    ]) {
      expect(await codeOf(hsVerifier().verify(tampered))).toBe('invalid-signature');
    }
  });

  test('invalid-signature: refuses every algorithm’s token under another key of the right kind', async () => {
    const others = await generateTestKeys();
    for (const alg of Object.keys(keys) as JwtAlgorithm[]) {
      const token = await forgeToken({ alg }, CLAIMS, alg, keys[alg].signKey);
      const right = createJwtVerifier({ algorithms: [alg], key: keys[alg].publicJwk, now });
      const wrong = createJwtVerifier({ algorithms: [alg], key: others[alg].publicJwk, now });
      expect(await codeOf(right.verify(token))).toBe('ok');
      expect(await codeOf(wrong.verify(token))).toBe('invalid-signature');
    }
  });

  test('invalid-signature: refuses ECDSA signatures that are not raw R||S of the curve size', async () => {
    const token = await forgeToken({ alg: 'ES256' }, CLAIMS, 'ES256', keys.ES256.signKey);
    const [h, p, s] = token.split('.') as [string, string, string];
    const raw = Buffer.from(s, 'base64url');
    const verifier = createJwtVerifier({ algorithms: ['ES256'], key: keys.ES256.publicJwk, now });
    // A DER-style wrapper and a truncated signature are both refused.
    const der = Buffer.concat([
      Buffer.from([0x30, 0x44, 0x02, 0x20]),
      raw.subarray(0, 32),
      Buffer.from([0x02, 0x20]),
      raw.subarray(32),
    ]);
    for (const bytes of [der, raw.subarray(0, 63)]) {
      expect(await codeOf(verifier.verify(`${h}.${p}.${bytes.toString('base64url')}`))).toBe(
        'invalid-signature',
      );
    }
    expect(await codeOf(verifier.verify(token))).toBe('ok');
  });

  test('invalid-signature: refuses a truncated HMAC', async () => {
    const [h, p, s] = (await hsToken()).split('.') as [string, string, string];
    const short = Buffer.from(s, 'base64url').subarray(0, 16).toString('base64url');
    expect(await codeOf(hsVerifier().verify(`${h}.${p}.${short}`))).toBe('invalid-signature');
  });

  test('checks the algorithm before the signature, and the signature before the claims', async () => {
    const expiredBadSignature = `${(await hsToken({ exp: NOW - 10 })).slice(0, -4)}AAAA`;
    expect(await codeOf(hsVerifier().verify(expiredBadSignature))).toBe('invalid-signature');
    const notAllowedExpired = await forgeToken(
      { alg: 'HS384' },
      { exp: NOW - 10 },
      'HS384',
      keys.HS384.signKey,
    );
    expect(await codeOf(hsVerifier().verify(notAllowedExpired))).toBe('alg-not-allowed');
  });
});

describe('createJwtVerifier: header parameters', () => {
  test('crit-unsupported: refuses a critical extension the caller did not declare (RFC 7515 §4.1.11)', async () => {
    const token = await hsToken(CLAIMS, { ...HEADER, crit: ['x-tenant'], 'x-tenant': 't1' });
    expect(await codeOf(hsVerifier().verify(token))).toBe('crit-unsupported');
    expect(await codeOf(hsVerifier({ criticalHeaders: ['x-other'] }).verify(token))).toBe('crit-unsupported');
    const accepted = await hsVerifier({ criticalHeaders: ['x-tenant'] }).verify(token);
    expect(accepted.header['x-tenant']).toBe('t1');
  });

  test('malformed: refuses a crit that is empty, not strings, repeated, registered or absent', async () => {
    const verifier = hsVerifier({ criticalHeaders: ['x-a'] });
    for (const header of [
      { ...HEADER, crit: [] },
      { ...HEADER, crit: 'x-a', 'x-a': 1 },
      { ...HEADER, crit: [1] },
      { ...HEADER, crit: ['x-a', 'x-a'], 'x-a': 1 },
      { ...HEADER, crit: ['alg'] },
      { ...HEADER, crit: ['x-a'] },
    ]) {
      expect(await codeOf(verifier.verify(await hsToken(CLAIMS, header)))).toBe('malformed');
    }
  });

  test('refuses criticalHeaders naming registered parameters or b64', () => {
    for (const name of ['alg', 'kid', 'crit', 'b64']) {
      expect(() => hsVerifier({ criticalHeaders: [name] })).toThrow(
        expect.objectContaining({ code: 'invalid-options' }),
      );
    }
  });

  test('unknown-kid: the resolver picks the key by kid, undefined is refused', async () => {
    const keyring: Record<string, JsonWebKey> = { a: keys.ES256.publicJwk, b: keys.EdDSA.publicJwk };
    const verifier = createJwtVerifier({
      algorithms: ['ES256', 'EdDSA'],
      key: async (header) => (typeof header.kid === 'string' ? keyring[header.kid] : undefined),
      now,
    });
    const a = await forgeToken({ alg: 'ES256', kid: 'a' }, CLAIMS, 'ES256', keys.ES256.signKey);
    const b = await forgeToken({ alg: 'EdDSA', kid: 'b' }, CLAIMS, 'EdDSA', keys.EdDSA.signKey);
    const c = await forgeToken({ alg: 'ES256', kid: 'c' }, CLAIMS, 'ES256', keys.ES256.signKey);
    const none = await forgeToken({ alg: 'ES256' }, CLAIMS, 'ES256', keys.ES256.signKey);
    expect(await codeOf(verifier.verify(a))).toBe('ok');
    expect(await codeOf(verifier.verify(b))).toBe('ok');
    expect(await codeOf(verifier.verify(c))).toBe('unknown-kid');
    expect(await codeOf(verifier.verify(none))).toBe('unknown-kid');
    // kid "b" names the Ed25519 key: an ES256 token under it is not that key's algorithm.
    const swapped = await forgeToken({ alg: 'ES256', kid: 'b' }, CLAIMS, 'ES256', keys.ES256.signKey);
    expect(await codeOf(verifier.verify(swapped))).toBe('alg-not-allowed');
  });

  test('does not call the resolver for a token refused on its header', async () => {
    let calls = 0;
    const verifier = createJwtVerifier({
      algorithms: ['HS256'],
      key: () => {
        calls++;
        return keys.HS256.publicJwk;
      },
      now,
    });
    await codeOf(verifier.verify(await hsToken(CLAIMS, { alg: 'RS256' })));
    await codeOf(verifier.verify(await hsToken(CLAIMS, { alg: 'none' })));
    expect(calls).toBe(0);
    expect(await codeOf(verifier.verify(await hsToken()))).toBe('ok');
    expect(calls).toBe(1);
  });

  test('passes a resolver’s own error through unchanged', async () => {
    const failure = new Error('JWKS unreachable');
    const verifier = createJwtVerifier({
      algorithms: ['HS256'],
      key: () => {
        throw failure;
      },
      now,
    });
    await expect(verifier.verify(await hsToken())).rejects.toBe(failure);
  });

  test('invalid-typ: checks typ case-insensitively with application/ optional (RFC 8725 §3.11)', async () => {
    const verifier = hsVerifier({ typ: 'at+jwt' });
    for (const typ of ['at+jwt', 'AT+JWT', 'application/at+jwt', 'Application/At+JWT']) {
      expect(await codeOf(verifier.verify(await hsToken(CLAIMS, { alg: 'HS256', typ })))).toBe('ok');
    }
    for (const header of [
      { alg: 'HS256', typ: 'JWT' },
      { alg: 'HS256' },
      { alg: 'HS256', typ: 'at+jwt+x' },
    ]) {
      expect(await codeOf(verifier.verify(await hsToken(CLAIMS, header)))).toBe('invalid-typ');
    }
    expect(await codeOf(hsVerifier({ typ: 'application/JWT' }).verify(await hsToken()))).toBe('ok');
    expect(await codeOf(hsVerifier().verify(await hsToken(CLAIMS, { alg: 'HS256', typ: 'anything' })))).toBe(
      'ok',
    );
  });
});

describe('createJwtVerifier: claims', () => {
  test('expired, not-before, issued-in-future, missing-exp and invalid-* come from the claims', async () => {
    const cases: Array<[object, JwtErrorCode]> = [
      [{ exp: NOW }, 'expired'],
      [{ exp: NOW + 60, nbf: NOW + 1 }, 'not-before'],
      [{ exp: NOW + 60, iat: NOW + 1 }, 'issued-in-future'],
      [{ sub: 'u1' }, 'missing-exp'],
      [{ exp: String(NOW + 60) }, 'invalid-exp'],
      [{ exp: NOW + 60, nbf: null }, 'invalid-nbf'],
      [{ exp: NOW + 60, iat: 'now' }, 'invalid-iat'],
    ];
    for (const [payload, code] of cases)
      expect(await codeOf(hsVerifier().verify(await hsToken(payload)))).toBe(code);
  });

  test('requireExp: false accepts a token without exp', async () => {
    expect(await codeOf(hsVerifier({ requireExp: false }).verify(await hsToken({ sub: 'u1' })))).toBe('ok');
  });

  test('clockSkewSeconds widens every time check', async () => {
    const verifier = hsVerifier({ clockSkewSeconds: 30 });
    expect(await codeOf(verifier.verify(await hsToken({ exp: NOW - 29 })))).toBe('ok');
    expect(await codeOf(verifier.verify(await hsToken({ exp: NOW - 30 })))).toBe('expired');
    expect(await codeOf(verifier.verify(await hsToken({ exp: NOW + 60, nbf: NOW + 30 })))).toBe('ok');
    expect(await codeOf(verifier.verify(await hsToken({ exp: NOW + 60, nbf: NOW + 31 })))).toBe('not-before');
    expect(await codeOf(verifier.verify(await hsToken({ exp: NOW + 60, iat: NOW + 30 })))).toBe('ok');
    expect(await codeOf(verifier.verify(await hsToken({ exp: NOW + 60, iat: NOW + 31 })))).toBe(
      'issued-in-future',
    );
  });

  test('lifetime-too-long: 30 days accepted, 30 days and 1 second refused, Infinity disables', async () => {
    const thirty = await hsToken({ iat: NOW, exp: NOW + 2592000 });
    const over = await hsToken({ iat: NOW, exp: NOW + 2592001 });
    expect(await codeOf(hsVerifier().verify(thirty))).toBe('ok');
    expect(await codeOf(hsVerifier().verify(over))).toBe('lifetime-too-long');
    expect(await codeOf(hsVerifier({ maxLifetimeSeconds: Infinity }).verify(over))).toBe('ok');
    expect(
      await codeOf(hsVerifier({ maxLifetimeSeconds: 3600 }).verify(await hsToken({ exp: NOW + 3601 }))),
    ).toBe('lifetime-too-long');
  });

  test('uses the clock when no now is given', async () => {
    const token = await createJwtSigner({ algorithm: 'HS256', key: keys.HS256.privateJwk }).sign({});
    const verifier = createJwtVerifier({ algorithms: ['HS256'], key: keys.HS256.publicJwk });
    expect(await codeOf(verifier.verify(token))).toBe('ok');
    expect(await codeOf(verifier.verify(token, { now: () => Date.now() / 1000 + 901 }))).toBe('expired');
  });

  test('invalid-issuer: iss must be one of the accepted issuers', async () => {
    const verifier = hsVerifier({ issuer: ['https://a.example', 'https://b.example'] });
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, iss: 'https://b.example' })))).toBe('ok');
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, iss: 'https://c.example' })))).toBe(
      'invalid-issuer',
    );
    expect(await codeOf(verifier.verify(await hsToken(CLAIMS)))).toBe('invalid-issuer');
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, iss: ['https://a.example'] })))).toBe(
      'invalid-issuer',
    );
    expect(await codeOf(hsVerifier().verify(await hsToken({ ...CLAIMS, iss: 'anyone' })))).toBe('ok');
    expect(await codeOf(hsVerifier().verify(await hsToken({ ...CLAIMS, iss: 42 })))).toBe('invalid-issuer');
  });

  test('invalid-audience: aud (string or array) must contain one accepted audience', async () => {
    const verifier = hsVerifier({ audience: 'api' });
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, aud: 'api' })))).toBe('ok');
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, aud: ['other', 'api'] })))).toBe('ok');
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, aud: 'other' })))).toBe(
      'invalid-audience',
    );
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, aud: [] })))).toBe('invalid-audience');
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, aud: ['api', 1] })))).toBe(
      'invalid-audience',
    );
    expect(await codeOf(verifier.verify(await hsToken(CLAIMS)))).toBe('invalid-audience');
    const either = hsVerifier({ audience: ['api', 'admin'] });
    expect(await codeOf(either.verify(await hsToken({ ...CLAIMS, aud: 'admin' })))).toBe('ok');
  });

  test('invalid-audience: a token carrying aud is refused by a verifier with no audience (RFC 7519 §4.1.3)', async () => {
    expect(await codeOf(hsVerifier().verify(await hsToken({ ...CLAIMS, aud: 'api' })))).toBe(
      'invalid-audience',
    );
    expect(await codeOf(hsVerifier().verify(await hsToken(CLAIMS)))).toBe('ok');
  });

  test('per-call overrides replace issuer, audience and clock', async () => {
    const verifier = hsVerifier({ issuer: 'a', audience: 'x' });
    const token = await hsToken({ ...CLAIMS, iss: 'b', aud: 'y' });
    expect(await codeOf(verifier.verify(token))).toBe('invalid-issuer');
    expect(await codeOf(verifier.verify(token, { issuer: 'b' }))).toBe('invalid-audience');
    expect(await codeOf(verifier.verify(token, { issuer: 'b', audience: ['y'] }))).toBe('ok');
    expect(await codeOf(verifier.verify(token, { issuer: 'b', audience: 'y', now: () => NOW + 600 }))).toBe(
      'expired',
    );
    expect(await codeOf(verifier.verify(token, { issuer: '' }))).toBe('invalid-options');
    expect(await codeOf(verifier.verify(token, { now: 'later' as never }))).toBe('invalid-options');
  });
});

describe('createJwtVerifier: options', () => {
  test('invalid-options: refuses bad options at construction, naming the option', () => {
    const key = keys.HS256.publicJwk;
    const bad: Array<[Partial<JwtVerifierOptions>, RegExp]> = [
      [{ algorithms: [] }, /algorithms/],
      [{ algorithms: undefined as never }, /algorithms/],
      [{ algorithms: ['HS256', 'HS256'] }, /algorithms/],
      [{ algorithms: ['HS256', 'none' as never] }, /none/],
      [{ algorithms: ['NONE' as never] }, /none/],
      [{ algorithms: ['HS999' as never] }, /algorithms/],
      [{ key: undefined as never }, /key/],
      [{ key: 'secret' as never }, /key/],
      [{ clockSkewSeconds: -1 }, /clockSkewSeconds/],
      [{ clockSkewSeconds: Infinity }, /clockSkewSeconds/],
      [{ maxLifetimeSeconds: 0 }, /maxLifetimeSeconds/],
      [{ maxLifetimeSeconds: Number.NaN }, /maxLifetimeSeconds/],
      [{ requireExp: 1 as never }, /requireExp/],
      [{ typ: '' }, /typ/],
      [{ issuer: [] }, /issuer/],
      [{ audience: [''] }, /audience/],
      [{ criticalHeaders: 'x' as never }, /criticalHeaders/],
      [{ maxTokenLength: 0 }, /maxTokenLength/],
      [{ maxTokenLength: 1.5 }, /maxTokenLength/],
      [{ now: Date.now() as never }, /now/],
    ];
    for (const [opts, message] of bad) {
      const create = () => createJwtVerifier({ algorithms: ['HS256'], key, ...opts });
      expect(create).toThrow(message);
      expect(create).toThrow(expect.objectContaining({ code: 'invalid-options' }));
    }
    expect(() => createJwtVerifier(null as never)).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
  });

  test('accepts a verifier with every option set', async () => {
    const verifier = createJwtVerifier({
      algorithms: ['HS256'],
      key: keys.HS256.publicJwk,
      issuer: 'i',
      audience: ['a'],
      clockSkewSeconds: 5,
      maxLifetimeSeconds: 3600,
      requireExp: true,
      typ: 'JWT',
      criticalHeaders: ['x-a'],
      maxTokenLength: 4096,
      now,
    });
    expect(await codeOf(verifier.verify(await hsToken({ ...CLAIMS, iss: 'i', aud: 'a' })))).toBe('ok');
  });
});
