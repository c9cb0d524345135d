import { withoutStack } from '../errors/without-stack.ts';
import type { AnyContext, AnyHandlerResult, PreBodyContext } from '../types/index.ts';
import { readAndParseBody } from './body.ts';
import type { CompiledRoute } from './compiled-route.ts';
import type { RequestContext } from './context.ts';
import { acceptRawResponse, respond } from './respond.ts';
import { validateBody, validateRequestParts } from './validate-request.ts';

/**
 * Thrown to stop a timed-out request's remaining steps; nobody receives it (the timeout answered).
 * Made without a stack: one captured at import is filled in at the first collection, and with the
 * built package's linked source map that makes the runtime parse the whole map before the first
 * request (15-20 ms of a cold start).
 */
const ABANDONED = withoutStack(() => new Error('The request timed out; its remaining steps were skipped'));

/**
 * Steps 3 to 7 of the pipeline for a matched route, in the order of the spec's table. Each step is
 * skipped when the route's plan says it has nothing to do; sync work is never awaited.
 */
export async function runRoute(route: CompiledRoute, ctx: RequestContext): Promise<Response> {
  const hooks = route.hooks;

  // Scoped onRequest (group, plugin and route layers: they can only run once the route is known).
  if (route.scopedOnRequest !== undefined) {
    for (const hook of route.scopedOnRequest) {
      let out = hook(ctx.request);
      if (out instanceof Promise) out = await out;
      if (out instanceof Response) return acceptRawResponse(route, ctx, out, 'An onRequest hook');
    }
  }

  // 3. preBody: header-only guards; the body is untouched.
  if (hooks.preBody !== undefined) {
    for (const hook of hooks.preBody) {
      let out = hook(ctx as unknown as PreBodyContext);
      if (out instanceof Promise) out = await out;
      if (out instanceof Response) return acceptRawResponse(route, ctx, out, 'A preBody hook');
    }
  }

  // 4. Validation: params, query and headers, then the body (read only when the route declares one).
  if (route.params !== undefined || route.query !== undefined || route.headers !== undefined) {
    const checked = validateRequestParts(route, ctx);
    if (checked instanceof Promise) await checked;
  }
  if (route.body !== undefined) {
    let parsed = readAndParseBody(ctx.bodySource, route.bodyRead);
    if (parsed instanceof Promise) parsed = await parsed;
    const checked = validateBody(route.body, ctx, parsed);
    if (checked instanceof Promise) await checked;
  }

  // A timed-out request has been answered already: start nothing with side effects.
  if (ctx.timedOut) throw ABANDONED;

  // 5. beforeHandle: body-aware guards.
  if (hooks.beforeHandle !== undefined) {
    for (const hook of hooks.beforeHandle) {
      let out = hook(ctx as unknown as AnyContext);
      if (out instanceof Promise) out = await out;
      if (out instanceof Response) return acceptRawResponse(route, ctx, out, 'A beforeHandle hook');
    }
  }

  if (ctx.timedOut) throw ABANDONED;

  // 6. Handler.
  let result: unknown = route.handler(ctx as never);
  if (result instanceof Promise) result = await result;

  // 7. afterHandle: may replace the result (raw Responses pass by untouched).
  if (hooks.afterHandle !== undefined && !(result instanceof Response)) {
    for (const hook of hooks.afterHandle) {
      let out = hook(ctx as unknown as AnyContext, result as AnyHandlerResult);
      if (out instanceof Promise) out = await out;
      if (out !== undefined) result = out;
    }
  }

  const response = respond(route, ctx, result);
  return response instanceof Promise ? await response : response;
}

/**
 * The same steps for a route with no hooks of its own steps (`route.direct`): validation, body,
 * handler and response stay synchronous when the schemas and the handler are, so a route without a
 * body makes no promise at all, and one with a body makes only the read's.
 */
export function runDirectRoute(route: CompiledRoute, ctx: RequestContext): Response | Promise<Response> {
  // 4. Validation: params, query and headers, then the body.
  if (route.params !== undefined || route.query !== undefined || route.headers !== undefined) {
    const checked = validateRequestParts(route, ctx);
    if (checked instanceof Promise) return checked.then(() => readBodyDirect(route, ctx));
  }
  return readBodyDirect(route, ctx);
}

function readBodyDirect(route: CompiledRoute, ctx: RequestContext): Response | Promise<Response> {
  if (route.body === undefined) return handleDirect(route, ctx);
  return readAndParseBody(ctx.bodySource, route.bodyRead, (parsed) => checkBodyDirect(route, ctx, parsed));
}

function checkBodyDirect(
  route: CompiledRoute,
  ctx: RequestContext,
  parsed: unknown,
): Response | Promise<Response> {
  const checked = validateBody(route.body as NonNullable<CompiledRoute['body']>, ctx, parsed);
  if (checked instanceof Promise) return checked.then(() => handleDirect(route, ctx));
  return handleDirect(route, ctx);
}

function handleDirect(route: CompiledRoute, ctx: RequestContext): Response | Promise<Response> {
  if (ctx.timedOut) throw ABANDONED;
  // 6. Handler, then the response (steps 3, 5 and 7 have no hooks on a direct route).
  const result: unknown = route.handler(ctx as never);
  if (result instanceof Promise) return result.then((settled) => respond(route, ctx, settled));
  return respond(route, ctx, result);
}
