/**
 * The HMAC key that signs and verifies the site's access tokens (HS256, RFC 7518 §3.2).
 *
 * The secret comes from `SITE_TOKEN_SECRET`: base64url (RFC 4648 §5, `-` and `_`, padding optional)
 * of at least 32 random bytes, the HS256 minimum (RFC 7518 §3.2: a key at least as long as the hash
 * output). Every replica given the same secret verifies every replica's tokens. Generate one with
 * `bun -e "console.log(Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'))"`.
 */
import { decodeBase64Url as decodeCanonicalBase64Url } from '@charter/core';

/** The environment variable holding the token secret. */
export const TOKEN_SECRET_ENV = 'SITE_TOKEN_SECRET';

/** Fewest bytes a decoded secret may have: 32, the SHA-256 output size (RFC 7518 §3.2). */
export const MIN_TOKEN_SECRET_BYTES = 32;

/** Options of `resolveTokenKey`. */
export interface TokenKeyOptions {
  /** The value of `SITE_TOKEN_SECRET`; undefined (or blank) when it is not set. */
  secret: string | undefined;
  /** The site runs in production: a missing secret is then an error instead of a generated key. */
  production: boolean;
}

/** The key tokens are signed with. */
export interface TokenKey {
  /** The raw HMAC key, at least 32 bytes. */
  key: Uint8Array;
  /** True when no secret was set and the key is random: tokens die with the process. */
  generated: boolean;
}

/**
 * Decodes base64url text (RFC 4648 §5) with optional padding, as people paste secrets; undefined
 * for anything else (a `+` or `/` of standard base64, spaces, misplaced or partial padding).
 */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  const unpadded = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  // Padding, when present, completes a 4-character group (RFC 4648 §3.2).
  if (unpadded !== text && text.length % 4 !== 0) return undefined;
  return decodeCanonicalBase64Url(unpadded);
}

/**
 * The token signing key. A set secret must be base64url of at least 32 bytes, else an Error says so.
 * Without one: in production an Error (the site refuses to start, so replicas never disagree on keys
 * silently); in development 32 random bytes from the CSPRNG, `generated: true`.
 */
export function resolveTokenKey(options: TokenKeyOptions): TokenKey {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('resolveTokenKey options must be an object');
  }
  if (typeof options.production !== 'boolean') {
    throw new TypeError('resolveTokenKey: option "production" must be a boolean');
  }
  const secret = options.secret;
  if (secret !== undefined && typeof secret !== 'string') {
    throw new TypeError('resolveTokenKey: option "secret" must be a string or undefined');
  }
  // An empty variable (`SITE_TOKEN_SECRET=`) is the same as an unset one; surrounding whitespace
  // (a trailing newline from a secrets file) is not part of the secret.
  const text = secret?.trim() ?? '';
  if (text === '') {
    if (options.production) {
      throw new Error(
        `${TOKEN_SECRET_ENV} is not set: in production the site needs a token signing secret shared by ` +
          `every replica. Set ${TOKEN_SECRET_ENV} to base64url of at least ${MIN_TOKEN_SECRET_BYTES} random bytes.`,
      );
    }
    return { key: crypto.getRandomValues(new Uint8Array(MIN_TOKEN_SECRET_BYTES)), generated: true };
  }
  const key = decodeBase64Url(text);
  if (key === undefined) {
    throw new Error(
      `${TOKEN_SECRET_ENV} is not base64url (RFC 4648 §5: A-Z, a-z, 0-9, "-", "_", padding optional).`,
    );
  }
  if (key.length < MIN_TOKEN_SECRET_BYTES) {
    throw new Error(
      `${TOKEN_SECRET_ENV} decodes to ${key.length} bytes; HS256 needs at least ${MIN_TOKEN_SECRET_BYTES} ` +
        '(RFC 7518 §3.2). Generate 32 random bytes and encode them as base64url.',
    );
  }
  return { key, generated: false };
}
