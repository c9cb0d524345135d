import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App, setRequestPeer } from '../app/index.ts';
import type { LogFields, Logger } from '../logger/index.ts';
import type { Hooks } from '../types/index.ts';
import { rateLimit, rateLimitField, rateLimitPolicyField, resolveRateLimitOptions } from './rate-limit.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

const Ok = type({ ok: 'boolean' });

function appWith(...hooks: Hooks[]): App {
  const app = new App({ logger: false });
  for (const h of hooks) app.use(h);
  app.get('/ok', { responses: { 200: { body: Ok } } }, () => ({ status: 200, body: { ok: true } }));
  app.get('/me', { responses: { 200: { body: Ok } } }, () => ({ status: 200, body: { ok: true } }));
  return app;
}

/** A request from a given client address, as an adapter would hand it over. */
function from(address: string, path = '/ok'): Request {
  const request = new Request(`http://charter.local${path}`);
  setRequestPeer(request, address);
  return request;
}

async function expectLimited(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.type).toBe('https://charter.dev/errors/too-many-requests');
  expect(body.status).toBe(429);
  return body;
}

function recordingLogger(): Logger & { errors: LogFields[] } {
  const errors: LogFields[] = [];
  const none = () => {};
  return {
    errors,
    debug: none,
    info: none,
    warn: none,
    error: (_m, fields) => void errors.push(fields ?? {}),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rateLimit', () => {
  test('passes up to max with RateLimit fields, then answers 429 with Retry-After, then recovers', async () => {
    const app = appWith(rateLimit({ windowMs: 150, max: 2 }));
    const first = await app.request('/ok');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true });
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=2;w=1');
    expect(first.headers.get('ratelimit')).toBe('"default";r=1;t=1');
    const second = await app.request('/ok');
    expect(second.headers.get('ratelimit')).toBe('"default";r=0;t=1');
    const third = await app.request('/ok');
    const body = await expectLimited(third);
    expect(body.detail).toContain('at most 2');
    expect(third.headers.get('retry-after')).toBe('1');
    expect(third.headers.get('ratelimit-policy')).toBe('"default";q=2;w=1');
    expect(third.headers.get('ratelimit')).toBe('"default";r=0;t=1');
    await sleep(170);
    const later = await app.request('/ok');
    expect(later.status).toBe(200);
    expect(later.headers.get('ratelimit')).toBe('"default";r=1;t=1');
  });

  test('limits unmatched paths too, since it runs in onRequest by default', async () => {
    const app = appWith(rateLimit({ windowMs: 60_000, max: 1 }));
    expect((await app.request('/missing')).status).toBe(404);
    const limited = await app.request('/missing-too');
    await expectLimited(limited);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('ratelimit')).toBe('"default";r=0;t=60');
  });

  test('counts each client address separately', async () => {
    const app = appWith(rateLimit({ windowMs: 60_000, max: 1 }));
    expect((await app.fetch(from('203.0.113.1'))).status).toBe(200);
    expect((await app.fetch(from('203.0.113.2'))).status).toBe(200);
    await expectLimited(await app.fetch(from('203.0.113.1')));
    const other = await app.fetch(from('203.0.113.2', '/me'));
    await expectLimited(other);
  });

  test('puts requests with no known address in one shared "unknown" bucket', async () => {
    const keys: string[] = [];
    const store: RateLimitStore = {
      hit: (key) => {
        keys.push(key);
        return { count: 1, resetAt: Date.now() + 1000 };
      },
    };
    const app = appWith(rateLimit({ windowMs: 1000, max: 5, store }));
    await app.request('/ok');
    await app.fetch(from('198.51.100.7'));
    expect(keys).toEqual(['default:unknown', 'default:198.51.100.7']);
  });

  test('uses a key function, falling back to the address when it gives undefined', async () => {
    const app = appWith(
      rateLimit({
        windowMs: 60_000,
        max: 1,
        key: (request) => request.headers.get('x-api-key') ?? undefined,
      }),
    );
    expect((await app.request('/ok', { headers: { 'x-api-key': 'k1' } })).status).toBe(200);
    expect((await app.request('/ok', { headers: { 'x-api-key': 'k2' } })).status).toBe(200);
    await expectLimited(await app.request('/ok', { headers: { 'x-api-key': 'k1' } }));
    expect((await app.request('/ok')).status).toBe(200);
    await expectLimited(await app.request('/ok'));
  });

  test('limits per identity in beforeHandle, after an auth hook set the user', async () => {
    const auth: Hooks = {
      preBody: (ctx) => {
        ctx.state.user = { sub: ctx.request.headers.get('x-user') ?? 'anonymous', scopes: [], claims: {} };
      },
    };
    const app = appWith(
      auth,
      rateLimit({
        windowMs: 60_000,
        max: 1,
        phase: 'beforeHandle',
        key: (_r, ctx) => String(ctx?.state.user?.sub),
      }),
    );
    const ada = await app.request('/me', { headers: { 'x-user': 'ada' } });
    expect(ada.status).toBe(200);
    expect(ada.headers.get('ratelimit')).toBe('"default";r=0;t=60');
    expect(ada.headers.get('ratelimit-policy')).toBe('"default";q=1;w=60');
    expect((await app.request('/me', { headers: { 'x-user': 'bob' } })).status).toBe(200);
    const again = await app.request('/me', { headers: { 'x-user': 'ada' } });
    await expectLimited(again);
    expect(again.headers.get('retry-after')).toBe('60');
    expect(again.headers.get('ratelimit')).toBe('"default";r=0;t=60');
    // Not counted before routing: an unmatched path is never limited by this policy.
    expect((await app.request('/missing', { headers: { 'x-user': 'ada' } })).status).toBe(404);
  });

  test('runs in preBody when asked, before the body is read', async () => {
    const app = new App({ logger: false });
    app.use(rateLimit({ windowMs: 60_000, max: 1, phase: 'preBody' }));
    app.post(
      '/upload',
      { request: { body: type({ n: 'number' }) }, responses: { 201: { body: Ok } } },
      () => ({
        status: 201,
        body: { ok: true },
      }),
    );
    const ok = await app.request('/upload', {
      method: 'POST',
      body: '{"n":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(201);
    // Malformed body, but the limit answers first.
    const limited = await app.request('/upload', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    await expectLimited(limited);
  });

  test('lists each policy when several apply to one request', async () => {
    const app = appWith(
      rateLimit({ windowMs: 1000, max: 10, name: 'burst' }),
      rateLimit({ windowMs: 3_600_000, max: 1000, name: 'hourly' }),
    );
    const response = await app.request('/ok');
    expect(response.headers.get('ratelimit-policy')).toBe('"burst";q=10;w=1, "hourly";q=1000;w=3600');
    expect(response.headers.get('ratelimit')).toBe('"burst";r=9;t=1, "hourly";r=999;t=3600');
  });

  test('with legacyHeaders, adds RateLimit-Limit, -Remaining and -Reset on passes and on the 429', async () => {
    const app = appWith(rateLimit({ windowMs: 60_000, max: 2, legacyHeaders: true }));
    const first = await app.request('/ok');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit')).toBe('"default";r=1;t=60');
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(first.headers.get('ratelimit-reset')).toBe('60');
    await app.request('/ok');
    const limited = await app.request('/ok');
    await expectLimited(limited);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-limit')).toBe('2');
    expect(limited.headers.get('retry-after')).toBe('60');
  });

  test('legacyHeaders work in preBody too, on the 429 included', async () => {
    const limit = rateLimit({ windowMs: 30_000, max: 1, phase: 'preBody', legacyHeaders: true });
    const app = new App({ logger: false });
    app.get('/ok', { responses: { 200: { body: Ok } }, hooks: limit }, () => ({
      status: 200,
      body: { ok: true },
    }));
    const first = await app.request('/ok');
    expect(first.headers.get('ratelimit-remaining')).toBe('0');
    expect(first.headers.get('ratelimit-reset')).toBe('30');
    const limited = await app.request('/ok');
    await expectLimited(limited);
    expect(limited.headers.get('ratelimit-limit')).toBe('1');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  });

  test('the single-valued legacy fields keep the first policy while the lists name both', async () => {
    const app = appWith(
      rateLimit({ windowMs: 1000, max: 10, name: 'burst', legacyHeaders: true }),
      rateLimit({ windowMs: 3_600_000, max: 1000, name: 'hourly', legacyHeaders: true }),
    );
    const response = await app.request('/ok');
    expect(response.headers.get('ratelimit')).toBe('"burst";r=9;t=1, "hourly";r=999;t=3600');
    expect(response.headers.get('ratelimit-limit')).toBe('10');
    expect(response.headers.get('ratelimit-remaining')).toBe('9');
  });

  test('without legacyHeaders, no legacy field is sent', async () => {
    const response = await appWith(rateLimit({ windowMs: 1000, max: 10 })).request('/ok');
    expect(response.headers.get('ratelimit')).not.toBeNull();
    expect(response.headers.get('ratelimit-limit')).toBeNull();
    expect(response.headers.get('ratelimit-remaining')).toBeNull();
    expect(response.headers.get('ratelimit-reset')).toBeNull();
  });

  test('with headers: false, sends no RateLimit fields, and Retry-After only on the 429', async () => {
    const app = appWith(rateLimit({ windowMs: 60_000, max: 1, headers: false }));
    const first = await app.request('/ok');
    expect(first.headers.get('ratelimit')).toBeNull();
    expect(first.headers.get('ratelimit-policy')).toBeNull();
    const limited = await app.request('/ok');
    await expectLimited(limited);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('ratelimit')).toBeNull();
  });

  test('works with an asynchronous store', async () => {
    const counts = new Map<string, number>();
    const store: RateLimitStore = {
      hit: async (key, windowMs) => {
        await sleep(1);
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        return { count, resetAt: Date.now() + windowMs };
      },
    };
    const app = appWith(rateLimit({ windowMs: 5000, max: 1, store }));
    expect((await app.request('/ok')).status).toBe(200);
    await expectLimited(await app.request('/ok'));
  });

  test('answers a generic 500 when the store fails, and logs the failure', async () => {
    const logger = recordingLogger();
    const store: RateLimitStore = {
      hit: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:6379')),
    };
    const app = appWith(rateLimit({ windowMs: 1000, max: 5, store, logger }));
    const response = await app.request('/ok');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const text = await response.text();
    expect(text).not.toContain('ECONNREFUSED');
    expect(text).not.toContain('10.0.0.5');
    expect(JSON.parse(text).type).toBe('https://charter.dev/errors/internal');
    expect(logger.errors).toHaveLength(1);
    expect(String((logger.errors[0]?.error as Error).message)).toContain('ECONNREFUSED');
  });

  test('with failOpen, lets requests through when the store fails', async () => {
    const store: RateLimitStore = {
      hit: () => {
        throw new Error('store down');
      },
    };
    const response = await appWith(rateLimit({ windowMs: 1000, max: 1, store, failOpen: true })).request(
      '/ok',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toBeNull();
  });

  test('treats a malformed store answer as a store failure', async () => {
    const store = { hit: () => ({ count: 'many' }) } as unknown as RateLimitStore;
    expect((await appWith(rateLimit({ windowMs: 1000, max: 1, store })).request('/ok')).status).toBe(500);
  });

  test('answers 500 when the key function returns something other than a string', async () => {
    const response = await appWith(rateLimit({ windowMs: 1000, max: 1, key: () => 42 as never })).request(
      '/ok',
    );
    expect(response.status).toBe(500);
  });

  test('applies on a single route only when registered there', async () => {
    const app = new App({ logger: false });
    app.get('/free', { responses: { 200: { body: Ok } } }, () => ({ status: 200, body: { ok: true } }));
    app.get(
      '/tight',
      { hooks: rateLimit({ windowMs: 60_000, max: 1 }), responses: { 200: { body: Ok } } },
      () => ({
        status: 200,
        body: { ok: true },
      }),
    );
    const tight = await app.request('/tight');
    expect(tight.status).toBe(200);
    expect(tight.headers.get('ratelimit')).toBe('"default";r=0;t=60');
    await expectLimited(await app.request('/tight'));
    expect((await app.request('/free')).status).toBe(200);
    expect((await app.request('/free')).headers.get('ratelimit')).toBeNull();
  });
});

describe('rateLimit in preBody and beforeHandle', () => {
  function routeApp(hooks: Hooks): App {
    const app = new App({ logger: false });
    app.get('/ok', { responses: { 200: { body: Ok } }, hooks }, () => ({ status: 200, body: { ok: true } }));
    return app;
  }

  test('with the memory store and no key function, the check makes no promise', () => {
    const hooks = rateLimit({ windowMs: 60_000, max: 5, phase: 'preBody' });
    const ctx = { request: new Request('http://charter.local/ok'), set: { headers: new Headers() } };
    expect(hooks.preBody?.(ctx as never)).toBeUndefined();
    expect(ctx.set.headers.get('ratelimit')).toBe('"default";r=4;t=60');
  });

  test('an asynchronous store and an asynchronous key function are awaited', async () => {
    const store: RateLimitStore = {
      hit: async (_key, windowMs) => ({ count: 2, resetAt: Date.now() + windowMs }),
    };
    const app = routeApp(
      rateLimit({ windowMs: 60_000, max: 1, phase: 'beforeHandle', store, key: async () => 'k' }),
    );
    await expectLimited(await app.request('/ok'));
  });

  test('a thenable that is not a Promise is awaited like one', async () => {
    const store: RateLimitStore = {
      hit: (_key, windowMs) =>
        ({
          then: (resolve: (hit: unknown) => void) => resolve({ count: 1, resetAt: Date.now() + windowMs }),
        }) as never,
    };
    const res = await routeApp(rateLimit({ windowMs: 60_000, max: 1, phase: 'preBody', store })).request(
      '/ok',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBe('"default";r=0;t=60');
  });

  test('a store that throws synchronously is a generic 500, or a pass with failOpen', async () => {
    const store: RateLimitStore = {
      hit: () => {
        throw new Error('redis://10.0.0.7:6379 unreachable');
      },
    };
    const closed = await routeApp(rateLimit({ windowMs: 1000, max: 1, phase: 'preBody', store })).request(
      '/ok',
    );
    expect(closed.status).toBe(500);
    expect(await closed.text()).not.toContain('10.0.0.7');
    const open = routeApp(rateLimit({ windowMs: 1000, max: 1, phase: 'preBody', store, failOpen: true }));
    expect((await open.request('/ok')).status).toBe(200);
  });

  test('a malformed synchronous answer is a store failure', async () => {
    const store = { hit: () => ({ count: 'one' }) } as unknown as RateLimitStore;
    expect(
      (await routeApp(rateLimit({ windowMs: 1000, max: 1, phase: 'preBody', store })).request('/ok')).status,
    ).toBe(500);
  });
});

describe('resolveRateLimitOptions', () => {
  test('fills defaults', () => {
    const resolved = resolveRateLimitOptions({ windowMs: 1000, max: 1 });
    expect(resolved.phase).toBe('onRequest');
    expect(resolved.name).toBe('default');
    expect(resolved.headers).toBe(true);
    expect(resolved.legacyHeaders).toBe(false);
    expect(resolved.failOpen).toBe(false);
    expect(typeof resolved.store.hit).toBe('function');
  });

  test('refuses bad options, naming them', () => {
    expect(() => rateLimit({ windowMs: 0, max: 1 })).toThrow(/"windowMs"/);
    expect(() => rateLimit({ windowMs: 1.5, max: 1 })).toThrow(RangeError);
    expect(() => rateLimit({ windowMs: 1000, max: -1 })).toThrow(/"max"/);
    expect(() => rateLimit({ windowMs: 1000 } as never)).toThrow(/"max"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, phase: 'onSend' as never })).toThrow(/"phase"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, name: 'a"b' })).toThrow(/"name"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, name: '' })).toThrow(/"name"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, store: {} as never })).toThrow(/"store"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, key: 'ip' as never })).toThrow(/"key"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, failOpen: 1 as never })).toThrow(/"failOpen"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, headers: 'no' as never })).toThrow(/"headers"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, legacyHeaders: 1 as never })).toThrow(/"legacyHeaders"/);
    expect(() => rateLimit({ windowMs: 1000, max: 1, headers: false, legacyHeaders: true })).toThrow(
      /"legacyHeaders" needs "headers"/,
    );
    expect(() => rateLimit({ windowMs: 1000, max: 1, logger: {} as never })).toThrow(/"logger"/);
    expect(() => rateLimit(undefined as never)).toThrow(TypeError);
  });
});

