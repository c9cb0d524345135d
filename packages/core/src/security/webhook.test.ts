import { describe, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import {
  signWebhookPayload,
  verifyWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookAlgorithm,
} from './webhook.ts';

const secret = 'whsec_3b1f0c8e9a7d4f2b6c5e1a0d9f8b7c6a';
const payload = '{"event":"invoice.paid","id":"evt_1"}';
const t = 1_750_000_000;

describe('signWebhookPayload', () => {
  test('signs "<t>.<payload>" with HMAC-SHA-256 by default as t=<unix>,v1=<hex>', async () => {
    const expected = createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
    expect(await signWebhookPayload({ secret, payload, timestamp: t })).toBe(`t=${t},v1=${expected}`);
  });

  for (const algorithm of ['sha384', 'sha512'] as const) {
    test(`signs with ${algorithm} when asked`, async () => {
      const expected = createHmac(algorithm, secret).update(`${t}.${payload}`).digest('hex');
      expect(await signWebhookPayload({ secret, payload, timestamp: t, algorithm })).toBe(
        `t=${t},v1=${expected}`,
      );
    });
  }

  test('signs bytes exactly as given, including bytes that are not UTF-8', async () => {
    const bytes = new Uint8Array([0xff, 0x00, 0xfe]);
    const expected = createHmac('sha256', new TextEncoder().encode(secret))
      .update(Buffer.concat([Buffer.from(`${t}.`), Buffer.from(bytes)]))
      .digest('hex');
    expect(
      await signWebhookPayload({ secret: new TextEncoder().encode(secret), payload: bytes, timestamp: t }),
    ).toBe(`t=${t},v1=${expected}`);
  });

  test('takes the timestamp from a Date or from the clock', async () => {
    const fromDate = await signWebhookPayload({ secret, payload, timestamp: new Date(t * 1000 + 999) });
    expect(fromDate.startsWith(`t=${t},`)).toBe(true);
    const before = Math.floor(Date.now() / 1000);
    const fromClock = Number(/^t=(\d+),/.exec(await signWebhookPayload({ secret, payload }))?.[1]);
    expect(fromClock).toBeGreaterThanOrEqual(before);
    expect(fromClock).toBeLessThanOrEqual(before + 2);
  });

  test('throws a TypeError for an unknown algorithm or an empty secret', async () => {
    for (const algorithm of ['md5', 'sha1', 'SHA-256', 'toString']) {
      await expect(
        signWebhookPayload({ secret, payload, algorithm: algorithm as WebhookAlgorithm }),
      ).rejects.toBeInstanceOf(TypeError);
    }
    await expect(signWebhookPayload({ secret: '', payload })).rejects.toBeInstanceOf(TypeError);
  });

  test('throws a RangeError for a timestamp in milliseconds or negative', async () => {
    await expect(signWebhookPayload({ secret, payload, timestamp: Date.now() })).rejects.toBeInstanceOf(
      RangeError,
    );
    await expect(signWebhookPayload({ secret, payload, timestamp: -1 })).rejects.toBeInstanceOf(RangeError);
  });
});

describe('verifyWebhookSignature', () => {
  const sign = (algorithm?: WebhookAlgorithm) =>
    signWebhookPayload({ secret, payload, timestamp: t, algorithm });

  test('accepts its own signature within the tolerance, for every algorithm', async () => {
    for (const algorithm of ['sha256', 'sha384', 'sha512'] as const) {
      const signature = await sign(algorithm);
      expect(await verifyWebhookSignature({ secret, payload, signature, algorithm, now: t + 10 })).toBe(true);
    }
  });

  test('refuses a signature made with another algorithm than the verifier configures', async () => {
    const signature = await sign('sha512');
    expect(await verifyWebhookSignature({ secret, payload, signature, now: t })).toBe(false);
  });

  test('refuses a changed payload, a changed timestamp and a wrong secret', async () => {
    const signature = await sign();
    expect(await verifyWebhookSignature({ secret, payload: `${payload} `, signature, now: t })).toBe(false);
    const shifted = signature.replace(`t=${t}`, `t=${t + 1}`);
    expect(await verifyWebhookSignature({ secret, payload, signature: shifted, now: t })).toBe(false);
    expect(await verifyWebhookSignature({ secret: `${secret}x`, payload, signature, now: t })).toBe(false);
  });

  test('applies the 300-second default tolerance in both directions', async () => {
    const signature = await sign();
    expect(WEBHOOK_TOLERANCE_SECONDS).toBe(300);
    expect(await verifyWebhookSignature({ secret, payload, signature, now: t + 300 })).toBe(true);
    expect(await verifyWebhookSignature({ secret, payload, signature, now: t - 300 })).toBe(true);
    expect(await verifyWebhookSignature({ secret, payload, signature, now: t + 301 })).toBe(false);
    expect(await verifyWebhookSignature({ secret, payload, signature, now: t - 301 })).toBe(false);
  });

  test('honours a custom tolerance and a Date for now', async () => {
    const signature = await sign();
    const now = new Date((t + 30) * 1000);
    expect(await verifyWebhookSignature({ secret, payload, signature, now, toleranceSeconds: 60 })).toBe(
      true,
    );
    expect(await verifyWebhookSignature({ secret, payload, signature, now, toleranceSeconds: 10 })).toBe(
      false,
    );
  });

  test('uses the clock by default, refusing an old delivery', async () => {
    const fresh = await signWebhookPayload({ secret, payload });
    expect(await verifyWebhookSignature({ secret, payload, signature: fresh })).toBe(true);
    expect(await verifyWebhookSignature({ secret, payload, signature: await sign() })).toBe(false);
  });

  test('accepts uppercase hex, spaces after commas, unknown keys and several v1 entries', async () => {
    const signature = await sign();
    const hex = signature.slice(signature.indexOf('v1=') + 3);
    const variants = [
      `t=${t}, v1=${hex.toUpperCase()}`,
      `t=${t},v0=legacy,v1=${hex}`,
      `t=${t},v1=${'0'.repeat(64)},v1=${hex}`,
      `v1=${hex},t=${t}`,
    ];
    for (const variant of variants) {
      expect(await verifyWebhookSignature({ secret, payload, signature: variant, now: t })).toBe(true);
    }
  });

  test('takes the timestamp from its own header when the signature has none, and refuses a mismatch', async () => {
    const signature = await sign();
    const onlyHex = signature.slice(signature.indexOf('v1='));
    expect(
      await verifyWebhookSignature({ secret, payload, signature: onlyHex, timestamp: String(t), now: t }),
    ).toBe(true);
    expect(await verifyWebhookSignature({ secret, payload, signature: onlyHex, timestamp: t, now: t })).toBe(
      true,
    );
    expect(await verifyWebhookSignature({ secret, payload, signature: onlyHex, now: t })).toBe(false);
    expect(await verifyWebhookSignature({ secret, payload, signature, timestamp: t + 1, now: t })).toBe(
      false,
    );
    expect(
      await verifyWebhookSignature({ secret, payload, signature: onlyHex, timestamp: 'soon', now: t }),
    ).toBe(false);
  });

  test('resolves false, never throwing, for malformed signature strings', async () => {
    const signature = await sign();
    const malformed: unknown[] = [
      null,
      undefined,
      '',
      'garbage',
      `t=${t}`,
      `t=${t},v1=`,
      `t=abc,${signature.slice(signature.indexOf('v1='))}`,
      `t=${t},t=${t},${signature.slice(signature.indexOf('v1='))}`,
      `${signature},`,
      `t=-5,v1=00`,
      `${signature}${',v1=00'.repeat(10)}`,
      `t=${t},v1=${'z'.repeat(64)}`,
      'x'.repeat(10_000),
      42,
    ];
    for (const value of malformed) {
      expect(await verifyWebhookSignature({ secret, payload, signature: value as string, now: t })).toBe(
        false,
      );
    }
  });

  test('throws for a configuration error: unknown algorithm, empty secret, bad tolerance or now', async () => {
    const signature = await sign();
    await expect(
      verifyWebhookSignature({ secret, payload, signature, algorithm: 'md5' as WebhookAlgorithm }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(verifyWebhookSignature({ secret: '', payload, signature })).rejects.toBeInstanceOf(
      TypeError,
    );
    for (const toleranceSeconds of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(
        verifyWebhookSignature({ secret, payload, signature, toleranceSeconds }),
      ).rejects.toBeInstanceOf(RangeError);
    }
    await expect(
      verifyWebhookSignature({ secret, payload, signature, now: Date.now() }),
    ).rejects.toBeInstanceOf(RangeError);
  });
});
