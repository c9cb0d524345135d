/**
 * Raw `node:http` doing by hand the work Charter's secure defaults require, and nothing else
 * (`node-raw-secure-listener.mjs`): not a peer, the floor under `charter-node-*` in the peers run, as
 * `bun-raw-secure.ts` is on Bun. Beside the raw baseline (`node-raw.mjs`: the same routes, checks and
 * bodies) it tells how much of charter/node's distance to raw `node:http` is the work the defaults ask
 * for (the longer header section built, written, sent and parsed by the load generator; the Host and
 * field-count checks; the strict body read; the problem document) rather than the framework's own.
 *
 *   node bench/peers/node-raw-secure.mjs <port>
 */
import { createServer } from 'node:http';
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';
import { rawSecureListener } from './node-raw-secure-listener.mjs';

const server = createServer(rawSecureListener);

server.listen(portArg(), HOSTNAME, () => {
  announce(server.address().port, () => new Promise((resolve) => server.close(resolve)));
});
