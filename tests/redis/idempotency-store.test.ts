/**
 * redisIdempotencyStore against a real redis-server, through both client adapters: the store contract
 * (claim, replay, release, expiry), one claim out of many parallel ones, and the idempotency()
 * middleware on two Apps sharing the store.
 */
import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App, idempotency, type StoredResponse } from '../../packages/core/src/index.ts';
import { redisIdempotencyStore } from '../../packages/redis/src/index.ts';
import { CLIENT_KINDS, redisForThisFile } from './support/clients.ts';

const redis = redisForThisFile();
const FP = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const key = () => `k-${crypto.randomUUID()}`;

function response(text: string): StoredResponse {
  return {
    status: 201,
    headers: [
      ['content-type', 'application/json'],
      ['location', '/orders/1'],
    ],
    body: new TextEncoder().encode(text),
  };
}

for (const kind of CLIENT_KINDS) {
  describe(`redisIdempotencyStore (${kind})`, () => {
    test('the first begin claims the key; the next sees it in flight with its fingerprint', async () => {
      const store = redisIdempotencyStore({ client: await redis.client(kind) });
      const k = key();
      expect(await store.begin(k, FP, 60_000)).toBeUndefined();
      const seen = await store.begin(k, OTHER, 60_000);
      expect(seen?.state).toBe('in-flight');
      expect(seen?.fingerprint).toBe(FP);
      expect(seen?.expiresAt).toBeGreaterThan(Date.now() + 55_000);
    });

    test('complete stores the response (bytes and headers) and begin then answers it', async () => {
      const store = redisIdempotencyStore({ client: await redis.client(kind) });
      const k = key();
      await store.begin(k, FP, 60_000);
      const bytes = new Uint8Array([0, 1, 2, 250, 255, 10, 13]);
      await store.complete(k, FP, { status: 200, headers: [['x-a', 'b']], body: bytes }, 120_000);
      const record = await store.begin(k, FP, 60_000);
      expect(record?.state).toBe('completed');
      if (record?.state !== 'completed') throw new Error('not completed');
      expect(record.response.status).toBe(200);
      expect(record.response.headers).toEqual([['x-a', 'b']]);
      expect([...record.response.body]).toEqual([...bytes]);
      expect(record.expiresAt).toBeGreaterThan(Date.now() + 110_000);
      expect((await store.get(k))?.state).toBe('completed');
    });

    test('release drops only an in-flight claim of the same fingerprint', async () => {
      const store = redisIdempotencyStore({ client: await redis.client(kind) });
      const k = key();
      await store.begin(k, FP, 60_000);
      await store.release(k, OTHER);
      expect((await store.get(k))?.state).toBe('in-flight');
      await store.release(k, FP);
      expect(await store.get(k)).toBeUndefined();
      await store.begin(k, FP, 60_000);
      await store.complete(k, FP, response('{}'), 60_000);
      await store.release(k, FP);
      expect((await store.get(k))?.state).toBe('completed');
    });

    test('a claim expires after its lock time, and maxTtlMs caps what is kept', async () => {
      const client = await redis.client(kind);
      const store = redisIdempotencyStore({ client, prefix: 'cap:', maxTtlMs: 5_000 });
      const k = key();
      await store.begin(k, FP, 80);
      await Bun.sleep(150);
      expect(await store.begin(k, OTHER, 60_000)).toBeUndefined();
      await store.complete(k, OTHER, response('{}'), 86_400_000);
      const ttl = Number(await client.send('PTTL', [`cap:${k}`]));
      expect(ttl).toBeGreaterThan(4_000);
      expect(ttl).toBeLessThanOrEqual(5_000);
    });

    test('exactly one of 50 parallel claims wins', async () => {
      const store = redisIdempotencyStore({ client: await redis.client(kind) });
      const k = key();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.begin(k, i.toString(16).padStart(64, '0'), 60_000)),
      );
      expect(results.filter((r) => r === undefined)).toHaveLength(1);
    });
  });
}

describe('idempotency() over Redis on two instances', () => {
  async function instance(kind: (typeof CLIENT_KINDS)[number], prefix: string, runs: string[]): Promise<App> {
    const store = redisIdempotencyStore({ client: await redis.client(kind), prefix });
    const app = new App({ logger: false });
    app.post(
      '/orders',
      {
        hooks: idempotency({ store }),
        request: { body: type({ item: 'string' }) },
        responses: { 201: { body: type({ id: 'string', item: 'string', by: 'string' }) } },
      },
      (ctx) => {
        runs.push(kind);
        return { status: 201, body: { id: crypto.randomUUID(), item: ctx.body.item, by: kind } };
      },
    );
    return app;
  }

  const post = (app: App, idempotencyKey: string, item: string) =>
    app.request('http://localhost/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify({ item }),
    });

  test('a POST replayed on the other instance gets the first answer; another body with the key is 422', async () => {
    const runs: string[] = [];
    const prefix = `idem:${crypto.randomUUID()}:`;
    const a = await instance('bun', prefix, runs);
    const b = await instance('node-redis', prefix, runs);
    const first = await post(a, 'order-1', 'tea');
    expect(first.status).toBe(201);
    const body = await first.json();
    const again = await post(b, 'order-1', 'tea');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(body);
    expect(runs).toEqual(['bun']);
    const other = await post(b, 'order-1', 'coffee');
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toBe('application/problem+json');
  });
});

describe('redisIdempotencyStore and a broken record', () => {
  test('a stored response that is not JSON fails with a plain Error (a 500), never a 400', async () => {
    const client = await redis.client('bun');
    const store = redisIdempotencyStore({ client, prefix: 'broken:' });
    await client.send('SET', [`broken:k`, `c:${FP}:{"status":`]);
    const error = await store.get('k').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('not valid JSON');
    expect((error as { status?: number }).status).toBeUndefined();
  });
});
