/**
 * `toLambdaHandler(app)`: the buffered handler. One invocation, one event in, one result out; the
 * App's body limit, timeout, secure headers and problem documents apply as on any other runtime,
 * because they are the App's.
 */
import { type App, handleWithoutWebSockets, InternalError, renderError, setRequestPeer } from '@charter/core';
import type { LambdaContext, LambdaEventSource, LambdaHttpEvent, LambdaHttpResult } from './events.ts';
import { setLambdaInvocation } from './invocation.ts';
import { assertLambdaServable, type LambdaHandlerOptions, resolveLambdaOptions } from './options.ts';
import { buildRequest, eventMethod, eventSource } from './request.ts';
import { toLambdaResult } from './response.ts';

/** An async Lambda handler for HTTP events (the Node.js runtime's `export const handler`). */
export type LambdaHandler = (event: LambdaHttpEvent, context?: LambdaContext) => Promise<LambdaHttpResult>;

/** What the App answered for an event, or the problem the adapter answered itself. */
export interface Answer {
  readonly response: Response;
  readonly method: string;
}

/**
 * Builds the request for an event and lets the App answer it; never throws for an HTTP event (only
 * for an event that is not one, see `eventSource`).
 */
export async function answerEvent(
  app: App,
  event: LambdaHttpEvent,
  source: LambdaEventSource,
  context: LambdaContext,
  basePath: string | undefined,
  signal?: AbortSignal,
): Promise<Answer> {
  const production = app.options.production;
  const built = buildRequest(event, source, { basePath, signal });
  if ('problem' in built) {
    return { response: renderError(built.problem, production).response, method: eventMethod(event, source) };
  }
  const { request, peer } = built;
  // The address API Gateway or the Function URL saw the connection come from (requestContext sourceIp);
  // the ALB reports none, its client is in X-Forwarded-For (use behindProxy: { hops: 1 }).
  if (peer !== undefined) setRequestPeer(request, peer);
  setLambdaInvocation(request, { source, event, requestContext: event.requestContext, context });
  // A WebSocket route registered after the handler was made (a plugin): Lambda cannot complete it.
  const response = await handleWithoutWebSockets(app, request, 'AWS Lambda');
  return { response, method: request.method };
}

/** True when an ALB event came in the target group's multi-value header mode. */
export function isMultiValueEvent(event: LambdaHttpEvent): boolean {
  const raw = event as { multiValueHeaders?: unknown };
  return typeof raw.multiValueHeaders === 'object' && raw.multiValueHeaders !== null;
}

const NO_CONTEXT: LambdaContext = Object.freeze({});

/**
 * The Lambda handler for an App, for API Gateway REST APIs (payload 1.0), HTTP APIs (payload 1.0 and
 * 2.0), Function URLs and Application Load Balancers; the result takes the shape of the event that
 * came. Throws at once for an App Lambda cannot serve (WebSocket routes; production without a proxy
 * posture), and a `LambdaEventError` for an invocation whose event is not an HTTP event.
 *
 * @example
 * import { toLambdaHandler } from 'charter/lambda';
 * export const handler = toLambdaHandler(app);
 */
export function toLambdaHandler(app: App, options?: LambdaHandlerOptions): LambdaHandler {
  const { basePath } = resolveLambdaOptions(options);
  assertLambdaServable(app, 'toLambdaHandler');
  return async (event, context = NO_CONTEXT) => {
    const source = eventSource(event);
    const { response, method } = await answerEvent(app, event, source, context, basePath);
    const options = { source, method, multiValue: isMultiValueEvent(event), logger: app.logger };
    try {
      return await toLambdaResult(response, options);
    } catch (error) {
      // The body failed while it was read whole. Nothing has been sent yet: the client gets the
      // catalog's 500 problem (redacted in production) instead of the platform's bare 502.
      app.logger.error('The response body failed while it was read', {
        method,
        status: response.status,
        error,
      });
      return toLambdaResult(renderError(new InternalError(), app.options.production).response, options);
    }
  };
}
