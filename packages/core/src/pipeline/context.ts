import type { ResponseSetter, RouteInfo, State } from '../types/index.ts';
import type { CompiledRoute } from './compiled-route.ts';
import { limitedRequest } from '../security/body-limit.ts';
import { bindClientAddress, type ClientAddressResolver, clientIp, linkRequest } from './client-address.ts';
import { userRequest } from './light-request.ts';
import { wantsPlannedAnswers } from './planned-response.ts';
import { headerMap, parseQuery, splitUrl } from './request-parts.ts';

/**
 * Per-request facts the pipeline shares between its steps: the route once matched, the context
 * once built, and the abort controller that the timeout fires.
 */
export class Exchange {
  readonly request: Request;
  /** The App's client-address resolver, for `clientIp()` on the requests user code sees. */
  readonly clientAddress: ClientAddressResolver;
  route: CompiledRoute | undefined = undefined;
  ctx: RequestContext | undefined = undefined;
  /** True when an `app.use` perimeter guard answered or threw in onRequest. */
  guardAnswered = false;
  /** True when the pipeline's own problem response already carries the security headers. */
  hardened = false;
  /** The adapter writes planned answers itself (planned-response.ts): no Response need be built. */
  readonly plannedAnswers: boolean;
  /**
   * Answers built from text keep that text on record (response-payload.ts): for an adapter that
   * writes planned answers, and for HEAD, whose answer states the length of the content it drops.
   */
  readonly recordsPayload: boolean;
  /**
   * The request's method, read once: on Bun `request.method` is a native getter, and the pipeline
   * asks for it up to four times per request (target check, routing, the 404's detail, step 8).
   */
  readonly method: string;
  #controller: AbortController | undefined = undefined;

  constructor(request: Request, clientAddress: ClientAddressResolver, method: string = request.method) {
    this.request = request;
    this.clientAddress = clientAddress;
    this.method = method;
    this.plannedAnswers = wantsPlannedAnswers(request);
    this.recordsPayload = this.plannedAnswers || method === 'HEAD';
  }

  /**
   * The Request user code receives: the adapter's own, or the real Request built from an adapter's
   * light one (light-request.ts), which the pipeline keeps to itself.
   */
  get userRequest(): Request {
    return userRequest(this.request);
  }

  /** Aborts on timeout and when the client goes away; created only when someone listens. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  /** True once the request timed out: later steps must not start (no handler side effects after a 408). */
  timedOut = false;

  abort(reason: unknown): void {
    // Created here if nobody listened yet, so a signal read after the timeout is already aborted.
    (this.#controller ??= new AbortController()).abort(reason);
  }
}

/** The context hooks and handlers receive. Raw parts are parsed lazily, on first read. */
export class RequestContext {
  readonly route: RouteInfo;
  params: unknown;
  body: unknown = undefined;
  /** Set when the pipeline built the response with the security headers already in it. */
  hardened = false;
  readonly #exchange: Exchange;
  readonly #compiled: CompiledRoute;
  /** The query string, cut from the URL when the query is first read. */
  #search: string | undefined = undefined;
  #query: unknown = undefined;
  #headers: unknown = undefined;
  #state: State | undefined = undefined;
  #set: ResponseSetter | undefined = undefined;
  #request: Request | undefined = undefined;

  constructor(exchange: Exchange, route: CompiledRoute, params: Record<string, string>) {
    this.#exchange = exchange;
    this.#compiled = route;
    this.route = route.info;
    this.params = params;
  }

  /**
   * The request as user code sees it: its body is held to the route's limit (a raw read past it
   * fails with 413) and its signal aborts when the request times out.
   */
  get request(): Request {
    if (this.#request === undefined) {
      const exchange = this.#exchange;
      const original = exchange.userRequest;
      this.#request = limitedRequest(original, this.#compiled.bodyLimitBytes, exchange.signal);
      // The wrapper is a new Request: its client is the original's (the adapter knows that one).
      bindClientAddress(this.#request, () => exchange.clientAddress(original));
      // And the original answers clientIp()/requestPeer() even when no onRequest hook bound it.
      bindClientAddress(original, exchange.clientAddress);
      linkRequest(this.#request, original);
    }
    return this.#request;
  }

  /** The adapter writes planned answers itself (planned-response.ts). */
  get plannedAnswers(): boolean {
    return this.#exchange.plannedAnswers;
  }
  get recordsPayload(): boolean {
    return this.#exchange.recordsPayload;
  }

  /**
   * The client address of this request under the App's proxy posture (what `clientIp(ctx.request)`
   * answers), without building the `ctx.request` wrapper: for hooks on every request (rate limits).
   */
  clientIp(): string | undefined {
    const exchange = this.#exchange;
    return exchange.clientAddress(exchange.request);
  }

  /** True once the request timed out; the pipeline starts no further step. */
  get timedOut(): boolean {
    return this.#exchange.timedOut;
  }

  /** Where the pipeline reads the body from: the wrapped request once user code has touched it. */
  get bodySource(): Request {
    return this.#request ?? this.#exchange.request;
  }

  get query(): unknown {
    this.#search ??= splitUrl(this.#exchange.request.url).search;
    this.#query ??= parseQuery(this.#search);
    return this.#query;
  }
  set query(value: unknown) {
    this.#query = value;
  }

  get headers(): unknown {
    this.#headers ??= headerMap(this.#exchange.request.headers);
    return this.#headers;
  }
  set headers(value: unknown) {
    this.#headers = value;
  }

  get state(): State {
    // Decorations sit on the prototype: visible to reads, never shared by writes.
    this.#state ??= Object.create(this.#compiled.decorations) as State;
    return this.#state;
  }

  get set(): ResponseSetter {
    this.#set ??= { status: undefined, headers: new Headers() };
    return this.#set;
  }

  /** Headers set through `ctx.set`, if any were (avoids creating a Headers object per request). */
  get pendingHeaders(): Headers | undefined {
    return this.#set?.headers;
  }
}

/**
 * The client address of the request behind a context: read from the exchange when the context is the
 * pipeline's own (no `ctx.request` wrapper is built), else through `clientIp(ctx.request)`.
 */
export function contextClientIp(ctx: { readonly request: Request }): string | undefined {
  return ctx instanceof RequestContext ? ctx.clientIp() : clientIp(ctx.request);
}
