import { describe, expect, test } from 'bun:test';
import { type CardSourceSettings, createCardSource, freshnessSeconds } from './card.ts';
import { A2aClientError } from './errors.ts';

const CARD_URL = new URL('https://agent.example.com/.well-known/agent-card.json');

function cardBody(endpoint = 'https://agent.example.com/a2a', tenant?: string): string {
  return JSON.stringify({
    name: 'a',
    description: 'd',
    version: '1',
    supportedInterfaces: [
      { url: 'https://agent.example.com/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      {
        url: endpoint,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
        ...(tenant === undefined ? {} : { tenant }),
      },
    ],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'x', tags: [] }],
  });
}

interface Fake {
  settings: CardSourceSettings;
  requests: Headers[];
  clock: { now: number };
}

/** A card server: answers 304 when If-None-Match matches its ETag, else the card with `headers`. */
function fake(
  headers: Record<string, string>,
  options: Partial<CardSourceSettings> = {},
  body = cardBody(),
): Fake {
  const requests: Headers[] = [];
  const clock = { now: 1_000_000 };
  const settings: CardSourceSettings = {
    cardUrl: CARD_URL,
    cardMaxAgeMs: undefined,
    allowedOrigins: new Set(),
    allowInsecureHttp: false,
    timeoutMs: 1000,
    maxResponseBytes: 100_000,
    headers: async () => new Headers({ authorization: 'Bearer t' }),
    now: () => clock.now,
    fetch: async (_input, init) => {
      const sent = new Headers(init?.headers);
      requests.push(sent);
      if (headers.etag !== undefined && sent.get('if-none-match') === headers.etag) {
        return new Response(null, {
          status: 304,
          headers: { etag: headers.etag, ...(headers['x-304'] ? { 'cache-control': headers['x-304'] } : {}) },
        });
      }
      return new Response(body, { headers: { 'content-type': 'application/json', ...headers } });
    },
    ...options,
  };
  return { settings, requests, clock };
}

describe('freshnessSeconds', () => {
  const of = (cacheControl: string, age?: string): number | undefined =>
    freshnessSeconds(new Headers({ 'cache-control': cacheControl, ...(age === undefined ? {} : { age }) }));

  test('reads max-age less Age, and a quoted value', () => {
    expect(of('public, max-age=300')).toBe(300);
    expect(of('max-age="60"')).toBe(60);
    expect(of('max-age=300', '100')).toBe(200);
    expect(of('max-age=30', '100')).toBe(0);
    expect(of('s-maxage=99, max-age=5')).toBe(5);
  });

  test('gives 0 for no-cache, no-store, a repeated or malformed max-age; undefined without one', () => {
    expect(of('no-cache, max-age=300')).toBe(0);
    expect(of('max-age=300, no-store')).toBe(0);
    expect(of('max-age=1, max-age=2')).toBe(0);
    expect(of('max-age=-1')).toBe(0);
    expect(of('max-age')).toBe(0);
    expect(of('public')).toBeUndefined();
    expect(freshnessSeconds(new Headers())).toBeUndefined();
  });
});

