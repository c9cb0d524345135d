/**
 * Raw `node:http`: the Node baseline of the peers benchmark (`bench/peers.ts`). The path is cut from
 * `req.url`, routes are `if`s, the id and the POST body are checked by hand (`raw.mjs`), the body is
 * collected from the stream and `JSON.parse`d, answers are `JSON.stringify` with Content-Type and
 * Content-Length. Unknown paths: a plain-text 404.
 *
 *   node bench/peers/node-raw.mjs <port>
 */
import { createServer } from 'node:http';
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';
import { rawListener } from './node-raw-listener.mjs';

const server = createServer(rawListener);

server.listen(portArg(), HOSTNAME, () => {
  announce(server.address().port, () => new Promise((resolve) => server.close(resolve)));
});
