/**
 * charter/fastly, entry shape: the `fetch` event listener `listen(app)` registers, driven in process
 * with FetchEvent-shaped objects (request, client.address, respondWith, waitUntil) as the Compute
 * runtime dispatches them, with the behaviour suite through it. Fastly's local runner (Viceroy) cannot
 * be downloaded here, so no request runs inside the Compute runtime; fastly-build.test.ts compiles an
 * entry to Wasm with @fastly/js-compute, which evaluates it in Fastly's JavaScript engine.
 */
import { describe, expect, test } from 'bun:test';
import { App, clientIp } from 'charter';
import { type FastlyFetchEvent, fastlyEvent, listen, toFastlyHandler } from 'charter/fastly';
import { createBehaviourApp } from './behaviour/app.ts';
import { describeBehaviour } from './behaviour/bun.ts';
import { HANDSHAKE_HEADERS } from '../websocket/support.ts';

/** A `fetch` event as the Compute runtime dispatches it. */
class FakeFetchEvent implements FastlyFetchEvent {
  response: Promise<Response> | undefined;
  readonly kept: Array<Promise<unknown>> = [];
  readonly client: FastlyFetchEvent['client'];
  constructor(
    readonly request: Request,
    address = '198.51.100.44',
  ) {
    this.client = { address, requestId: crypto.randomUUID(), geo: null, tlsJA3MD5: null };
  }
  respondWith(response: Response | PromiseLike<Response>): void {
    if (this.response !== undefined) throw new Error('respondWith was called twice');
    this.response = Promise.resolve(response);
  }
  waitUntil(promise: Promise<unknown>): void {
    this.kept.push(promise);
  }
}

/** Registers the app with `listen` on a stand-in for the runtime's addEventListener. */
function listened(app: App): (request: Request, address?: string) => Promise<Response> {
  const listeners: Array<(event: FastlyFetchEvent) => void> = [];
  listen(app, (type, listener) => {
    expect(type).toBe('fetch');
    listeners.push(listener);
  });
  expect(listeners).toHaveLength(1);
  return (request, address) => {
    const event = new FakeFetchEvent(request, address);
    for (const listener of listeners) listener(event);
    if (event.response === undefined) throw new Error('the listener did not call respondWith');
    return event.response;
  };
}

const behaviour = listened(createBehaviourApp());
describeBehaviour('charter/fastly (fetch event)', () => ({
  baseUrl: 'https://my-service.edgecompute.app',
  fetch: (request) => behaviour(request),
}));

describe('charter/fastly', () => {
  test('the client address is event.client.address; the event is reachable from ctx.request', async () => {
    const app = new App({ logger: false, behindProxy: 'none' });
    app.get('/who', { responses: { 200: {} } }, (ctx) => {
      const event = fastlyEvent(ctx.request);
      event?.waitUntil(Promise.resolve('after'));
      return {
        status: 200,
        body: { ip: clientIp(ctx.request) ?? null, requestId: typeof event?.client.requestId === 'string' },
      };
    });
    const handler = toFastlyHandler(app);
    const event = new FakeFetchEvent(
      new Request('https://svc.example/who', { headers: { 'x-forwarded-for': '6.6.6.6' } }),
      '2001:db8::7',
    );
    const res = await handler(event);
    expect(res.status).toBe(200);
    // A forged X-Forwarded-For changes nothing under behindProxy: 'none'.
    expect(await res.json()).toEqual({ ip: '2001:db8::7', requestId: true });
    expect(event.kept).toHaveLength(1);
  });

  test('problems, limits and secure headers are the App’s', async () => {
    const app = new App({ logger: false, behindProxy: 'none', bodyLimitBytes: 8 });
    app.post('/in', { responses: { 200: {} } }, async (ctx) => ({
      status: 200,
      body: await ctx.request.text(),
    }));
    const serve = listened(app);
    const big = await serve(new Request('https://svc.example/in', { method: 'POST', body: '123456789' }));
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toBe('application/problem+json');
    expect(big.headers.get('x-content-type-options')).toBe('nosniff');
    const ok = await serve(new Request('https://svc.example/in', { method: 'POST', body: '12345678' }));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('12345678');
  });

  test('an App with WebSocket routes is refused when the listener is made', () => {
    const app = new App({ logger: false });
    app.ws('/live', { message() {} });
    expect(() => toFastlyHandler(app)).toThrow(
      'toFastlyHandler: the App has WebSocket routes (/live), which Fastly Compute cannot serve',
    );
    expect(() => listen(app, () => {})).toThrow('WebSocket routes');
  });

  test('a WebSocket route registered after the listener was made: its handshake is a 501 problem', async () => {
    const app = new App({ logger: false });
    const serve = listened(app);
    app.ws('/live', { message() {} });
    const res = await serve(new Request('https://svc.example/live', { headers: HANDSHAKE_HEADERS }));
    expect(res.status).toBe(501);
    expect(res.headers.get('sec-websocket-accept')).toBeNull();
    expect(((await res.json()) as { detail: string }).detail).toBe(
      'WebSocket upgrades are not supported on Fastly Compute',
    );
  });

  test('listen without a global addEventListener says it needs the Compute runtime', () => {
    const holder = globalThis as { addEventListener?: unknown };
    const original = Object.getOwnPropertyDescriptor(globalThis, 'addEventListener');
    Object.defineProperty(globalThis, 'addEventListener', {
      value: undefined,
      configurable: true,
      writable: true,
    });
    try {
      expect(() => listen(new App({ logger: false }))).toThrow(
        'listen: there is no global addEventListener to register the fetch event on',
      );
    } finally {
      if (original === undefined) delete holder.addEventListener;
      else Object.defineProperty(globalThis, 'addEventListener', original);
    }
  });

  test('listen uses the global addEventListener when none is given', () => {
    const holder = globalThis as { addEventListener?: unknown };
    const original = Object.getOwnPropertyDescriptor(globalThis, 'addEventListener');
    const registered: string[] = [];
    Object.defineProperty(globalThis, 'addEventListener', {
      value: (type: string) => void registered.push(type),
      configurable: true,
      writable: true,
    });
    try {
      listen(new App({ logger: false }));
      expect(registered).toEqual(['fetch']);
    } finally {
      if (original === undefined) delete holder.addEventListener;
      else Object.defineProperty(globalThis, 'addEventListener', original);
    }
  });
});
