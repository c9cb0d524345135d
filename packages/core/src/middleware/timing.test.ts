import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { resolveTimingOptions, serverTiming, timing } from './timing.ts';

const Ok = type({ ok: 'boolean' });
const okRoute = { responses: { 200: { body: Ok } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The metrics of a Server-Timing value, by name. */
function metrics(header: string | null): Map<string, { dur?: number; desc?: string }> {
  const out = new Map<string, { dur?: number; desc?: string }>();
  for (const part of (header ?? '').split(/, (?=[a-z])/)) {
    const [name, ...params] = part.split(';');
    const entry: { dur?: number; desc?: string } = {};
    for (const param of params) {
      if (param.startsWith('dur=')) entry.dur = Number(param.slice(4));
      if (param.startsWith('desc=')) entry.desc = param.slice(5);
    }
    out.set(name as string, entry);
  }
  return out;
}

describe('timing', () => {
  test('sends the total duration of the request in Server-Timing', async () => {
    const app = new App({ logger: false });
    app.use(timing({ enabled: true }));
    app.get('/slow', okRoute, async () => {
      await sleep(25);
      return { status: 200 as const, body: { ok: true } };
    });
    const res = await app.request('/slow');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const header = res.headers.get('server-timing');
    expect(header).toMatch(/^total;dur=\d+\.\d$/);
    const total = metrics(header).get('total')?.dur as number;
    expect(total).toBeGreaterThanOrEqual(20);
    expect(total).toBeLessThan(5000);
  });

  test('adds the metrics a handler records with serverTiming(ctx), descriptions quoted', async () => {
    const app = new App({ logger: false });
    app.use(timing({ enabled: true, precision: 2 }));
    app.get('/work', okRoute, async (ctx) => {
      const stop = serverTiming(ctx).start('db', 'user "lookup"');
      await sleep(5);
      stop();
      serverTiming(ctx).add('cache', 1.234, 'miss').add('edge');
      return { status: 200 as const, body: { ok: true } };
    });
    const header = (await app.request('/work')).headers.get('server-timing') as string;
    expect(header).toMatch(
      /^db;dur=\d+\.\d\d;desc="user \\"lookup\\"", cache;dur=1\.23;desc="miss", edge, total;dur=/,
    );
    expect(metrics(header).get('db')?.dur).toBeGreaterThanOrEqual(4);
  });

  test('refuses metric names that are not tokens and bad durations', () => {
    const recorder = serverTiming({});
    expect(() => recorder.add('bad name', 1)).toThrow(TypeError);
    expect(() => recorder.add('x,y')).toThrow(/token/);
    expect(() => recorder.add('ok', -1)).toThrow(RangeError);
    expect(() => recorder.add('ok', Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(recorder.add('fine', 0).metrics).toEqual([{ name: 'fine', duration: 0, description: undefined }]);
  });

  test('replaces characters a header cannot carry in descriptions', async () => {
    const app = new App({ logger: false });
    app.use(timing({ enabled: true }));
    app.get('/desc', okRoute, (ctx) => {
      serverTiming(ctx).add('x', 1, 'line\r\nbreak é');
      return { status: 200 as const, body: { ok: true } };
    });
    const header = (await app.request('/desc')).headers.get('server-timing') as string;
    expect(header.startsWith('x;dur=1.0;desc="line??break ?"')).toBe(true);
  });

  test('is off by default when NODE_ENV is production, and on otherwise', () => {
    const env = process.env.NODE_ENV;
    try {
      process.env.NODE_ENV = 'production';
      expect(resolveTimingOptions().enabled).toBe(false);
      expect(timing()).toEqual({});
      expect(resolveTimingOptions({ enabled: true }).enabled).toBe(true);
      process.env.NODE_ENV = 'development';
      expect(resolveTimingOptions().enabled).toBe(true);
    } finally {
      process.env.NODE_ENV = env;
    }
  });

  test('sends nothing when disabled', async () => {
    const app = new App({ logger: false });
    app.use(timing({ enabled: false }));
    app.get('/x', okRoute, () => ({ status: 200 as const, body: { ok: true } }));
    expect((await app.request('/x')).headers.get('server-timing')).toBeNull();
  });

  test('sends metrics only to requests `allow` admits, with Timing-Allow-Origin when set', async () => {
    const app = new App({ logger: false });
    app.use(
      timing({
        enabled: true,
        allow: (ctx) => ctx.request.headers.get('x-debug') === '1',
        timingAllowOrigin: 'https://app.example',
      }),
    );
    app.get('/x', okRoute, () => ({ status: 200 as const, body: { ok: true } }));
    const hidden = await app.request('/x');
    expect(hidden.headers.get('server-timing')).toBeNull();
    expect(hidden.headers.get('timing-allow-origin')).toBeNull();
    const shown = await app.request('/x', { headers: { 'x-debug': '1' } });
    expect(shown.headers.get('server-timing')).toMatch(/^total;dur=/);
    expect(shown.headers.get('timing-allow-origin')).toBe('https://app.example');
  });

  test('caps the number of metrics, keeping the total', async () => {
    const app = new App({ logger: false });
    app.use(timing({ enabled: true, maxMetrics: 3, totalName: 'app' }));
    app.get('/many', okRoute, (ctx) => {
      for (let i = 0; i < 10; i++) serverTiming(ctx).add(`m${i}`, i);
      return { status: 200 as const, body: { ok: true } };
    });
    const header = (await app.request('/many')).headers.get('server-timing') as string;
    expect([...metrics(header).keys()]).toEqual(['m0', 'm1', 'app']);
  });

  test('times error responses too, and keeps a Server-Timing the handler set', async () => {
    const app = new App({ logger: false });
    app.use(timing({ enabled: true }));
    app.get('/boom', okRoute, () => {
      throw new Error('boom');
    });
    app.get(
      '/own',
      { acknowledgeNoResponseBodySchema: true, responses: { 200: { description: 'x' } } },
      () => {
        return new Response('x', { headers: { 'server-timing': 'upstream;dur=3' } });
      },
    );
    const boom = await app.request('/boom');
    expect(boom.status).toBe(500);
    expect(boom.headers.get('server-timing')).toMatch(/^total;dur=/);
    expect((await app.request('/own')).headers.get('server-timing')).toMatch(/^upstream;dur=3, total;dur=/);
  });

  test('works in a group and sends nothing for unmatched requests', async () => {
    const app = new App({ logger: false, hooks: timing({ enabled: true }) });
    app.group('/g', { hooks: timing({ enabled: true, totalName: 'group' }) }, (g) =>
      g.get('/x', okRoute, () => ({ status: 200 as const, body: { ok: true } })),
    );
    const res = await app.request('/g/x');
    expect([...metrics(res.headers.get('server-timing')).keys()]).toEqual(['total', 'group']);
    const missing = await app.request('/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('server-timing')).toBeNull();
  });

  test('refuses bad options, naming the option', () => {
    expect(() => resolveTimingOptions({ enabled: 1 as never })).toThrow(/enabled/);
    expect(() => resolveTimingOptions({ totalName: 'a b' })).toThrow(/totalName/);
    expect(() => resolveTimingOptions({ precision: 4 })).toThrow(RangeError);
    expect(() => resolveTimingOptions({ allow: true as never })).toThrow(/allow/);
    expect(() => resolveTimingOptions({ timingAllowOrigin: 'a\r\nb' })).toThrow(/timingAllowOrigin/);
    expect(() => resolveTimingOptions({ maxMetrics: 0 })).toThrow(/maxMetrics/);
  });
});
