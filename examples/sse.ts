/**
 * Server-Sent Events with `charter/streaming`: GET /clock sends a `tick` event every second until the
 * client leaves, GET /countdown?from=5 a finite stream that resumes where it stopped when the browser
 * reconnects with `Last-Event-ID`. GET / is a page (HTML and /clock.js, no inline script) that shows
 * the ticks with `EventSource`. Run it with `bun examples/sse.ts` (PORT, default 3000; HOST, default
 * 127.0.0.1).
 */
import { type } from 'arktype';
import { App } from 'charter';
import { serve } from 'charter/bun';
import { type SseMessage, sseResponse } from 'charter/streaming';

const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Clock</title>
<h1>Server time: <output id="now">...</output></h1>
<script src="/clock.js" type="module"></script>
`;

const SCRIPT = `const now = document.getElementById('now');
new EventSource('/clock').addEventListener('tick', (event) => {
  now.textContent = JSON.parse(event.data).now;
});
`;

/** One `tick` a second until `signal` aborts (the client left). */
async function* clock(signal: AbortSignal, intervalMs: number): AsyncGenerator<SseMessage> {
  let id = 0;
  while (!signal.aborted) {
    id += 1;
    yield { event: 'tick', id: String(id), data: { now: new Date().toISOString() } };
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** `from` down to 1, starting after `lastId` when the browser reconnects. */
function* countdown(from: number, lastId: number | undefined): Generator<SseMessage> {
  for (let n = lastId === undefined ? from : lastId - 1; n >= 1; n--) {
    yield { id: String(n), data: String(n) };
  }
  yield { event: 'done', data: 'liftoff' };
}

/** The SSE app; `intervalMs` is the clock's period. */
export function createSseApp(intervalMs = 1000) {
  return new App({ title: 'SSE example', version: '1.0.0' })
    .get(
      '/',
      { operationId: 'clockPage', responses: { 200: { contentType: 'text/html; charset=utf-8' } } },
      () => ({
        status: 200,
        body: PAGE,
        headers: {
          'content-security-policy':
            "default-src 'none'; script-src 'self'; connect-src 'self'; base-uri 'none'",
        },
      }),
    )
    .get(
      '/clock.js',
      { operationId: 'clockScript', responses: { 200: { contentType: 'text/javascript; charset=utf-8' } } },
      () => ({ status: 200, body: SCRIPT }),
    )
    .get(
      '/clock',
      {
        operationId: 'clock',
        summary: 'The time, every second',
        responses: { 200: { description: 'One `tick` event per second', contentType: 'text/event-stream' } },
        acknowledgeNoResponseBodySchema: true,
      },
      (ctx) => sseResponse(clock(ctx.request.signal, intervalMs), { signal: ctx.request.signal }),
    )
    .get(
      '/countdown',
      {
        operationId: 'countdown',
        request: {
          query: type({ 'from?': '1 <= number.integer <= 60' }),
          headers: type({ 'last-event-id?': /^[1-9][0-9]{0,1}$/ }),
        },
        responses: {
          200: { description: 'from, from - 1, ... 1, then `done`', contentType: 'text/event-stream' },
        },
        acknowledgeNoResponseBodySchema: true,
      },
      (ctx) => {
        const lastId = ctx.headers['last-event-id'];
        return sseResponse(countdown(ctx.query.from ?? 5, lastId === undefined ? undefined : Number(lastId)));
      },
    );
}

if (import.meta.main) {
  const server = await serve(createSseApp(), {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  const url = server.url;
  console.log(`SSE example listening on ${url}
Try:
  open ${url}/                 # the server's clock, ticking
  curl -N ${url}/clock
  curl -N ${url}/countdown?from=3
  curl -N -H 'last-event-id: 2' ${url}/countdown?from=3   # resumes at 1`);
}
