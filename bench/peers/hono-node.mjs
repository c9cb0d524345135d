/**
 * Hono 4 on Node: `serve()` from `@hono/node-server` (which turns node:http requests into web-standard
 * Request objects, lazily) around the app of `hono-app.mjs`.
 *
 *   node bench/peers/hono-node.mjs <port>
 */
import { serve } from '@hono/node-server';
import { honoApp } from './hono-app.mjs';
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';

const server = serve({ fetch: honoApp().fetch, port: portArg(), hostname: HOSTNAME }, (info) => {
  announce(info.port, () => new Promise((resolve) => server.close(resolve)));
});
