/**
 * charter/vercel, Web handler: the entry shapes Vercel's docs give (`export default { fetch }` and one
 * export per HTTP method), driven in process as Vercel calls them, with the behaviour suite through
 * each; `vercelContext`, `basePath` and what is refused at creation. The Node.js `(req, res)` form runs
 * on a real Node 24 server in vercel-node.test.ts. No Vercel runtime runs here (`vercel dev` needs the
 * Vercel CLI and an account); these tests cover the documented entry contract.
 */
import { describe, expect, test } from 'bun:test';
import { App } from 'charter';
import { toVercelHandlers, toVercelNodeHandler, vercelContext } from 'charter/vercel';
import { describeBehaviour } from './behaviour/bun.ts';
import * as entry from './fixtures/vercel/api-entry.ts';
import { HANDSHAKE_HEADERS } from '../websocket/support.ts';

const BASE_URL = 'https://my-app.vercel.app/api';
type MethodExport = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
const METHOD_EXPORTS: readonly MethodExport[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

describe('the entry module', () => {
  test('its default export is { fetch } and each method is a named export', () => {
    expect(typeof entry.default.fetch).toBe('function');
    for (const name of METHOD_EXPORTS) expect(typeof entry[name]).toBe('function');
  });
});

describeBehaviour('charter/vercel (export default { fetch })', () => ({
  baseUrl: BASE_URL,
  fetch: (request) => entry.default.fetch(request, { waitUntil: () => {} }),
}));

describeBehaviour('charter/vercel (per-method exports)', () => ({
  baseUrl: BASE_URL,
  // Vercel calls the export named after the method; one it does not export gets its own 405.
  fetch: (request) => {
    const handler = entry[request.method as MethodExport];
    if (handler === undefined) return Promise.resolve(new Response(null, { status: 405 }));
    return handler(request);
  },
}));

function contextApp(seen: { waited: Array<Promise<unknown>> }): App {
  const app = new App({ logger: false, behindProxy: { hops: 1 } });
  app.post('/notes', { responses: { 200: {} } }, async (ctx) => {
    const context = vercelContext(ctx.request);
    const work = Promise.resolve('logged');
    context?.waitUntil?.(work);
    return {
      status: 200,
      body: {
        path: new URL(ctx.request.url).pathname,
        text: await ctx.request.text(),
        hasContext: context !== undefined,
        ip: ctx.request.headers.get('x-forwarded-for'),
      },
    };
  });
  return app;
}

describe('toVercelHandlers', () => {
  test('waitUntil from the context is reachable through vercelContext(ctx.request)', async () => {
    const seen = { waited: [] as Array<Promise<unknown>> };
    const { POST } = toVercelHandlers(contextApp(seen));
    const res = await POST(new Request('https://a.vercel.app/notes', { method: 'POST', body: 'hi' }), {
      waitUntil: (promise) => void seen.waited.push(promise),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: '/notes', text: 'hi', hasContext: true, ip: null });
    expect(seen.waited).toHaveLength(1);
    expect(await seen.waited[0]).toBe('logged');
    // Without a context (Next.js-style call), there is none to read.
    const bare = await POST(new Request('https://a.vercel.app/notes', { method: 'POST', body: 'x' }));
    expect(((await bare.json()) as { hasContext: boolean }).hasContext).toBe(false);
  });

  test('basePath is taken off the path, a streamed body follows; other paths are routed as sent', async () => {
    const { fetch } = toVercelHandlers(contextApp({ waited: [] }), { basePath: '/api' });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed '));
        controller.enqueue(new TextEncoder().encode('body'));
        controller.close();
      },
    });
    const init = { method: 'POST', body, duplex: 'half' } as RequestInit;
    const res = await fetch(new Request('https://a.vercel.app/api/notes?x=1', init));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ path: '/notes', text: 'streamed body' });
    const outside = await fetch(new Request('https://a.vercel.app/apinotes', { method: 'POST', body: 'x' }));
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).toBe('application/problem+json');
  });

  test('a body over the limit is the 413 problem, as on Bun and Node', async () => {
    const app = new App({ logger: false, bodyLimitBytes: 16 });
    app.post('/notes', { responses: { 200: {} } }, async (ctx) => ({
      status: 200,
      body: await ctx.request.text(),
    }));
    const res = await toVercelHandlers(app).POST(
      new Request('https://a.vercel.app/notes', { method: 'POST', body: 'x'.repeat(17) }),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { type: string }).type).toBe(
      'https://charter.dev/errors/payload-too-large',
    );
  });

  test('an App with WebSocket routes is refused at creation, both forms', () => {
    const app = new App({ logger: false });
    app.ws('/live', { message() {} });
    expect(() => toVercelHandlers(app)).toThrow(
      'toVercelHandlers: the App has WebSocket routes (/live), which Vercel Functions cannot serve',
    );
    expect(() => toVercelNodeHandler(app)).toThrow(
      'toVercelNodeHandler: the App has WebSocket routes (/live)',
    );
  });

  test('a WebSocket route registered after the handlers were made: its handshake is a 501 problem', async () => {
    const app = new App({ logger: false });
    const { GET } = toVercelHandlers(app);
    app.ws('/live', { message() {} });
    const res = await GET(new Request('https://a.vercel.app/live', { headers: HANDSHAKE_HEADERS }));
    expect(res.status).toBe(501);
    expect(res.headers.get('sec-websocket-accept')).toBeNull();
    expect(((await res.json()) as { detail: string }).detail).toBe(
      'WebSocket upgrades are not supported on Vercel Functions',
    );
  });

  test('a production App without a proxy posture is refused, naming behindProxy', () => {
    expect(() => toVercelHandlers(new App({ logger: false, production: true }))).toThrow(
      'Set behindProxy: { hops: 1 }',
    );
    expect(() =>
      toVercelHandlers(new App({ logger: false, production: true, behindProxy: { hops: 1 } })),
    ).not.toThrow();
  });

  test('behindProxy { hops: 1 }: the client is the address Vercel wrote in X-Forwarded-For', async () => {
    const app = new App({ logger: false, behindProxy: { hops: 1 } });
    const { clientIp } = await import('charter');
    app.get('/ip', { responses: { 200: {} } }, (ctx) => ({
      status: 200,
      body: { ip: clientIp(ctx.request) ?? null },
    }));
    const res = await toVercelHandlers(app).GET(
      new Request('https://a.vercel.app/ip', { headers: { 'x-forwarded-for': '203.0.113.77' } }),
    );
    expect(await res.json()).toEqual({ ip: '203.0.113.77' });
  });

  test('an invalid basePath throws a TypeError naming it', () => {
    for (const basePath of ['api', '/api/', '/', '']) {
      expect(() => toVercelHandlers(new App({ logger: false }), { basePath })).toThrow(
        'basePath must be a path',
      );
    }
  });
});
