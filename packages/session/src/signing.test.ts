import { describe, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { signValue, verifySignedValue } from './signing.ts';

const SECRET = 'q8Vd-2nTz!kP4sLw9Xe7Rb3Hc6Jm';
const OTHER = 'Zt5-pW2qLx8Nv4Rk7Hs1Jd6Fb9Gc';
const MAC_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** HMAC-SHA-256 computed independently of the module (which uses WebCrypto), through node:crypto. */
function referenceMac(value: string, secret: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

describe('signValue', () => {
  test('appends a dot and the base64url HMAC-SHA-256 of the value', async () => {
    const signed = await signValue('abc', SECRET);
    const [value, mac] = signed.split('.');
    expect(value).toBe('abc');
    expect(mac).toMatch(MAC_SHAPE);
    expect(mac).toBe(referenceMac('abc', SECRET));
  });

  test('signs with the first secret of a list', async () => {
    expect(await signValue('abc', [OTHER, SECRET])).toBe(`abc.${referenceMac('abc', OTHER)}`);
  });

  test('accepts a secret given as bytes, equal to the same secret as a string', async () => {
    expect(await signValue('x', new TextEncoder().encode(SECRET))).toBe(await signValue('x', SECRET));
  });

  test('refuses a missing, empty or mistyped secret with a TypeError', async () => {
    expect(() => signValue('x', '')).toThrow(TypeError);
    expect(() => signValue('x', [])).toThrow('must not be an empty list');
    expect(() => signValue('x', new Uint8Array(0))).toThrow(TypeError);
    expect(() => signValue('x', [SECRET, ''])).toThrow('signValue secret[1] must not be empty');
    expect(() => signValue('x', 42 as never)).toThrow('must be a string or a Uint8Array');
  });

  test('refuses a value that is not a string', async () => {
    await expect(signValue(7 as never, SECRET)).rejects.toThrow(TypeError);
  });
});

describe('verifySignedValue', () => {
  test('resolves the value of a string signed with the same secret', async () => {
    expect(await verifySignedValue(await signValue('session-id', SECRET), SECRET)).toBe('session-id');
  });

  test('keeps dots inside the value: only the last one separates the mac', async () => {
    expect(await verifySignedValue(await signValue('a.b.c', SECRET), SECRET)).toBe('a.b.c');
  });

  test('resolves null for a tampered value, a tampered mac or another secret', async () => {
    const signed = await signValue('user-1', SECRET);
    const mac = signed.slice(signed.lastIndexOf('.') + 1);
    expect(await verifySignedValue(`user-2.${mac}`, SECRET)).toBeNull();
    const flipped = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect(await verifySignedValue(`user-1.${flipped}`, SECRET)).toBeNull();
    expect(await verifySignedValue(signed, OTHER)).toBeNull();
  });

  test('resolves null for malformed input instead of throwing', async () => {
    const mac = referenceMac('v', SECRET);
    for (const bad of ['', 'v', 'v.', `v.${mac}=`, `v.${mac.slice(1)}`, `v.${mac.slice(1)}+`, `v.${mac} `]) {
      expect(await verifySignedValue(bad, SECRET)).toBeNull();
    }
    expect(await verifySignedValue(undefined as never, SECRET)).toBeNull();
    expect(await verifySignedValue({} as never, SECRET)).toBeNull();
  });

  test('accepts every secret of a rotation list, so old cookies keep working', async () => {
    const old = await signValue('v', OTHER);
    expect(await verifySignedValue(old, [SECRET, OTHER])).toBe('v');
    expect(await verifySignedValue(old, [SECRET])).toBeNull();
  });

  test('refuses an empty secret even when the input is malformed', async () => {
    expect(() => verifySignedValue('v.x', '')).toThrow(TypeError);
  });

  test('property: any value round-trips, and any change to one character is refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 64 }),
        fc.nat(),
        fc.integer({ min: 1, max: 127 }),
        async (value, at, delta) => {
          const signed = await signValue(value, SECRET);
          expect(await verifySignedValue(signed, SECRET)).toBe(value);
          const index = at % signed.length;
          const changed = String.fromCharCode((signed.charCodeAt(index) + delta) % 128);
          const tampered = signed.slice(0, index) + changed + signed.slice(index + 1);
          expect(await verifySignedValue(tampered, SECRET)).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});
