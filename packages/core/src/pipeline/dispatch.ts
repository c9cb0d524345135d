import type { ResolvedAppOptions } from '../app/options.ts';
import {
  BadRequestError,
  type HttpError,
  isHttpError,
  MethodNotAllowedError,
  NotFoundError,
  renderError,
} from '../errors/index.ts';
import { withoutStack } from '../errors/without-stack.ts';
import type { Logger } from '../logger/index.ts';
import type { Router } from '../router/index.ts';
import type { CompiledRoute } from './compiled-route.ts';
import { isResponseContractError, logContractViolation } from './contract-violation.ts';
import { logCredentialRejection } from '../errors/credential-rejection.ts';
import { Exchange, RequestContext } from './context.ts';
import type { PhaseList, PhaseTable } from './hook-layers.ts';
import { bindClientAddress, type ClientAddressResolver } from './client-address.ts';
import { guardPerimeter, hardenResponse, type PerimeterPlan } from './perimeter.ts';
import { pathnameOf } from './request-parts.ts';
import { checkRequestTarget, type ServingAddress } from './request-target.ts';
import { setRequestPeer } from './client-address.ts';
import { linkPlannedResponses, PlannedResponse } from './planned-response.ts';
import { withPendingHeaders } from './respond.ts';
import { withoutContent } from './head-answer.ts';
import { recordPayload } from './response-payload.ts';
import { runDirectRoute, runRoute } from './run-route.ts';
import type { RequestTimeouts } from './timeout.ts';

/** A router entry: resolves to the compiled route (compiled lazily, recompiled when hooks change). */
export interface RouteSlot {
  compiled(): CompiledRoute;
}

/** What the pipeline needs from the App. */
export interface PipelineHost {
  readonly options: ResolvedAppOptions;
  readonly logger: Logger;
  readonly router: Router<RouteSlot>;
  /** onRequest of the constructor hooks, then of root `app.use`, run before routing. */
  readonly constructorOnRequest: PhaseList<'onRequest'>;
  readonly perimeterOnRequest: PhaseList<'onRequest'>;
  /** Hooks for an unmatched request: constructor hooks only, or also app.use when a guard answered. */
  readonly unmatchedPhases: PhaseTable;
  readonly guardedPhases: PhaseTable;
  /** The app's request timeout; undefined when `requestTimeoutMs` is 0. */
  readonly timeouts: RequestTimeouts<PipelineHost> | undefined;
  /** Step 0 guards and the response guards of step 8. */
  readonly perimeter: PerimeterPlan;
  /** True when responses are hardened at all (server headers stripped or security headers added). */
  readonly hardens: boolean;
  /** The client address of a request under the app's proxy posture. */
  readonly clientAddress: ClientAddressResolver;
  /** Requests in flight, this one included. */
  readonly inFlight: number;
  requestStarted(): void;
  requestFinished(): void;
}

/** A route the adapter already matched (Bun's native static routes). */
export interface PreMatched {
  slot: RouteSlot;
  params: Record<string, string>;
}

/**
 * The request pipeline, step by step as in the docs' table:
 *   0. perimeter guards (target and Host,     5. beforeHandle
 *      header count, load, forwarded headers)
 *   1. onRequest                              6. handler
 *   2. route match (404 / 405 / 400)          7. afterHandle
 *   3. preBody                                8. onSend, then onResponse
 *   4. validation (params, query, headers, then body)
 * Any throw goes to onError and becomes an RFC 9457 problem; steps 0-7 run under the timeout.
 * A request whose steps all finish synchronously is answered without a promise.
 */
export function dispatch(
  host: PipelineHost,
  received: Request,
  preMatched?: PreMatched,
  serving?: ServingAddress,
): Response | Promise<Response> {
  // Read once for every step (a native getter on Bun); a rebuilt request keeps the method.
  const method = received.method;
  // 0. A target or Host no URL can be built from is answered before any hook could trip on it.
  const request = checkRequestTarget(received, serving, method);
  if (request !== received) {
    if (!(request instanceof Request)) return refuseTarget(host, received, request);
    // Rebuilt on the listening address: it still arrived on the original's connection.
    const peer = host.clientAddress.peer?.(received);
    if (peer !== undefined) setRequestPeer(request, peer);
  }
  const exchange = new Exchange(request, host.clientAddress, method);
  host.requestStarted();
  let work: Response | Promise<Response>;
  try {
    work = handle(host, exchange, preMatched);
  } catch (error) {
    return recoverAndFinish(host, exchange, error);
  }
  // Finished synchronously: there is nothing left for a timeout to interrupt.
  if (!(work instanceof Promise)) return finish(host, exchange, work);
  if (host.timeouts !== undefined) return host.timeouts.watch(work, exchange, host, finish, recoverAndFinish);
  return work.then(
    (response) => finish(host, exchange, response),
    (error: unknown) => recoverAndFinish(host, exchange, error),
  );
}

