import { InternalError, ServiceUnavailableError, renderError } from '../errors/index.ts';
import { type Logger, resolveLogger } from '../logger/index.ts';
import { dispatch, type PipelineHost, type RouteSlot } from '../pipeline/dispatch.ts';
import { RequestTimeouts } from '../pipeline/timeout.ts';
import { type ClientAddressResolver, requestPeer } from '../pipeline/client-address.ts';
import { hardensResponses } from '../pipeline/perimeter.ts';
import type { ServingAddress } from '../pipeline/request-target.ts';
import { pathnameOf } from '../pipeline/request-parts.ts';
import { clientAddress } from '../net/index.ts';
import { registerCspReportRoute, type CspReportRouteOptions } from '../builtins/csp-report.ts';
import { BootGuards, perimeterPlan, watchUnhandledRejections } from './app-security.ts';
import type { AssertSecureConfigOptions, SecurityIssue } from './boot-guards.ts';
import { hookList, phaseTable } from '../pipeline/hook-layers.ts';
import type { FrameworkAnswer, IntrospectedRoute, RegisteredRoute } from '../types/index.ts';
import { frameworkAnswers } from './framework-answers.ts';
import {
  type HealthCheckOptions,
  type ReadinessCheckOptions,
  registerHealthRoute,
  registerReadinessRoute,
} from '../builtins/health.ts';
import { introspectRoute } from './introspect.ts';
import { type CloseListener, Lifecycle, type ShutdownListener } from './lifecycle.ts';
import { APP_OPTION_NAMES, type AppOptions, type ResolvedAppOptions, resolveAppOptions } from './options.ts';
import type { PluginInstalledListener } from './plugins.ts';
import { Registry, type RouteRecord } from './registry.ts';
import { Scope } from './scope.ts';
import { introspectWithWs, registerWsRoute, type WsRouteInfo, wsRoutesOf } from '../websocket/route.ts';
import type { WsHandler } from '../websocket/types.ts';

