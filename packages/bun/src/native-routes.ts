import type { App, ServingAddress } from '@charter/core';

type RouteHandler = (request: Request, server?: ServingAddress) => Response | Promise<Response>;

/**
 * Bun matches the paths of its `routes` table in native code before any JavaScript runs. The routes
 * `app.adapterRoutes()` offers are handed to it, each bound to its compiled route: fully static
 * paths, and parameter paths that no other route's pattern overlaps. A parameter route's handler
 * uses Bun's pick only when it is the router's (canonical path, same segments: see
 * `Router.soleMatcher`); a `%`-escape, `//`, a dot segment or a trailing slash goes to `app.handle`
 * and the router, since Bun decodes `request.params` (`%2F` to `/`, `%ZZ` to U+FFFD) where the
 * router refuses or keeps the text. Every other request (and methods a path does not declare) falls
 * through to the `fetch` handler, `app.handle`.
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

/** Bun's route syntax gives `*` a meaning of its own (`:name` is a parameter in both); wildcards stay with the router. */
export function isNativePath(path: string): boolean {
  return !path.includes('*');
}
