/**
 * Rate limits and bans through real Apps sharing one real Redis, as two instances of a service
 * would: one instance uses Bun's client, the other node-redis.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import {
  App,
  autoBan,
  type AutoBanOptions,
  rateLimit,
  setRequestPeer,
} from '../../packages/core/src/index.ts';
import { redisAutoBanStore, redisRateLimitStore } from '../../packages/redis/src/index.ts';
import { type ClientKind, redisForThisFile } from './support/clients.ts';
import { type RedisServer, startRedisServer } from './support/redis-server.ts';

const Ok = type({ ok: 'boolean' });
const redis = redisForThisFile();

async function instance(
  kind: ClientKind,
  url: string,
  prefix: string,
  ban: AutoBanOptions = {},
  failOpen = false,
): Promise<App> {
  const client = await redis.client(kind, url);
  const app = new App({
    logger: false,
    hooks: [
      autoBan({
        maxStrikes: 4,
        banMs: 60_000,
        store: redisAutoBanStore({ client, prefix: `${prefix}ab:`, timeoutMs: 300 }),
        ...ban,
      }),
    ],
  });
  app.use(
    rateLimit({
      windowMs: 60_000,
      max: 3,
      failOpen,
      store: redisRateLimitStore({ client, prefix: `${prefix}rl:`, timeoutMs: 300 }),
    }),
  );
  app.get('/ok', { responses: { 200: Ok } }, () => ({ status: 200, body: { ok: true } }));
  return app;
}

function from(address: string, path = '/ok'): Request {
  const request = new Request(`http://charter.local${path}`);
  setRequestPeer(request, address);
  return request;
}

describe('rateLimit and autoBan over Redis', () => {
  test('two instances share one rate limit and one ban list', async () => {
    const prefix = `t1:${crypto.randomUUID()}:`;
    const a = await instance('bun', redis.server.url, prefix);
    const b = await instance('node-redis', redis.server.url, prefix);
    const client = '203.0.113.7';
    expect((await a.request(from(client))).status).toBe(200);
    expect((await b.request(from(client))).status).toBe(200);
    const third = await a.request(from(client));
    expect(third.status).toBe(200);
    expect(third.headers.get('ratelimit')).toBe('"default";r=0;t=60');
    // The fourth request, on the other instance, is over the shared limit: 429, strike 1.
    const limited = await b.request(from(client));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(((await limited.json()) as { type: string }).type).toBe(
      'https://charter.dev/errors/too-many-requests',
    );
    // Strikes 2 to 4: two more 429s and an unmatched path on a.
    expect((await a.request(from(client))).status).toBe(429);
    expect((await b.request(from(client, '/wp-login.php'))).status).toBe(429);
    expect((await a.request(from(client))).status).toBe(429);
    // Banned on both instances, before the rate limit is even counted.
    for (const app of [a, b]) {
      const refused = await app.request(from(client));
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(55);
      const body = (await refused.json()) as { type: string; detail: string };
      expect(body.type).toBe('https://charter.dev/errors/forbidden');
      expect(body.detail).toContain('banned');
      expect(refused.headers.get('ratelimit')).toBeNull();
    }
    // Another client is served.
    expect((await b.request(from('198.51.100.2'))).status).toBe(200);
  });

  test('404s from probes ban a client on every instance', async () => {
    const prefix = `t2:${crypto.randomUUID()}:`;
    const a = await instance('node-redis', redis.server.url, prefix);
    const b = await instance('bun', redis.server.url, prefix);
    const client = '2001:db8::17';
    await Promise.all([
      a.request(from(client, '/.env')),
      b.request(from(client, '/.git/config')),
      a.request(from(client, '/admin')),
      b.request(from(client, '/backup.zip')),
    ]);
    expect((await a.request(from(client))).status).toBe(403);
    expect((await b.request(from(client))).status).toBe(403);
  });
});

describe('when Redis is down', () => {
  let dead: RedisServer;
  const apps = new Map<string, App>();

  beforeAll(async () => {
    dead = await startRedisServer();
    for (const kind of ['bun', 'node-redis'] as const) {
      apps.set(`${kind}:closed`, await instance(kind, dead.url, 'down:'));
      apps.set(`${kind}:open`, await instance(kind, dead.url, 'down:', {}, true));
      apps.set(`${kind}:ban-closed`, await instance(kind, dead.url, 'down:', { failOpen: false }, true));
    }
    // Served while Redis is up.
    expect((await apps.get('bun:closed')?.request(from('203.0.113.1')))?.status).toBe(200);
    await dead.stop();
  });

  for (const kind of ['bun', 'node-redis'] as const) {
    test(`rateLimit answers a generic 500 and autoBan fails open (${kind})`, async () => {
      const app = apps.get(`${kind}:closed`) as App;
      const started = Date.now();
      const response = await app.request(from('203.0.113.1'));
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).toContain('The rate limit could not be checked');
      expect(text).not.toContain(String(dead.port));
      // Both stores gave up within their 300 ms deadlines.
      expect(Date.now() - started).toBeLessThan(2000);
    });

    test(`with failOpen on both, requests are served and nothing crashes (${kind})`, async () => {
      const app = apps.get(`${kind}:open`) as App;
      expect((await app.request(from('203.0.113.1'))).status).toBe(200);
      expect((await app.request(from('203.0.113.1', '/missing'))).status).toBe(404);
    });

    test(`autoBan with failOpen false answers a generic 500 (${kind})`, async () => {
      const app = apps.get(`${kind}:ban-closed`) as App;
      const response = await app.request(from('203.0.113.1'));
      expect(response.status).toBe(500);
      expect(await response.text()).toContain('The ban list could not be checked');
    });
  }
});
