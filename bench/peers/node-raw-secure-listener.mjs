/**
 * The listener of `node-raw-secure.mjs`: the raw baseline (`node-raw-listener.mjs`: the same routes,
 * checks and bodies) whose every answer also carries the eleven fields Charter's secure defaults add,
 * with the same values. Shared by that server and `bench/node-adapter-micro.ts` (the floor's
 * JavaScript work on an in-memory socket).
 */
import { isEcho, parseId, STATIC_BODY, userBody } from './raw.mjs';

/** The fields and values of a Charter answer under the secure defaults (`curl -i` on any route). */
const SECURITY = {
  'content-security-policy':
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

function send(res, status, type, text) {
  res.writeHead(status, { ...SECURITY, 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const sendJson = (res, value) => send(res, 200, 'application/json', JSON.stringify(value));
const sendText = (res, status, text) => send(res, status, 'text/plain', text);

function echo(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      sendText(res, 400, 'Bad Request');
      return;
    }
    if (isEcho(body)) sendJson(res, body);
    else sendText(res, 400, 'Bad Request');
  });
}

/** The raw listener's routes, every answer with the security fields. */
export function rawSecureListener(req, res) {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (req.method === 'GET') {
    if (path === '/static') return sendJson(res, STATIC_BODY);
    if (path.startsWith('/users/')) {
      const id = parseId(path.slice('/users/'.length));
      return id === undefined ? sendText(res, 400, 'Bad Request') : sendJson(res, userBody(id));
    }
  } else if (req.method === 'POST' && path === '/echo') {
    return echo(req, res);
  }
  sendText(res, 404, 'Not Found');
}
