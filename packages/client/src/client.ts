/**
 * The typed client: one method per operationId, built from `app.registeredRoutes()` at run time
 * and typed from the App's phantom operation map, with no code generation.
 */
import {
  DEFAULT_ALLOWED_CONTENT_TYPES,
  IN_PROCESS_ORIGIN,
  type RegisteredRoute,
  type ResponseSpec,
} from '@charter/core';
import {
  type ClientOptions,
  type ClientFetch,
  type InProcessClientOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
} from './options.ts';
import { compilePath } from './path.ts';
import { buildRequest, type RequestTarget } from './request.ts';
import { readResponse, type ResponseTarget } from './response.ts';
import type { Client, ClientApp, ClientResponse, InProcessClientApp } from './types.ts';

/** Everything a call of one operation needs, decided once (the path split, the statuses listed). */
export interface OperationPlan extends RequestTarget, Omit<ResponseTarget, 'method'> {}

/** The plan of a registered route that has an operationId. */
export function operationPlan(route: RegisteredRoute, appAccepted: readonly string[]): OperationPlan {
  const definition = route.definition;
  const responses = definition.responses as Readonly<Record<string, ResponseSpec | undefined>>;
  return Object.freeze({
    operationId: route.operationId as string,
    method: route.method,
    path: compilePath(route.path),
    accepted: definition.request?.contentTypes ?? appAccepted,
    responses,
    declared: Object.keys(responses).join(', '),
  });
}

/**
 * The operations of an App by operationId. Routes are only ever added, so the list of registered
 * routes is re-read only when its length changed (a route added after the client was created).
 */
class OperationTable {
  readonly #app: ClientApp;
  readonly #plans = new Map<string, OperationPlan>();
  #seen = 0;

  constructor(app: ClientApp) {
    this.#app = app;
  }

  /** The plans added since the last call. */
  refresh(): OperationPlan[] {
    const routes = this.#app.registeredRoutes();
    const added: OperationPlan[] = [];
    if (routes.length === this.#seen) return added;
    const accepted = this.#app.options?.allowedContentTypes ?? DEFAULT_ALLOWED_CONTENT_TYPES;
    for (let i = this.#seen; i < routes.length; i++) {
      const route = routes[i] as RegisteredRoute;
      if (route.operationId === undefined || this.#plans.has(route.operationId)) continue;
      const plan = operationPlan(route, accepted);
      this.#plans.set(plan.operationId, plan);
      added.push(plan);
    }
    this.#seen = routes.length;
    return added;
  }
}

async function call(
  plan: OperationPlan,
  options: ResolvedClientOptions,
  input: unknown,
): Promise<ClientResponse> {
  // Built before anything is sent: a refused value never reaches the network.
  const request = buildRequest(plan, input, options.base, options.headers);
  const response = await options.fetch(request);
  return readResponse(plan, response, options.validateResponses);
}

function buildClient<A extends ClientApp>(app: A, options: ResolvedClientOptions): Client<A> {
  if (typeof app !== 'object' || app === null || typeof app.registeredRoutes !== 'function') {
    throw new TypeError('createClient(app, options): app must be a Charter App');
  }
  const table = new OperationTable(app);
  // A null prototype: `client.toString` is no operation, and an operationId `constructor` works.
  const methods: Record<string, unknown> = Object.create(null);
  const add = (plans: readonly OperationPlan[]): void => {
    for (const plan of plans) {
      Object.defineProperty(methods, plan.operationId, {
        value: (input?: unknown) => call(plan, options, input),
        enumerable: true,
      });
    }
  };
  add(table.refresh());
  // The proxy only re-reads the App's routes on a miss; known methods are plain properties.
  const lookup = (name: string | symbol): boolean => {
    if (typeof name !== 'string' || Object.hasOwn(methods, name)) return true;
    add(table.refresh());
    return Object.hasOwn(methods, name);
  };
  return new Proxy(methods, {
    get: (target, name) => (lookup(name) ? target[name as string] : undefined),
    has: (target, name) => lookup(name) && name in target,
  }) as Client<A>;
}

/**
 * A typed client of `app` over HTTP: `client.getUser({ params: { id: 1 } })` resolves
 * `{ status, body, headers }` for the statuses the route declares.
 *
 * @example
 * const app = new App().get('/users/:id', { operationId: 'getUser', responses: { 200: { body: User } } }, h);
 * const client = createClient(app, { baseUrl: 'https://api.example.com' });
 * const res = await client.getUser({ params: { id: 1 } });
 * if (res.status === 200) res.body.name;
 */
export function createClient<A extends ClientApp>(app: A, options: ClientOptions): Client<A> {
  return buildClient(app, resolveClientOptions(options));
}

/** The same typed client over `app.fetch`: no port, no network (tests, server-side rendering). */
export function createInProcessClient<A extends InProcessClientApp>(
  app: A,
  options: InProcessClientOptions = {},
): Client<A> {
  if (typeof app !== 'object' || app === null || typeof app.fetch !== 'function') {
    throw new TypeError('createInProcessClient(app): app must be a Charter App');
  }
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createInProcessClient(app, options): options must be an object');
  }
  const fetch: ClientFetch = (request) => app.fetch(request);
  return buildClient(
    app,
    resolveClientOptions({
      baseUrl: options.baseUrl ?? IN_PROCESS_ORIGIN,
      fetch,
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      ...(options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses }),
    }),
  );
}
