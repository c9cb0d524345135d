import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import fc from 'fast-check';
import { App } from '../app/index.ts';
import { UnauthorizedError } from '../errors/index.ts';
import type { Hooks } from '../types/index.ts';
import { compression } from './compression.ts';
import {
  type IdempotencyOptions,
  idempotency,
  parseIdempotencyKey,
  resolveIdempotencyOptions,
} from './idempotency.ts';
import { memoryIdempotencyStore } from './idempotency-store.ts';

const OrderInput = type({ item: 'string', qty: 'number' });
const Order = type({ id: 'number', item: 'string', qty: 'number' });

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

interface Harness {
  app: App;
  calls: () => number;
}

function buildApp(
  options: IdempotencyOptions = {},
  extra: { hold?: Promise<void>; entered?: () => void; fail?: () => boolean; hooks?: Hooks[] } = {},
): Harness {
  const app = new App({ logger: false });
  let calls = 0;
  app.post(
    '/orders',
    {
      request: { body: OrderInput },
      responses: { 201: { body: Order }, 404: { description: 'no such item' } },
      hooks: [idempotency(options), ...(extra.hooks ?? [])],
    },
    async (ctx) => {
      calls++;
      extra.entered?.();
      if (extra.hold !== undefined) await extra.hold;
      if (extra.fail?.()) throw new Error('database unavailable');
      if (ctx.body.item === 'unknown') return { status: 404 as const };
      ctx.set.headers.set('set-cookie', 'seen=1');
      ctx.set.headers.set('x-request-id', `req-${calls}`);
      return {
        status: 201 as const,
        body: { id: calls, ...ctx.body },
        headers: { location: `/orders/${calls}` },
      };
    },
  );
  app.get(
    '/orders',
    { responses: { 200: { body: type({ calls: 'number' }) } }, hooks: idempotency(options) },
    () => ({
      status: 200 as const,
      body: { calls },
    }),
  );
  return { app, calls: () => calls };
}

function order(
  key: string | undefined,
  body: unknown = { item: 'tea', qty: 2 },
  headers: Record<string, string> = {},
) {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  } satisfies RequestInit;
}

async function problem(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.type).toBe(`https://charter.dev/errors/${code}`);
  return body;
}

