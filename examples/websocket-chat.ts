/**
 * A WebSocket chat room (`app.ws`, `charter/websocket`): everyone connected to /chat sees every
 * message, as JSON `{ from, text }`, plus a line when someone joins or leaves. The upgrade passes the
 * App's hooks, the same-origin check and a per-client rate limit (`wsRateLimit`) first. GET / is a
 * page (HTML and /chat.js, no inline script) to chat from a browser. Run it with
 * `bun examples/websocket-chat.ts` (PORT, default 3000; HOST, default 127.0.0.1) and open two tabs.
 */
import { App, type WsConnection } from 'charter';
import { serve } from 'charter/bun';
import { wsRateLimit } from 'charter/websocket';

/** A name: letters, digits, `-` and `_`, 1 to 20 of them; anything else becomes a guest name. */
const NAME = /^[\w-]{1,20}$/;
const MAX_MESSAGE_CHARACTERS = 500;

const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Chat</title>
<h1>Chat</h1>
<ul id="log"></ul>
<form id="send"><input id="text" autocomplete="off" maxlength="${MAX_MESSAGE_CHARACTERS}" required> <button>Send</button></form>
<script src="/chat.js" type="module"></script>
`;

// The browser side: text is added with textContent, never as HTML.
const SCRIPT = `const log = document.getElementById('log');
const name = prompt('Your name (letters, digits, - and _)') ?? '';
const socket = new WebSocket(new URL('/chat?name=' + encodeURIComponent(name), location.href).href.replace(/^http/, 'ws'));
socket.addEventListener('message', (event) => {
  const { from, text } = JSON.parse(event.data);
  const item = document.createElement('li');
  item.textContent = from + ': ' + text;
  log.append(item);
});
document.getElementById('send').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = document.getElementById('text');
  socket.send(input.value);
  input.value = '';
});
`;

/** The chat app: one room, kept in memory. */
export function createChatApp() {
  const members = new Map<WsConnection, string>();
  let guests = 0;
  const broadcast = (from: string, text: string): void => {
    const frame = JSON.stringify({ from, text });
    for (const conn of members.keys()) conn.send(frame);
  };

  const app = new App({ title: 'Chat example', version: '1.0.0' })
    .get(
      '/',
      { operationId: 'chatPage', responses: { 200: { contentType: 'text/html; charset=utf-8' } } },
      () => ({
        status: 200,
        body: PAGE,
        headers: {
          // Scripts from this origin only, and the socket back to it.
          'content-security-policy':
            "default-src 'none'; script-src 'self'; connect-src 'self'; base-uri 'none'",
        },
      }),
    )
    .get(
      '/chat.js',
      { operationId: 'chatScript', responses: { 200: { contentType: 'text/javascript; charset=utf-8' } } },
      () => ({ status: 200, body: SCRIPT }),
    );

  app.ws('/chat', {
    // Ten connections a minute per client address; the 11th upgrade is a 429 problem.
    beforeUpgrade: wsRateLimit({ windowMs: 60_000, max: 10, logger: app.logger }),
    maxPayloadLength: 4 * 1024,
    idleTimeoutSeconds: 300,
    open(conn, ctx) {
      const asked = ctx.query.name;
      const name = typeof asked === 'string' && NAME.test(asked) ? asked : `guest-${++guests}`;
      members.set(conn, name);
      conn.send(JSON.stringify({ from: 'server', text: `welcome, ${name}` }));
      broadcast('server', `${name} joined`);
    },
    message(conn, message) {
      const from = members.get(conn);
      if (from === undefined) return;
      if (typeof message !== 'string') {
        conn.close(1003, 'text messages only'); // RFC 6455 §7.4.1: a data type it cannot accept
        return;
      }
      const text = message.trim().slice(0, MAX_MESSAGE_CHARACTERS);
      if (text !== '') broadcast(from, text);
    },
    close(conn) {
      const name = members.get(conn);
      members.delete(conn);
      if (name !== undefined) broadcast('server', `${name} left`);
    },
  });
  return app;
}

if (import.meta.main) {
  const server = await serve(createChatApp(), {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  const url = server.url;
  console.log(`Chat example listening on ${url}
Try:
  open ${url}/                 # in two tabs, and talk to yourself
  bunx wscat -c '${url.replace('http', 'ws')}/chat?name=ada'`);
}
