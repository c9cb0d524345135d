/**
 * The raw `node:http` handler of the benchmarks, shared by the peers benchmark's Node baseline
 * (`node-raw.mjs`) and `bench/node-adapter-server.ts`: the path cut from `req.url`, routes as `if`s, the
 * id and the POST body checked by hand (`raw.mjs`), the body collected from the stream and `JSON.parse`d,
 * answers `JSON.stringify`d with Content-Type and Content-Length; anything else a plain-text 404.
 */
import { isEcho, parseId, STATIC_BODY, userBody } from './raw.mjs';

function sendJson(res, value) {
  const text = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendText(res, status, text) {
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

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

/** The raw `node:http` request listener: the four routes by hand, nothing else. */
export function rawListener(req, res) {
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
