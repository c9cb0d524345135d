/**
 * The options of the Vercel handlers, and what is refused when one is made: what Vercel Functions
 * cannot do fails at deployment with the reason, not at the first request.
 */
import type { App } from '@charter/core';

export interface VercelHandlerOptions {
  /**
   * A path prefix removed before routing: the folder of the function when the app's routes do not
   * include it (`/api` for `api/[[...route]].ts` or a rewrite to `/api`). Must start with `/` and not
   * end with one. Default: none, the path is routed as the client sent it.
   */
  basePath?: string;
}

/** Validates the options (a TypeError naming the option) and fills the defaults. */
export function resolveVercelOptions(options: VercelHandlerOptions | undefined): {
  basePath: string | undefined;
} {
  const basePath = options?.basePath;
  if (
    basePath !== undefined &&
    (typeof basePath !== 'string' ||
      !basePath.startsWith('/') ||
      basePath.endsWith('/') ||
      basePath.length < 2)
  ) {
    throw new TypeError(
      `basePath must be a path that starts with "/" and does not end with one (e.g. "/api"), got ${JSON.stringify(basePath)}`,
    );
  }
  return Object.freeze({ basePath });
}

/**
 * Refuses an App Vercel Functions cannot serve as configured:
 * - WebSocket routes: a function answers requests and cannot hold an upgraded connection.
 * - A production App with no proxy posture: Vercel's edge sets `X-Forwarded-For` on every request,
 *   which such an App refuses with 400 (secure defaults), so every request would fail.
 */
export function assertVercelServable(app: App, entry: string): void {
  const sockets = app.wsRoutes();
  if (sockets.length > 0) {
    throw new Error(
      `${entry}: the App has WebSocket routes (${sockets.map((route) => route.path).join(', ')}), which Vercel ` +
        'Functions cannot serve: a function answers HTTP requests and cannot keep an upgraded connection. ' +
        'Serve them from a long-running server (charter/node, charter/bun), or remove them from the Vercel app.',
    );
  }
  if (app.options.production && app.options.security.proxy.kind === 'unset') {
    throw new Error(
      `${entry}: the App runs in production with no proxy posture, and Vercel sets X-Forwarded-For on every ` +
        'request, which such an App refuses with 400. Set behindProxy: { hops: 1 }: Vercel writes the ' +
        "client's address there, replacing whatever the client sent.",
    );
  }
}

/** The path without `basePath` when it starts with it; undefined when it does not. */
export function stripBasePath(path: string, basePath: string): string | undefined {
  if (path === basePath) return '/';
  if (path.startsWith(`${basePath}/`)) return path.slice(basePath.length);
  return undefined;
}
