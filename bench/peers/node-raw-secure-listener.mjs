/**
 * The listener of `node-raw-secure.mjs`: raw `node:http` doing by hand the work Charter's secure defaults
 * require, and nothing else, like `bun-raw-secure.ts` on Bun: the floor under `charter-node-*`.
 *   - the request's header fields are read: one non-empty Host without a comma, fewer than 100 fields;
 *   - every answer carries the eleven security header fields Charter sends under NODE_ENV=production,
 *     with the same values, from one prebuilt list (Node's cheapest way to take a fixed header set);
 *   - the JSON body is decoded as UTF-8 that must be valid (a 400 otherwise), then parsed, and scanned for
 *     prototype keys only when its text mentions one;
 *   - unknown paths get the RFC 9457 problem document Charter sends (`application/problem+json`, the path
 *     in `detail`), not a plain-text 404.
 * The routes, the id and the body's shape are checked as in the raw baseline (`node-raw-listener.mjs`,
 * `raw.mjs`). Shared by `node-raw-secure.mjs` (a peers server) and `bench/node-adapter-micro.ts` (the
 * floor's JavaScript work on an in-memory socket). Spelled out rather than sharing code with the baseline,
 * so the baseline pays for no option.
 */
import { isEcho, parseId, STATIC_BODY, userBody } from './raw.mjs';

/** The fields and values of a Charter answer under the secure defaults (`curl -i` on any route). */
const SECURITY = [
  'content-security-policy',
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  // Sent in production only (the benchmark's servers all run with NODE_ENV=production).
  'strict-transport-security',
  'max-age=31536000; includeSubDomains',
  'referrer-policy',
  'no-referrer',
  'x-content-type-options',
  'nosniff',
  'x-frame-options',
  'DENY',
  'cross-origin-opener-policy',
  'same-origin',
  'cross-origin-resource-policy',
  'same-origin',
  'x-dns-prefetch-control',
  'off',
  'x-xss-protection',
  '0',
  'origin-agent-cluster',
  '?1',
  'x-permitted-cross-domain-policies',
  'none',
];

const MAX_HEADER_COUNT = 100;
const PROTOTYPE_KEYS = /__proto__|constructor|prototype|\\u/;
const NOT_FOUND_PREFIX =
  '{"type":"https://charter.dev/errors/not-found","title":"Not Found","status":404,"detail":';
const utf8 = new TextDecoder('utf-8', { fatal: true });

function send(res, status, type, text) {
  // A flat [name, value, ...] list: Node writes it as it is, without copying an object's keys.
  res.writeHead(status, [...SECURITY, 'content-type', type, 'content-length', Buffer.byteLength(text)]);
  res.end(text);
}

const sendJson = (res, value) => send(res, 200, 'application/json', JSON.stringify(value));
const badRequest = (res) => send(res, 400, 'text/plain', 'Bad Request');

/** What the defaults ask of every request's header fields: one valid Host, fewer than 100 fields. */
function headersAcceptable(req) {
  const host = req.headers.host;
  return (
    host !== undefined &&
    host.length > 0 &&
    !host.includes(',') &&
    req.rawHeaders.length / 2 < MAX_HEADER_COUNT
  );
}

function echo(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      const text = utf8.decode(Buffer.concat(chunks));
      body = JSON.parse(text);
      if (PROTOTYPE_KEYS.test(text)) return badRequest(res);
    } catch {
      return badRequest(res);
    }
    if (isEcho(body)) sendJson(res, body);
    else badRequest(res);
  });
}

/** The raw listener's routes, with the work the secure defaults require. */
export function rawSecureListener(req, res) {
  if (!headersAcceptable(req)) return badRequest(res);
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (req.method === 'GET') {
    if (path === '/static') return sendJson(res, STATIC_BODY);
    if (path.startsWith('/users/')) {
      const id = parseId(path.slice('/users/'.length));
      return id === undefined ? badRequest(res) : sendJson(res, userBody(id));
    }
  } else if (req.method === 'POST' && path === '/echo') {
    return echo(req, res);
  }
  send(
    res,
    404,
    'application/problem+json',
    `${NOT_FOUND_PREFIX}${JSON.stringify(`No route matches ${req.method} ${path}`)}}`,
  );
}
