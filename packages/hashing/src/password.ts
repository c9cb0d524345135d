/**
 * Password hashing and verification with scrypt in PHC strings.
 *
 * Passwords are NFKC-normalised before hashing (NIST SP 800-63B §5.1.1.2: verifiers SHOULD apply the
 * Normalization Process for Stabilized Strings with NFKC or NFKD before hashing), so the same password
 * typed as composed or decomposed characters, or with full-width digits from an input method, verifies.
 * The 4096-byte limit applies to the password as given, before normalisation.
 */
import { timingSafeEqual } from '@charter/core';
import {
  KEY_BYTES,
  KEY_RANGE,
  meetsFloor,
  type PasswordHashOptions,
  resolvePasswordHashOptions,
  SALT_BYTES,
  SALT_RANGE,
  type ScryptParams,
  withinCeiling,
} from './params.ts';
import { formatScryptPhc, parseScryptPhc, type ScryptPhc } from './phc.ts';
import { deriveKey } from './scrypt.ts';

/** Longest password accepted, in UTF-8 bytes (https://charter.dev/docs/password-hashing). */
export const MAX_PASSWORD_BYTES = 4096;

const encoder = new TextEncoder();

/** True when the string has an unpaired surrogate (it is not Unicode text and has no UTF-8 form). */
function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return true;
    }
  }
  return false;
}

/**
 * The bytes scrypt hashes, or the reason the password is refused. A UTF-16 code unit never encodes to
 * fewer than one UTF-8 byte, so a string of more than 4096 units is refused without encoding it.
 * Unpaired surrogates are refused: TextEncoder would turn each into U+FFFD, so different strings would
 * hash the same.
 */
function passwordBytes(password: unknown): Uint8Array | string {
  if (typeof password !== 'string') return 'must be a string';
  if (password.length === 0) return 'must not be empty';
  if (password.length > MAX_PASSWORD_BYTES || encoder.encode(password).length > MAX_PASSWORD_BYTES) {
    return `must be at most ${MAX_PASSWORD_BYTES} UTF-8 bytes`;
  }
  if (hasLoneSurrogate(password)) return 'must be well-formed Unicode (it has an unpaired surrogate)';
  return encoder.encode(password.normalize('NFKC'));
}

/** True when a parsed hash is one this library will verify: parameters and lengths inside the bounds. */
function isVerifiable(phc: ScryptPhc): boolean {
  return (
    phc.salt.length >= SALT_RANGE.min &&
    phc.salt.length <= SALT_RANGE.max &&
    phc.hash.length >= KEY_RANGE.min &&
    phc.hash.length <= KEY_RANGE.max &&
    meetsFloor(phc.params) &&
    withinCeiling(phc.params)
  );
}

/**
 * Hashes a password with scrypt and a fresh 16-byte random salt; resolves a PHC string such as
 * `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`. Options may raise the cost, never lower it below the floor.
 * Throws a TypeError for a password that is not a non-empty string of at most 4096 UTF-8 bytes, or for
 * invalid options; an Error when the runtime has no `node:crypto` scrypt.
 * @example const stored = await passwordHash('correct horse battery staple');
 */
export async function passwordHash(password: string, options?: PasswordHashOptions): Promise<string> {
  const params = resolvePasswordHashOptions(options);
  const bytes = passwordBytes(password);
  if (typeof bytes === 'string') throw new TypeError(`passwordHash: the password ${bytes}`);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await deriveKey(bytes, salt, params, KEY_BYTES);
  return formatScryptPhc({ params, salt, hash });
}

/**
 * Checks a password against a PHC string from `passwordHash` (or any scrypt PHC string within the
 * bounds), comparing in constant time. Resolves false, without throwing and without running scrypt, for
 * a password that is empty, not a string, or over 4096 UTF-8 bytes; for a malformed hash string; and for
 * a hash whose parameters are below the floor or above the ceiling (refused, not verified). Rejects only
 * when the runtime has no scrypt or scrypt itself fails.
 * @example if (!(await passwordVerify(input, user.passwordHash))) throw unauthorized();
 */
export async function passwordVerify(password: string, hash: string): Promise<boolean> {
  const bytes = passwordBytes(password);
  if (typeof bytes === 'string') return false;
  const phc = parseScryptPhc(hash);
  if (phc === undefined || !isVerifiable(phc)) return false;
  const derived = await deriveKey(bytes, phc.salt, phc.params, phc.hash.length);
  return timingSafeEqual(derived, phc.hash);
}

/**
 * True when a stored hash should be replaced by a fresh `passwordHash` at the next successful login:
 * it is malformed or unverifiable, or its ln, r or p, salt or key length is below the target (the
 * defaults, or the `options` you hash with).
 */
export function needsRehash(hash: string, options?: PasswordHashOptions): boolean {
  const target: ScryptParams = resolvePasswordHashOptions(options);
  const phc = parseScryptPhc(hash);
  if (phc === undefined || !isVerifiable(phc)) return true;
  const { ln, r, p } = phc.params;
  return (
    ln < target.ln ||
    r < target.r ||
    p < target.p ||
    phc.salt.length < SALT_BYTES ||
    phc.hash.length < KEY_BYTES
  );
}
