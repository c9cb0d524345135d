// Comparison, random tokens and secret strength. Randomness comes only from crypto.getRandomValues.
import { encodeBase64Url } from './base64.ts';
import { isProductionEnv } from './environment.ts';

const encoder = new TextEncoder();

function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? encoder.encode(value) : value;
}

/**
 * Compares two secrets (strings as UTF-8) in time that depends only on the longer length: every
 * byte is visited and differences are OR-ed together, so neither the position of the first
 * difference nor a length mismatch ends the loop early. JavaScript offers no hard guarantee,
 * but nothing here branches on content.
 */
export function timingSafeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const left = toBytes(a);
  const right = toBytes(b);
  const length = Math.max(left.length, right.length);
  // A length mismatch is folded into the result instead of returning at once.
  let diff = left.length ^ right.length;
  for (let i = 0; i < length; i++) {
    diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  }
  return diff === 0;
}

/** The most `crypto.getRandomValues` fills in one call (WebCrypto §10.1.1). */
const MAX_RANDOM_BYTES = 65536;

/**
 * A random identifier: `byteLength` bytes from the CSPRNG (default 16, i.e. 128 bits), base64url
 * without padding. Throws a RangeError unless `byteLength` is an integer from 1 to 65536.
 */
export function randomId(byteLength = 16): string {
  if (!Number.isInteger(byteLength) || byteLength < 1 || byteLength > MAX_RANDOM_BYTES) {
    throw new RangeError(
      `randomId byteLength must be an integer from 1 to ${MAX_RANDOM_BYTES}, got ${byteLength}`,
    );
  }
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(byteLength)));
}

/** The least size, in bytes, of a secret accepted in production (256 bits, the HMAC-SHA-256 block of strength). */
export const MIN_PROD_SECRET_BYTES = 32;

/** The least size, in bytes, of a secret accepted outside production (128 bits). */
export const MIN_DEV_SECRET_BYTES = 16;

/** Why a secret was refused. */
export type WeakSecretReason = 'missing' | 'too-short' | 'low-entropy' | 'placeholder';

/** A secret too weak to use. Not an HTTP error: it is raised at configuration time, never per request. */
export class WeakSecretError extends Error {
  /** The label of the secret (the `where` argument). */
  readonly where: string;
  readonly reason: WeakSecretReason;
  constructor(where: string, reason: WeakSecretReason, message: string) {
    super(message);
    this.name = 'WeakSecretError';
    this.where = where;
    this.reason = reason;
  }
}

/** Options of `assertStrongSecret`. */
export interface StrongSecretOptions {
  /** Apply the production floor (32 bytes) rather than 16; default: `NODE_ENV === 'production'`. */
  production?: boolean;
}

// Compared after lowercasing and dropping everything but letters and digits ("change-me" = "changeme").
const PLACEHOLDERS = new Set([
  'changeme',
  'changeit',
  'changethis',
  'replaceme',
  'secret',
  'secretkey',
  'mysecret',
  'supersecret',
  'topsecret',
  'password',
  'passw0rd',
  'default',
  'example',
  'sample',
  'test',
  'testing',
  'dev',
  'development',
  'placeholder',
  'insecure',
  'notasecret',
  'keyboardcat',
  'yoursecret',
  'yoursecretkey',
  'yoursecrethere',
  'jwtsecret',
  'sessionsecret',
  'admin',
  'qwerty',
  'letmein',
  'todo',
  'xxx',
]);

// Looked for anywhere in the value. Each is 7+ characters, so a random base64 secret of 64
// characters contains one by chance with probability below 1e-8.
const PLACEHOLDER_FRAGMENTS = [
  'changeme',
  'changethis',
  'replaceme',
  'placeholder',
  'notasecret',
  'insecure',
  'keyboardcat',
  'yoursecret',
  'donotuse',
  'examplesecret',
];

function isPlaceholder(bytes: Uint8Array): boolean {
  const text = new TextDecoder().decode(bytes);
  let folded = '';
  for (const char of text.toLowerCase()) {
    if ((char >= 'a' && char <= 'z') || (char >= '0' && char <= '9')) folded += char;
  }
  if (PLACEHOLDERS.has(folded)) return true;
  return PLACEHOLDER_FRAGMENTS.some((fragment) => folded.includes(fragment));
}

/** The shortest period of `bytes` (KMP failure function): `abcabcab` has period 3. */
function shortestPeriod(bytes: Uint8Array): number {
  const failure = new Int32Array(bytes.length);
  let k = 0;
  for (let i = 1; i < bytes.length; i++) {
    while (k > 0 && bytes[i] !== bytes[k]) k = failure[k - 1] as number;
    if (bytes[i] === bytes[k]) k++;
    failure[i] = k;
  }
  return bytes.length - (failure[bytes.length - 1] ?? 0);
}

/**
 * Low entropy, judged by shape rather than estimate: a pattern repeated at least twice
 * (`aaaa...`, `abcabc...`), fewer than 5 distinct bytes, or mostly a run of consecutive
 * characters (`abcdef...`, `987654...`). A random secret of 16+ bytes trips none of these except
 * with negligible probability.
 */
function isLowEntropy(bytes: Uint8Array): boolean {
  if (shortestPeriod(bytes) * 2 <= bytes.length) return true;
  if (new Set(bytes).size < 5) return true;
  let steps = 0;
  for (let i = 1; i < bytes.length; i++) {
    const delta = (bytes[i] as number) - (bytes[i - 1] as number);
    if (delta === 1 || delta === -1) steps++;
  }
  return steps * 2 > bytes.length - 1;
}

/**
 * Throws a `WeakSecretError` for a secret that is missing or empty, shorter than 32 bytes in
 * production (16 elsewhere), of low entropy, or a well-known placeholder. The message names
 * `where` and never contains the secret.
 */
export function assertStrongSecret(
  value: string | Uint8Array | undefined,
  where: string,
  options: StrongSecretOptions = {},
): void {
  const production = options.production ?? isProductionEnv();
  if (
    value === undefined ||
    value === null ||
    (typeof value !== 'string' && !(value instanceof Uint8Array))
  ) {
    throw new WeakSecretError(where, 'missing', `The secret for ${where} is missing`);
  }
  const bytes = toBytes(value);
  if (bytes.length === 0) throw new WeakSecretError(where, 'missing', `The secret for ${where} is empty`);
  if (isPlaceholder(bytes)) {
    throw new WeakSecretError(
      where,
      'placeholder',
      `The secret for ${where} is a well-known placeholder value`,
    );
  }
  const floor = production ? MIN_PROD_SECRET_BYTES : MIN_DEV_SECRET_BYTES;
  if (bytes.length < floor) {
    throw new WeakSecretError(
      where,
      'too-short',
      `The secret for ${where} is ${bytes.length} bytes; at least ${floor} are required` +
        (production ? ' in production' : '') +
        ' (generate one with crypto.getRandomValues)',
    );
  }
  if (isLowEntropy(bytes)) {
    throw new WeakSecretError(
      where,
      'low-entropy',
      `The secret for ${where} has low entropy (a repeated pattern, few distinct characters or a sequence)`,
    );
  }
}
