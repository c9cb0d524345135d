/**
 * JWK sets (RFC 7517 §5): parsing a set into the public keys it can offer for JWS verification. Keys
 * that are not understood are ignored, as §5 asks; a set that publishes private key material is refused.
 */
import type { Jwk } from '@charter/jwt';
import type { JwkAlgorithm } from './options.ts';

export type { Jwk };

/** A JWK set (RFC 7517 §5): `{ keys: [...] }`. */
export interface JwkSet {
  readonly keys: readonly Jwk[];
}

/** One usable public key of a set. */
export interface ParsedJwk {
  /** Position in the set (stable for one set version). */
  readonly index: number;
  readonly kid: string | undefined;
  readonly kty: 'RSA' | 'EC' | 'OKP';
  /** Only the public members, ready for `importJwtKey`. */
  readonly jwk: Readonly<Jwk>;
  /** Whether this key may verify a token signed with `alg` (key type, curve, `alg`, `use`, `key_ops`). */
  fits(alg: string): boolean;
}

/**
 * A parsed set: its usable keys and every `kid` it names. Each version of a set has its own frozen
 * `jwk` objects, and `@charter/jwt` caches imported CryptoKeys per key object: so imports are cached
 * per set version and dropped with it.
 */
export interface ParsedJwkSet {
  readonly keys: readonly ParsedJwk[];
  /** Every `kid` in the set, usable key or not: an unknown kid is one outside this list. */
  readonly kids: ReadonlySet<string>;
}

/** More keys than this in one set is refused as malformed (real sets hold a handful). */
export const MAX_JWKS_KEYS = 100;

// Private members of RSA (RFC 7518 §6.3.2) and EC/OKP (§6.2.2, RFC 8037 §2) keys: a public set holding
// them has leaked its signing keys, so anyone could forge tokens it would verify.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'] as const;

// The key type and curve each algorithm needs (RFC 7518 §3.3-§3.5, §6.2.1.1; RFC 8037 §3.1).
const KEY_TYPE_OF: Readonly<Record<JwkAlgorithm, { kty: 'RSA' | 'EC' | 'OKP'; crv?: string }>> = {
  RS256: { kty: 'RSA' },
  RS384: { kty: 'RSA' },
  RS512: { kty: 'RSA' },
  PS256: { kty: 'RSA' },
  PS384: { kty: 'RSA' },
  PS512: { kty: 'RSA' },
  ES256: { kty: 'EC', crv: 'P-256' },
  ES384: { kty: 'EC', crv: 'P-384' },
  ES512: { kty: 'EC', crv: 'P-521' },
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
};

/** Thrown for a value that is not an acceptable JWK set. */
export class JwkSetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwkSetError';
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The public members of a key, or undefined when a required one is missing (the key is ignored). */
function publicMembers(key: Record<string, unknown>): Jwk | undefined {
  switch (key.kty) {
    case 'RSA':
      return isText(key.n) && isText(key.e) ? { kty: 'RSA', n: key.n, e: key.e } : undefined;
    case 'EC':
      return isText(key.crv) && isText(key.x) && isText(key.y)
        ? { kty: 'EC', crv: key.crv, x: key.x, y: key.y }
        : undefined;
    case 'OKP':
      return isText(key.crv) && isText(key.x) ? { kty: 'OKP', crv: key.crv, x: key.x } : undefined;
    default:
      // `oct` keys are symmetric secrets and never verify here; other types are not understood (§5).
      return undefined;
  }
}

function parseKey(key: Record<string, unknown>, index: number): ParsedJwk | undefined {
  const kid = key.kid;
  if (kid !== undefined && typeof kid !== 'string') return undefined;
  const { use, alg } = key;
  const ops = key.key_ops;
  if (use !== undefined && typeof use !== 'string') return undefined;
  if (alg !== undefined && typeof alg !== 'string') return undefined;
  if (ops !== undefined && (!Array.isArray(ops) || ops.some((op) => typeof op !== 'string')))
    return undefined;
  // RFC 7517 §4.2 / §4.3: a key meant for encryption, or whose operations exclude verification, never verifies.
  if (use !== undefined && use !== 'sig') return undefined;
  if (ops !== undefined && !(ops as string[]).includes('verify')) return undefined;
  const jwk = publicMembers(key);
  if (jwk === undefined) return undefined;
  const kty = jwk.kty as ParsedJwk['kty'];
  const fits = (tokenAlg: string): boolean => {
    // RFC 7517 §4.4: a key that names its algorithm is used with that algorithm only. RFC 9864 names the
    // Ed25519 flavour of EdDSA "Ed25519", and WebCrypto exports Ed25519 keys with that alg.
    const sameAlg = alg === tokenAlg || (alg === 'Ed25519' && tokenAlg === 'EdDSA');
    if (alg !== undefined && !sameAlg) return false;
    const needs = (KEY_TYPE_OF as Record<string, { kty: string; crv?: string }>)[tokenAlg];
    return needs !== undefined && needs.kty === kty && (needs.crv === undefined || needs.crv === jwk.crv);
  };
  return Object.freeze({ index, kid, kty, jwk: Object.freeze(jwk), fits });
}

/**
 * Parses a JWK set. Throws JwkSetError when the value is not a set (`keys` is not an array), holds
 * more than MAX_JWKS_KEYS keys, or publishes private key members; ignores keys it cannot use.
 */
export function parseJwkSet(value: unknown): ParsedJwkSet {
  if (!isObject(value) || !Array.isArray(value.keys)) {
    throw new JwkSetError('a JWK set is an object with a "keys" array (RFC 7517 §5)');
  }
  const entries = value.keys as unknown[];
  if (entries.length > MAX_JWKS_KEYS) {
    throw new JwkSetError(`the JWK set has ${entries.length} keys, more than ${MAX_JWKS_KEYS}`);
  }
  const keys: ParsedJwk[] = [];
  const kids = new Set<string>();
  entries.forEach((entry, index) => {
    if (!isObject(entry)) return;
    for (const member of PRIVATE_MEMBERS) {
      if (Object.hasOwn(entry, member)) {
        throw new JwkSetError(
          `key #${index} of the JWK set has the private member "${member}": publish public keys only`,
        );
      }
    }
    if (typeof entry.kid === 'string') kids.add(entry.kid);
    const key = parseKey(entry, index);
    if (key !== undefined) keys.push(key);
  });
  return Object.freeze({ keys: Object.freeze(keys), kids });
}

/** Whether a value looks like a JWK set (an object with a `keys` array) rather than a single JWK. */
export function isJwkSetShape(value: unknown): value is JwkSet {
  return isObject(value) && Array.isArray(value.keys);
}
