import { describe, expect, test } from 'bun:test';
import { App, type AppOptions, clientIp, setRequestPeer } from '@charter/core';
import { type } from 'arktype';
import { join } from 'node:path';
import { createGate } from './support/gate.ts';
import { expectProblem } from './support/problem.ts';

const Ip = type({ ip: 'string | null' });

/** GET /ip answers the client address as the App sees it, from a hook and from the handler. */
function ipApp(options: AppOptions): { app: App; seen: Array<string | undefined> } {
  const seen: Array<string | undefined> = [];
  const app = new App({ logger: false, ...options });
  app.use({ onRequest: (request) => void seen.push(clientIp(request)) });
  app.get('/ip', { responses: { 200: { body: Ip } } }, (ctx) => ({
    status: 200,
    body: { ip: clientIp(ctx.request) ?? null },
  }));
  return { app, seen };
}

/** A request as an adapter hands it over: with the socket's remote address recorded. */
function fromPeer(peer: string, headers: Record<string, string> = {}): Request {
  const request = new Request('http://charter.local/ip', { headers });
  setRequestPeer(request, peer);
  return request;
}

describe('perimeter: client address and proxy posture', () => {
  test('with no proxy (behindProxy none) the peer is the client and forwarded headers are ignored', async () => {
    const { app, seen } = ipApp({ behindProxy: 'none' });
    const response = await app.fetch(fromPeer('203.0.113.9', { 'x-forwarded-for': '198.51.100.1' }));
    expect(await response.json()).toEqual({ ip: '203.0.113.9' });
    expect(seen).toEqual(['203.0.113.9']);
  });

  test('behind one proxy ({ hops: 1 }) the address the proxy saw is the client', async () => {
    const { app } = ipApp({ behindProxy: { hops: 1 } });
    const response = await app.fetch(
      fromPeer('10.0.0.2', { 'x-forwarded-for': '198.51.100.66, 203.0.113.7' }),
    );
    expect(await response.json()).toEqual({ ip: '203.0.113.7' });
  });

  test('behind trusted CIDRs the first untrusted hop from the right is the client, Forwarded included', async () => {
    const { app } = ipApp({ behindProxy: { cidrs: ['10.0.0.0/8'] } });
    const xff = await app.fetch(
      fromPeer('10.0.0.2', { 'x-forwarded-for': '198.51.100.66, 203.0.113.7, 10.1.1.1' }),
    );
    expect(await xff.json()).toEqual({ ip: '203.0.113.7' });
    const forwarded = await app.fetch(fromPeer('10.0.0.2', { forwarded: 'for="[2001:db8::17]:4711"' }));
    expect(await forwarded.json()).toEqual({ ip: '2001:db8::17' });
    // A peer outside the trusted ranges is the client whatever the headers claim.
    const spoofed = await app.fetch(fromPeer('203.0.113.50', { 'x-forwarded-for': '1.2.3.4' }));
    expect(await spoofed.json()).toEqual({ ip: '203.0.113.50' });
  });

  test('an in-process request has no known address', async () => {
    const { app } = ipApp({ behindProxy: 'none' });
    expect(await (await app.request('/ip')).json()).toEqual({ ip: null });
  });

  test('in production with no posture, forwarded headers are refused with 400', async () => {
    const { app } = ipApp({ production: true });
    for (const headers of [{ 'x-forwarded-for': '1.2.3.4' }, { forwarded: 'for=1.2.3.4' }] as Record<
      string,
      string
    >[]) {
      const problem = await expectProblem(await app.fetch(fromPeer('10.0.0.2', headers)), 400, 'bad-request');
      expect(String(problem.detail)).toContain('behindProxy');
    }
    const plain = await app.fetch(fromPeer('10.0.0.2'));
    expect(await plain.json()).toEqual({ ip: '10.0.0.2' });
  });

  test('outside production with no posture, forwarded headers are ignored, not believed', async () => {
    const { app } = ipApp({});
    const response = await app.fetch(fromPeer('10.0.0.2', { 'x-forwarded-for': '1.2.3.4' }));
    expect(await response.json()).toEqual({ ip: '10.0.0.2' });
  });

  test('trustProxy: false ignores the headers even in production', async () => {
    const { app } = ipApp({ production: true, trustProxy: false });
    const response = await app.fetch(fromPeer('10.0.0.2', { 'x-forwarded-for': '1.2.3.4' }));
    expect(await response.json()).toEqual({ ip: '10.0.0.2' });
  });
});

describe('perimeter: load shedding', () => {
  test('over maxInFlight a new request gets 503 with Retry-After before any hook runs, then recovers', async () => {
    const hooked: string[] = [];
    const app = new App({
      logger: false,
      loadShedding: { maxInFlight: 1, retryAfterSeconds: 3 },
      hooks: { onRequest: (r) => void hooked.push(new URL(r.url).pathname) },
    });
    const entered = createGate();
    const release = createGate();
    app.get('/slow', { responses: { 200: { body: type('string') } } }, async () => {
      entered.open();
      await release.opened;
      return { status: 200, body: 'slow' };
    });
    app.get('/fast', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'fast' }));
    const slow = app.request('/slow');
    await entered.opened;
    const refused = await app.request('/fast');
    expect(refused.headers.get('retry-after')).toBe('3');
    const problem = await expectProblem(refused, 503, 'service-unavailable');
    expect(String(problem.detail)).toContain('in flight');
    expect(hooked).toEqual(['/slow']);
    release.open();
    expect((await slow).status).toBe(200);
    expect((await app.request('/fast')).status).toBe(200);
    await app.shutdown(100);
  });

  test('a stalled event loop sheds load until it recovers', async () => {
    const app = new App({ logger: false, loadShedding: { maxEventLoopDelayMs: 50, sampleIntervalMs: 10 } });
    app.get('/x', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'x' }));
    expect((await app.request('/x')).status).toBe(200);
    const until = performance.now() + 200;
    while (performance.now() < until) {
      // Busy: the sampling timer cannot fire.
    }
    await Bun.sleep(15);
    await expectProblem(await app.request('/x'), 503, 'service-unavailable');
    await Bun.sleep(400);
    expect((await app.request('/x')).status).toBe(200);
    await app.shutdown(100);
  });

  test('without loadShedding nothing is refused', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: { body: type('string') } } }, () => ({ status: 200, body: 'x' }));
    const responses = await Promise.all(Array.from({ length: 50 }, () => app.request('/x')));
    expect(responses.every((r) => r.status === 200)).toBe(true);
  });
});

describe('perimeter: unhandled rejections', () => {
  const script = join(import.meta.dir, 'fixtures', 'unhandled-rejection.ts');

  async function run(crash: string): Promise<{ code: number; out: string }> {
    const child = Bun.spawn(['bun', script, crash], { stdout: 'pipe', stderr: 'pipe' });
    const code = await child.exited;
    return {
      code,
      out: (await new Response(child.stdout).text()) + (await new Response(child.stderr).text()),
    };
  }

  test('crashOnUnhandledRejection: true logs the rejection and exits with status 1', async () => {
    const { code, out } = await run('true');
    expect(code).toBe(1);
    expect(out).toContain('Unhandled promise rejection');
    expect(out).toContain('lost promise');
    expect(out).not.toContain('still running');
  });

  test('crashOnUnhandledRejection: false logs it and keeps serving', async () => {
    const { code, out } = await run('false');
    expect(code).toBe(0);
    expect(out).toContain('Unhandled promise rejection');
    expect(out).toContain('still running');
  });
});
