/**
 * Hono 4 on Bun: `Bun.serve({ fetch: app.fetch })` around the app of `hono-app.mjs`.
 *
 *   bun bench/peers/hono-bun.ts <port>
 */
import { honoApp } from './hono-app.mjs';
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';

const app = honoApp();
const server = Bun.serve({ port: portArg(), hostname: HOSTNAME, fetch: app.fetch });

announce(server.port ?? 0, () => server.stop(true));
