/**
 * The Lambda invocation behind a request, for handlers and hooks: the event as it arrived, its
 * `requestContext` (authorizer claims, stage, request id, client certificate...) and the Lambda
 * context object. Kept beside the request like the peer address and the client certificate are, and
 * found again from `ctx.request` (the wrapper user code sees) through its original.
 */
import { originalRequest } from '@charter/core';
import type { LambdaContext, LambdaEventSource, LambdaHttpEvent } from './events.ts';

/** What `lambdaInvocation(ctx.request)` gives. */
export interface LambdaInvocation<Event extends LambdaHttpEvent = LambdaHttpEvent> {
  /** Which integration sent the event. */
  readonly source: LambdaEventSource;
  /** The event, untouched. */
  readonly event: Event;
  /** `event.requestContext`. */
  readonly requestContext: Event['requestContext'];
  /** The Lambda context object (`awsRequestId`, `getRemainingTimeInMillis()`...). */
  readonly context: LambdaContext;
}

const invocations = new WeakMap<Request, LambdaInvocation>();

/** Records the invocation a request was built from. */
export function setLambdaInvocation(request: Request, invocation: LambdaInvocation): void {
  invocations.set(request, invocation);
}

/**
 * The Lambda invocation a request arrived with, from a hook or a handler (`lambdaInvocation(ctx.request)`);
 * undefined for a request that did not come through `toLambdaHandler` or `toLambdaStreamHandler`.
 *
 * @example
 * app.get('/me', { responses: { 200: { body: Me } } }, (ctx) => {
 *   const claims = lambdaInvocation(ctx.request)?.requestContext.authorizer;
 *   ...
 * });
 */
export function lambdaInvocation(request: Request): LambdaInvocation | undefined {
  return invocations.get(request) ?? invocations.get(originalRequest(request));
}
