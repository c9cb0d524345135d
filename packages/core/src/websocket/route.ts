/**
 * `app.ws(path, handler)`: a WebSocket route is a GET route of the router, so the upgrade request
 * passes the whole pipeline (perimeter, onRequest, preBody, beforeHandle of the app's hooks) before
 * its own guard runs the handshake checks and `beforeUpgrade`. An accepted handshake leaves an
 * upgrade ticket that the runtime adapter takes to switch the connection to WebSocket.
 *
 * WebSocket routes are kept out of the contract (`registeredRoutes()`, so OpenAPI, the typed client
 * and contract tests never see them); `app.introspect()` lists them with `meta.websocket`.
 */
import type { Registry, RouteRecord } from '../app/registry.ts';
import type { Scope } from '../app/scope.ts';
import type { CompiledRoute } from '../pipeline/compiled-route.ts';
import { originalRequest } from '../pipeline/client-address.ts';
import type { RouteSlot } from '../pipeline/dispatch.ts';
import type { AnyContext, AnyRouteDefinition, IntrospectedRoute } from '../types/index.ts';
import { decideWsHandshake, wsAcceptKey } from './handshake.ts';
import { type ResolvedWsHandler, resolveWsHandler } from './options.ts';
import type { WsContext, WsHandler } from './types.ts';

/** What an adapter needs to switch an accepted request to WebSocket. */
export interface WsUpgrade {
  readonly route: ResolvedWsHandler;
  /** The upgrade request's context, passed to every phase of the connection. */
  readonly ctx: WsContext;
  /** The chosen subprotocol, or `''`. */
  readonly protocol: string;
  /** `Sec-WebSocket-Accept` (§4.2.2). */
  readonly accept: string;
  /**
   * Headers of the 101 response besides the handshake's own (`Upgrade`, `Connection`,
   * `Sec-WebSocket-Accept`, `Sec-WebSocket-Protocol`): what hooks set, e.g. `Set-Cookie`.
   */
  readonly headers: Headers;
}

/** A registered WebSocket route, for introspection and the adapters. */
export interface WsRouteInfo {
  readonly path: string;
  readonly route: ResolvedWsHandler;
  /** How many HTTP routes were registered before it (its place in `introspect()`). */
  readonly position: number;
}

const routesByRegistry = new WeakMap<Registry, WsRouteInfo[]>();
const pending = new WeakMap<Request, Omit<WsUpgrade, 'headers'>>();

// Handshake headers the adapter writes itself on the 101 (hop-by-hop or computed), and body headers.
const OWN_HEADERS = new Set([
  'upgrade',
  'connection',
  'sec-websocket-accept',
  'sec-websocket-protocol',
  'content-type',
  'content-length',
]);

/**
 * For adapters: the upgrade an accepted handshake left for `request` (the Request the adapter handed
 * to the app), once the app answered it with `response`. Undefined unless the response is still the
 * acceptance (an onSend hook may have replaced it, a timeout may have answered): then the adapter
 * sends the response as it is. The ticket is consumed.
 */
export function takeWsUpgrade(request: Request, response: Response): WsUpgrade | undefined {
  const ticket = pending.get(request);
  if (ticket === undefined) return undefined;
  pending.delete(request);
  if (response.status !== 200 || response.headers.get('sec-websocket-accept') !== ticket.accept)
    return undefined;
  const headers = new Headers();
  // Iteration gives each Set-Cookie field on its own (Fetch "sort and combine" keeps them apart).
  for (const [name, value] of response.headers) if (!OWN_HEADERS.has(name)) headers.append(name, value);
  return { ...ticket, headers };
}

/** The WebSocket routes of an app (by its registry), in registration order. */
export function wsRoutesOf(registry: Registry): readonly WsRouteInfo[] {
  return routesByRegistry.get(registry) ?? [];
}

/** The router's value for a WebSocket route: compiled like any route, recompiled when hooks change. */
class WsSlot implements RouteSlot {
  readonly #registry: Registry;
  readonly #record: RouteRecord;
  #compiled: CompiledRoute | undefined;
  #generation = -1;

  constructor(registry: Registry, record: RouteRecord) {
    this.#registry = registry;
    this.#record = record;
  }

  compiled(): CompiledRoute {
    if (this.#compiled === undefined || this.#generation !== this.#registry.generation) {
      this.#compiled = this.#registry.compile(this.#record);
      this.#generation = this.#registry.generation;
    }
    return this.#compiled;
  }
}