/** Base URL of requests made with `app.request('/path')`: never a real host. */
export const IN_PROCESS_ORIGIN = 'http://charter.local';

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
const EMPTY_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** A route an adapter may serve without going through the router (Bun's native `routes`). */
export interface AdapterRoute {
  method: string;
  path: string;
  /** Answers like `app.fetch`, but synchronously when every step of the request was sync. */
  handle(request: Request, serving?: ServingAddress): Response | Promise<Response>;
}

/**
 * A Charter application: register routes, then serve `app.fetch` with any runtime adapter.
 *
 * @example
 * const app = new App();
 * app.get('/hello/:name', { responses: { 200: { body: type({ hi: 'string' }) } } },
 *   (ctx) => ({ status: 200, body: { hi: ctx.params.name } }));
 * await app.request('/hello/ada'); // 200 {"hi":"ada"}
 */
export class App extends Scope {
  readonly options: ResolvedAppOptions;
  readonly logger: Logger;
  readonly #lifecycle: Lifecycle;
  readonly #host: PipelineHost;
  #readying: Promise<this> | undefined;
  /** Set when a plugin failed to install: the app then answers 500 rather than serve half-installed. */
  #installError: unknown;
  readonly #boot: BootGuards;
  /** Set when a boot guard refused the configuration (production): the app answers 500. */
  #bootError: unknown;
  #peerResolver: ClientAddressResolver | undefined;
  #registered: readonly RegisteredRoute[] = [];
  readonly #recordOf = new WeakMap<RegisteredRoute, RouteRecord>();
  #stopWatchingRejections: (() => void) | undefined;
  #stopping: Promise<void> | undefined;

  /** The option names `new App(options)` accepts; a subclass with options of its own extends the list. */
  static readonly optionNames: readonly string[] = APP_OPTION_NAMES;

  constructor(options: AppOptions = {}) {
    const resolved = resolveAppOptions(options, (new.target as typeof App).optionNames);
    const logger = resolveLogger(options.logger);
    super(new Registry(resolved, logger, hookList(options.hooks, 'App options.hooks')), undefined);
    this.options = resolved;
    this.logger = logger;
    // Every scope (plugins included) registers its lifecycle listeners in the registry's arrays.
    this.#lifecycle = new Lifecycle(logger, this.registry);
    const registry = this.registry;
    const lifecycle = this.#lifecycle;
    const constructorOnRequest = phaseTable(registry.constructorHooks).onRequest;
    this.#boot = new BootGuards(registry, resolved, logger);
    const perimeter = perimeterPlan(resolved);
    const posture = resolved.security.proxy;
    const adapterPeer = (request: Request) => this.#peerResolver?.(request);
    const peerOf = (request: Request) => requestPeer(request) ?? adapterPeer(request);
    const clientAddressOf: ClientAddressResolver = Object.assign(
      (request: Request) =>
        clientAddress({ peer: peerOf(request), headers: request.headers, posture }).address,
      { peer: adapterPeer },
    );
    this.#host = {
      options: resolved,
      logger,
      router: registry.router,
      constructorOnRequest,
      get perimeterOnRequest() {
        return registry.unmatchedPhases().perimeterOnRequest;
      },
      get unmatchedPhases() {
        return registry.unmatchedPhases().plain;
      },
      get guardedPhases() {
        return registry.unmatchedPhases().guarded;
      },
      timeouts:
        resolved.requestTimeoutMs > 0
          ? new RequestTimeouts(resolved.requestTimeoutMs, resolved.requestTimeoutStatus)
          : undefined,
      perimeter,
      hardens: hardensResponses(perimeter),
      clientAddress: clientAddressOf,
      get inFlight() {
        return lifecycle.inFlight;
      },
      requestStarted: () => lifecycle.started(),
      requestFinished: () => lifecycle.finished(),
    };
  }

  /**
   * Answers a Request: Request in, Response out, always as a promise. `serving` is what a runtime
   * passes beside the request (Bun's `server`): its `url` completes an HTTP/1.0 request sent with no
   * Host, so `Bun.serve({ fetch: app.fetch })` works as the adapter does.
   */
  readonly fetch = (request: Request, serving?: ServingAddress): Promise<Response> => {
    const response = this.handle(request, serving);
    return response instanceof Promise ? response : Promise.resolve(response);
  };

  /**
   * The handler runtime adapters call: answers like `fetch`, but returns the Response itself when
   * every step of the request finished synchronously (Bun.serve and the Node adapter accept both),
   * which spares a promise per request.
   */
  readonly handle = (request: Request, serving?: ServingAddress): Response | Promise<Response> => {
    if (this.#lifecycle.state !== 'serving') return this.#refuse();
    if (this.#installError !== undefined) return this.#installFailed();
    if ((!this.#boot.current || this.#bootError !== undefined) && this.#bootRefused())
      return this.#bootFailed();
    if (this.registry.pending.length > 0 || this.#readying !== undefined) {
      return this.ready().then(
        () => dispatch(this.#host, request, undefined, serving),
        (error: unknown) => {
          if (this.#installError === undefined) {
            this.#installError = error;
            // A plugin that failed to install, or a subclass's readiness check (the OpenAPI document).
            this.logger.error('The app could not become ready; it answers 500 until it is fixed', { error });
          }
          return this.#installFailed();
        },
      );
    }
    return dispatch(this.#host, request, undefined, serving);
  };

  /** In-process request, no port: `await app.request('/users/1')`. */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    if (input instanceof Request) return this.fetch(init === undefined ? input : new Request(input, init));
    const url = typeof input === 'string' && input.startsWith('/') ? IN_PROCESS_ORIGIN + input : input;
    return this.fetch(new Request(url, init));
  }

  /** Every registered route, in registration order. */
  introspect(): IntrospectedRoute[] {
    return introspectWithWs(this.registry, this.registry.records.map(introspectRoute));
  }

  /**
   * A WebSocket route: the upgrade request passes the app's hooks, then the handshake checks, the
   * Origin check and `beforeUpgrade`; a runtime adapter (`charter/bun`, `charter/node`) switches the
   * connection. The path may not also be an HTTP GET route.
   */
  ws<const P extends string>(path: P, handler: WsHandler<P>): this {
    registerWsRoute(this, path, handler as WsHandler);
    return this;
  }

  /** For runtime adapters: the WebSocket routes, with their resolved limits. */
  wsRoutes(): readonly WsRouteInfo[] {
    return wsRoutesOf(this.registry);
  }

  /**
   * Every registered route with its whole definition, in registration order, for the modules that
   * derive from the contract (OpenAPI, typed client, contract tests). Routes are only ever added, so
   * the length of this list tells a cache whether it is stale.
   */
  registeredRoutes(): readonly RegisteredRoute[] {
    const records = this.registry.records;
    if (this.#registered.length !== records.length) {
      this.#registered = Object.freeze(
        records.map((record) => {
          const route = Object.freeze({
            method: record.definition.method,
            path: record.path,
            operationId: record.operationId,
            tags: record.tags,
            auth: record.auth,
            definition: record.definition,
          });
          this.#recordOf.set(route, record);
          return route;
        }),
      );
    }
    return this.#registered;
  }

  /**
   * The answers the framework may give on a registered route by itself, without its handler: 400,
   * 413 and 415 (routes with a body), 422 (routes that validate something), 431, the timeout status,
   * 401/403 when auth covers the route, and what its hooks declare (a rate limit's 429), each an
   * `application/problem+json` document. The OpenAPI document lists them beside the declared responses.
   */
  frameworkAnswers(route: RegisteredRoute): readonly FrameworkAnswer[] {
    const record = this.#recordOf.get(route);
    if (record === undefined) {
      throw new TypeError("frameworkAnswers(route): pass a route from this App's registeredRoutes()");
    }
    const traits = this.registry.traitsOf(record);
    return frameworkAnswers({ definition: record.definition, auth: record.auth, traits }, this.options);
  }

  /** Resolves once every plugin (async ones included) is installed. */
  ready(): Promise<this> {
    // Concurrent callers share one installation, so none of them resolves before the plugins are in.
    this.#readying ??= (async () => {
      const pending = this.registry.pending;
      while (pending.length > 0) await Promise.all(pending.splice(0, pending.length));
      // Boot guards: in production an unsafe configuration refuses to start.
      this.#boot.check();
      this.#stopWatchingRejections ??= watchUnhandledRejections(
        this.logger,
        this.options.security.crashOnUnhandledRejection,
      );
      return this;
    })();
    const readying = this.#readying;
    readying.then(
      () => {
        if (this.registry.pending.length === 0 && this.#readying === readying) this.#readying = undefined;
      },
      () => {},
    );
    return readying;
  }

  /** Stops the app: onShutdown listeners, drain in-flight requests (up to timeoutMs), then onClose. */
  shutdown(timeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS, reason = 'shutdown'): Promise<void> {
    this.#stopping ??= this.#lifecycle.shutdown(timeoutMs, reason).finally(() => {
      this.#host.perimeter.shedder?.stop();
      this.#stopWatchingRejections?.();
      this.#stopWatchingRejections = undefined;
    });
    return this.#stopping;
  }

  /**
   * Runs every boot guard now and returns what it found. In production (or with
   * `{ production: true }`) an `error` issue throws an InsecureConfigError listing them all.
   */
  assertSecureConfig(options?: AssertSecureConfigOptions): SecurityIssue[] {
    return this.#boot.assert(options);
  }

  /**
   * For runtime adapters: how to find the remote address of a request's connection (Bun:
   * `server.requestIP`). Asked lazily, only when something needs the client address.
   */
  setPeerResolver(resolver: ClientAddressResolver): this {
    this.#peerResolver = resolver;
    return this;
  }

  /** A receiver for CSP violation reports (POST `/csp-report` by default), answering 204. */
  cspReportRoute(options?: CspReportRouteOptions): this {
    registerCspReportRoute(this, options);
    return this;
  }

  /** Requests being answered right now. */
  get inFlight(): number {
    return this.#lifecycle.inFlight;
  }

  /** `serving`, then `draining` during shutdown, then `closed`. */
  get state(): 'serving' | 'draining' | 'closed' {
    return this.#lifecycle.state;
  }

  onPluginInstalled(listener: PluginInstalledListener): this {
    this.registry.pluginListeners.push(listener);
    return this;
  }

  /** GET /healthz (liveness): 200 while the process can answer at all. */
  healthcheck(options?: HealthCheckOptions): this {
    registerHealthRoute(this, options);
    return this;
  }

  /** GET /readyz (readiness): 503 while a check fails or the app is shutting down. */
  readinesscheck(options?: ReadinessCheckOptions): this {
    registerReadinessRoute(this, options, () => this.#lifecycle.state === 'serving');
    return this;
  }

  /**
   * For runtime adapters: routes an adapter's own router may pick (the Bun adapter hands them to
   * `Bun.serve`'s native `routes` table), each with a handler that skips the router. Fully static
   * paths, and parameter paths (no wildcard) whose handler takes the runtime's pick only when it is
   * provably the router's (`Router.soleMatcher`: canonical path, same segments, no overlapping
   * pattern) and otherwise answers through `handle`, so the answer never depends on the adapter.
   */
  adapterRoutes(): AdapterRoute[] {
    const out: AdapterRoute[] = [];
    const router = this.registry.router;
    for (const { method, path, value, isStatic } of router.routes()) {
      const slot: RouteSlot = value;
      if (isStatic) {
        const preMatched = { slot, params: EMPTY_PARAMS };
        out.push({
          method,
          path,
          handle: (request, serving) => {
            // Anything but the steady state (draining, plugins pending, guards to run) takes the full path.
            if (this.#lifecycle.state !== 'serving' || !this.#steady()) return this.handle(request, serving);
            return dispatch(this.#host, request, preMatched, serving);
          },
        });
        continue;
      }
      const match = router.soleMatcher(path);
      if (match === undefined) continue;
      out.push({
        method,
        path,
        handle: (request, serving) => {
          const params =
            this.#lifecycle.state === 'serving' && this.#steady() && request.method === method
              ? match(pathnameOf(request.url))
              : undefined;
          if (params === undefined) return this.handle(request, serving);
          return dispatch(this.#host, request, { slot, params }, serving);
        },
      });
    }
    return out;
  }

  /** True when requests may go straight to the pipeline: plugins installed, boot guards run and passed. */
  #steady(): boolean {
    return (
      this.#installError === undefined &&
      this.#boot.current &&
      this.#bootError === undefined &&
      this.registry.pending.length === 0 &&
      this.#readying === undefined
    );
  }

  /** Runs the boot guards before the first request; true when production refused the configuration. */
  #bootRefused(): boolean {
    try {
      this.#boot.check();
      this.#bootError = undefined;
      return false;
    } catch (error) {
      if (this.#bootError === undefined) {
        this.logger.error('The configuration is insecure; the app answers 500 until it is fixed', { error });
      }
      this.#bootError = error;
      return true;
    }
  }

  #bootFailed(): Response {
    return renderError(
      new InternalError({ detail: (this.#bootError as Error).message }),
      this.options.production,
    ).response;
  }

  #installFailed(): Response {
    return renderError(
      new InternalError({
        detail: `The app could not become ready: ${(this.#installError as Error)?.message ?? 'unknown'}`,
      }),
      this.options.production,
    ).response;
  }

  #refuse(): Response {
    const response = renderError(
      new ServiceUnavailableError({ detail: 'The server is shutting down', retryAfterSeconds: 1 }),
      this.options.production,
    ).response;
    response.headers.set('connection', 'close');
    return response;
  }
}

/** Same as `new App(options)`. */
export function createApp(options?: AppOptions): App {
  return new App(options);
}
