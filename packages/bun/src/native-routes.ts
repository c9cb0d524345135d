import type { App } from '@charter/core';

type RouteHandler = (request: Request) => Response | Promise<Response>;

/**
 * Bun matches fully static paths in native code before any JavaScript runs. Routes without
 * parameters are handed to that table, each bound to its compiled route; every other request
 * (and methods a static path does not declare) falls through to `app.handle` and the router.
 * `wrap` lets the caller add the WebSocket upgrade step to each handler.
 */
export function nativeRoutes<H = RouteHandler>(
  app: App,
  wrap: (handler: RouteHandler) => H = (handler) => handler as H,
): Record<string, Record<string, H>> {
  const table: Record<string, Record<string, H>> = {};
  for (const route of app.adapterRoutes()) {
    // Bun's route syntax gives `:` and `*` meaning; such static paths stay with the router.
    if (route.path.includes(':') || route.path.includes('*')) continue;
    (table[route.path] ??= {})[route.method] = wrap(route.handle);
  }
  return table;
}
