/**
 * @module charter/deno
 * Serves a Charter App with `Deno.serve`: the connection's address for `clientIp` and proxy postures,
 * WebSocket routes through `Deno.upgradeWebSocket`, and SIGINT/SIGTERM drain in-flight requests before
 * exiting. Needs `--allow-net` (and nothing else).
 */
export {
  DENO_MAX_HEADER_FIELDS,
  type DenoServeHandle,
  type DenoServeOptions,
  type DenoServer,
  serve,
} from './serve.ts';
export type { DenoHttpServer, DenoNetAddr } from './deno-global.ts';