/** A request no URL can be built from: its problem, hardened like any answer, with no hook run. */
function refuseTarget(host: PipelineHost, request: Request, error: HttpError): Response {
  // A client error, and one any client can send at will: never an error-level line.
  host.logger.debug('Refused a request target', {
    method: request.method,
    status: error.status,
    detail: error.detail,
  });
  const response = renderError(error, host.options.production).response;
  // Nothing else this client sends on the connection can be trusted to be framed as we read it (a
  // CONNECT client may already be sending tunnel bytes): close it after the answer (RFC 9112 §9.6).
  response.headers.set('connection', 'close');
  return host.hardens ? hardenResponse(host.perimeter, response) : response;
}

function recoverAndFinish(
  host: PipelineHost,
  exchange: Exchange,
  error: unknown,
): Response | Promise<Response> {
  const recovered = recover(host, exchange, error);
  if (recovered instanceof Promise) return recovered.then((response) => finish(host, exchange, response));
  return finish(host, exchange, recovered);
}

/** Steps 0 to 2, then the route's own steps. Sync until a hook or the route goes async. */
function handle(
  host: PipelineHost,
  exchange: Exchange,
  preMatched: PreMatched | undefined,
): Response | Promise<Response> {
  const request = exchange.request;

  // 0. Perimeter: header count, load shedding and forwarded headers, before any hook runs.
  guardPerimeter(host.perimeter, request, host.inFlight - 1);

  // 1. onRequest: constructor hooks, then app.use perimeter guards.
  const early = runOnRequest(host, exchange);
  if (early instanceof Promise) {
    return early.then((answer) => answer ?? matchAndRun(host, exchange, preMatched));
  }
  return early ?? matchAndRun(host, exchange, preMatched);
}

type EarlyAnswer = Response | undefined | Promise<Response | undefined>;

/** Step 1: the constructor's onRequest hooks, then the perimeter guards; sync until a hook is async. */
function runOnRequest(host: PipelineHost, exchange: Exchange): EarlyAnswer {
  const constructorHooks = host.constructorOnRequest;
  const guards = host.perimeterOnRequest;
  if (constructorHooks === undefined && guards === undefined) return undefined;
  // Hooks get the real Request (light-request.ts), and may ask for its client address (clientIp(request)).
  const request = exchange.userRequest;
  bindClientAddress(request, host.clientAddress);
  const runGuards = (): EarlyAnswer =>
    guards === undefined ? undefined : runPerimeterGuards(exchange, guards);
  const early = constructorHooks === undefined ? undefined : runRequestHooks(constructorHooks, request, 0);
  if (early instanceof Promise) return early.then((answer) => answer ?? runGuards());
  return early ?? runGuards();
}

/** The `app.use` onRequest guards: one that answers or throws marks the exchange (see phasesFor). */
function runPerimeterGuards(exchange: Exchange, guards: NonNullable<PhaseList<'onRequest'>>): EarlyAnswer {
  const answered = (out: Response | undefined): Response | undefined => {
    if (out !== undefined) exchange.guardAnswered = true;
    return out;
  };
  const failed = (error: unknown): never => {
    exchange.guardAnswered = true;
    throw error;
  };
  let out: EarlyAnswer;
  try {
    out = runRequestHooks(guards, exchange.userRequest, 0);
  } catch (error) {
    return failed(error);
  }
  return out instanceof Promise ? out.then(answered, failed) : answered(out);
}

