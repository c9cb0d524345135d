/**
 * @module charter/hashing
 * Password hashing with scrypt (RFC 7914) in self-describing PHC strings: `passwordHash`,
 * `passwordVerify` (constant-time, refuses hashes below the secure floor or above the ceiling) and
 * `needsRehash`. scrypt comes from the runtime's `node:crypto`, reached lazily, so importing this module
 * is safe everywhere; hashing needs Bun or Node.
 */
export {
  KEY_BYTES,
  MAX_MEMORY_BYTES,
  MAX_WORK,
  MIN_BLOCK_SIZE,
  type PasswordHashOptions,
  SALT_BYTES,
  SCRYPT_DEFAULTS,
  SCRYPT_FLOOR,
  type ScryptParams,
} from './params.ts';
export { MAX_PASSWORD_BYTES, needsRehash, passwordHash, passwordVerify } from './password.ts';
export { parseScryptPhc, type ScryptPhc } from './phc.ts';
