import { beforeAll, describe, expect, test } from 'bun:test';
import { scryptSync } from 'node:crypto';
import { MAX_PASSWORD_BYTES, needsRehash, passwordHash, passwordVerify } from './password.ts';
import { encodeB64, parseScryptPhc } from './phc.ts';

const PASSWORD = 'correct horse battery staple';
let stored = '';

/** A PHC string computed with node:crypto directly, independently of this package's code path. */
function directHash(
  password: string,
  ln: number,
  r: number,
  p: number,
  salt: Uint8Array,
  keyLength = 32,
): string {
  const N = 2 ** ln;
  const key = scryptSync(password, salt, keyLength, { N, r, p, maxmem: 128 * r * (N + p + 2) + 1024 * 1024 });
  return `$scrypt$ln=${ln},r=${r},p=${p}$${encodeB64(salt)}$${encodeB64(key)}`;
}

const salt16 = () => crypto.getRandomValues(new Uint8Array(16));

/** Resolves how long an async call took, in ms. */
async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await run();
  return [value, performance.now() - started];
}

beforeAll(async () => {
  stored = await passwordHash(PASSWORD);
});

describe('passwordHash', () => {
  test('produces a PHC string with the default parameters, a 16-byte salt and a 32-byte hash', () => {
    expect(stored.startsWith('$scrypt$ln=17,r=8,p=1$')).toBe(true);
    const phc = parseScryptPhc(stored);
    expect(phc?.salt.length).toBe(16);
    expect(phc?.hash.length).toBe(32);
  });

  test('gives two different strings for the same password (random salt)', async () => {
    const again = await passwordHash(PASSWORD);
    expect(again).not.toBe(stored);
    expect(parseScryptPhc(again)?.salt).not.toEqual(parseScryptPhc(stored)?.salt);
  });

  test('records raised options in the string', async () => {
    const hash = await passwordHash(PASSWORD, { ln: 16, p: 2 });
    expect(hash.startsWith('$scrypt$ln=16,r=8,p=2$')).toBe(true);
    expect(await passwordVerify(PASSWORD, hash)).toBe(true);
  });

  test('throws a TypeError for options below the floor', async () => {
    await expect(passwordHash(PASSWORD, { ln: 14 })).rejects.toThrow(TypeError);
    await expect(passwordHash(PASSWORD, { r: 1 })).rejects.toThrow(/below the secure floor/);
  });

  test('throws a TypeError for an empty password or a non-string', async () => {
    await expect(passwordHash('')).rejects.toThrow(/must not be empty/);
    await expect(passwordHash(undefined as unknown as string)).rejects.toThrow(TypeError);
  });

  test('accepts exactly 4096 UTF-8 bytes and refuses 4097, counting multi-byte characters', async () => {
    // 1024 four-byte characters (U+1F600) = 4096 bytes in 2048 UTF-16 units.
    const max = '\u{1F600}'.repeat(1024);
    expect(new TextEncoder().encode(max).length).toBe(MAX_PASSWORD_BYTES);
    const hash = await passwordHash(max);
    expect(await passwordVerify(max, hash)).toBe(true);
    // 1365 three-byte characters (4095 bytes) plus two bytes: 4097 bytes in 1366 units.
    const over = `${'€'.repeat(1365)}é`;
    expect(over.length).toBeLessThan(MAX_PASSWORD_BYTES);
    expect(new TextEncoder().encode(over).length).toBe(MAX_PASSWORD_BYTES + 1);
    await expect(passwordHash(over)).rejects.toThrow(/at most 4096 UTF-8 bytes/);
    await expect(passwordHash('a'.repeat(4097))).rejects.toThrow(TypeError);
  });

  test('refuses an unpaired surrogate, which has no UTF-8 form', async () => {
    await expect(passwordHash('abc\uD800')).rejects.toThrow(/unpaired surrogate/);
    await expect(passwordHash('\uDC00abc')).rejects.toThrow(TypeError);
  });
});

