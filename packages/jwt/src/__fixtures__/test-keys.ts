// Test support only (never exported by the barrel): key pairs for every algorithm, generated once
// per test file, and a raw token builder that signs arbitrary headers and payloads so the tests can
// forge what the signer refuses to make.
import { algorithmSpec, JWT_ALGORITHMS, type JwtAlgorithm, signParams } from '../algorithms.ts';
import { encodeBase64Url, encodeBase64UrlText } from '../base64url.ts';

/** The keys of one algorithm, as CryptoKeys and as JWKs. */
export interface TestKeys {
  readonly alg: JwtAlgorithm;
  /** Private key (or HMAC secret) as a JWK. */
  readonly privateJwk: JsonWebKey;
  /** Public key (or HMAC secret) as a JWK. */
  readonly publicJwk: JsonWebKey;
  /** The CryptoKey that signs with `alg`. */
  readonly signKey: CryptoKey;
  /** The CryptoKey that verifies `alg`. */
  readonly verifyKey: CryptoKey;
}

const RSA_EXPONENT = new Uint8Array([1, 0, 1]);

function generationParams(
  alg: JwtAlgorithm,
): RsaHashedKeyGenParams | EcKeyGenParams | HmacKeyGenParams | Algorithm {
  const spec = algorithmSpec(alg);
  switch (spec.family) {
    case 'HMAC':
      return { name: 'HMAC', hash: spec.hash as string, length: spec.hashBytes * 8 };
    case 'RSASSA-PKCS1-v1_5':
    case 'RSA-PSS':
      return {
        name: spec.family,
        hash: spec.hash as string,
        modulusLength: 2048,
        publicExponent: RSA_EXPONENT,
      };
    case 'ECDSA':
      return { name: 'ECDSA', namedCurve: spec.curve as string };
    case 'Ed25519':
      return { name: 'Ed25519' };
  }
}

/**
 * Keys for every algorithm. One RSA modulus serves RS* and PS* (the JWK is re-imported per hash),
 * so a file pays for one RSA generation.
 */
export async function generateTestKeys(): Promise<Record<JwtAlgorithm, TestKeys>> {
  const rsa = (await crypto.subtle.generateKey(generationParams('RS256') as RsaHashedKeyGenParams, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const rsaPrivate = await crypto.subtle.exportKey('jwk', rsa.privateKey);
  const rsaPublic = await crypto.subtle.exportKey('jwk', rsa.publicKey);
  const entries = await Promise.all(
    JWT_ALGORITHMS.map(async (alg): Promise<[JwtAlgorithm, TestKeys]> => {
      const spec = algorithmSpec(alg);
      const params = generationParams(alg);
      if (spec.family === 'HMAC') {
        const secret = (await crypto.subtle.generateKey(params as HmacKeyGenParams, true, [
          'sign',
          'verify',
        ])) as CryptoKey;
        const jwk = await crypto.subtle.exportKey('jwk', secret);
        return [alg, { alg, privateJwk: jwk, publicJwk: jwk, signKey: secret, verifyKey: secret }];
      }
      if (spec.kty === 'RSA') {
        const strip = ({ alg: _alg, key_ops: _ops, ext: _ext, ...rest }: JsonWebKey): JsonWebKey => rest;
        const privateJwk = strip(rsaPrivate);
        const publicJwk = strip(rsaPublic);
        const signKey = await crypto.subtle.importKey('jwk', privateJwk, params, true, ['sign']);
        const verifyKey = await crypto.subtle.importKey('jwk', publicJwk, params, true, ['verify']);
        return [alg, { alg, privateJwk, publicJwk, signKey, verifyKey }];
      }
      const pair = (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair;
      return [
        alg,
        {
          alg,
          privateJwk: await crypto.subtle.exportKey('jwk', pair.privateKey),
          publicJwk: await crypto.subtle.exportKey('jwk', pair.publicKey),
          signKey: pair.privateKey,
          verifyKey: pair.publicKey,
        },
      ];
    }),
  );
  return Object.fromEntries(entries) as Record<JwtAlgorithm, TestKeys>;
}

/** Encodes a header or payload part: objects as JSON, strings as given (for malformed JSON). */
export function encodePart(part: object | string): string {
  return encodeBase64UrlText(typeof part === 'string' ? part : JSON.stringify(part));
}

/** Signs `header`.`payload` as given (nothing checked) with `key` under `alg`. */
export async function forgeToken(
  header: object | string,
  payload: object | string,
  alg: JwtAlgorithm,
  key: CryptoKey,
): Promise<string> {
  const input = `${encodePart(header)}.${encodePart(payload)}`;
  const signature = await crypto.subtle.sign(
    signParams(algorithmSpec(alg)),
    key,
    new TextEncoder().encode(input),
  );
  return `${input}.${encodeBase64Url(new Uint8Array(signature))}`;
}

/** An HMAC key for HS256 made from arbitrary bytes (the alg-confusion attacker's "secret"). */
export function hmacKeyFromBytes(
  bytes: Uint8Array,
  alg: 'HS256' | 'HS384' | 'HS512' = 'HS256',
): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    new Uint8Array(bytes),
    { name: 'HMAC', hash: algorithmSpec(alg).hash as string },
    false,
    ['sign'],
  );
}