/** Runs onRequest hooks from index `from` until one answers with a Response. */
function runRequestHooks(
  hooks: NonNullable<PhaseList<'onRequest'>>,
  request: Request,
  from: number,
): EarlyAnswer {
  for (let i = from; i < hooks.length; i++) {
    const out = hooks[i]!(request);
    if (out instanceof Promise) {
      return out.then((settled) =>
        settled instanceof Response ? settled : runRequestHooks(hooks, request, i + 1),
      );
    }
    if (out instanceof Response) return out;
  }
  return undefined;
}

function matchAndRun(
  host: PipelineHost,
  exchange: Exchange,
  preMatched: PreMatched | undefined,
): Response | Promise<Response> {
  const request = exchange.request;

  // 2. Route match.
  let slot: RouteSlot;
  let params: Record<string, string>;
  if (preMatched !== undefined) {
    // The adapter matched it already.
    slot = preMatched.slot;
    params = preMatched.params;
  } else {
    // Only the path: the query is cut from the URL if it is ever read (RequestContext.query).
    const pathname = pathnameOf(request.url);
    const method = exchange.method;
    const found = host.router.find(method, pathname);
    // A client's miss is routine: its error carries no stack (never logged; capturing one costs more
    // than the rest of the refusal).
    if (found.kind === 'not-found') {
      const detail = `No route matches ${method} ${pathname}`;
      // With no onError hook to hand an error to, the 404 is answered without making one: an Error
      // (even without its stack) costs more than the rest of the refusal.
      if (phasesFor(host, exchange).onError === undefined) {
        return problemAnswer(host, exchange, 404, notFoundProblem(detail));
      }
      throw withoutStack(() => new NotFoundError(detail));
    }
    if (found.kind === 'method-not-allowed') {
      throw withoutStack(
        () => new MethodNotAllowedError(found.allowed, `${method} is not allowed on ${pathname}`),
      );
    }
    if (found.kind === 'bad-path') {
      throw withoutStack(() => new BadRequestError(`The request path is not acceptable: ${found.reason}`));
    }
    slot = found.value;
    params = found.params;
  }
  const route = slot.compiled();
  const ctx = new RequestContext(exchange, route, params);
  exchange.route = route;
  exchange.ctx = ctx;

  // A state-changing browser request from an origin no CORS policy of the route admits (per route).
  if (route.crossOrigin !== undefined) route.crossOrigin(request);

  // 3-7. preBody, validation, beforeHandle, handler, afterHandle.
  return route.direct ? runDirectRoute(route, ctx) : runRoute(route, ctx);
}

let notFoundPrefix: string | undefined;

/**
 * The JSON of `new NotFoundError(detail).toProblem()`, member for member, without the error: the
 * members before `detail` are serialised once, so a 404 escapes only its detail text. The detail goes
 * through JSON.stringify, not a character scan in JavaScript: it is a rope (a template literal), and
 * the native serialiser reads it in one pass where `charCodeAt` over it cost 2,400 to 4,000 more
 * instructions per 404 (bench/README.md, "Where the time goes on Bun").
 */
function notFoundProblem(detail: string): string {
  if (notFoundPrefix === undefined) {
    // Read once off a real NotFoundError, so the two can never disagree.
    const { type = 'about:blank', title } = withoutStack(() => new NotFoundError('')).toProblem();
    const head = JSON.stringify({ type, title, status: 404, detail: '' });
    notFoundPrefix = head.slice(0, head.length - '""}'.length);
  }
  return `${notFoundPrefix}${JSON.stringify(detail)}}`;
}

function phasesFor(host: PipelineHost, exchange: Exchange): PhaseTable {
  return exchange.route?.hooks ?? (exchange.guardAnswered ? host.guardedPhases : host.unmatchedPhases);
}

/**
 * The error path: onError hooks may answer; otherwise the error becomes a problem document. Without
 * onError hooks (the common case for a 404 or a 422) it stays synchronous: no promise per refusal.
 */
function recover(host: PipelineHost, exchange: Exchange, error: unknown): Response | Promise<Response> {
  // A broken response contract is the server's bug: logged whoever answers it (issue 19).
  if (isResponseContractError(error)) logContractViolation(host.logger, error);
  else if (isHttpError(error) && error.status === 401) {
    const route =
      exchange.route === undefined ? undefined : `${exchange.route.method} ${exchange.route.path}`;
    logCredentialRejection(host.logger, error, route);
  }
  const onError = phasesFor(host, exchange).onError;
  if (onError === undefined) return problemFor(host, exchange, error);
  return recoverWithHooks(host, exchange, error, onError);
}

