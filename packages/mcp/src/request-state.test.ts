import { describe, expect, test } from 'bun:test';
import { decodeBase64Url, encodeBase64Url, WeakSecretError } from '@charter/core';
import fc from 'fast-check';
import {
  createRequestStateSealer,
  type OpenedState,
  type RequestStateBinding,
  type RequestStateRefusal,
  reasonMessage,
} from './request-state.ts';

const key = 'q7Vf2kPz9Lx4Rm8Tb1Nc6Hs3Wd5Gy0Je';
const otherKey = 'Zp3Xk8Qm1Vr6Ls9Tc4Nb7Hf2Wd0Gy5Ja';
const binding: RequestStateBinding = {
  method: 'tools/call',
  target: 'deploy',
  arguments: { env: 'prod', replicas: 3, tags: ['a', 'b'] },
  principal: 'sha256:alice',
};

/** A sealer on a clock the test moves. */
function clocked(start = 1_000_000, options: { ttlMs?: number; replayCacheSize?: number } = {}) {
  const clock = { now: start };
  const sealer = createRequestStateSealer({ key, now: () => clock.now, ...options });
  return { clock, sealer };
}

function tokenBytes(token: string): Uint8Array {
  const bytes = decodeBase64Url(token.slice(3));
  if (bytes === undefined) throw new Error('not a v1 token');
  return bytes;
}

function withFlippedByte(token: string, index: number, mask = 0x01): string {
  const bytes = tokenBytes(token);
  bytes[index] = (bytes[index] as number) ^ mask;
  return `v1.${encodeBase64Url(bytes)}`;
}

async function refusal(promise: Promise<OpenedState>): Promise<RequestStateRefusal | 'ok'> {
  const opened = await promise;
  return opened.ok ? 'ok' : opened.reason;
}

