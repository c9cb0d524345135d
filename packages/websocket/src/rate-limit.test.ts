import { describe, expect, test } from 'bun:test';
import { App, type Logger, memoryRateLimitStore } from '@charter/core';
import { resolveWsRateLimitOptions, wsRateLimit } from './rate-limit.ts';

const HANDSHAKE = {
  upgrade: 'websocket',
  connection: 'Upgrade',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

function logger(): { logger: Logger; errors: unknown[] } {
  const errors: unknown[] = [];
  const noop = (): void => {};
  return { logger: { debug: noop, info: noop, warn: noop, error: (_m, f) => void errors.push(f) }, errors };
}

describe('wsRateLimit', () => {
  test('allows max upgrades per window per client, then answers 429 with Retry-After', async () => {
    const app = new App({ logger: false });
    app.ws('/ws', { beforeUpgrade: wsRateLimit({ windowMs: 60_000, max: 2 }) });
    expect((await app.request('/ws', { headers: HANDSHAKE })).status).toBe(200);
    expect((await app.request('/ws', { headers: HANDSHAKE })).status).toBe(200);
    const refused = await app.request('/ws', { headers: HANDSHAKE });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(await refused.json()).toMatchObject({
      type: 'https://charter.dev/errors/too-many-requests',
      status: 429,
    });
  });

  test('keys come from keyGenerator, and routes sharing a groupId and store share the budget', async () => {
    const store = memoryRateLimitStore();
    const limit = () =>
      wsRateLimit({
        windowMs: 60_000,
        max: 1,
        groupId: 'chat',
        store,
        keyGenerator: (ctx) => ctx.query.user as string,
      });
    const app = new App({ logger: false });
    app.ws('/a', { beforeUpgrade: limit() });
    app.ws('/b', { beforeUpgrade: limit() });
    expect((await app.request('/a?user=ada', { headers: HANDSHAKE })).status).toBe(200);
    expect((await app.request('/b?user=ada', { headers: HANDSHAKE })).status).toBe(429);
    expect((await app.request('/b?user=bob', { headers: HANDSHAKE })).status).toBe(200);
  });

  test('a failing store or key generator gives a generic 500, logged, never its message', async () => {
    const log = logger();
    const app = new App({ logger: false });
    const store = { hit: () => Promise.reject(new Error('redis://10.0.0.5:6379 refused')) };
    app.ws('/s', { beforeUpgrade: wsRateLimit({ windowMs: 1000, max: 1, store, logger: log.logger }) });
    app.ws('/k', {
      beforeUpgrade: wsRateLimit({
        windowMs: 1000,
        max: 1,
        logger: log.logger,
        keyGenerator: () => {
          throw new Error('db down at 10.0.0.6');
        },
      }),
    });
    for (const path of ['/s', '/k']) {
      const response = await app.request(path, { headers: HANDSHAKE });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toContain('10.0.0');
      expect(text).toContain('The rate limit could not be checked');
    }
    expect(log.errors).toHaveLength(2);
  });

  test('options are validated with the option named', () => {
    expect(() => resolveWsRateLimitOptions({ windowMs: 0, max: 1 })).toThrow(/windowMs/);
    expect(() => resolveWsRateLimitOptions({ windowMs: 1, max: 1.5 })).toThrow(/max/);
    expect(() => resolveWsRateLimitOptions({ windowMs: 1, max: 1, groupId: 'a b' })).toThrow(/groupId/);
    expect(() => resolveWsRateLimitOptions({ windowMs: 1, max: 1, store: {} as never })).toThrow(/store/);
    expect(() => resolveWsRateLimitOptions({ windowMs: 1, max: 1, keyGenerator: 1 as never })).toThrow(
      /keyGenerator/,
    );
    expect(resolveWsRateLimitOptions({ windowMs: 1, max: 1 }).groupId).toBe('ws');
  });
});
