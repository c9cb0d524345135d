/**
 * The documentation site on two replicas (issue 24): `bun site/main.ts` twice with one REDIS_URL and
 * one SITE_TOKEN_SECRET. A client alternating between them spends one shared 120-per-minute budget
 * (the 121st request gets 429 on whichever replica) and a token from one replica works on the
 * other. With Redis killed each replica counts on its own, answering within the deadline and never
 * with an error; restarted, the replicas share Redis again without a restart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RestartableRedis, startRestartableRedis } from '../redis/support/restartable-redis.ts';
import { type AppProcess, sitePort, spawnApp, stopProcessesAfterAll, timed } from './support/processes.ts';

const SECRET = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
const ORIGIN = 'http://localhost:8080';

let redis: RestartableRedis;
let a: AppProcess;
let b: AppProcess;
stopProcessesAfterAll();

beforeAll(async () => {
  redis = await startRestartableRedis();
  const env = { PORT: '0', SITE_ORIGIN: ORIGIN, SITE_TOKEN_SECRET: SECRET, REDIS_URL: redis.url };
  [a, b] = await Promise.all([
    spawnApp('site A', 'site/main.ts', env, sitePort, 60_000),
    spawnApp('site B', 'site/main.ts', env, sitePort, 60_000),
  ]);
  // Load each replica's machine routes with a request the quota does not count (the API catalog),
  // so the one-minute window the tests spend starts only with them.
  for (const replica of [a, b]) {
    const catalog = await get(replica, '/.well-known/api-catalog');
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get('ratelimit-remaining')).toBeNull();
  }
}, 90_000);

afterAll(async () => {
  await redis?.stop();
});

const get = (at: AppProcess, path: string, headers: Record<string, string> = {}) =>
  fetch(`${at.origin}${path}`, { headers });

describe('the site on two replicas with REDIS_URL', () => {
  test('a token issued by A is accepted by B; a forged one is refused there', async () => {
    const issued = await fetch(`${a.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=docs%3Aread&client_id=replica-test',
    });
    expect(issued.status).toBe(200);
    const token = ((await issued.json()) as { access_token: string }).access_token;
    const onB = await get(b, '/api/v1', { authorization: `Bearer ${token}` });
    expect(onB.status).toBe(200);
    const introspected = await fetch(`${b.origin}/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${token}`,
    });
    expect(((await introspected.json()) as { active: boolean }).active).toBe(true);
    const forged = await get(b, '/api/v1', { authorization: `Bearer ${token.slice(0, -4)}AAAA` });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toContain('invalid_token');
    // The first requests load the machine routes on each replica: slow on a loaded machine.
  }, 60_000);

  test('one budget of 120 per minute for both: alternating requests count down together, the 121st is 429', async () => {
    // Whatever the token test spent is in the same window: read what is left, then spend it.
    let remaining = Number((await get(a, '/api/v1')).headers.get('ratelimit-remaining'));
    expect(remaining).toBeGreaterThan(100);
    expect(remaining).toBeLessThan(120);
    let turn = 0;
    while (remaining > 0) {
      const at = turn++ % 2 === 0 ? b : a;
      const response = await get(at, '/api/v1');
      expect(response.status).toBe(200);
      const now = Number(response.headers.get('ratelimit-remaining'));
      // Shared: each request on either replica takes exactly one from the same count.
      expect(now).toBe(remaining - 1);
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=120;w=60');
      remaining = now;
    }
    for (const at of [a, b]) {
      const refused = await get(at, '/api/v1');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(((await refused.json()) as { status: number }).status).toBe(429);
    }
  }, 60_000);

  test('Redis killed: each replica counts alone, answering within the deadline, never an error', async () => {
    await redis.kill();
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      const at = i % 2 === 0 ? a : b;
      const { value: response, ms } = await timed(() => get(at, '/api/v1'));
      // The shared budget was spent, but Redis is unreachable: the replica's own count starts afresh.
      expect(response.status).toBe(200);
      expect(ms).toBeLessThan(1_500);
      seen.push(Number(response.headers.get('ratelimit-remaining')));
    }
    // Two separate counts: A and B each took 3 from their own 120.
    expect(seen).toEqual([119, 119, 118, 118, 117, 117]);
    // The pages people read were never counted, and keep answering.
    expect((await get(b, '/docs/redis', { accept: 'text/html' })).status).toBe(200);
  }, 30_000);

  test('Redis restarted: the replicas share one count again, without a restart', async () => {
    await redis.start();
    // Each replica asks Redis again 2 s after its last failure; wait until both count in Redis.
    const deadline = Date.now() + 20_000;
    let shared = false;
    while (!shared && Date.now() < deadline) {
      await Bun.sleep(500);
      const first = Number((await get(a, '/api/v1')).headers.get('ratelimit-remaining'));
      const second = Number((await get(b, '/api/v1')).headers.get('ratelimit-remaining'));
      // Redis came back empty: one count from 120, taken in turn by A and B.
      shared = second === first - 1 && first >= 100;
    }
    expect(shared).toBe(true);
  }, 30_000);
});

describe('the site without REDIS_URL', () => {
  test('each process keeps its own quota, as before', async () => {
    const env = { PORT: '0', SITE_ORIGIN: ORIGIN, SITE_TOKEN_SECRET: SECRET };
    const [one, two] = await Promise.all([
      spawnApp('site 1', 'site/main.ts', env, sitePort, 60_000),
      spawnApp('site 2', 'site/main.ts', env, sitePort, 60_000),
    ]);
    expect((await get(one, '/api/v1')).headers.get('ratelimit-remaining')).toBe('119');
    expect((await get(two, '/api/v1')).headers.get('ratelimit-remaining')).toBe('119');
    expect((await get(one, '/api/v1')).headers.get('ratelimit-remaining')).toBe('118');
    await Promise.all([one.stop(), two.stop()]);
  }, 90_000);
});
