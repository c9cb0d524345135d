/**
 * A server of the Node adapter benchmark (`bench/node-adapter.ts`), run by real Node 24:
 *
 *   node --experimental-transform-types bench/node-adapter-server.ts <kind> <port>
 *
 * - `raw`: a hand-written `node:http` listener (the peers benchmark's baseline): the path cut from
 *   `req.url`, routes as `if`s, the id and the POST body checked by hand, `JSON.stringify` answers with
 *   Content-Type and Content-Length, a plain-text 404.
 * - `charter`: `serve(app)` from `@charter/node`, on the workspace sources; `charter-dist`: the same from
 *   the built `packages/charter/dist` (what users install); `charter-handler`: `toNodeHandler(app)` on a
 *   default `http.createServer`, without what serve() adds; `adapter=<path>`: serve() from another copy of
 *   the charter/node sources (its `index.ts`), on this workspace's core: the same run can hold the
 *   adapter before and after a change. The app: `new App({ logger: false })`, zod on
 *   params, body and every 200 response, default options otherwise (secure defaults and response
 *   validation on).
 *
 * Prints `ready <port> <pid>` once listening; exits on SIGTERM, or when stdin closes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { rawListener } from './peers/node-raw-listener.mjs';

const [kind = 'raw', portText = '0'] = process.argv.slice(2);
const port = Number(portText);
const HOSTNAME = '127.0.0.1';

/** The hand-written `node:http` baseline: the peers benchmark's own raw listener. */
function raw(): Promise<number> {
  const server = createServer(rawListener);
  return new Promise((resolve) =>
    server.listen(port, HOSTNAME, () => resolve((server.address() as AddressInfo).port)),
  );
}

/**
 * The Charter server of `kind`: `charter` (workspace sources), `charter-dist` (the built package),
 * `charter-handler` (toNodeHandler on a default server) or `adapter=<path>` (serve() from another copy
 * of the charter/node sources, e.g. a checkout of an earlier commit, on this workspace's core).
 */
async function charter(variant: string): Promise<number> {
  type Core = typeof import('../packages/core/src/index.ts');
  type Node = typeof import('../packages/node/src/index.ts');
  // Modules outside the sources are imported by computed specifiers: their types are the sources' own.
  const at = (path: string): string => new URL(path, import.meta.url).href;
  const fromDist = variant === 'charter-dist';
  const { App } = (
    fromDist
      ? await import(at('../packages/charter/dist/index.js'))
      : await import('../packages/core/src/index.ts')
  ) as Core;
  const { serve, toNodeHandler } = (
    fromDist
      ? await import(at('../packages/charter/dist/node.js'))
      : variant.startsWith('adapter=')
        ? await import(pathToFileURL(resolve(variant.slice('adapter='.length))).href)
        : await import('../packages/node/src/index.ts')
  ) as Node;
  const Static = z.object({ message: z.string() });
  const UserParams = z.object({ id: z.number().int() });
  const User = z.object({ id: z.number().int(), name: z.string() });
  const Echo = z.object({ name: z.string().min(1), age: z.number().int().min(0), tags: z.array(z.string()) });
  const app = new App({ logger: false });
  app.get('/static', { responses: { 200: { body: Static } } }, () => ({
    status: 200,
    body: { message: 'Hello, World!' },
  }));
  app.get('/users/:id', { request: { params: UserParams }, responses: { 200: { body: User } } }, (ctx) => ({
    status: 200,
    body: { id: ctx.params.id, name: `user ${ctx.params.id}` },
  }));
  app.post('/echo', { request: { body: Echo }, responses: { 200: { body: Echo } } }, (ctx) => ({
    status: 200,
    body: ctx.body,
  }));
  if (variant === 'charter-handler') {
    // toNodeHandler on a default node:http server: what serve() adds around the handler is left out.
    await app.ready();
    const server = createServer(toNodeHandler(app));
    return new Promise((resolve) =>
      server.listen(port, HOSTNAME, () => resolve((server.address() as AddressInfo).port)),
    );
  }
  const running = await serve(app, { port, hostname: HOSTNAME, signals: false });
  return running.port;
}

const CHARTER_KINDS = ['charter', 'charter-dist', 'charter-handler'];
const listening =
  kind === 'raw'
    ? await raw()
    : CHARTER_KINDS.includes(kind) || kind.startsWith('adapter=')
      ? await charter(kind)
      : undefined;
if (listening === undefined) {
  console.error(`unknown server ${kind}: raw, ${CHARTER_KINDS.join(', ')} or adapter=<path>`);
  process.exit(2);
}
process.on('SIGTERM', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
process.stdout.write(`ready ${listening} ${process.pid}\n`);
