/**
 * The app every adapter serves in the cross-runtime behaviour suite (issue 21). It imports only
 * `charter`, `charter/streaming` and `zod`, exactly as a user's app does, so the same file runs on Bun,
 * Node, Deno (through an import map onto packages/charter/dist), inside workerd (bundled by Bun.build
 * from the built package) and behind any other adapter. Keep it free of runtime-specific code: the
 * runtime's own probes live in each adapter's test entry, not here.
 */
import { App, ConflictError, type Logger, type ProxyPosture } from 'charter';
import { type SseMessage, sseResponse } from 'charter/streaming';
import { z } from 'zod';

/** The limits the suite checks against (small, so a check needs few bytes and little waiting). */
export const BEHAVIOUR_LIMITS = {
  /** Bodies over this many bytes get a 413 problem. */
  bodyLimitBytes: 1024,
  /**
   * GET /slow waits longer than this and gets the timeout problem. Generous enough that an ordinary
   * route on a loaded 2-core CI machine never comes near it.
   */
  requestTimeoutMs: 1500,
} as const;

/** What `/slow` waits for at most when nothing aborts it (well past the request timeout). */
const SLOW_ROUTE_MS = 20_000;

/** The gap between the two SSE events: the suite reads the first before the second exists. */
export const SSE_GAP_MS = 1500;

const Item = z.object({ id: z.number().int(), name: z.string() });

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

async function* twoEvents(signal: AbortSignal): AsyncGenerator<SseMessage> {
  yield { event: 'greeting', id: '1', data: { n: 1 } };
  await sleep(SSE_GAP_MS, signal);
  if (signal.aborted) return;
  yield { event: 'greeting', id: '2', data: { n: 2 } };
}

export interface BehaviourAppOptions {
  /** Default `false` (silent); an adapter test may pass a logger to read the "Listening" line. */
  logger?: Logger | false;
  /** Default `'none'` (no proxy in front); the Workers test passes one to read CF-Connecting-IP. */
  behindProxy?: ProxyPosture;
}

/**
 * Builds the app under test. Production mode, so problem documents are redacted and the secure
 * headers include HSTS, whatever NODE_ENV the runtime has (workers have none).
 */
export function createBehaviourApp(options: BehaviourAppOptions = {}) {
  return new App({
    production: true,
    logger: options.logger ?? false,
    behindProxy: options.behindProxy ?? 'none',
    bodyLimitBytes: BEHAVIOUR_LIMITS.bodyLimitBytes,
    requestTimeoutMs: BEHAVIOUR_LIMITS.requestTimeoutMs,
  })
    .get(
      '/items/:id',
      {
        operationId: 'getItem',
        request: { params: z.object({ id: z.coerce.number().int().positive() }) },
        responses: { 200: { body: Item } },
      },
      (ctx) => ({ status: 200, body: { id: ctx.params.id, name: `item ${ctx.params.id}` } }),
    )
    .post(
      '/items',
      {
        operationId: 'createItem',
        request: { body: z.object({ name: z.string().min(1).max(200) }) },
        responses: { 201: { body: Item } },
      },
      (ctx) => ({
        status: 201,
        body: { id: 1, name: ctx.body.name },
        headers: { location: '/items/1' },
      }),
    )
    .get(
      '/search',
      {
        operationId: 'search',
        request: {
          query: z.object({ q: z.string(), tag: z.union([z.string(), z.array(z.string())]).optional() }),
        },
        responses: { 200: { body: z.object({ q: z.string(), tags: z.array(z.string()) }) } },
      },
      (ctx) => {
        const tag = ctx.query.tag;
        const tags = tag === undefined ? [] : Array.isArray(tag) ? tag : [tag];
        return { status: 200, body: { q: ctx.query.q, tags } };
      },
    )
    .get(
      '/cookies',
      {
        operationId: 'cookies',
        responses: { 200: { body: z.object({ received: z.string() }) } },
      },
      (ctx) => ({
        status: 200,
        body: { received: ctx.request.headers.get('cookie') ?? '' },
        // Two Set-Cookie fields: adapters must keep them apart (RFC 6265 §3, never comma-joined).
        headers: [
          ['set-cookie', 'a=1; Path=/; HttpOnly'],
          ['set-cookie', 'b=2; Path=/; Secure'],
        ],
      }),
    )
    .get('/conflict', { operationId: 'conflict', responses: { 200: { body: Item } } }, () => {
      throw new ConflictError('The item is locked');
    })
    .get('/crash', { operationId: 'crash', responses: { 200: { body: Item } } }, () => {
      throw new Error('secret internal detail');
    })
    .get('/slow', { operationId: 'slow', responses: { 200: { body: Item } } }, async (ctx) => {
      await sleep(SLOW_ROUTE_MS, ctx.request.signal);
      return { status: 200, body: { id: 0, name: 'too late' } };
    })
    .get(
      '/events',
      {
        operationId: 'events',
        responses: { 200: { description: 'Two greeting events', contentType: 'text/event-stream' } },
        acknowledgeNoResponseBodySchema: true,
      },
      (ctx) => sseResponse(twoEvents(ctx.request.signal), { signal: ctx.request.signal }),
    );
}

/** The app's type, for the typed client. */
export type BehaviourApp = ReturnType<typeof createBehaviourApp>;