describe('idempotency: replay', () => {
  test('replays the stored status, headers and body, and runs the handler once', async () => {
    const { app, calls } = buildApp();
    const first = await app.request('/orders', order('key-1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();
    expect(JSON.parse(firstBody)).toEqual({ id: 1, item: 'tea', qty: 2 });

    const again = await app.request('/orders', order('key-1'));
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe('/orders/1');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(calls()).toBe(1);
  });

  test('does not replay Set-Cookie or per-exchange headers', async () => {
    const { app } = buildApp();
    const first = await app.request('/orders', order('k'));
    expect(first.headers.get('set-cookie')).toBe('seen=1');
    expect(first.headers.get('x-request-id')).toBe('req-1');
    const again = await app.request('/orders', order('k'));
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(again.headers.get('x-request-id')).toBeNull();
  });

  test('treats the same body with other key order or whitespace as the same request', async () => {
    const { app, calls } = buildApp();
    await app.request('/orders', order('k', '{"item":"tea","qty":2}'));
    const again = await app.request('/orders', order('k', '{ "qty": 2,\n "item": "tea" }'));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(calls()).toBe(1);
  });

  test('accepts the key as a Structured Field string, the same key as its bare form', async () => {
    const { app, calls } = buildApp();
    await app.request('/orders', order('"abc-123"'));
    const again = await app.request('/orders', order('abc-123'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(calls()).toBe(1);
  });

  test('stores 4xx results of the handler and replays them', async () => {
    const { app, calls } = buildApp();
    const first = await app.request('/orders', order('k', { item: 'unknown', qty: 1 }));
    expect(first.status).toBe(404);
    const again = await app.request('/orders', order('k', { item: 'unknown', qty: 1 }));
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(calls()).toBe(1);
  });

  test('uses the configured replay header, or none', async () => {
    const named = buildApp({ replayedHeader: 'X-Replayed' }).app;
    await named.request('/orders', order('k'));
    expect((await named.request('/orders', order('k'))).headers.get('x-replayed')).toBe('true');
    const none = buildApp({ replayedHeader: false });
    await none.app.request('/orders', order('k'));
    const again = await none.app.request('/orders', order('k'));
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(none.calls()).toBe(1);
  });

  test('a Content-Encoding named like an Object.prototype member is stored as it is, not a crash', async () => {
    for (const coding of ['constructor', '__proto__', 'toString']) {
      const app = new App({ logger: false });
      let calls = 0;
      app.post(
        '/raw',
        {
          request: { body: OrderInput },
          responses: { 201: { body: type({ n: 'number' }) } },
          hooks: idempotency(),
        },
        (ctx) => {
          ctx.set.headers.set('content-encoding', coding);
          return { status: 201 as const, body: { n: ++calls } };
        },
      );
      const first = await app.request('/raw', order('c'));
      expect(first.status).toBe(201);
      expect(await first.json()).toEqual({ n: 1 });
      const replay = await app.request('/raw', order('c'));
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('content-encoding')).toBe(coding);
      expect(await replay.json()).toEqual({ n: 1 });
      expect(calls).toBe(1);
    }
  });

  test('stores identity bytes when compression coded the first response, and replays to any client', async () => {
    const app = new App({ logger: false });
    app.use(compression({ threshold: 0 }));
    let calls = 0;
    const text = 'receipt line\n'.repeat(200);
    app.post(
      '/receipts',
      {
        request: { body: OrderInput },
        responses: { 201: { body: type({ text: 'string' }) } },
        hooks: idempotency(),
      },
      () => ({ status: 201 as const, body: { text: `${++calls}:${text}` } }),
    );
    const first = await app.request('/receipts', order('r', undefined, { 'accept-encoding': 'gzip' }));
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const plain = await app.request('/receipts', order('r'));
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('idempotent-replayed')).toBe('true');
    expect(await plain.json()).toEqual({ text: `1:${text}` });
    const zstd = await app.request('/receipts', order('r', undefined, { 'accept-encoding': 'zstd' }));
    expect(zstd.headers.get('content-encoding')).toBe('zstd');
    const bytes = new Uint8Array(await zstd.arrayBuffer());
    expect(JSON.parse(new TextDecoder().decode(Bun.zstdDecompressSync(bytes)))).toEqual({
      text: `1:${text}`,
    });
    expect(calls).toBe(1);
  });
});

describe('idempotency: conflicts', () => {
  test('answers 409 while the first request with the key is still running', async () => {
    const hold = gate();
    const entered = gate();
    const { app, calls } = buildApp({}, { hold: hold.opened, entered: entered.open });
    const first = app.request('/orders', order('busy'));
    await entered.opened;
    const second = await app.request('/orders', order('busy'));
    const body = await problem(second, 409, 'conflict');
    expect(body.detail).toContain('still being processed');
    expect(second.headers.get('retry-after')).toBe('1');
    hold.open();
    expect((await first).status).toBe(201);
    const third = await app.request('/orders', order('busy'));
    expect(third.status).toBe(201);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(calls()).toBe(1);
  });

  test('answers 422 when the key is reused for a different request', async () => {
    const { app, calls } = buildApp();
    await app.request('/orders', order('k', { item: 'tea', qty: 2 }));
    const other = await app.request('/orders', order('k', { item: 'tea', qty: 3 }));
    const body = await problem(other, 422, 'validation');
    expect(body.issues).toEqual([
      {
        in: 'headers',
        path: ['idempotency-key'],
        message: 'this key was already used for a different request',
      },
    ]);
    expect(calls()).toBe(1);
  });

  test('answers 422 for the same key on another path or query', async () => {
    const { app } = buildApp();
    await app.request('/orders', order('k'));
    const other = await app.request('/orders?dry=1', order('k'));
    await problem(other, 422, 'validation');
  });

  test('keeps clients of different scopes apart', async () => {
    const { app, calls } = buildApp({ scope: (ctx) => ctx.request.headers.get('x-user') ?? undefined });
    const alice = await app.request('/orders', order('same', undefined, { 'x-user': 'alice' }));
    const bob = await app.request('/orders', order('same', undefined, { 'x-user': 'bob' }));
    expect((await alice.json()).id).toBe(1);
    expect((await bob.json()).id).toBe(2);
    expect(bob.headers.get('idempotent-replayed')).toBeNull();
    const aliceAgain = await app.request('/orders', order('same', undefined, { 'x-user': 'alice' }));
    expect((await aliceAgain.json()).id).toBe(1);
    expect(calls()).toBe(2);
  });
});

describe('idempotency: release and expiry', () => {
  test('releases the key when the handler throws, so a retry runs', async () => {
    let failing = true;
    const { app, calls } = buildApp({}, { fail: () => failing });
    await problem(await app.request('/orders', order('k')), 500, 'internal');
    failing = false;
    const retry = await app.request('/orders', order('k'));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(calls()).toBe(2);
  });

  test('releases the key when a later check refuses with 401, so a retry with credentials runs', async () => {
    let authorised = false;
    const auth: Hooks = {
      beforeHandle: () => {
        if (!authorised) throw new UnauthorizedError('sign in first');
      },
    };
    const { app, calls } = buildApp({}, { hooks: [auth] });
    await problem(await app.request('/orders', order('k')), 401, 'unauthorized');
    authorised = true;
    expect((await app.request('/orders', order('k'))).status).toBe(201);
    expect(calls()).toBe(1);
  });

  test('forgets a key after its TTL', async () => {
    let now = 1_000_000;
    const store = memoryIdempotencyStore({ now: () => now });
    const { app, calls } = buildApp({ store, ttlMs: 60_000 });
    await app.request('/orders', order('k'));
    now += 59_999;
    expect((await app.request('/orders', order('k'))).headers.get('idempotent-replayed')).toBe('true');
    now += 2;
    const fresh = await app.request('/orders', order('k', { item: 'coffee', qty: 1 }));
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(calls()).toBe(2);
  });

  test('does not keep a response bigger than maxResponseBytes', async () => {
    const { app, calls } = buildApp({ maxResponseBytes: 10 });
    await app.request('/orders', order('k'));
    const again = await app.request('/orders', order('k'));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(calls()).toBe(2);
  });
});

describe('idempotency: the header', () => {
  test('lets requests without the key through unless it is required', async () => {
    const { app, calls } = buildApp();
    expect((await app.request('/orders', order(undefined))).status).toBe(201);
    expect((await app.request('/orders', order(undefined))).status).toBe(201);
    expect(calls()).toBe(2);
  });

  test('answers 400 without the key when required', async () => {
    const { app, calls } = buildApp({ required: true });
    const body = await problem(await app.request('/orders', order(undefined)), 400, 'bad-request');
    expect(body.detail).toContain('idempotency-key');
    expect(calls()).toBe(0);
  });

  test('answers 400 for a malformed key', async () => {
    const { app, calls } = buildApp({ maxKeyLength: 8 });
    for (const key of ['123456789', 'a,b', '"unterminated', '""', 'sp ace', '"a"b']) {
      await problem(await app.request('/orders', order(key)), 400, 'bad-request');
    }
    expect(calls()).toBe(0);
  });

  test('ignores the key on methods it does not cover', async () => {
    const { app } = buildApp();
    const res = await app.request('/orders', { headers: { 'idempotency-key': 'k' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  test('parseIdempotencyKey round-trips bare keys and Structured Field strings (property)', () => {
    const visible = fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: 40,
    });
    fc.assert(
      fc.property(visible, (key) => {
        const bare = parseIdempotencyKey(key);
        // A key that starts with a quote is read as a Structured Field string (RFC 8941 §3.3.3):
        // the second assertion covers that form.
        if (!key.startsWith('"')) {
          if (key.includes('"') || key.includes(',') || key.includes('\\')) expect(bare).toBeUndefined();
          else expect(bare).toBe(key);
        }
        const quoted = `"${key.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
        expect(parseIdempotencyKey(quoted)).toBe(key);
      }),
      { numRuns: 500 },
    );
    expect(parseIdempotencyKey('"tab\there"')).toBeUndefined();
    expect(parseIdempotencyKey('"a\\nb"')).toBeUndefined();
    expect(parseIdempotencyKey('x'.repeat(256))).toBeUndefined();
  });
});

describe('resolveIdempotencyOptions', () => {
  test('fills the defaults', () => {
    const resolved = resolveIdempotencyOptions();
    expect([...resolved.methods]).toEqual(['POST', 'PATCH']);
    expect(resolved.header).toBe('idempotency-key');
    expect(resolved.ttlMs).toBe(86_400_000);
    expect(resolved.lockTtlMs).toBe(300_000);
    expect(resolved.maxKeyLength).toBe(255);
    expect(resolved.required).toBe(false);
    expect(resolved.replayedHeader).toBe('idempotent-replayed');
  });

  test('refuses bad options, naming the option', () => {
    expect(() => resolveIdempotencyOptions({ store: {} as never })).toThrow(/store/);
    expect(() => resolveIdempotencyOptions({ methods: [] })).toThrow(/methods/);
    expect(() => resolveIdempotencyOptions({ methods: ['PO ST'] })).toThrow(/methods/);
    expect(() => resolveIdempotencyOptions({ required: 'yes' as never })).toThrow(/required/);
    expect(() => resolveIdempotencyOptions({ header: 'bad header' })).toThrow(/header/);
    expect(() => resolveIdempotencyOptions({ ttlMs: 0 })).toThrow(RangeError);
    expect(() => resolveIdempotencyOptions({ lockTtlMs: -5 })).toThrow(/lockTtlMs/);
    expect(() => resolveIdempotencyOptions({ maxKeyLength: 1.5 })).toThrow(/maxKeyLength/);
    expect(() => resolveIdempotencyOptions({ maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
    expect(() => resolveIdempotencyOptions({ scope: 'user' as never })).toThrow(/scope/);
    expect(() => resolveIdempotencyOptions({ replayedHeader: 'a:b' })).toThrow(/replayedHeader/);
  });
});
