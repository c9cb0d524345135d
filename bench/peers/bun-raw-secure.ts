/**
 * Raw `Bun.serve` doing by hand the work Charter's secure defaults require, and nothing else: not a peer,
 * the floor under `charter-*` on Bun. Beside the raw baseline (`bun-raw.ts`: the same routes, checks and
 * bodies) it tells how much of Charter's distance to raw is the work the defaults ask for rather than the
 * framework's own:
 *   - the request's header fields are read (Host compared, the field count looked at), which makes Bun
 *     build its `Headers` object from the parsed request;
 *   - every answer carries the eleven security header fields Charter sends under NODE_ENV=production
 *     (Strict-Transport-Security included), with the same values, in the same order, from one shared
 *     `Headers` object (the cheapest way Bun takes a header set);
 *   - the JSON body is read as bytes and decoded as UTF-8 that must be valid (a 400 otherwise), then
 *     parsed, and scanned for prototype keys only when its text mentions one;
 *   - unknown paths get the RFC 9457 problem document Charter sends (`application/problem+json`, the
 *     path in `detail`), not a plain-text 404.
 * The body is checked by hand (`raw.mjs`), as in `bun-raw.ts`: no schema library and no response check.
 *
 *   bun bench/peers/bun-raw-secure.ts <port>
 */
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';
import { isEcho, parseId, pathOf, STATIC_BODY, userBody } from './raw.mjs';

/** The fields and values of a Charter answer under the secure defaults (`curl -i` on any route). */
const SECURITY: ReadonlyArray<readonly [string, string]> = [
  [
    'content-security-policy',
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  ],
  // Sent in production only (the benchmark's servers all run with NODE_ENV=production).
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['x-dns-prefetch-control', 'off'],
  ['x-xss-protection', '0'],
  ['origin-agent-cluster', '?1'],
  ['x-permitted-cross-domain-policies', 'none'],
];

function init(status: number, type: string): ResponseInit {
  const headers = new Headers({ 'content-type': type });
  for (const [name, value] of SECURITY) headers.set(name, value);
  return { status, headers };
}

const OK = init(200, 'application/json');
const BAD = init(400, 'text/plain');
const NOT_FOUND = init(404, 'application/problem+json');
const NOT_FOUND_PREFIX =
  '{"type":"https://charter.dev/errors/not-found","title":"Not Found","status":404,"detail":';
const MAX_HEADER_COUNT = 100;
const PROTOTYPE_KEYS = /__proto__|constructor|prototype|\\u/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const badRequest = (): Response => new Response('Bad Request', BAD);
const json = (value: unknown): Response => new Response(JSON.stringify(value), OK);

/** What the defaults ask of every request's header fields: one valid Host, fewer than 100 fields. */
function headersAcceptable(request: Request): boolean {
  const headers = request.headers;
  const host = headers.get('host');
  return host !== null && host.length > 0 && !host.includes(',') && headers.count < MAX_HEADER_COUNT;
}

async function echo(request: Request): Promise<Response> {
  let body: unknown;
  try {
    const text = utf8.decode(await request.bytes());
    body = JSON.parse(text);
    if (PROTOTYPE_KEYS.test(text)) return badRequest();
  } catch {
    return badRequest();
  }
  return isEcho(body) ? json(body) : badRequest();
}

const server = Bun.serve({
  port: portArg(),
  hostname: HOSTNAME,
  fetch(request) {
    if (!headersAcceptable(request)) return badRequest();
    const path = pathOf(request.url);
    if (request.method === 'GET') {
      if (path === '/static') return json(STATIC_BODY);
      if (path.startsWith('/users/')) {
        const id = parseId(path.slice('/users/'.length));
        return id === undefined ? badRequest() : json(userBody(id));
      }
    } else if (request.method === 'POST' && path === '/echo') {
      return echo(request);
    }
    return new Response(
      `${NOT_FOUND_PREFIX}${JSON.stringify(`No route matches ${request.method} ${path}`)}}`,
      NOT_FOUND,
    );
  },
});

announce(server.port ?? 0, () => server.stop(true));