/** The route's guard: handshake checks (426, 400), Origin (403), subprotocol, then `beforeUpgrade`. */
function upgradeGuard(route: ResolvedWsHandler) {
  return async (ctx: AnyContext): Promise<Response | undefined> => {
    const decision = await decideWsHandshake(ctx.request, route);
    if (!decision.accepted) return decision.response;
    for (const before of route.beforeUpgrade) {
      const out = await before(ctx as WsContext);
      if (out instanceof Response) return out;
    }
    pending.set(originalRequest(ctx.request), {
      route,
      ctx: ctx as WsContext,
      protocol: decision.protocol,
      accept: await wsAcceptKey(decision.key),
    });
    return undefined;
  };
}

/**
 * The acceptance, as the pipeline carries it: a Fetch Response cannot have status 101 on every
 * runtime, so it is a 200 without a body carrying the handshake headers; the adapter sends the 101.
 */
function acceptance(ctx: AnyContext): Response {
  const ticket = pending.get(originalRequest(ctx.request));
  const headers = new Headers({ upgrade: 'websocket', connection: 'Upgrade' });
  if (ticket !== undefined) {
    headers.set('sec-websocket-accept', ticket.accept);
    if (ticket.protocol !== '') headers.set('sec-websocket-protocol', ticket.protocol);
  }
  return new Response(null, { status: 200, headers });
}

/** Registers a WebSocket route on a scope (the App); throws on a bad handler or a path conflict. */
export function registerWsRoute(scope: Scope, path: string, handler: WsHandler): void {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`app.ws(): path must be a string starting with "/", got ${JSON.stringify(path)}`);
  }
  // As app/paths.ts joins them (a runtime import of the app layer would point upwards).
  const fullPath = scope.prefix === '' ? path : path === '/' ? scope.prefix : scope.prefix + path;
  const where = `app.ws(${JSON.stringify(fullPath)})`;
  const route = resolveWsHandler(handler, where);
  const registry = scope.registry;
  // A path is either a WebSocket endpoint or an HTTP resource: a GET there would be unreachable for
  // one of them, so the conflict is refused in both registration orders (the router refuses the other).
  if (registry.router.has('GET', fullPath)) {
    throw new TypeError(
      `${where}: GET ${fullPath} is already an HTTP route; a WebSocket route needs its own path`,
    );
  }
  const definition = {
    method: 'GET',
    path,
    summary: 'WebSocket',
    responses: { 200: { description: 'Handshake accepted; the adapter answers 101 Switching Protocols' } },
    acknowledgeNoResponseBodySchema: true,
    hooks: { beforeHandle: upgradeGuard(route) },
    handler: acceptance,
  } as unknown as AnyRouteDefinition;
  const record: RouteRecord = {
    definition,
    scope,
    path: fullPath,
    operationId: undefined,
    tags: undefined,
    auth: undefined,
  };
  const slot = new WsSlot(registry, record);
  slot.compiled();
  registry.router.add('GET', fullPath, slot);
  const list = routesByRegistry.get(registry) ?? [];
  list.push(Object.freeze({ path: fullPath, route, position: registry.records.length }));
  routesByRegistry.set(registry, list);
}

/** `app.introspect()`: the HTTP routes with the WebSocket routes in registration order. */
export function introspectWithWs(registry: Registry, http: IntrospectedRoute[]): IntrospectedRoute[] {
  const ws = wsRoutesOf(registry);
  if (ws.length === 0) return http;
  const out: IntrospectedRoute[] = [];
  let next = 0;
  for (let i = 0; i <= http.length; i++) {
    while (next < ws.length && (ws[next] as WsRouteInfo).position === i)
      out.push(describe(ws[next++] as WsRouteInfo));
    if (i < http.length) out.push(http[i] as IntrospectedRoute);
  }
  return out;
}

function describe(info: WsRouteInfo): IntrospectedRoute {
  const meta: Record<string, unknown> = { websocket: true };
  if (info.route.allowedSubprotocols.length > 0) meta.subprotocols = [...info.route.allowedSubprotocols];
  return {
    method: 'GET',
    path: info.path,
    summary: 'WebSocket',
    hasBody: false,
    hasQuery: false,
    hasParams: false,
    hasHeaders: false,
    responses: [101, 400, 403, 426],
    meta,
  };
}
