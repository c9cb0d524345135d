/**
 * Raw `node:http` with Charter's security header fields: the raw baseline (`node-raw-listener.mjs`:
 * the same routes, checks and bodies) whose every answer also carries the eleven fields Charter's
 * secure defaults add, with the same values. Not a peer: a diagnostic for `bench/node-adapter.ts`
 * (`BENCH_PEERS=raw-secure=bench/peers/node-raw-secure.mjs`), telling how much of charter/node's
 * distance to raw `node:http` is the longer header section itself (built and written by the server,
 * sent over the socket, parsed by the load generator) rather than the framework's work. The listener
 * (`node-raw-secure-listener.mjs`) is spelled out rather than shared with the baseline, so the baseline
 * pays for no option.
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
