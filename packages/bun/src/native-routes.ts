import type { App, ServingAddress } from '@charter/core';

type RouteHandler = (request: Request, server?: ServingAddress) => Response | Promise<Response>;

/**
 * Bun matches fully static paths in native code before any JavaScript runs. Routes without
 * parameters are handed to that table, each bound to its compiled route; every other request
 * (and methods a static path does not declare) falls through to `app.handle` and the router.
 * `wrap` lets the caller add the WebSocket upgrade step to the handlers that need it (it receives the
 * route's method and path, and returns the handler itself for the others).
 */
export function nativeRoutes<H = RouteHandler>(
  app: App,
  wrap: (handler: RouteHandler, method: string, path: string) => RouteHandler | H = (handler) => handler,
): Record<string, Record<string, RouteHandler | H>> {
  const table: Record<string, Record<string, RouteHandler | H>> = {};
  for (const route of app.adapterRoutes()) {
    if (!isNativePath(route.path)) continue;
    (table[route.path] ??= {})[route.method] = wrap(route.handle, route.method, route.path);
  }
  return table;
}

/** Bun's route syntax gives `:` and `*` meaning; paths with them stay with the router. */
export function isNativePath(path: string): boolean {
  return !path.includes(':') && !path.includes('*');
}
