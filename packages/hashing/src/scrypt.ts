/**
 * scrypt (RFC 7914) from the runtime's `node:crypto`, reached lazily through
 * `process.getBuiltinModule` (Bun, Node 20.16+ and 22.3+), so importing this package never fails on a
 * runtime without it: only hashing does, with an Error that says why. Always the callback form, which
 * runs on the runtime's worker threads: a synchronous scrypt would stall every request of the process
 * for the whole computation.
 */
import type { ScryptParams } from './params.ts';

type ScryptCallback = (error: Error | null, derivedKey: Uint8Array) => void;

interface ScryptOptions {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

type ScryptFunction = (
  password: Uint8Array,
  salt: Uint8Array,
  keylen: number,
  options: ScryptOptions,
  callback: ScryptCallback,
) => void;

interface BuiltinLoader {
  getBuiltinModule?: (id: string) => unknown;
}

let cached: ScryptFunction | undefined;

/** The runtime's scrypt, or an Error naming what is missing. */
function scryptFunction(): ScryptFunction {
  if (cached !== undefined) return cached;
  const process = (globalThis as { process?: BuiltinLoader }).process;
  const crypto = process?.getBuiltinModule?.('node:crypto') as { scrypt?: unknown } | undefined;
  if (typeof crypto?.scrypt !== 'function') {
    throw new Error(
      'charter/hashing needs scrypt from node:crypto, reached through process.getBuiltinModule ' +
        '(Bun, Node 20.16+ or 22.3+); this runtime does not provide it',
    );
  }
  cached = crypto.scrypt as ScryptFunction;
  return cached;
}

/**
 * The memory limit to pass: scrypt needs 128·r·(N + 2) bytes for V and the working block plus 128·r·p
 * for B (RFC 7914 §5-6); node:crypto refuses anything over `maxmem` (default 32 MiB, below our defaults).
 * One extra MiB covers implementation overhead.
 */
function maxmemFor(params: ScryptParams): number {
  return 128 * params.r * (2 ** params.ln + params.p + 2) + 1024 * 1024;
}

/** Derives `keyLength` bytes with scrypt(password, salt, N = 2^ln, r, p) (RFC 7914 §6). */
export function deriveKey(
  password: Uint8Array,
  salt: Uint8Array,
  params: ScryptParams,
  keyLength: number,
): Promise<Uint8Array> {
  const scrypt = scryptFunction();
  const options = { N: 2 ** params.ln, r: params.r, p: params.p, maxmem: maxmemFor(params) };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => {
      if (error) reject(error);
      else resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength));
    });
  });
}
