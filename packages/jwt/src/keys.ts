// Key material for JWS: CryptoKey, raw HMAC secret bytes, or a JSON Web Key (RFC 7517), checked
// against the algorithm before WebCrypto sees it, then imported once and cached per input object.
//
// Each key serves one algorithm family (RFC 8725 §3.1): bytes are only ever an HMAC secret, so an
// RSA public key can never be turned into an HS256 secret (algorithm confusion, RFC 8725 §2.1).
import {
  type AlgorithmSpec,
  algorithmSpec,
  importParams,
  isJwtAlgorithm,
  type JwtAlgorithm,
  MIN_RSA_MODULUS_BITS,
} from './algorithms.ts';
import { decodeBase64Url } from './base64url.ts';
import type { Jwk } from './types.ts';
import { JwtError, type JwtErrorCode } from './errors.ts';

/** Key material: a CryptoKey, raw HMAC secret bytes, or a JSON Web Key. */
export type JwtKeyInput = CryptoKey | Uint8Array | Jwk;

/** What the key will do. */
export type JwtKeyUsage = 'sign' | 'verify';

/**
 * Why a key cannot serve an algorithm: `mismatch` when it belongs to another algorithm (type,
 * curve, hash, JWK `alg`/`use`), `invalid` when the material itself is unusable (too weak,
 * incomplete, wrong usages).
 */
export interface KeyProblem {
  readonly kind: 'mismatch' | 'invalid';
  readonly message: string;
}

const mismatch = (message: string): KeyProblem => ({ kind: 'mismatch', message });
const invalid = (message: string): KeyProblem => ({ kind: 'invalid', message });

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof CryptoKey === 'function' && value instanceof CryptoKey;
}

function isJwkObject(value: unknown): value is Jwk {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    typeof (value as { kty?: unknown }).kty === 'string'
  );
}

/** True when `value` has the shape of a `JwtKeyInput` (not whether it fits any algorithm). */
export function isJwtKeyInput(value: unknown): value is JwtKeyInput {
  return isCryptoKey(value) || value instanceof Uint8Array || isJwkObject(value);
}

function hashName(algorithm: KeyAlgorithm): string | undefined {
  const hash = (algorithm as { hash?: { name?: unknown } }).hash;
  return typeof hash?.name === 'string' ? hash.name : undefined;
}

function cryptoKeyProblem(key: CryptoKey, spec: AlgorithmSpec, usage: JwtKeyUsage): KeyProblem | undefined {
  const algorithm = key.algorithm;
  if (algorithm.name !== spec.family) {
    return mismatch(`a ${algorithm.name} CryptoKey cannot be used with ${spec.alg} (needs ${spec.family})`);
  }
  // WebCrypto binds HMAC and RSA keys to one hash at import time.
  if (spec.hash !== undefined && spec.family !== 'ECDSA' && hashName(algorithm) !== spec.hash) {
    return mismatch(`the CryptoKey is bound to ${hashName(algorithm)}, but ${spec.alg} uses ${spec.hash}`);
  }
  if (spec.family === 'ECDSA' && (algorithm as EcKeyAlgorithm).namedCurve !== spec.curve) {
    return mismatch(
      `the CryptoKey is on curve ${(algorithm as EcKeyAlgorithm).namedCurve}, but ${spec.alg} uses ${spec.curve}`,
    );
  }
  if (spec.family === 'HMAC' && (algorithm as HmacKeyAlgorithm).length < spec.hashBytes * 8) {
    return invalid(`an ${spec.alg} key must be at least ${spec.hashBytes * 8} bits (RFC 7518 §3.2)`);
  }
  if (spec.kty === 'RSA' && (algorithm as RsaHashedKeyAlgorithm).modulusLength < MIN_RSA_MODULUS_BITS) {
    return invalid(`an RSA key must be at least ${MIN_RSA_MODULUS_BITS} bits (RFC 7518 §3.3)`);
  }
  if (usage === 'sign' && key.type === 'public') return invalid('a public key cannot sign');
  // A private key can verify only through its public half, which needs an extractable key.
  if (usage === 'verify' && key.type === 'private') {
    return key.extractable
      ? undefined
      : invalid('a non-extractable private CryptoKey cannot verify; pass the public key');
  }
  if (!key.usages.includes(usage)) return invalid(`the CryptoKey's usages do not include "${usage}"`);
  return undefined;
}

