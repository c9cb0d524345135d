// Signed values: `<value>.<mac>`, the mac an HMAC-SHA-256 (RFC 2104, FIPS 180-4) of the value's UTF-8
// bytes, base64url without padding (RFC 4648 §5), computed with WebCrypto.
import { encodeBase64Url, isBase64UrlOfLength, timingSafeEqual } from '@charter/core';

/** One secret: a string (used as its UTF-8 bytes) or raw bytes. */
export type SessionSecret = string | Uint8Array;

/** A secret, or a list of them for rotation: the first signs, every one verifies. */
export type SessionSecrets = SessionSecret | readonly SessionSecret[];

/** What a verified value says: the value and which secret (index in the list) signed it. */
export interface VerifiedValue {
  readonly value: string;
  readonly keyIndex: number;
}

/** Signs and verifies with a fixed list of secrets; keys are imported once, on first use. */
export interface Signer {
  sign(value: string): Promise<string>;
  verify(signed: unknown): Promise<VerifiedValue | null>;
}

const encoder = new TextEncoder();

/** An HMAC-SHA-256 tag is 32 bytes: 43 base64url characters without padding. */
const MAC_LENGTH = 43;

function isMacShape(mac: string): boolean {
  return isBase64UrlOfLength(mac, MAC_LENGTH);
}

/**
 * The secrets as byte arrays, first one first. Throws a TypeError naming `where` for a missing or
 * empty secret or list; the strength check (length, entropy, placeholders) is the App's boot guard.
 */
export function normalizeSecrets(secrets: SessionSecrets, where: string): readonly Uint8Array[] {
  const list = (Array.isArray(secrets) ? secrets : [secrets]) as readonly unknown[];
  if (list.length === 0) throw new TypeError(`${where} must not be an empty list`);
  return list.map((secret, index) => {
    const label = list.length === 1 && !Array.isArray(secrets) ? where : `${where}[${index}]`;
    if (typeof secret === 'string') {
      if (secret === '') throw new TypeError(`${label} must not be empty`);
      return encoder.encode(secret);
    }
    if (secret instanceof Uint8Array) {
      if (secret.length === 0) throw new TypeError(`${label} must not be empty`);
      return new Uint8Array(secret);
    }
    throw new TypeError(`${label} must be a string or a Uint8Array`);
  });
}

/** A signer over the given secrets (already normalised). */
export function createSigner(secrets: readonly Uint8Array[]): Signer {
  const keys: Promise<CryptoKey>[] = [];
  const keyAt = (index: number): Promise<CryptoKey> => {
    keys[index] ??= crypto.subtle.importKey(
      'raw',
      secrets[index] as Uint8Array<ArrayBuffer>,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return keys[index];
  };
  const mac = async (index: number, value: string): Promise<string> =>
    encodeBase64Url(
      new Uint8Array(await crypto.subtle.sign('HMAC', await keyAt(index), encoder.encode(value))),
    );

  return {
    async sign(value) {
      if (typeof value !== 'string') throw new TypeError('signValue: the value must be a string');
      return `${value}.${await mac(0, value)}`;
    },
    async verify(signed) {
      if (typeof signed !== 'string') return null;
      // The value may hold dots itself; the mac, being base64url, never does.
      const dot = signed.lastIndexOf('.');
      if (dot === -1) return null;
      const given = signed.slice(dot + 1);
      if (!isMacShape(given)) return null;
      const value = signed.slice(0, dot);
      for (let index = 0; index < secrets.length; index++) {
        // Constant-time comparison: the position of a first wrong character must not show in timing.
        if (timingSafeEqual(await mac(index, value), given)) return { value, keyIndex: index };
      }
      return null;
    },
  };
}

/**
 * Signs `value` with HMAC-SHA-256: resolves `<value>.<mac>` (43 base64url characters of mac). With a
 * list of secrets the first one signs.
 * @example const cookieValue = await signValue(id, process.env.SESSION_SECRET as string);
 */
export function signValue(value: string, secret: SessionSecrets): Promise<string> {
  return createSigner(normalizeSecrets(secret, 'signValue secret')).sign(value);
}

/**
 * Resolves the value of a `<value>.<mac>` string made by `signValue` with one of the secrets, or
 * null when the mac is missing, malformed or wrong (never throws for bad input; only a missing or
 * empty secret throws). The mac is compared in constant time.
 */
export async function verifySignedValue(signed: string, secret: SessionSecrets): Promise<string | null> {
  const verified = await createSigner(normalizeSecrets(secret, 'verifySignedValue secret')).verify(signed);
  return verified === null ? null : verified.value;
}
