import type { App } from '@charter/core';

type RouteHandler = (request: Request) => Response | Promise<Response>;

/**
 * Bun matches fully static paths in native code before any JavaScript runs. Routes without
 * parameters are handed to that table, each bound to its compiled route; every other request
 * (and methods a static path does not declare) falls through to `app.handle` and the router.
 */
export function nativeRoutes(app: App): Record<string, Record<string, RouteHandler>> {
  const table: Record<string, Record<string, RouteHandler>> = {};
  for (const route of app.adapterRoutes()) {
    // Bun's route syntax gives `:` and `*` meaning; such static paths stay with the router.
    if (route.path.includes(':') || route.path.includes('*')) continue;
    (table[route.path] ??= {})[route.method] = route.handle;
  }
  return table;
}