describe('createRequestStateSealer', () => {
  test('round-trips objects, strings, null and nested values', async () => {
    const sealer = createRequestStateSealer({ key });
    const values = [
      { step: 2, answers: { confirm: true } },
      'resume-here',
      null,
      { a: [1, { b: [null, 'x', { c: false }] }], d: 1.5, e: '\u00e9\ud83d\ude00' },
      [],
      0,
    ];
    for (const value of values) {
      const opened = await sealer.open(await sealer.seal(value, binding), binding);
      expect(opened).toEqual({ ok: true, value });
    }
  });

  test('writes tokens as v1. followed by base64url of IV, ciphertext and tag', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal({ x: 1 }, binding);
    expect(token.startsWith('v1.')).toBe(true);
    expect(token.slice(3)).toMatch(/^[A-Za-z0-9_-]+$/);
    const payloadLength = JSON.stringify({ v: { x: 1 }, e: 0, n: 'x'.repeat(22) }).length;
    // 12 IV + plaintext (expiry digits vary) + 16 tag.
    expect(tokenBytes(token).length).toBeGreaterThanOrEqual(12 + payloadLength + 16);
  });

  test('seals the same value into different tokens each time (random IV and nonce)', async () => {
    const sealer = createRequestStateSealer({ key });
    const first = await sealer.seal({ same: true }, binding);
    const second = await sealer.seal({ same: true }, binding);
    expect(first).not.toBe(second);
    expect(tokenBytes(first).subarray(0, 12)).not.toEqual(tokenBytes(second).subarray(0, 12));
  });

  test('keeps the plaintext out of the token', async () => {
    const sealer = createRequestStateSealer({ key });
    const marker = 'plaintext-marker-0123456789';
    const token = await sealer.seal({ secret: marker }, binding);
    expect(token).not.toContain(marker);
    expect(token).not.toContain(encodeBase64Url(new TextEncoder().encode(marker)));
    const text = new TextDecoder('latin1').decode(tokenBytes(token));
    expect(text).not.toContain(marker);
    expect(text).not.toContain('"v"');
  });

  test('opens with another sealer that shares the key (instances behind a balancer)', async () => {
    const token = await createRequestStateSealer({ key }).seal('shared', binding);
    expect(await createRequestStateSealer({ key }).open(token, binding)).toEqual({
      ok: true,
      value: 'shared',
    });
  });

  test('accepts a strong key given as bytes', async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const sealer = createRequestStateSealer({ key: bytes });
    const token = await sealer.seal(1, binding);
    bytes.fill(0); // the sealer keeps its own copy
    expect(await sealer.open(token, binding)).toEqual({ ok: true, value: 1 });
  });

  test('refuses a weak key with the core WeakSecretError naming requestStateKey', () => {
    for (const weak of ['short', 'changeme-changeme-changeme', 'a'.repeat(40), new Uint8Array(32), '']) {
      expect(() => createRequestStateSealer({ key: weak })).toThrow(WeakSecretError);
    }
    expect(() => createRequestStateSealer({ key: 'short' })).toThrow(/requestStateKey/);
  });

  test('without a key, generates a random one per sealer', async () => {
    const a = createRequestStateSealer();
    const b = createRequestStateSealer();
    const token = await a.seal('mine', binding);
    expect(await b.open(token, binding)).toEqual({ ok: false, reason: 'forged' });
    expect(await a.open(token, binding)).toEqual({ ok: true, value: 'mine' });
  });

  test('validates ttlMs as a positive integer with a RangeError naming requestStateTtlMs', () => {
    for (const ttlMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '600' as unknown as number]) {
      expect(() => createRequestStateSealer({ key, ttlMs })).toThrow(RangeError);
      expect(() => createRequestStateSealer({ key, ttlMs })).toThrow(/requestStateTtlMs/);
    }
    expect(() => createRequestStateSealer({ key, ttlMs: 1 })).not.toThrow();
  });

  test('validates maxLength, replayCacheSize and now', () => {
    expect(() => createRequestStateSealer({ key, maxLength: 0 })).toThrow(/requestStateMaxLength/);
    expect(() => createRequestStateSealer({ key, replayCacheSize: 0 })).toThrow(
      /requestStateReplayCacheSize/,
    );
    expect(() => createRequestStateSealer({ key, now: 5 as unknown as () => number })).toThrow(TypeError);
    expect(() => createRequestStateSealer({ key, maxLength: 100, replayCacheSize: 1 })).not.toThrow();
  });

  test('throws a RangeError when the sealed value would exceed maxLength', async () => {
    const sealer = createRequestStateSealer({ key });
    await expect(sealer.seal({ blob: 'x'.repeat(8192) }, binding)).rejects.toThrow(RangeError);
    await expect(sealer.seal({ blob: 'x'.repeat(8192) }, binding)).rejects.toThrow(/server bug/);
    const small = createRequestStateSealer({ key, maxLength: 200 });
    await expect(small.seal('x'.repeat(200), binding)).rejects.toThrow(RangeError);
    expect((await small.seal('ok', binding)).length).toBeLessThanOrEqual(200);
  });

  test('produces a token of at most maxLength for the largest value that fits', async () => {
    const sealer = createRequestStateSealer({ key });
    let size = 6000;
    for (;;) {
      try {
        const token = await sealer.seal('x'.repeat(size + 1), binding);
        expect(token.length).toBeLessThanOrEqual(8192);
        size++;
      } catch (error) {
        expect(error).toBeInstanceOf(RangeError);
        break;
      }
    }
    const token = await sealer.seal('x'.repeat(size), binding);
    expect(token.length).toBeGreaterThan(8189);
    expect(await sealer.open(token, binding)).toEqual({ ok: true, value: 'x'.repeat(size) });
  });

  test('throws a TypeError when the value or binding cannot be written as JSON', async () => {
    const sealer = createRequestStateSealer({ key });
    await expect(sealer.seal(10n, binding)).rejects.toThrow(TypeError);
    await expect(sealer.seal(1, { ...binding, arguments: { n: 10n } })).rejects.toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(sealer.seal(1, { ...binding, arguments: cyclic })).rejects.toThrow(TypeError);
  });
});

