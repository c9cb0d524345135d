/**
 * scrypt cost parameters (RFC 7914 §2): the defaults, the floor below which a hash is refused, and the
 * ceiling above which one is refused before any work, so a stored (or injected) hash string can never make
 * a verification burn unbounded memory or CPU.
 *
 * Memory per lane is 128·N·r bytes (RFC 7914 §5, scryptROMix's V array); total work is proportional to
 * N·r·p. `ln` is log2(N), the PHC string's name for the cost (N must be a power of two, RFC 7914 §2).
 */

/** The cost of one scrypt computation. */
export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  readonly ln: number;
  /** Block size r. */
  readonly r: number;
  /** Parallelisation p. */
  readonly p: number;
}

/**
 * The defaults: OWASP Password Storage Cheat Sheet's first scrypt configuration, N=2^17 (128 MiB),
 * r=8, p=1. One hash costs about 175 ms of one core on the development machine (bench/hash.ts).
 */
export const SCRYPT_DEFAULTS: ScryptParams = Object.freeze({ ln: 17, r: 8, p: 1 });

/** Salt length of new hashes, in bytes (128 bits, NIST SP 800-63B §5.1.1.2 asks for at least 32 bits). */
export const SALT_BYTES = 16;

/** Derived key length of new hashes, in bytes (256 bits). */
export const KEY_BYTES = 32;

/** Salt and key lengths a verifiable hash may have, in bytes. */
export const SALT_RANGE = Object.freeze({ min: 16, max: 64 });
export const KEY_RANGE = Object.freeze({ min: 32, max: 64 });

/**
 * The floor: OWASP's equivalent scrypt configurations, each trading memory for parallel work, read as
 * "at least this much memory per lane (128·N·r bytes) with at least this p". r must be at least 8 in every
 * case (the block size all of OWASP's rows and RFC 7914 §2's examples use).
 */
export const SCRYPT_FLOOR: readonly { readonly memoryMiB: number; readonly p: number }[] = Object.freeze([
  { memoryMiB: 128, p: 1 }, // N=2^17, r=8
  { memoryMiB: 64, p: 2 }, // N=2^16, r=8
  { memoryMiB: 32, p: 3 }, // N=2^15, r=8
  { memoryMiB: 16, p: 5 }, // N=2^14, r=8
  { memoryMiB: 8, p: 10 }, // N=2^13, r=8
]);

/** Least block size r accepted. */
export const MIN_BLOCK_SIZE = 8;

/** Most memory one lane may use: 256 MiB (twice the default), i.e. N=2^18 at r=8. */
export const MAX_MEMORY_BYTES = 256 * 1024 * 1024;

/** Most total work N·r·p: 2^23, eight times the default. */
export const MAX_WORK = 2 ** 23;

/** Largest ln, r and p read from a hash string before the cost rules apply (keeps the arithmetic exact). */
const MAX_LN = 40;
const MAX_FACTOR = 2 ** 20;

/** Bytes of memory one lane of scrypt uses: 128·N·r. */
export function memoryPerLane(params: ScryptParams): number {
  return 128 * 2 ** params.ln * params.r;
}

/** True when every parameter is an integer scrypt accepts at all (N = 2^ln > 1, r and p positive). */
function isWellFormed(params: ScryptParams): boolean {
  const { ln, r, p } = params;
  return (
    Number.isInteger(ln) &&
    Number.isInteger(r) &&
    Number.isInteger(p) &&
    ln >= 1 &&
    ln <= MAX_LN &&
    r >= 1 &&
    r <= MAX_FACTOR &&
    p >= 1 &&
    p <= MAX_FACTOR
  );
}

/** True when the parameters reach the floor (one of the OWASP rows, with r >= 8). */
export function meetsFloor(params: ScryptParams): boolean {
  if (!isWellFormed(params) || params.r < MIN_BLOCK_SIZE) return false;
  const memory = memoryPerLane(params);
  return SCRYPT_FLOOR.some((row) => memory >= row.memoryMiB * 1024 * 1024 && params.p >= row.p);
}

/** True when the parameters stay under the ceiling (256 MiB per lane, N·r·p at most 2^23). */
export function withinCeiling(params: ScryptParams): boolean {
  if (!isWellFormed(params)) return false;
  return memoryPerLane(params) <= MAX_MEMORY_BYTES && 2 ** params.ln * params.r * params.p <= MAX_WORK;
}

/** Options of `passwordHash` and `needsRehash`: raise the cost above the defaults. */
export interface PasswordHashOptions {
  /** log2 of N; default 17. */
  ln?: number;
  /** Block size; default 8. */
  r?: number;
  /** Parallelisation; default 1. */
  p?: number;
}

/**
 * Validates hashing options and fills the defaults; throws a TypeError naming the option when a value
 * is not a positive integer, or when the combination falls below the floor or above the ceiling.
 */
export function resolvePasswordHashOptions(options: PasswordHashOptions = {}): ScryptParams {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('passwordHash options must be an object');
  }
  for (const name of ['ln', 'r', 'p'] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) {
      throw new TypeError(`passwordHash option "${name}" must be a positive integer, got ${String(value)}`);
    }
  }
  const params: ScryptParams = Object.freeze({
    ln: options.ln ?? SCRYPT_DEFAULTS.ln,
    r: options.r ?? SCRYPT_DEFAULTS.r,
    p: options.p ?? SCRYPT_DEFAULTS.p,
  });
  const shown = `ln=${params.ln}, r=${params.r}, p=${params.p}`;
  if (!meetsFloor(params)) {
    throw new TypeError(
      `passwordHash options (${shown}) are below the secure floor: r >= 8 and 128·N·r >= 128 MiB with p >= 1 ` +
        '(or 64 MiB with p >= 2, 32 MiB with p >= 3, 16 MiB with p >= 5, 8 MiB with p >= 10)',
    );
  }
  if (!withinCeiling(params)) {
    throw new TypeError(
      `passwordHash options (${shown}) are above the ceiling: 128·N·r at most 256 MiB and N·r·p at most 2^23`,
    );
  }
  return params;
}
