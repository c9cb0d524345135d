/**
 * One instance of a small service that keeps state in every module Charter has: sessions,
 * idempotency keys, A2A tasks and WebSocket topics, all in Redis. Run as its own process by
 * tests/scaling: `bun instance.ts` with REDIS_URL, INSTANCE (its name), REDIS_CLIENT (`bun` or
 * `node-redis`) and SESSION_SECRET; it listens on port 0 and prints `{"port":<n>}` once it does.
 */
import { serve } from '@charter/bun';
import { type } from 'arktype';
import { a2aRoutes, createA2aHandler } from '@charter/a2a';
import { App, idempotency } from '@charter/core';
import { redisIdempotencyStore, redisSessionStore, redisTaskStore, redisWsBroker } from '@charter/redis';
import { requireSession, rotateSession, session, sessionOf } from '@charter/session';
import { wsTopics } from '@charter/websocket';
import { client, logger, name, subscriber, timeoutMs } from './instance-env.ts';

const app = new App({ title: `instance ${name}`, version: '1.0.0', logger });

// Sessions: a sign-in on one instance is valid on the other.
app.use(
  session({ secret: process.env.SESSION_SECRET as string, store: redisSessionStore({ client, timeoutMs }) }),
);
app.post(
  '/login',
  { request: { body: type({ user: 'string' }) }, responses: { 204: { description: 'in' } } },
  (ctx) => {
    rotateSession(ctx, { user: { sub: ctx.body.user } });
    return { status: 204, body: undefined };
  },
);
app.get(
  '/me',
  { hooks: requireSession(), responses: { 200: { body: type({ sub: 'string', instance: 'string' }) } } },
  (ctx) => ({ status: 200, body: { sub: ctx.state.user?.sub ?? '', instance: name } }),
);
app.post('/logout', { responses: { 204: { description: 'out' } } }, (ctx) => {
  sessionOf(ctx).destroy();
  return { status: 204, body: undefined };
});

// Idempotency: a POST replayed on the other instance gets this one's answer.
let orders = 0;
app.post(
  '/orders',
  {
    hooks: idempotency({ store: redisIdempotencyStore({ client, timeoutMs }) }),
    request: { body: type({ item: 'string' }) },
    responses: { 201: { body: type({ id: 'string', item: 'string', instance: 'string' }) } },
  },
  async (ctx) => {
    orders++;
    if (ctx.body.item === 'slow') await Bun.sleep(1_000);
    return { status: 201, body: { id: crypto.randomUUID(), item: ctx.body.item, instance: name } };
  },
);
app.get('/orders/runs', { responses: { 200: { body: type({ runs: 'number' }) } } }, () => ({
  status: 200,
  body: { runs: orders },
}));

// A2A: a task created here continues on the other instance; one turn at a time across both.
const agent = createA2aHandler({
  card: {
    name: 'pizza',
    description: 'Takes orders',
    url: 'http://agent.local/a2a',
    version: '1.0.0',
    skills: [],
  },
  taskStore: redisTaskStore({ client, timeoutMs }),
  taskOwner: () => 'alice',
  onMessage: async (ctx) => {
    if (ctx.task === undefined) return { status: 'input-required', message: 'Which size?' };
    if (ctx.text === 'slow') await Bun.sleep(1_500);
    return { status: 'completed', artifacts: [{ parts: `One ${ctx.text} pizza by ${name}` }] };
  },
});
app.registerRoutes(a2aRoutes('/a2a', agent));

// WebSocket topics: what a client sends to /topics/<t> on one instance reaches every listener of <t>.
const topics = wsTopics({ broker: redisWsBroker({ client, subscriber, timeoutMs }), logger });
app.ws('/topics/:topic', {
  async open(conn, ctx) {
    try {
      await topics.subscribe(conn, ctx.params.topic);
      conn.send(JSON.stringify({ joined: ctx.params.topic, instance: name }));
    } catch {
      // Fail closed: a listener that would hear nothing is told so and closed (1011, RFC 6455 §7.4.1).
      conn.close(1011, 'topic unavailable');
    }
  },
  async message(conn, message, ctx) {
    try {
      await topics.publish(ctx.params.topic, message);
    } catch {
      conn.send(JSON.stringify({ error: 'not published' }));
    }
  },
  close(conn) {
    void topics.unsubscribeAll(conn);
  },
});

const server = await serve(app, { port: 0, hostname: '127.0.0.1' });
console.log(JSON.stringify({ port: server.port }));
