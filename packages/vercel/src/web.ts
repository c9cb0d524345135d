/**
 * The Web handler Vercel Functions take: `export default { fetch }`, or one export per HTTP method
 * (`export const { GET, POST } = toVercelHandlers(app)`), each `(request, context?) => Response`.
 * The App's body limit, timeout, secure headers and problem documents apply as on any runtime.
 */
import { type App, handleWithoutWebSockets } from '@charter/core';
import {
  assertVercelServable,
  resolveVercelOptions,
  stripBasePath,
  type VercelHandlerOptions,
} from './options.ts';
import { setVercelContext, type VercelContext } from './platform.ts';

/** A Vercel web handler: a Fetch `Request` in, a `Response` out. */
export type VercelWebHandler = (request: Request, context?: VercelContext) => Promise<Response>;

/** `toVercelHandlers(app)`: the default-export object (`fetch`) and the per-method exports. */
export interface VercelHandlers {
  fetch: VercelWebHandler;
  GET: VercelWebHandler;
  HEAD: VercelWebHandler;
  POST: VercelWebHandler;
  PUT: VercelWebHandler;
  PATCH: VercelWebHandler;
  DELETE: VercelWebHandler;
  OPTIONS: VercelWebHandler;
}

/** The request with `basePath` taken off its path (a new Request on the same body), or as it is. */
function rebased(request: Request, basePath: string | undefined): Request {
  if (basePath === undefined) return request;
  const url = new URL(request.url);
  const path = stripBasePath(url.pathname, basePath);
  if (path === undefined) return request;
  url.pathname = path;
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    redirect: request.redirect,
    // A streamed body (Node's undici) must say it is sent while the response may already come back.
    duplex: 'half',
  } as RequestInit);
}

/**
 * The Web handlers of an App for Vercel Functions. Every export runs the same App (its router, not
 * Vercel's, decides what a method and path get), so `fetch` and each method export answer alike.
 * Throws at once for an App Vercel cannot serve (WebSocket routes, production without a proxy posture).
 *
 * @example
 * // api/[[...route]].ts
 * import { toVercelHandlers } from 'charter/vercel';
 * import { app } from '../src/app.ts';
 * export default toVercelHandlers(app); // { fetch }
 */
export function toVercelHandlers(app: App, options?: VercelHandlerOptions): VercelHandlers {
  const { basePath } = resolveVercelOptions(options);
  assertVercelServable(app, 'toVercelHandlers');
  const handle: VercelWebHandler = async (incoming, context) => {
    const request = rebased(incoming, basePath);
    if (context !== undefined && context !== null) setVercelContext(request, context);
    // A WebSocket route registered after the handlers were made: a function cannot complete it.
    return handleWithoutWebSockets(app, request, 'Vercel Functions');
  };
  return {
    fetch: handle,
    GET: handle,
    HEAD: handle,
    POST: handle,
    PUT: handle,
    PATCH: handle,
    DELETE: handle,
    OPTIONS: handle,
  };
}
