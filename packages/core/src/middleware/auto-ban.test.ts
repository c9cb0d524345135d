import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App, setRequestPeer } from '../app/index.ts';
import type { LogFields, Logger } from '../logger/index.ts';
import { type AutoBanEvent, type AutoBanOptions, autoBan, resolveAutoBanOptions } from './auto-ban.ts';
import { type AutoBanStore, memoryAutoBanStore } from './auto-ban-store.ts';
import { waf } from './waf.ts';

const Ok = type({ ok: 'boolean' });

function appWith(options: AutoBanOptions): App {
  const app = new App({ logger: false, hooks: [autoBan(options)] });
  app.get('/ok', { responses: { 200: Ok } }, () => ({ status: 200, body: { ok: true } }));
  return app;
}

/** A request from a given client address, as an adapter would hand it over. */
function from(address: string, path = '/ok'): Request {
  const request = new Request(`http://charter.local${path}`);
  setRequestPeer(request, address);
  return request;
}

async function expectBanned(response: Response, status = 403): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const seconds = Number(response.headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(1);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.status).toBe(status);
  expect(String(body.detail)).toContain('banned');
  return body;
}

const failing: AutoBanStore = {
  strike: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:6379')),
  bannedUntil: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:6379')),
};

describe('autoBan', () => {
  test('bans a client after maxStrikes 404s and refuses it before routing with 403 and Retry-After', async () => {
    const app = appWith({ maxStrikes: 3, banMs: 60_000 });
    for (let i = 0; i < 3; i++)
      expect((await app.request(from('203.0.113.9', `/probe-${i}`))).status).toBe(404);
    const body = await expectBanned(await app.request(from('203.0.113.9')));
    expect(body.type).toBe('https://charter.dev/errors/forbidden');
    const retry = Number((await app.request(from('203.0.113.9'))).headers.get('retry-after'));
    expect(retry).toBeGreaterThan(55);
    expect(retry).toBeLessThanOrEqual(60);
    // Another client is not affected.
    expect((await app.request(from('198.51.100.1'))).status).toBe(200);
  });

  test('does not count successful responses, nor strikes below the threshold', async () => {
    const app = appWith({ maxStrikes: 3 });
    for (let i = 0; i < 10; i++) expect((await app.request(from('203.0.113.9'))).status).toBe(200);
    await app.request(from('203.0.113.9', '/nope'));
    await app.request(from('203.0.113.9', '/nope'));
    expect((await app.request(from('203.0.113.9'))).status).toBe(200);
  });

  test('counts WAF refusals as strikes', async () => {
    const app = new App({ logger: false, hooks: [autoBan({ maxStrikes: 2 })] });
    app.use(waf());
    app.get('/ok', { responses: { 200: Ok } }, () => ({ status: 200, body: { ok: true } }));
    expect((await app.request(from('203.0.113.9', '/ok?q=../../etc/passwd'))).status).toBe(403);
    expect((await app.request(from('203.0.113.9', '/ok?q=../../etc/passwd'))).status).toBe(403);
    await expectBanned(await app.request(from('203.0.113.9')));
  });

  test('its own refusals are not strikes: the ban is not extended by the requests it refuses', async () => {
    const store = memoryAutoBanStore();
    const app = appWith({ maxStrikes: 2, store });
    await app.request(from('203.0.113.9', '/x'));
    await app.request(from('203.0.113.9', '/x'));
    const until = store.bannedUntil('203.0.113.9');
    expect(until).toBeNumber();
    for (let i = 0; i < 5; i++) await expectBanned(await app.request(from('203.0.113.9')));
    expect(store.bannedUntil('203.0.113.9')).toBe(until as number);
    expect(store.strike('203.0.113.9', { windowMs: 1, maxStrikes: 99, banMs: 1 }).strikes).toBe(2);
  });

  test('lifts the ban after banMs', async () => {
    const app = appWith({ maxStrikes: 1, banMs: 40 });
    await app.request(from('203.0.113.9', '/x'));
    await expectBanned(await app.request(from('203.0.113.9')));
    await Bun.sleep(60);
    expect((await app.request(from('203.0.113.9'))).status).toBe(200);
  });

  test('answers 429 with Retry-After when status is 429', async () => {
    const app = appWith({ maxStrikes: 1, status: 429 });
    await app.request(from('203.0.113.9', '/x'));
    const body = await expectBanned(await app.request(from('203.0.113.9')), 429);
    expect(body.type).toBe('https://charter.dev/errors/too-many-requests');
  });

  test('takes its statuses from the statuses option', async () => {
    const app = appWith({ maxStrikes: 1, statuses: [401] });
    for (let i = 0; i < 3; i++) expect((await app.request(from('203.0.113.9', '/x'))).status).toBe(404);
    expect((await app.request(from('203.0.113.9'))).status).toBe(200);
  });

  test('strike(request) counts strikes the application decides on', async () => {
    const bans = autoBan({ maxStrikes: 2, statuses: [] });
    const app = new App({ logger: false, hooks: [bans] });
    app.post('/login', { responses: { 200: Ok } }, async (ctx) => {
      await bans.strike(ctx.request);
      return { status: 200, body: { ok: false } };
    });
    app.get('/ok', { responses: { 200: Ok } }, () => ({ status: 200, body: { ok: true } }));
    const login = () => {
      const request = new Request('http://charter.local/login', { method: 'POST' });
      setRequestPeer(request, '203.0.113.9');
      return app.request(request);
    };
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(200);
    await expectBanned(await login());
    await expectBanned(await app.request(from('203.0.113.9')));
  });

  test('never strikes nor bans a request whose client address is unknown', async () => {
    const store = memoryAutoBanStore();
    const app = appWith({ maxStrikes: 1, store });
    // In-process requests have no peer; a spoofed X-Forwarded-For is not trusted without a proxy posture.
    for (let i = 0; i < 3; i++) {
      const res = await app.request('/x', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(res.status).toBe(404);
    }
    expect(store.size).toBe(0);
    expect((await app.request('/ok')).status).toBe(200);
  });

  test('never strikes an exempt address', async () => {
    const app = appWith({ maxStrikes: 1, exempt: (a) => a === '10.0.0.1' });
    await app.request(from('10.0.0.1', '/x'));
    expect((await app.request(from('10.0.0.1'))).status).toBe(200);
    await app.request(from('10.0.0.2', '/x'));
    await expectBanned(await app.request(from('10.0.0.2')));
  });

  test('calls onBan exactly once per ban, even for parallel strikes', async () => {
    const events: AutoBanEvent[] = [];
    const app = appWith({ maxStrikes: 5, onBan: (e) => void events.push(e) });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => app.request(from('203.0.113.9', '/x'))),
    );
    expect(answers.every((r) => r.status === 404)).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]?.address).toBe('203.0.113.9');
    expect(events[0]?.strikes).toBe(5);
    expect(events[0]?.bannedUntil).toBeGreaterThan(Date.now());
  });

  test('a throwing onBan changes nothing', async () => {
    const app = appWith({
      maxStrikes: 1,
      onBan: () => {
        throw new Error('listener down');
      },
    });
    expect((await app.request(from('203.0.113.9', '/x'))).status).toBe(404);
    await expectBanned(await app.request(from('203.0.113.9')));
  });

  test('fails open by default when the store fails, logging the error', async () => {
    const logged: LogFields[] = [];
    const logger = { error: (_m: string, f?: LogFields) => void logged.push(f ?? {}) } as unknown as Logger;
    const app = appWith({ store: failing, logger });
    expect((await app.request(from('203.0.113.9'))).status).toBe(200);
    expect((await app.request(from('203.0.113.9', '/x'))).status).toBe(404);
    expect(logged.length).toBe(3);
  });

  test('answers a generic 500 when the store fails and failOpen is false', async () => {
    const app = appWith({ store: failing, failOpen: false });
    const response = await app.request(from('203.0.113.9'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('10.0.0.7');
    expect(text).toContain('ban list could not be checked');
  });

  test('strike(request) resolves undefined when the store fails, and the state when it works', async () => {
    for (const [store, expected] of [
      [failing, 'none'],
      [memoryAutoBanStore(), '1'],
    ] as const) {
      const bans = autoBan({ store });
      const app = new App({ logger: false, hooks: [bans] });
      app.get('/s', { responses: { 200: type({ strikes: 'string' }) } }, async (ctx) => {
        const state = await bans.strike(ctx.request);
        return { status: 200, body: { strikes: state === undefined ? 'none' : String(state.strikes) } };
      });
      expect(await (await app.request(from('203.0.113.9', '/s'))).json()).toEqual({ strikes: expected });
    }
  });

  test('rejects invalid options, naming them', () => {
    expect(() => resolveAutoBanOptions({ windowMs: 0 })).toThrow(/"windowMs"/);
    expect(() => resolveAutoBanOptions({ maxStrikes: 1.5 })).toThrow(/"maxStrikes"/);
    expect(() => resolveAutoBanOptions({ banMs: -1 })).toThrow(/"banMs"/);
    expect(() => resolveAutoBanOptions({ statuses: [99] })).toThrow(/"statuses"/);
    expect(() => resolveAutoBanOptions({ status: 401 as 403 })).toThrow(/"status"/);
    expect(() => resolveAutoBanOptions({ store: {} as AutoBanStore })).toThrow(/"store"/);
    expect(() => resolveAutoBanOptions({ failOpen: 'no' as unknown as boolean })).toThrow(/"failOpen"/);
    expect(() => resolveAutoBanOptions({ exempt: 'x' as unknown as () => boolean })).toThrow(/"exempt"/);
    const d = resolveAutoBanOptions();
    expect(d.policy).toEqual({ windowMs: 60_000, maxStrikes: 20, banMs: 600_000 });
    expect([...d.statuses]).toEqual([401, 403, 404, 429]);
    expect(d.failOpen).toBe(true);
    expect(d.status).toBe(403);
  });

  test('its hooks object is accepted by app.use (strike is not an own enumerable key)', () => {
    const hooks = autoBan();
    expect(Object.keys(hooks).sort()).toEqual(['onRequest', 'onResponse']);
    expect(() => new App({ logger: false }).use(hooks)).not.toThrow();
  });
});

