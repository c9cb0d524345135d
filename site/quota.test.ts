// The site's shared quota store against a real redis-server: counted in Redis, counted locally while
// Redis is unreachable (answering at once, never throwing), and back to Redis once it answers.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RestartableRedis, startRestartableRedis } from '../tests/redis/support/restartable-redis.ts';
import { SITE_QUOTA_PREFIX, type SharedQuota, sharedQuotaStore } from './quota.ts';

let redis: RestartableRedis;
let quota: SharedQuota;
const logged: string[] = [];

beforeAll(async () => {
  redis = await startRestartableRedis();
  const at = (level: string) => (msg: string) => void logged.push(`${level}: ${msg}`);
  const logger = { debug() {}, info: at('info'), warn: at('warn'), error: at('error') };
  quota = sharedQuotaStore({ url: redis.url, retryMs: 300, logger: () => logger });
});

afterAll(async () => {
  quota?.close();
  await redis?.stop();
});

describe('sharedQuotaStore', () => {
  test('counts in Redis under charter:site:rl:', async () => {
    expect((await quota.store.hit('default:203.0.113.1', 60_000)).count).toBe(1);
    expect((await quota.store.hit('default:203.0.113.1', 60_000)).count).toBe(2);
    const probe = new Bun.RedisClient(redis.url);
    expect(await probe.get(`${SITE_QUOTA_PREFIX}default:203.0.113.1`)).toBe('2');
    probe.close();
  });

  test('with Redis down, counts in memory at once and logs the outage once', async () => {
    await redis.kill();
    const started = performance.now();
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) counts.push((await quota.store.hit('default:203.0.113.1', 60_000)).count);
    expect(counts).toEqual([1, 2, 3]);
    // At most one deadline (250 ms) for the first hit; the circuit spares the others.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(logged.filter((line) => line.startsWith('error:'))).toHaveLength(1);
  });

  test('once Redis answers again, counts there again', async () => {
    await redis.start();
    const deadline = Date.now() + 15_000;
    let count = 0;
    while (Date.now() < deadline) {
      await Bun.sleep(350);
      count = (await quota.store.hit('default:203.0.113.9', 60_000)).count;
      const probe = new Bun.RedisClient(redis.url);
      const stored = await probe.get(`${SITE_QUOTA_PREFIX}default:203.0.113.9`);
      probe.close();
      if (stored !== null && Number(stored) === count) break;
    }
    expect(logged).toContain('info: site quota: Redis answers again; counting in Redis');
  }, 30_000);
});