describe('passwordVerify', () => {
  test('accepts the right password', async () => {
    expect(await passwordVerify(PASSWORD, stored)).toBe(true);
  });

  test('refuses a wrong password, one differing only in case, and a prefix', async () => {
    expect(await passwordVerify('correct horse battery stapler', stored)).toBe(false);
    expect(await passwordVerify(PASSWORD.toUpperCase(), stored)).toBe(false);
    expect(await passwordVerify(PASSWORD.slice(0, -1), stored)).toBe(false);
  });

  test('returns false without throwing for an empty, non-string or over-long password', async () => {
    expect(await passwordVerify('', stored)).toBe(false);
    expect(await passwordVerify(null as unknown as string, stored)).toBe(false);
    expect(await passwordVerify('a'.repeat(MAX_PASSWORD_BYTES + 1), stored)).toBe(false);
    expect(await passwordVerify(`${'€'.repeat(1365)}é`, stored)).toBe(false);
    expect(await passwordVerify('x\uD800', stored)).toBe(false);
  });

  test('returns false without throwing for malformed hash strings', async () => {
    const phc = stored.split('$');
    for (const bad of [
      '',
      'not a hash',
      stored.replace('$scrypt$', '$argon2id$'),
      stored.replace('ln=17', 'ln=abc'),
      stored.replace(',p=1', ''),
      `$scrypt$ln=17,r=8,p=1$$${phc[4]}`,
      `$scrypt$ln=17,r=8,p=1$${phc[3]}$`,
      `${stored}=`,
      undefined as unknown as string,
    ]) {
      expect(await passwordVerify(PASSWORD, bad)).toBe(false);
    }
  });

  test('verifies a hash made by node:crypto scrypt directly (the PHC parameters mean N = 2^ln)', async () => {
    const hash = directHash(PASSWORD, 17, 8, 1, salt16());
    expect(await passwordVerify(PASSWORD, hash)).toBe(true);
    expect(await passwordVerify('wrong', hash)).toBe(false);
  });

  test('verifies a 64-byte key with a 32-byte salt, within the accepted lengths', async () => {
    const hash = directHash(PASSWORD, 14, 8, 5, crypto.getRandomValues(new Uint8Array(32)), 64);
    expect(await passwordVerify(PASSWORD, hash)).toBe(true);
  });

  test('refuses, without computing, a correct hash whose parameters are below the floor', async () => {
    for (const [ln, r, p] of [
      [14, 8, 1],
      [16, 8, 1],
      [17, 4, 1],
      [12, 8, 16],
    ] as const) {
      const hash = directHash(PASSWORD, ln, r, p, salt16());
      const [ok, ms] = await timed(() => passwordVerify(PASSWORD, hash));
      expect(ok).toBe(false);
      expect(ms).toBeLessThan(50);
    }
  });

  test('refuses a salt shorter than 16 bytes or a key shorter than 32 bytes', async () => {
    expect(await passwordVerify(PASSWORD, directHash(PASSWORD, 17, 8, 1, new Uint8Array(8).fill(7)))).toBe(
      false,
    );
    expect(await passwordVerify(PASSWORD, directHash(PASSWORD, 17, 8, 1, salt16(), 16))).toBe(false);
  });

  test('refuses fast a hash whose parameters are above the ceiling', async () => {
    const [, , , salt, hash] = stored.split('$');
    for (const params of [
      'ln=19,r=8,p=1',
      'ln=30,r=8,p=1',
      'ln=17,r=8,p=9',
      'ln=17,r=1000000,p=1',
      'ln=17,r=8,p=4000000000',
    ]) {
      const [ok, ms] = await timed(() => passwordVerify(PASSWORD, `$scrypt$${params}$${salt}$${hash}`));
      expect(ok).toBe(false);
      expect(ms).toBeLessThan(50);
    }
  });

  test('normalises with NFKC: composed, decomposed and full-width forms verify alike', async () => {
    const composed = 'Caf\u00e9-\uFF11\uFF12\uFF13'; // é, full-width 123
    const decomposed = 'Cafe\u0301-123';
    const hash = await passwordHash(composed);
    expect(await passwordVerify(decomposed, hash)).toBe(true);
    expect(await passwordVerify('Cafe-123', hash)).toBe(false);
  });
});

describe('needsRehash', () => {
  test('is false for a fresh hash with the defaults', () => {
    expect(needsRehash(stored)).toBe(false);
  });

  test('is true for a verifiable hash below the defaults, or below raised options', () => {
    const lower = directHash(PASSWORD, 16, 8, 2, salt16());
    expect(needsRehash(lower)).toBe(true);
    expect(needsRehash(stored, { ln: 18 })).toBe(true);
    expect(needsRehash(stored, { p: 2 })).toBe(true);
  });

  test('is true for malformed or unverifiable strings', () => {
    expect(needsRehash('nope')).toBe(true);
    expect(needsRehash(stored.replace('ln=17', 'ln=14'))).toBe(true);
    expect(needsRehash(stored.replace('ln=17', 'ln=25'))).toBe(true);
  });

  test('throws a TypeError for invalid target options', () => {
    expect(() => needsRehash(stored, { ln: 10 })).toThrow(TypeError);
  });
});
