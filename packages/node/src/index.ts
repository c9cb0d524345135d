/**
 * @module charter/node
 * The `node:http` adapter: `serve(app)` runs an App on Node (or any runtime with `node:http`), and
 * `toNodeHandler(app)` mounts one in an existing `http.createServer`. Requests and responses are
 * converted to and from the Web `Request`/`Response` the App speaks, bodies streamed both ways.
 */
import type { App } from '@charter/core';
import { createHandler, type NodeHandler } from './handler.ts';

export type { NodeHandler } from './handler.ts';
/** Runs an App on `node:http`, with graceful shutdown; see `ServeOptions` and `RunningServer`. */
export { type NodeServeHandle, serve, type RunningServer } from './serve.ts';
export type { ServeOptions } from './serve-options.ts';

/**
 * A `(req, res)` listener answering with the app, for an existing `http.createServer`. It applies the
 * app's header-count guard, but the server settings `serve()` makes (`maxHeadersCount` at least the
 * app's `maxHeaderCount`, problem answers on `clientError`, shutdown) are then the caller's.
 */
export function toNodeHandler(app: App): NodeHandler {
  return createHandler(app);
}
