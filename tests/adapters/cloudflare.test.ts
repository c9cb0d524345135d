/**
 * charter/cloudflare on workerd, Cloudflare's runtime, through miniflare 4 (local, offline): the
 * behaviour suite over workerd's HTTP socket and through miniflare's dispatchFetch, env and the
 * execution context from the request, waitUntil outliving the answer, the client address from
 * CF-Connecting-IP only under a proxy posture, and WebSocket routes through WebSocketPair. The
 * workers are bundled with Bun.build from the built package (`bun run build` first).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { App, clientIp } from 'charter';
import { toWorker, workerContext, workerEnv } from 'charter/cloudflare';
import { describeBehaviour } from './behaviour/bun.ts';
import { behaviourChecks } from './behaviour/checks.ts';
import { bundleWorker, COMPATIBILITY_DATE, Miniflare } from './behaviour/runtimes/cloudflare.ts';
import { rawHandshake } from './behaviour/runtimes/raw-handshake.ts';

let mf: Miniflare | undefined;
let origin = '';

beforeAll(async () => {
  const [main, plain] = await Promise.all([
    bundleWorker('cloudflare-worker.ts'),
    bundleWorker('cloudflare-plain-worker.ts'),
  ]);
  mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    workers: [
      {
        name: 'main',
        modules: true,
        script: main,
        compatibilityDate: COMPATIBILITY_DATE,
        bindings: { GREETING: 'hello from env' },
        kvNamespaces: ['STORE'],
      },
      { name: 'plain', modules: true, script: plain, compatibilityDate: COMPATIBILITY_DATE },
    ],
  });
  origin = new URL(await mf.ready).origin;
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
});

function miniflare(): Miniflare {
  if (mf === undefined) throw new Error('miniflare did not start');
  return mf;
}

describeBehaviour('workerd over HTTP (charter/cloudflare)', () => {
  miniflare();
  return { baseUrl: origin, fetch: (request) => fetch(request) };
});

describeBehaviour('workerd through dispatchFetch (charter/cloudflare)', () => ({
  baseUrl: 'http://worker.example',
  async fetch(request) {
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const res = await miniflare().dispatchFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      body,
      redirect: 'manual',
    });
    // miniflare answers with undici's Response: rebuilt as this runtime's, body still streaming.
    return new Response(res.body as ReadableStream<Uint8Array> | null, {
      status: res.status,
      headers: [...res.headers],
    });
  },
}));

async function json(path: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${origin}${path}`, init);
  return { status: res.status, body: await res.json() };
}

describe('charter/cloudflare on workerd', () => {
  test('the behaviour checks also pass run inside workerd, through toWorker in the isolate', async () => {
    const res = await fetch(`${origin}/__self-check`);
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as {
      results: Array<{ name: string; ok: boolean; error?: string }>;
    };
    expect(results.map((r) => r.name)).toEqual(behaviourChecks.map((check) => check.name));
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  test('env and the execution context are reachable from ctx.request', async () => {
    expect(await json('/platform')).toEqual({
      status: 200,
      body: { greeting: 'hello from env', waitUntil: 'function', passThrough: 'function' },
    });
  });

  test('work given to waitUntil finishes after the answer is sent', async () => {
    expect(await json('/stored')).toEqual({ status: 200, body: { later: null } });
    expect(await json('/later')).toEqual({ status: 202, body: { queued: true } });
    let stored: unknown;
    for (let i = 0; i < 200; i++) {
      stored = (await json('/stored')).body;
      if ((stored as { later: unknown }).later !== null) break;
      await Bun.sleep(25);
    }
    expect(stored).toEqual({ later: 'done' });
  });

  test('under a proxy posture the client address is CF-Connecting-IP, not X-Forwarded-For', async () => {
    const res = await json('/peer', {
      headers: { 'cf-connecting-ip': '198.51.100.7', 'x-forwarded-for': '203.0.113.50' },
    });
    // hops: 1 takes the hop the edge added to X-Forwarded-For; without one, CF-Connecting-IP itself.
    expect(res).toEqual({ status: 200, body: { address: '203.0.113.50' } });
    expect(await json('/peer', { headers: { 'cf-connecting-ip': '198.51.100.7' } })).toEqual({
      status: 200,
      body: { address: '198.51.100.7' },
    });
  });

  test('without a proxy posture CF-Connecting-IP is ignored: the address is unknown', async () => {
    // miniflare types the worker's Fetcher with workerd's own Request type: only fetch() is used here.
    const fetcher = (await miniflare().getWorker('plain')) as unknown as {
      fetch(url: string, init: RequestInit): Promise<Response>;
    };
    const res = await fetcher.fetch('http://worker.example/peer', {
      headers: { 'cf-connecting-ip': '198.51.100.7' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ address: null });
  });

  test('a WebSocket route is answered with a WebSocketPair: subprotocol, echo, binary, close code', async () => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, ['echo.v1']);
    ws.binaryType = 'arraybuffer';
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      ws.onclose = (event) => resolve({ code: event.code, reason: event.reason });
    });
    const next = () =>
      new Promise<string>((resolve, reject) => {
        ws.onmessage = (event) => resolve(String(event.data));
        ws.onerror = () => reject(new Error('WebSocket error'));
      });
    const hello = next();
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error('WebSocket failed to open'));
    });
    expect(ws.protocol).toBe('echo.v1');
    expect(await hello).toMatch(/^hello echo\.v1 /);
    let reply = next();
    ws.send('hi');
    expect(await reply).toBe('echo: hi');
    reply = next();
    ws.send(new Uint8Array([1, 2, 3]));
    expect(await reply).toBe('bytes: 3');
    ws.send('bye');
    expect(await closed).toEqual({ code: 1000, reason: 'bye' });
  });

  test('the 101 carries the accept key, the chosen subprotocol and the headers the App set', async () => {
    const { status, headers } = await rawHandshake(origin, '/ws', 'other.v9, echo.v1');
    expect(status).toBe(101);
    // RFC 6455 §4.2.2 (the key of §1.3's example) and the one subprotocol the route speaks.
    expect(headers.get('sec-websocket-accept')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(headers.get('sec-websocket-protocol')).toBe('echo.v1');
    expect(headers.get('upgrade')?.toLowerCase()).toBe('websocket');
    // The App's secure headers travel on the acceptance.
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  test("a message over the route's maxPayloadLength closes with 1009", async () => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, ['echo.v1']);
    const closed = new Promise<number>((resolve) => {
      ws.onclose = (event) => resolve(event.code);
    });
    await new Promise((resolve) => {
      ws.onmessage = resolve;
    });
    ws.send('x'.repeat(65));
    expect(await closed).toBe(1009);
  });

  test('a handshake the route refuses is a problem document, not an upgrade', async () => {
    const plain = await fetch(`${origin}/ws`);
    expect(plain.status).toBe(426);
    expect(plain.headers.get('content-type')).toBe('application/problem+json');
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, ['other.v9']);
    const outcome = await new Promise<string>((resolve) => {
      ws.onopen = () => resolve('open');
      ws.onerror = () => resolve('refused');
    });
    expect(outcome).toBe('refused');
  });
});

describe('charter/cloudflare platform accessors', () => {
  test('workerEnv and workerContext read what toWorker was given, from ctx.request too', async () => {
    const app = new App({ logger: false, behindProxy: 'none' });
    let seen: unknown;
    app.get('/x', { responses: { 204: {} } }, (ctx) => {
      seen = { env: workerEnv<{ A: string }>(ctx.request).A, ctx: workerContext(ctx.request) };
      return { status: 204 };
    });
    const context = { waitUntil() {}, passThroughOnException() {} };
    const res = await toWorker<{ A: string }>(app).fetch(
      new Request('http://w.example/x'),
      { A: 'a' },
      context,
    );
    expect(res.status).toBe(204);
    expect(seen).toEqual({ env: 'a', ctx: context });
  });

  test('CF-Connecting-IP becomes the peer under any posture that admits a proxy, never without one', async () => {
    const context = { waitUntil() {}, passThroughOnException() {} };
    const seen = async (options: ConstructorParameters<typeof App>[0]) => {
      const app = new App({ logger: false, ...options });
      let address: string | undefined = 'not called';
      app.get('/ip', { responses: { 204: {} } }, (ctx) => {
        address = clientIp(ctx.request);
        return { status: 204 };
      });
      const request = new Request('http://w.example/ip', { headers: { 'cf-connecting-ip': '198.51.100.7' } });
      expect((await toWorker(app).fetch(request, {}, context)).status).toBe(204);
      return address;
    };
    expect(await seen({ behindProxy: { hops: 1 } })).toBe('198.51.100.7');
    expect(await seen({ behindProxy: { cidrs: ['10.0.0.0/8'] } })).toBe('198.51.100.7');
    expect(await seen({ trustProxy: true })).toBe('198.51.100.7');
    expect(await seen({ behindProxy: 'none' })).toBeUndefined();
    expect(await seen({ trustProxy: false })).toBeUndefined();
    expect(await seen({ production: false })).toBeUndefined();
  });

  test('they throw, saying why, for a request that did not come through toWorker', () => {
    const request = new Request('http://w.example/x');
    expect(() => workerEnv(request)).toThrow("did not arrive through charter/cloudflare's toWorker(app)");
    expect(() => workerContext(request)).toThrow("did not arrive through charter/cloudflare's toWorker(app)");
  });
});
