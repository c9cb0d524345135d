/**
 * The module worker the Workers test runs on workerd (through miniflare, see ../../cloudflare.test.ts),
 * bundled by Bun.build from the built package: the behaviour app through `toWorker`, plus probes of
 * the adapter itself: GET /peer (the client address), GET /platform (env and the execution context
 * from `ctx.request`), GET /later and GET /stored (work kept alive by `waitUntil` after the answer),
 * the WebSocket route /ws (echoes text, reports binary lengths, closes on "bye"), and GET /__self-check
 * (below).
 */
import { clientIp } from 'charter';
import { toWorker, workerContext, workerEnv } from 'charter/cloudflare';
import { z } from 'zod';
import { createBehaviourApp } from '../app.ts';
import { runBehaviourChecks } from '../checks.ts';

/** The bindings miniflare gives this worker. */
interface Env {
  GREETING: string;
  STORE: { get(key: string): Promise<string | null>; put(key: string, value: string): Promise<void> };
}

// Cloudflare's edge is the one proxy in front of a worker: CF-Connecting-IP names the client.
const app = createBehaviourApp({ behindProxy: { hops: 1 } });
app.get('/peer', { responses: { 200: { body: z.object({ address: z.string().nullable() }) } } }, (ctx) => ({
  status: 200,
  body: { address: clientIp(ctx.request) ?? null },
}));
app.get(
  '/platform',
  {
    responses: {
      200: { body: z.object({ greeting: z.string(), waitUntil: z.string(), passThrough: z.string() }) },
    },
  },
  (ctx) => {
    const context = workerContext(ctx.request);
    return {
      status: 200,
      body: {
        greeting: workerEnv<Env>(ctx.request).GREETING,
        waitUntil: typeof context.waitUntil,
        passThrough: typeof context.passThroughOnException,
      },
    };
  },
);
app.get('/later', { responses: { 202: { body: z.object({ queued: z.boolean() }) } } }, (ctx) => {
  const store = workerEnv<Env>(ctx.request).STORE;
  // Runs after the answer is sent: the worker stays alive for it only through waitUntil.
  const work = new Promise((resolve) => setTimeout(resolve, 300)).then(() => store.put('later', 'done'));
  workerContext(ctx.request).waitUntil(work);
  return { status: 202, body: { queued: true } };
});
app.get(
  '/stored',
  { responses: { 200: { body: z.object({ later: z.string().nullable() }) } } },
  async (ctx) => ({
    status: 200,
    body: { later: await workerEnv<Env>(ctx.request).STORE.get('later') },
  }),
);
app.ws('/ws', {
  allowedSubprotocols: ['echo.v1'],
  maxPayloadLength: 64,
  open(conn) {
    conn.send(`hello ${conn.protocol} ${conn.remoteAddress ?? '?'}`);
  },
  message(conn, message) {
    if (message === 'bye') conn.close(1000, 'bye');
    else if (typeof message === 'string') conn.send(`echo: ${message}`);
    else conn.send(`bytes: ${message.length}`);
  },
});

const worker = toWorker<Env>(app);

/**
 * The module worker: the App through `toWorker`, plus GET /__self-check, which runs the behaviour
 * checks inside workerd against this same worker (each check's request through `worker.fetch` with
 * the real env and execution context) and answers their results as JSON: the suite run in-isolate,
 * the typed client included.
 */
export default {
  async fetch(request: Request, env: Env, ctx: Parameters<typeof worker.fetch>[2]): Promise<Response> {
    if (new URL(request.url).pathname !== '/__self-check') return worker.fetch(request, env, ctx);
    const results = await runBehaviourChecks({
      baseUrl: 'http://worker.self',
      fetch: (inner) => worker.fetch(inner, env, ctx),
    });
    return Response.json({ results });
  },
};