async function recoverWithHooks(
  host: PipelineHost,
  exchange: Exchange,
  error: unknown,
  onError: NonNullable<PhaseTable['onError']>,
): Promise<Response> {
  const ctx = exchange.ctx;
  for (const hook of onError) {
    try {
      let out = hook(error, ctx, exchange.userRequest);
      if (out instanceof Promise) out = await out;
      if (out instanceof Response) return withPendingHeaders(out, ctx?.pendingHeaders);
    } catch (hookError) {
      host.logger.error('An onError hook threw', { error: hookError });
    }
  }
  return problemFor(host, exchange, error);
}

/**
 * A refusal on the prebuilt problem header set, which already holds the security headers (step 8 has
 * nothing to add): planned for an adapter that writes planned answers (charter/node), else a Response.
 */
function problemAnswer(host: PipelineHost, exchange: Exchange, status: number, body: string): Response {
  exchange.hardened = true;
  const set = host.perimeter.problemHeaders;
  if (exchange.plannedAnswers) return new PlannedResponse(status, set, body) as unknown as Response;
  const response = new Response(body, set.init(status));
  return exchange.recordsPayload ? recordPayload(response, body) : response;
}

/** The problem document of an error; an unexpected one (not an HttpError) is logged with its stack. */
function problemFor(host: PipelineHost, exchange: Exchange, error: unknown): Response {
  const pending = exchange.ctx?.pendingHeaders;
  if (pending === undefined && isHttpError(error) && error.headers === undefined) {
    // The common refusal (404, 422...): one answer on the prebuilt problem header set.
    return problemAnswer(
      host,
      exchange,
      error.status,
      JSON.stringify(error.toProblem(host.options.production)),
    );
  }
  const rendered = renderError(error, host.options.production, pending);
  if (rendered.unexpected) {
    host.logger.error('Request failed with an unexpected error', {
      method: exchange.method,
      route: exchange.route?.path,
      status: rendered.error.status,
      error,
    });
  }
  return rendered.response;
}

/**
 * Step 8. The response guards run last, after any onSend hook: a response the route built itself
 * already carries the security headers (see respond.ts). Without onSend/onResponse hooks and
 * outside HEAD, nothing else is left to do.
 */
function finish(host: PipelineHost, exchange: Exchange, response: Response): Response | Promise<Response> {
  const phases = phasesFor(host, exchange);
  if (phases.onSend === undefined && phases.onResponse === undefined && exchange.method !== 'HEAD') {
    host.requestFinished();
    return host.hardens && !exchange.hardened && exchange.ctx?.hardened !== true
      ? hardenResponse(host.perimeter, response)
      : response;
  }
  return finishWithHooks(host, exchange, phases, response).finally(() => host.requestFinished());
}

/** onSend may replace the response, then onResponse observes it. */
async function finishWithHooks(
  host: PipelineHost,
  exchange: Exchange,
  phases: PhaseTable,
  response: Response,
): Promise<Response> {
  // The hooks are user code: a planned answer they receive must be `instanceof Response`.
  linkPlannedResponses();
  const ctx = exchange.ctx;
  if (phases.onSend !== undefined) {
    try {
      for (const hook of phases.onSend) {
        let out = hook(response, ctx, exchange.userRequest);
        if (out instanceof Promise) out = await out;
        if (out instanceof Response) response = out;
      }
    } catch (error) {
      // The error path, as for any other step: onError may answer (a thrown HttpError is its problem,
      // anything else a logged 500), the later onSend hooks are skipped, onResponse sees the answer.
      response = await recover(host, exchange, error);
    }
  }
  if (host.hardens) response = hardenResponse(host.perimeter, response);
  if (exchange.method === 'HEAD' && response.body !== null) response = withoutContent(response);
  if (phases.onResponse !== undefined) {
    for (const hook of phases.onResponse) {
      try {
        const out = hook(response, ctx, exchange.userRequest);
        if (out instanceof Promise) await out;
      } catch (error) {
        host.logger.error('An onResponse hook threw', { error });
      }
    }
  }
  return response;
}
