/**
 * The options of `toLambdaHandler` and `toLambdaStreamHandler`, and the checks made when a handler is
 * created: what Lambda cannot do is refused there, with the reason, rather than at the first request.
 */
import type { App } from '@charter/core';

export interface LambdaHandlerOptions {
  /**
   * A path prefix removed before routing, when the platform puts one in the path: an HTTP API stage
   * other than `$default` (`rawPath` is `/prod/users`), or a custom domain's API mapping. Must start
   * with `/` and not end with one. Default: none, the path is routed as it arrives.
   */
  basePath?: string;
}

export interface ResolvedLambdaOptions {
  readonly basePath: string | undefined;
}

/** Validates the options (throwing a TypeError naming the option) and fills the defaults. */
export function resolveLambdaOptions(options: LambdaHandlerOptions | undefined): ResolvedLambdaOptions {
  const basePath = options?.basePath;
  if (basePath !== undefined) {
    if (
      typeof basePath !== 'string' ||
      !basePath.startsWith('/') ||
      basePath.endsWith('/') ||
      basePath.length < 2
    ) {
      throw new TypeError(
        `basePath must be a path that starts with "/" and does not end with one (e.g. "/prod"), got ${JSON.stringify(basePath)}`,
      );
    }
  }
  return Object.freeze({ basePath });
}

/**
 * Refuses an App that Lambda cannot serve as configured:
 * - WebSocket routes: a Lambda function answers one invocation with one response and holds no
 *   connection (API Gateway WebSocket APIs deliver each frame as a separate event, another model).
 * - A production App with no proxy posture: API Gateway, Function URLs and the ALB add
 *   `X-Forwarded-For` to every request, which such an App refuses with 400 (secure defaults), so every
 *   request would fail.
 */
export function assertLambdaServable(app: App, entry: string): void {
  const sockets = app.wsRoutes();
  if (sockets.length > 0) {
    throw new Error(
      `${entry}: the App has WebSocket routes (${sockets.map((route) => route.path).join(', ')}), which AWS Lambda ` +
        'cannot serve: a function answers each invocation with one HTTP response and holds no connection. ' +
        'Serve them from a long-running server (charter/node, charter/bun), or remove them from the Lambda app.',
    );
  }
  if (app.options.production && app.options.security.proxy.kind === 'unset') {
    throw new Error(
      `${entry}: the App runs in production with no proxy posture, and API Gateway, Function URLs and ` +
        'load balancers add X-Forwarded-For to every request, which such an App refuses with 400. Set ' +
        "behindProxy: 'none' to use the client address API Gateway and Function URLs report (requestContext " +
        'sourceIp), or behindProxy: { hops: 1 } behind an Application Load Balancer.',
    );
  }
}
