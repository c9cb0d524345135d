// The JWS algorithms this module implements (RFC 7518 §3.1, RFC 8037 §3.1) and how each maps onto
// WebCrypto. `none` (RFC 7518 §3.6) is deliberately absent: it cannot be named anywhere.

/** A JWS algorithm this module signs and verifies. */
export type JwtAlgorithm =
  | 'HS256'
  | 'HS384'
  | 'HS512'
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'EdDSA';

/** Every supported algorithm, in a stable order. */
export const JWT_ALGORITHMS: readonly JwtAlgorithm[] = Object.freeze([
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const);

/** The WebCrypto algorithm family behind a JWS algorithm. */
export type JwtKeyFamily = 'HMAC' | 'RSASSA-PKCS1-v1_5' | 'RSA-PSS' | 'ECDSA' | 'Ed25519';

/** How one JWS algorithm is carried out with WebCrypto. */
export interface AlgorithmSpec {
  readonly alg: JwtAlgorithm;
  readonly family: JwtKeyFamily;
  /** JWK key type (RFC 7518 §6.1, RFC 8037 §2). */
  readonly kty: 'oct' | 'RSA' | 'EC' | 'OKP';
  /** WebCrypto hash name; Ed25519 hashes internally (SHA-512) and takes none. */
  readonly hash: 'SHA-256' | 'SHA-384' | 'SHA-512' | undefined;
  /** Hash output size in bytes: the least HMAC key size (RFC 7518 §3.2) and the PSS salt length (§3.5). */
  readonly hashBytes: number;
  /** JWK `crv` / WebCrypto `namedCurve` for EC and OKP keys. */
  readonly curve: 'P-256' | 'P-384' | 'P-521' | 'Ed25519' | undefined;
  /** Exact signature size when fixed by the algorithm (R||S for ECDSA, RFC 7518 §3.4; RFC 8032 §5.1.6). */
  readonly signatureBytes: number | undefined;
}

function spec(
  alg: JwtAlgorithm,
  family: JwtKeyFamily,
  kty: AlgorithmSpec['kty'],
  bits: 256 | 384 | 512,
  curve?: AlgorithmSpec['curve'],
  signatureBytes?: number,
): AlgorithmSpec {
  const hash = family === 'Ed25519' ? undefined : (`SHA-${bits}` as const);
  return Object.freeze({ alg, family, kty, hash, hashBytes: bits / 8, curve, signatureBytes });
}

const SPECS: Readonly<Record<JwtAlgorithm, AlgorithmSpec>> = Object.freeze({
  HS256: spec('HS256', 'HMAC', 'oct', 256),
  HS384: spec('HS384', 'HMAC', 'oct', 384),
  HS512: spec('HS512', 'HMAC', 'oct', 512),
  RS256: spec('RS256', 'RSASSA-PKCS1-v1_5', 'RSA', 256),
  RS384: spec('RS384', 'RSASSA-PKCS1-v1_5', 'RSA', 384),
  RS512: spec('RS512', 'RSASSA-PKCS1-v1_5', 'RSA', 512),
  PS256: spec('PS256', 'RSA-PSS', 'RSA', 256),
  PS384: spec('PS384', 'RSA-PSS', 'RSA', 384),
  PS512: spec('PS512', 'RSA-PSS', 'RSA', 512),
  // ECDSA signatures are two integers the size of the curve order, concatenated.
  ES256: spec('ES256', 'ECDSA', 'EC', 256, 'P-256', 64),
  ES384: spec('ES384', 'ECDSA', 'EC', 384, 'P-384', 96),
  ES512: spec('ES512', 'ECDSA', 'EC', 512, 'P-521', 132),
  // Only the Ed25519 curve of EdDSA (RFC 8037 §3.1); Ed448 is not in WebCrypto.
  EdDSA: spec('EdDSA', 'Ed25519', 'OKP', 512, 'Ed25519', 64),
});

/** The least RSA modulus accepted, in bits (RFC 7518 §3.3, §3.5: 2048 or larger MUST be used). */
export const MIN_RSA_MODULUS_BITS = 2048;

/** True when `value` names a supported algorithm (case-sensitive, RFC 7515 §4.1.1). */
export function isJwtAlgorithm(value: unknown): value is JwtAlgorithm {
  return typeof value === 'string' && Object.hasOwn(SPECS, value);
}

/** True for `none` in any letter case: refused everywhere, with its own error code. */
export function isNoneAlgorithm(value: unknown): boolean {
  return typeof value === 'string' && value.toLowerCase() === 'none';
}

/** The WebCrypto mapping of a supported algorithm. */
export function algorithmSpec(alg: JwtAlgorithm): AlgorithmSpec {
  return SPECS[alg];
}

/**
 * A WebCrypto algorithm argument as these functions build it. Spelled out here rather than with the
 * DOM lib's `RsaHashedImportParams`, `EcdsaParams`... so the published declarations type-check in a
 * project with only Node's or Bun's types; it is assignable to what `crypto.subtle` accepts.
 */
export interface WebCryptoAlgorithm {
  readonly name: string;
  readonly hash?: string;
  readonly namedCurve?: string;
  readonly saltLength?: number;
}

/** The `algorithm` argument of `crypto.subtle.importKey` for keys of this JWS algorithm. */
export function importParams(spec: AlgorithmSpec): WebCryptoAlgorithm {
  switch (spec.family) {
    case 'HMAC':
    case 'RSASSA-PKCS1-v1_5':
    case 'RSA-PSS':
      return { name: spec.family, hash: spec.hash as string };
    case 'ECDSA':
      return { name: 'ECDSA', namedCurve: spec.curve as string };
    case 'Ed25519':
      return { name: 'Ed25519' };
  }
}

/** The `algorithm` argument of `crypto.subtle.sign` / `verify`. */
export function signParams(spec: AlgorithmSpec): WebCryptoAlgorithm {
  switch (spec.family) {
    case 'HMAC':
    case 'RSASSA-PKCS1-v1_5':
    case 'Ed25519':
      return { name: spec.family };
    case 'RSA-PSS':
      // RFC 7518 §3.5: the salt is as long as the hash output.
      return { name: 'RSA-PSS', saltLength: spec.hashBytes };
    case 'ECDSA':
      return { name: 'ECDSA', hash: spec.hash as string };
  }
}
