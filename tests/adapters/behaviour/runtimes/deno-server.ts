/**
 * Runs on Deno (`deno run`, see ../../deno.test.ts): serves the behaviour app with `charter/deno`,
 * plus two probes of the adapter itself: GET /peer (the client address the App resolves) and the
 * WebSocket route /ws (echoes text, reports binary lengths, closes on "bye"). Prints the adapter's
 * JSON log lines on stdout (the "Listening" line carries the URL the test connects to).
 *
 * Deno.args: [port, signals ("signals" to drain on SIGINT/SIGTERM)].
 */
import { clientIp, createJsonLogger } from 'charter';
import { serve } from 'charter/deno';
import { z } from 'zod';
import { createBehaviourApp } from '../app.ts';

declare const Deno: { args: string[] };

const app = createBehaviourApp({ logger: createJsonLogger({ level: 'info' }) });
app.get('/peer', { responses: { 200: { body: z.object({ address: z.string().nullable() }) } } }, (ctx) => ({
  status: 200,
  body: { address: clientIp(ctx.request) ?? null },
}));
app.get('/drain', { responses: { 200: { body: z.object({ finished: z.boolean() }) } } }, async () => {
  app.logger.info('drain started');
  // A request still in flight when the shutdown starts: it must be answered, not cut.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { status: 200, body: { finished: true } };
});
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

const [port = '0', signals = ''] = Deno.args;
await serve(app, { port: Number(port), signals: signals === 'signals' });