describe('createCardSource', () => {
  test('fetches, validates and picks the first JSON-RPC 1.0 interface, with the user headers', async () => {
    const { settings, requests } = fake({});
    const resolved = await createCardSource(settings)();
    expect(resolved.card.name).toBe('a');
    expect(resolved.endpoint.href).toBe('https://agent.example.com/a2a');
    expect(resolved.tenant).toBeUndefined();
    expect(requests[0]?.get('authorization')).toBe('Bearer t');
    expect(requests[0]?.get('accept')).toBe('application/json');
    expect(Object.isFrozen(resolved.card.supportedInterfaces[0])).toBe(true);
  });

  test("reports the chosen interface's non-empty tenant", async () => {
    const { settings } = fake({}, {}, cardBody('https://agent.example.com/a2a', 'acme'));
    expect((await createCardSource(settings)()).tenant).toBe('acme');
    const empty = fake({}, {}, cardBody('https://agent.example.com/a2a', ''));
    expect((await createCardSource(empty.settings)()).tenant).toBeUndefined();
  });

  test('serves the cached card while fresh per max-age, then revalidates with If-None-Match', async () => {
    const { settings, requests, clock } = fake({ 'cache-control': 'max-age=60', etag: '"v1"' });
    const read = createCardSource(settings);
    const first = await read();
    clock.now += 59_000;
    expect(await read()).toBe(first);
    expect(requests).toHaveLength(1);
    clock.now += 2_000;
    expect(await read()).toBe(first);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.get('if-none-match')).toBe('"v1"');
    // The 304 carried no Cache-Control: the stored lifetime (60 s) applies again (RFC 9111 §4.3.4).
    clock.now += 30_000;
    await read();
    expect(requests).toHaveLength(2);
  });

  test('caps the freshness taken from max-age at one hour', async () => {
    const { settings, requests, clock } = fake({ 'cache-control': 'max-age=86400' });
    const read = createCardSource(settings);
    await read();
    clock.now += 3_599_000;
    await read();
    expect(requests).toHaveLength(1);
    clock.now += 2_000;
    await read();
    expect(requests).toHaveLength(2);
  });

  test('cardMaxAgeMs overrides the response; 0 revalidates on every read', async () => {
    const { settings, requests } = fake(
      { 'cache-control': 'max-age=600', etag: '"v1"' },
      { cardMaxAgeMs: 0 },
    );
    const read = createCardSource(settings);
    await read();
    await read();
    expect(requests).toHaveLength(2);
    expect(requests[1]?.get('if-none-match')).toBe('"v1"');
  });

  test('no-store keeps no ETag, so the next read fetches the full card', async () => {
    const { settings, requests } = fake({ 'cache-control': 'no-store', etag: '"v1"' });
    const read = createCardSource(settings);
    await read();
    await read();
    expect(requests).toHaveLength(2);
    expect(requests[1]?.get('if-none-match')).toBeNull();
  });

  test('refresh: true revalidates a fresh card', async () => {
    const { settings, requests } = fake({ 'cache-control': 'max-age=600', etag: '"v1"' });
    const read = createCardSource(settings);
    await read();
    await read({ refresh: true });
    expect(requests).toHaveLength(2);
  });

  test('concurrent reads share one request', async () => {
    const { settings, requests } = fake({ 'cache-control': 'max-age=600' });
    const read = createCardSource(settings);
    const [a, b] = await Promise.all([read(), read()]);
    expect(a).toBe(b);
    expect(requests).toHaveLength(1);
  });

  test('a non-200 answer is an http-status error and is not cached', async () => {
    let status = 503;
    const { settings } = fake({});
    const read = createCardSource({ ...settings, fetch: async () => new Response('down', { status }) });
    const error = (await read().catch((e: unknown) => e)) as A2aClientError;
    expect(error).toBeInstanceOf(A2aClientError);
    expect(error.reason).toBe('http-status');
    expect(error.status).toBe(503);
    status = 200;
    const ok = createCardSource({
      ...settings,
      fetch: async () => new Response(cardBody(), { headers: { 'content-type': 'application/json' } }),
    });
    expect((await ok()).card.name).toBe('a');
  });

  test('a body that is not JSON, or not a card, is invalid-card', async () => {
    for (const body of ['{not json', '[]', JSON.stringify({ ...JSON.parse(cardBody()), skills: 'x' })]) {
      const { settings } = fake({}, {}, body);
      const error = (await createCardSource(settings)().catch((e: unknown) => e)) as A2aClientError;
      expect(error.reason).toBe('invalid-card');
      expect(error.code).toBe(0);
    }
  });

  test('an interface on a foreign origin is refused unless allowed', async () => {
    const body = cardBody('https://elsewhere.example.com/a2a');
    const refused = fake({}, {}, body);
    const error = (await createCardSource(refused.settings)().catch((e: unknown) => e)) as A2aClientError;
    expect(error.reason).toBe('interface-not-allowed');
    const allowed = fake({}, { allowedOrigins: new Set(['https://elsewhere.example.com']) }, body);
    expect((await createCardSource(allowed.settings)()).endpoint.host).toBe('elsewhere.example.com');
  });

  test("a caller's signal stops its own wait without failing the shared request", async () => {
    let release: (() => void) | undefined;
    const { settings } = fake({ 'cache-control': 'max-age=600' });
    const slow = {
      ...settings,
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return settings.fetch(input, init);
      },
    };
    const read = createCardSource(slow);
    const controller = new AbortController();
    const aborted = read({ signal: controller.signal });
    const other = read();
    controller.abort();
    const error = (await aborted.catch((e: unknown) => e)) as A2aClientError;
    expect(error.reason).toBe('aborted');
    while (release === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    release();
    expect((await other).card.name).toBe('a');
  });
});

describe('createCardSource with a hostile card', () => {
  test('freezes a card nested far deeper than the call stack', async () => {
    const depth = 200_000;
    const body = cardBody().replace('"name":"a"', `"name":"a","x":${'['.repeat(depth)}${']'.repeat(depth)}`);
    const { settings } = fake({}, { maxResponseBytes: 1_000_000 }, body);
    const resolved = await createCardSource(settings)();
    expect(Object.isFrozen((resolved.card as unknown as { x: unknown[] }).x)).toBe(true);
  });
});