describe('autoBan: IPv6 clients', () => {
  test('strikes and bans the /64: a new address in the same network is still banned', async () => {
    const events: AutoBanEvent[] = [];
    const app = appWith({ maxStrikes: 2, banMs: 60_000, onBan: (event) => void events.push(event) });
    expect((await app.request(from('2001:db8:7:7::1', '/probe-a'))).status).toBe(404);
    expect((await app.request(from('2001:db8:7:7::2', '/probe-b'))).status).toBe(404);
    await expectBanned(await app.request(from('2001:db8:7:7:abcd::3')));
    expect(events.map((event) => event.address)).toEqual(['2001:db8:7:7::/64']);
    // Another network is not affected (the good path).
    expect((await app.request(from('2001:db8:7:8::1'))).status).toBe(200);
  });

  test('ipv6Prefix: 128 bans one address only; an invalid value is refused by name', async () => {
    const app = appWith({ maxStrikes: 1, ipv6Prefix: 128 });
    await app.request(from('2001:db8:7:7::1', '/probe'));
    await expectBanned(await app.request(from('2001:db8:7:7::1')));
    expect((await app.request(from('2001:db8:7:7::2'))).status).toBe(200);
    expect(() => autoBan({ ipv6Prefix: 200 })).toThrow(
      'autoBan option "ipv6Prefix" must be an integer from 1 to 128',
    );
  });
});
