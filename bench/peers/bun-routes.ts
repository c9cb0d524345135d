/**
 * `Bun.serve` with its native `routes` table (Bun routes in native code and hands the handler
 * `request.params`), the same hand checks as `bun-raw.ts`, and a fetch fallback for the 404.
 *
 *   bun bench/peers/bun-routes.ts <port>
 */
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';
import { isEcho, parseId, STATIC_BODY, userBody } from './raw.mjs';

const badRequest = (): Response => new Response('Bad Request', { status: 400 });

const server = Bun.serve({
  port: portArg(),
  hostname: HOSTNAME,
  routes: {
    '/static': { GET: () => Response.json(STATIC_BODY) },
    '/users/:id': {
      GET: (request) => {
        const id = parseId(request.params.id);
        return id === undefined ? badRequest() : Response.json(userBody(id));
      },
    },
    '/echo': {
      POST: async (request) => {
        let body: unknown;
        try {
          body = await request.json();
        } catch {
          return badRequest();
        }
        return isEcho(body) ? Response.json(body) : badRequest();
      },
    },
  },
  fetch: () => new Response('Not Found', { status: 404 }),
});

announce(server.port ?? 0, () => server.stop(true));