describe('RequestStateSealer.open refusals', () => {
  test('refuses a non-string token as malformed', async () => {
    const sealer = createRequestStateSealer({ key });
    for (const token of [undefined, null, 42, {}, ['v1.x'], true]) {
      expect(await sealer.open(token, binding)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  test('refuses a 9000-character token as too-long before decoding it', async () => {
    const sealer = createRequestStateSealer({ key });
    expect(await sealer.open(`v1.${'A'.repeat(8997)}`, binding)).toEqual({ ok: false, reason: 'too-long' });
    // Not even valid base64url: length is checked first.
    expect(await sealer.open('!'.repeat(9000), binding)).toEqual({ ok: false, reason: 'too-long' });
  });

  test('honours a smaller maxLength when opening', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal('fits', binding);
    const strict = createRequestStateSealer({ key, maxLength: token.length - 1 });
    expect(await strict.open(token, binding)).toEqual({ ok: false, reason: 'too-long' });
  });

  test('refuses a token without the v1. prefix as malformed', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal('x', binding);
    for (const bad of [token.slice(3), `v2.${token.slice(3)}`, `V1.${token.slice(3)}`, '', 'v1', 'v1.']) {
      expect(await sealer.open(bad, binding)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  test('refuses bad base64url as malformed', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal('x', binding);
    const body = token.slice(3);
    for (const bad of [`${body}=`, `${body.slice(0, 10)}+${body.slice(11)}`, `${body} `, `${body}\u00e9`]) {
      expect(await sealer.open(`v1.${bad}`, binding)).toEqual({ ok: false, reason: 'malformed' });
    }
    // A non-canonical last character (unused low bits set) is refused too.
    const canonical = 'v1.' + encodeBase64Url(new Uint8Array(40));
    expect(await sealer.open(`${canonical.slice(0, -1)}B`, binding)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  test('refuses a token shorter than IV and tag as malformed, and a truncated one as not ok', async () => {
    const sealer = createRequestStateSealer({ key });
    expect(await sealer.open(`v1.${encodeBase64Url(new Uint8Array(27))}`, binding)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    const token = await sealer.seal({ step: 1 }, binding);
    const bytes = tokenBytes(token);
    for (const keep of [0, 11, 27, 28, 40, bytes.length - 1]) {
      const truncated = `v1.${encodeBase64Url(bytes.subarray(0, keep))}`;
      expect(await refusal(sealer.open(truncated, binding))).toBe(keep < 28 ? 'malformed' : 'forged');
    }
    expect(await sealer.open(token.slice(0, -4), binding)).toMatchObject({ ok: false });
  });

  test('refuses a token with one flipped byte in the IV, ciphertext or tag as forged', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal({ step: 1, data: 'abcdef' }, binding);
    const length = tokenBytes(token).length;
    for (const index of [
      0,
      5,
      11,
      12,
      13,
      20,
      Math.floor(length / 2),
      length - 17,
      length - 16,
      length - 1,
    ]) {
      for (const mask of [0x01, 0x80, 0xff]) {
        expect(await sealer.open(withFlippedByte(token, index, mask), binding)).toEqual({
          ok: false,
          reason: 'forged',
        });
      }
    }
    expect(await sealer.open(token, binding)).toEqual({ ok: true, value: { step: 1, data: 'abcdef' } });
  });

  test('refuses a token with one changed character anywhere', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal('x', binding);
    for (const index of [0, 1, 2, 3, 4, 10, 20, token.length - 2, token.length - 1]) {
      const char = token.charAt(index);
      const replacement = char === 'A' ? 'B' : 'A';
      const changed = token.slice(0, index) + replacement + token.slice(index + 1);
      const reason = await refusal(sealer.open(changed, binding));
      expect(['malformed', 'forged']).toContain(reason);
    }
  });

  test('refuses a token sealed under another key as forged', async () => {
    const token = await createRequestStateSealer({ key: otherKey }).seal('x', binding);
    expect(await createRequestStateSealer({ key }).open(token, binding)).toEqual({
      ok: false,
      reason: 'forged',
    });
  });

  test('refuses a token opened for another method, target, arguments or principal as forged', async () => {
    const sealer = createRequestStateSealer({ key });
    const others: RequestStateBinding[] = [
      { ...binding, method: 'prompts/get' },
      { ...binding, target: 'deploy2' },
      { ...binding, arguments: { env: 'dev', replicas: 3, tags: ['a', 'b'] } },
      { ...binding, arguments: { env: 'prod', replicas: 3, tags: ['b', 'a'] } },
      { ...binding, arguments: { env: 'prod', replicas: '3', tags: ['a', 'b'] } },
      { ...binding, arguments: { env: 'prod', replicas: 3, tags: ['a', 'b'], extra: null } },
      { ...binding, arguments: undefined },
      { ...binding, principal: 'sha256:mallory' },
      { ...binding, principal: undefined },
      { ...binding, principal: '' },
    ];
    for (const other of others) {
      const token = await sealer.seal('x', binding);
      expect(await sealer.open(token, other)).toEqual({ ok: false, reason: 'forged' });
      // A failed open does not consume the state: the rightful call still opens it.
      expect(await sealer.open(token, binding)).toEqual({ ok: true, value: 'x' });
    }
  });

  test('treats arguments that differ only in object key order as the same binding', async () => {
    const sealer = createRequestStateSealer({ key });
    const sealedFor = { ...binding, arguments: { a: 1, b: 2, nested: { y: [1, { q: 1, p: 2 }], x: 'z' } } };
    const openedFor = { ...binding, arguments: { nested: { x: 'z', y: [1, { p: 2, q: 1 }] }, b: 2, a: 1 } };
    const token = await sealer.seal('same', sealedFor);
    expect(await sealer.open(token, openedFor)).toEqual({ ok: true, value: 'same' });
    // Fields beyond the four of the binding are ignored.
    const token2 = await sealer.seal('same', binding);
    const extended = { ...binding, extra: 'ignored' } as RequestStateBinding;
    expect(await sealer.open(token2, extended)).toEqual({ ok: true, value: 'same' });
  });

  test('refuses, without throwing, a binding that cannot be written as JSON', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal('x', binding);
    expect(await sealer.open(token, { ...binding, arguments: { n: 1n } })).toEqual({
      ok: false,
      reason: 'forged',
    });
  });

  test('refuses an expired token, and accepts it one millisecond before expiry', async () => {
    const { clock, sealer } = clocked(1_000_000, { ttlMs: 60_000 });
    const late = await sealer.seal('late', binding);
    const onTime = await sealer.seal('on-time', binding);
    clock.now = 1_059_999;
    expect(await sealer.open(onTime, binding)).toEqual({ ok: true, value: 'on-time' });
    clock.now = 1_060_000;
    expect(await sealer.open(late, binding)).toEqual({ ok: false, reason: 'expired' });
  });

  test('uses a default lifetime of ten minutes', async () => {
    const { clock, sealer } = clocked(0);
    const a = await sealer.seal('a', binding);
    const b = await sealer.seal('b', binding);
    clock.now = 599_999;
    expect(await sealer.open(a, binding)).toEqual({ ok: true, value: 'a' });
    clock.now = 600_000;
    expect(await sealer.open(b, binding)).toEqual({ ok: false, reason: 'expired' });
  });

  test('refuses a second open of the same token as replayed', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal({ step: 1 }, binding);
    expect(await sealer.open(token, binding)).toEqual({ ok: true, value: { step: 1 } });
    expect(await sealer.open(token, binding)).toEqual({ ok: false, reason: 'replayed' });
    expect(await sealer.open(token, binding)).toEqual({ ok: false, reason: 'replayed' });
  });

  test('lets only one of two concurrent opens of a token succeed', async () => {
    const sealer = createRequestStateSealer({ key });
    const token = await sealer.seal('once', binding);
    const results = await Promise.all([sealer.open(token, binding), sealer.open(token, binding)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'replayed' }]);
  });

  test('reports a replayed token that has since expired as expired', async () => {
    const { clock, sealer } = clocked(0, { ttlMs: 1000 });
    const token = await sealer.seal('x', binding);
    expect((await sealer.open(token, binding)).ok).toBe(true);
    clock.now = 1000;
    expect(await sealer.open(token, binding)).toEqual({ ok: false, reason: 'expired' });
  });

  test('bounds the replay cache by evicting the oldest nonce when none has expired', async () => {
    const { sealer } = clocked(0, { replayCacheSize: 2 });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((v) => sealer.seal(v, binding)));
    for (const token of [a, b, c]) expect((await sealer.open(token as string, binding)).ok).toBe(true);
    // The cache holds b and c; a was evicted and (documented) opens once more until it expires.
    expect(await sealer.open(b as string, binding)).toEqual({ ok: false, reason: 'replayed' });
    expect(await sealer.open(c as string, binding)).toEqual({ ok: false, reason: 'replayed' });
    expect(await sealer.open(a as string, binding)).toEqual({ ok: true, value: 'a' });
  });

  test('evicts expired nonces before the oldest live one', async () => {
    const { clock, sealer } = clocked(0, { ttlMs: 1000, replayCacheSize: 2 });
    const a = await sealer.seal('a', binding); // expires at 1000
    clock.now = 600;
    const b = await sealer.seal('b', binding); // expires at 1600
    const c = await sealer.seal('c', binding); // expires at 1600
    // b is recorded first (the oldest entry), a second (the first to expire).
    expect((await sealer.open(b, binding)).ok).toBe(true);
    expect((await sealer.open(a, binding)).ok).toBe(true);
    clock.now = 1200; // a has expired, b has not
    expect((await sealer.open(c, binding)).ok).toBe(true);
    // Had the oldest entry been evicted, b would open again; the expired a went instead.
    expect(await sealer.open(b, binding)).toEqual({ ok: false, reason: 'replayed' });
    expect(await sealer.open(c, binding)).toEqual({ ok: false, reason: 'replayed' });
  });

  test('never throws for client input', async () => {
    const sealer = createRequestStateSealer({ key });
    const inputs: unknown[] = [
      'v1.',
      'v1.AAAA',
      `v1.${'A'.repeat(38)}`,
      `v1.${'_'.repeat(8189)}`,
      '\ud800',
      'v1.\u0000',
    ];
    for (const input of inputs) {
      const opened = await sealer.open(input, binding);
      expect(opened.ok).toBe(false);
    }
  });
});

describe('reasonMessage', () => {
  test('gives a short client-facing sentence per reason, without internal detail', () => {
    expect(reasonMessage('forged')).toBe('requestState was not issued by this server for this request');
    expect(reasonMessage('expired')).toBe('requestState has expired');
    expect(reasonMessage('replayed')).toBe('requestState was already used');
    expect(reasonMessage('malformed')).toBe('requestState is malformed');
    expect(reasonMessage('too-long')).toBe('requestState is too long');
    const reasons: RequestStateRefusal[] = ['malformed', 'too-long', 'forged', 'expired', 'replayed'];
    expect(new Set(reasons.map(reasonMessage)).size).toBe(reasons.length);
  });
});

describe('request state properties', () => {
  test('random JSON values round-trip as JSON carries them', async () => {
    const sealer = createRequestStateSealer({ key, maxLength: 1_000_000 });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const opened = await sealer.open(await sealer.seal(value, binding), binding);
        expect(opened).toEqual({ ok: true, value: JSON.parse(JSON.stringify(value)) });
      }),
      { numRuns: 300 },
    );
  });

  test('arguments that are equal up to key order bind the same call', async () => {
    const sealer = createRequestStateSealer({ key, maxLength: 1_000_000 });
    const reorder = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reorder);
      if (typeof value !== 'object' || value === null) return value;
      const entries = Object.entries(value).reverse();
      return Object.fromEntries(entries.map(([k, v]) => [k, reorder(v)]));
    };
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (args) => {
        const token = await sealer.seal(1, { ...binding, arguments: args });
        const opened = await sealer.open(token, { ...binding, arguments: reorder(args) });
        expect(opened).toEqual({ ok: true, value: 1 });
      }),
      { numRuns: 200 },
    );
  });

  test('a random byte flip anywhere in a token is never ok', async () => {
    const sealer = createRequestStateSealer({ key });
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 2 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (value, position, mask) => {
          const token = await sealer.seal(value, binding);
          const bytes = tokenBytes(token);
          const flipped = withFlippedByte(token, position % bytes.length, mask);
          expect(await sealer.open(flipped, binding)).toEqual({ ok: false, reason: 'forged' });
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a random character change anywhere in a token is never ok', async () => {
    const sealer = createRequestStateSealer({ key });
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.integer({ min: 0, max: 0xffff }), async (position, code) => {
        const token = await sealer.seal({ step: 1 }, binding);
        const index = position % token.length;
        const char = String.fromCharCode(code);
        fc.pre(char !== token.charAt(index));
        const changed = token.slice(0, index) + char + token.slice(index + 1);
        expect((await sealer.open(changed, binding)).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