describe('RateLimit fields', () => {
  test('format the policy and the counter as structured field list members', () => {
    expect(rateLimitPolicyField('default', 100, 60_000)).toBe('"default";q=100;w=60');
    expect(rateLimitPolicyField('fast', 5, 500)).toBe('"fast";q=5;w=1');
    expect(rateLimitField('default', 100, { count: 70, resetAt: 30_000 }, 0)).toBe('"default";r=30;t=30');
    expect(rateLimitField('default', 100, { count: 170, resetAt: 1_500 }, 1_000)).toBe('"default";r=0;t=1');
    expect(rateLimitField('default', 1, { count: 1, resetAt: 0 }, 1_000)).toBe('"default";r=0;t=0');
  });
});

describe('rateLimit: IPv6 clients', () => {
  /** An app behind a loopback proxy that forwards the client address in X-Forwarded-For. */
  function proxiedApp(options: { ipv6Prefix?: number } = {}): App {
    const app = new App({ logger: false, behindProxy: 'loopback' });
    app.use(rateLimit({ windowMs: 60_000, max: 2, ...options }));
    app.get('/ok', { responses: { 200: { body: Ok } } }, () => ({ status: 200, body: { ok: true } }));
    return app;
  }
  const via = (client: string): Request => {
    const request = new Request('http://charter.local/ok', { headers: { 'x-forwarded-for': client } });
    setRequestPeer(request, '127.0.0.1');
    return request;
  };

  test('one /64 shares one budget: rotating the interface id does not reset the quota', async () => {
    const app = proxiedApp();
    expect((await app.fetch(via('2001:db8:1:2::1'))).status).toBe(200);
    expect((await app.fetch(via('2001:db8:1:2:ffff:1234:5678:9abc'))).status).toBe(200);
    const third = await app.fetch(via('2001:db8:1:2::99'));
    await expectLimited(third);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  test('another /64 has its own budget (the good path)', async () => {
    const app = proxiedApp();
    await app.fetch(via('2001:db8:1:2::1'));
    await app.fetch(via('2001:db8:1:2::2'));
    const other = await app.fetch(via('2001:db8:1:3::1'));
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit')).toBe('"default";r=1;t=60');
  });

  test('ipv6Prefix: 128 counts each address alone', async () => {
    const app = proxiedApp({ ipv6Prefix: 128 });
    await app.fetch(via('2001:db8:1:2::1'));
    await app.fetch(via('2001:db8:1:2::1'));
    expect((await app.fetch(via('2001:db8:1:2::2'))).status).toBe(200);
    await expectLimited(await app.fetch(via('2001:db8:1:2::1')));
  });

  test('an IPv4-mapped client shares the budget of its IPv4 address', async () => {
    const app = proxiedApp();
    await app.fetch(via('203.0.113.7'));
    await app.fetch(via('::ffff:203.0.113.7'));
    await expectLimited(await app.fetch(via('203.0.113.7')));
    expect((await app.fetch(via('203.0.113.8'))).status).toBe(200);
  });

  test('an invalid ipv6Prefix is refused, naming the option', () => {
    expect(() => rateLimit({ windowMs: 1000, max: 1, ipv6Prefix: 0 })).toThrow(
      'rateLimit option "ipv6Prefix" must be an integer from 1 to 128, got 0',
    );
  });
});
