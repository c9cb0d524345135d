/**
 * The Node.js signature of Vercel Functions, `export default function handler(req, res)`: Vercel's
 * Node runtime hands a `node:http` request and response (with helpers added), which charter/node's
 * listener answers as on any Node server.
 */
import type { App } from '@charter/core';
import { type NodeHandler, toNodeHandler } from '@charter/node';
import {
  assertVercelServable,
  resolveVercelOptions,
  stripBasePath,
  type VercelHandlerOptions,
} from './options.ts';

/**
 * A `(req, res)` handler for Vercel's Node.js runtime: `export default toVercelNodeHandler(app)`.
 * It is charter/node's `toNodeHandler`, after the checks of `toVercelHandlers` and with `basePath`.
 * The request body is read from the stream: do not read Vercel's `req.body` helper before it.
 */
export function toVercelNodeHandler(app: App, options?: VercelHandlerOptions): NodeHandler {
  const { basePath } = resolveVercelOptions(options);
  assertVercelServable(app, 'toVercelNodeHandler');
  const handler = toNodeHandler(app);
  if (basePath === undefined) return handler;
  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    const stripped = stripBasePath(path, basePath);
    if (stripped !== undefined) req.url = stripped + (query < 0 ? '' : url.slice(query));
    handler(req, res);
  };
}