function modulusBits(n: string): number {
  const bytes = decodeBase64Url(n);
  if (bytes === undefined) return 0;
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  if (start === bytes.length) return 0;
  return (bytes.length - start - 1) * 8 + (32 - Math.clz32(bytes[start] as number));
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function jwkProblem(jwk: Jwk, spec: AlgorithmSpec, usage: JwtKeyUsage): KeyProblem | undefined {
  if (jwk.kty !== spec.kty) return mismatch(`a JWK of kty "${jwk.kty}" cannot be used with ${spec.alg}`);
  // RFC 7517 §4.2 and §4.4: a key published for encryption, or for another algorithm, is not ours.
  if (jwk.use !== undefined && jwk.use !== 'sig') return mismatch(`the JWK's use is "${jwk.use}", not "sig"`);
  // RFC 9864 names the Ed25519 flavour of EdDSA "Ed25519"; WebCrypto exports it that way.
  const algOk =
    jwk.alg === undefined || jwk.alg === spec.alg || (spec.alg === 'EdDSA' && jwk.alg === 'Ed25519');
  if (!algOk) return mismatch(`the JWK is for ${jwk.alg}, not ${spec.alg}`);
  if (spec.curve !== undefined && jwk.crv !== spec.curve) {
    return mismatch(`the JWK is on curve ${jwk.crv}, but ${spec.alg} uses ${spec.curve}`);
  }
  const isPrivate = jwk.d !== undefined;
  if (jwk.key_ops !== undefined) {
    // A private JWK given for verification is used through its public half, which may verify.
    const allowed =
      Array.isArray(jwk.key_ops) &&
      (jwk.key_ops.includes(usage) || (usage === 'verify' && isPrivate && jwk.key_ops.includes('sign')));
    if (!allowed) return invalid(`the JWK's key_ops do not include "${usage}"`);
  }
  switch (spec.kty) {
    case 'oct': {
      const secret = isText(jwk.k) ? decodeBase64Url(jwk.k) : undefined;
      if (secret === undefined) return invalid('an oct JWK needs "k" in base64url');
      if (secret.length < spec.hashBytes) {
        return invalid(`an ${spec.alg} key must be at least ${spec.hashBytes * 8} bits (RFC 7518 §3.2)`);
      }
      return undefined;
    }
    case 'RSA':
      if (!isText(jwk.n) || !isText(jwk.e)) return invalid('an RSA JWK needs "n" and "e"');
      if (modulusBits(jwk.n) < MIN_RSA_MODULUS_BITS) {
        return invalid(`an RSA key must be at least ${MIN_RSA_MODULUS_BITS} bits (RFC 7518 §3.3)`);
      }
      if ((jwk as { oth?: unknown }).oth !== undefined) {
        return invalid('multi-prime RSA keys ("oth") are not supported');
      }
      break;
    case 'EC':
      if (!isText(jwk.x) || !isText(jwk.y)) return invalid('an EC JWK needs "x" and "y"');
      break;
    case 'OKP':
      if (!isText(jwk.x)) return invalid('an OKP JWK needs "x"');
      break;
  }
  if (usage === 'sign' && !isText(jwk.d)) {
    return invalid('a public JWK cannot sign; the private member "d" is missing');
  }
  return undefined;
}

/**
 * Checks, without WebCrypto, that `input` can serve `algorithm` for `usage`; `undefined` when it
 * can. WebCrypto may still refuse the material on import (a point off the curve, for example).
 */
export function keyProblem(
  input: unknown,
  algorithm: JwtAlgorithm,
  usage: JwtKeyUsage,
): KeyProblem | undefined {
  const spec = algorithmSpec(algorithm);
  if (isCryptoKey(input)) return cryptoKeyProblem(input, spec, usage);
  if (input instanceof Uint8Array) {
    if (spec.family !== 'HMAC') {
      return mismatch(
        `raw bytes are an HMAC secret and cannot be used with ${algorithm}; pass a JWK or CryptoKey`,
      );
    }
    if (input.length < spec.hashBytes) {
      return invalid(`an ${algorithm} secret must be at least ${spec.hashBytes} bytes (RFC 7518 §3.2)`);
    }
    return undefined;
  }
  if (isJwkObject(input)) return jwkProblem(input, spec, usage);
  return invalid('the key must be a CryptoKey, a Uint8Array (HMAC secret) or a JSON Web Key object');
}

// The members WebCrypto needs, and nothing else: no `alg`, `use`, `key_ops` or `ext` to disagree
// with the import parameters, and no private members when only verifying.
const PUBLIC_MEMBERS: Readonly<Record<AlgorithmSpec['kty'], readonly string[]>> = {
  oct: ['k'],
  RSA: ['n', 'e'],
  EC: ['crv', 'x', 'y'],
  OKP: ['crv', 'x'],
};
const PRIVATE_MEMBERS: Readonly<Record<AlgorithmSpec['kty'], readonly string[]>> = {
  oct: [],
  RSA: ['d', 'p', 'q', 'dp', 'dq', 'qi'],
  EC: ['d'],
  OKP: ['d'],
};

function importableJwk(jwk: Jwk, spec: AlgorithmSpec, usage: JwtKeyUsage): JsonWebKey {
  const out: Record<string, unknown> = { kty: spec.kty };
  const names =
    usage === 'sign' ? [...PUBLIC_MEMBERS[spec.kty], ...PRIVATE_MEMBERS[spec.kty]] : PUBLIC_MEMBERS[spec.kty];
  for (const name of names) {
    const value = (jwk as Record<string, unknown>)[name];
    if (value !== undefined) out[name] = value;
  }
  return out as JsonWebKey;
}

async function importFresh(input: JwtKeyInput, spec: AlgorithmSpec, usage: JwtKeyUsage): Promise<CryptoKey> {
  const params = importParams(spec);
  try {
    if (isCryptoKey(input)) {
      if (usage === 'sign' || input.type !== 'private') return input;
      // Verification with an extractable private key: use its public half only.
      const jwk = await crypto.subtle.exportKey('jwk', input);
      return await crypto.subtle.importKey('jwk', importableJwk(jwk, spec, 'verify'), params, false, [
        'verify',
      ]);
    }
    if (input instanceof Uint8Array) {
      // A copy: WebCrypto wants an ArrayBuffer-backed view, and later changes to the caller's array must not leak in.
      return await crypto.subtle.importKey('raw', new Uint8Array(input), params, false, [usage]);
    }
    return await crypto.subtle.importKey('jwk', importableJwk(input, spec, usage), params, false, [usage]);
  } catch (error) {
    throw new JwtError('invalid-key', `The key could not be imported for ${spec.alg}`, { cause: error });
  }
}

// Imported keys per input object, then per "alg:usage": a verifier does not re-import per token.
// Only successful imports stay; a key mutated after first use is not noticed (documented).
const cache = new WeakMap<object, Map<string, Promise<CryptoKey>>>();

/**
 * Imports (or reuses) the key for one algorithm and usage; a key that belongs to another algorithm
 * throws `mismatchCode`, unusable material throws `invalid-key`.
 */
export function importKeyFor(
  input: JwtKeyInput,
  algorithm: JwtAlgorithm,
  usage: JwtKeyUsage,
  mismatchCode: JwtErrorCode,
): Promise<CryptoKey> {
  const slot = `${algorithm}:${usage}`;
  const cached = cache.get(input)?.get(slot);
  if (cached !== undefined) return cached;
  const problem = keyProblem(input, algorithm, usage);
  if (problem !== undefined) {
    return Promise.reject(
      new JwtError(
        problem.kind === 'mismatch' ? mismatchCode : 'invalid-key',
        `Key refused: ${problem.message}`,
      ),
    );
  }
  const pending = importFresh(input, algorithmSpec(algorithm), usage);
  let slots = cache.get(input);
  if (slots === undefined) {
    slots = new Map();
    cache.set(input, slots);
  }
  slots.set(slot, pending);
  pending.catch(() => slots.delete(slot));
  return pending;
}

/**
 * Imports key material for one algorithm and usage, checking it fits first: HMAC secrets at least
 * the hash size (RFC 7518 §3.2), RSA moduli of 2048 bits or more, the curve of the algorithm,
 * Ed25519 for EdDSA. A private key given for `verify` is reduced to its public half. Throws
 * `JwtError` `invalid-key` for anything unusable.
 */
export function importJwtKey(
  input: JwtKeyInput,
  algorithm: JwtAlgorithm,
  usage: JwtKeyUsage,
): Promise<CryptoKey> {
  if (!isJwtAlgorithm(algorithm)) {
    return Promise.reject(
      new JwtError('invalid-options', `Unknown JWT algorithm ${JSON.stringify(String(algorithm))}`),
    );
  }
  if (usage !== 'sign' && usage !== 'verify') {
    return Promise.reject(new JwtError('invalid-options', 'usage must be "sign" or "verify"'));
  }
  return importKeyFor(input, algorithm, usage, 'invalid-key');
}
