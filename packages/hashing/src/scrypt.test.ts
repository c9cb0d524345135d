import { describe, expect, test } from 'bun:test';
import { deriveKey } from './scrypt.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('deriveKey', () => {
  test('matches the RFC 7914 §12 test vector for N=1024, r=8, p=16 (N = 2^ln)', async () => {
    const key = await deriveKey(
      new TextEncoder().encode('password'),
      new TextEncoder().encode('NaCl'),
      { ln: 10, r: 8, p: 16 },
      64,
    );
    expect(hex(key)).toBe(
      'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162' +
        '2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640',
    );
  });

  test('sets maxmem so that 128 MiB parameters run (the node:crypto default limit is 32 MiB)', async () => {
    const key = await deriveKey(new Uint8Array([1]), new Uint8Array(16), { ln: 17, r: 8, p: 1 }, 32);
    expect(key.length).toBe(32);
  });

  test('does not block the event loop while it computes', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await deriveKey(new Uint8Array([1]), new Uint8Array(16), { ln: 17, r: 8, p: 1 }, 32);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });

  test('throws an Error naming node:crypto when the runtime has no getBuiltinModule', async () => {
    const process = globalThis.process as unknown as { getBuiltinModule: unknown };
    const saved = process.getBuiltinModule;
    // A fresh module instance, so no scrypt was cached yet.
    const fresh = (await import(`./scrypt.ts?absent=${Date.now()}`)) as typeof import('./scrypt.ts');
    process.getBuiltinModule = undefined;
    try {
      expect(() =>
        fresh.deriveKey(new Uint8Array([1]), new Uint8Array(16), { ln: 17, r: 8, p: 1 }, 32),
      ).toThrow(/needs scrypt from node:crypto/);
    } finally {
      process.getBuiltinModule = saved;
    }
  });
});
