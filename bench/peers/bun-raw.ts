/**
 * Raw `Bun.serve` with a fetch handler: the Bun baseline of the peers benchmark (`bench/peers.ts`).
 * The path is cut from `request.url` with `indexOf` (no URL object), routes are `if`s, the id and the
 * POST body are checked by hand (`raw.mjs`), bodies are read with `request.json()` and written with
 * `Response.json()`. Unknown paths: a plain-text 404.
 *
 *   bun bench/peers/bun-raw.ts <port>
 */
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';
import { isEcho, parseId, pathOf, STATIC_BODY, userBody } from './raw.mjs';

const badRequest = (): Response => new Response('Bad Request', { status: 400 });
const notFound = (): Response => new Response('Not Found', { status: 404 });

async function echo(request: Request): Promise<Response> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return badRequest();
  }
  return isEcho(body) ? Response.json(body) : badRequest();
}

const server = Bun.serve({
  port: portArg(),
  hostname: HOSTNAME,
  fetch(request) {
    const path = pathOf(request.url);
    if (request.method === 'GET') {
      if (path === '/static') return Response.json(STATIC_BODY);
      if (path.startsWith('/users/')) {
        const id = parseId(path.slice('/users/'.length));
        return id === undefined ? badRequest() : Response.json(userBody(id));
      }
    } else if (request.method === 'POST' && path === '/echo') {
      return echo(request);
    }
    return notFound();
  },
});

announce(server.port ?? 0, () => server.stop(true));
