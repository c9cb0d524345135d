import type { AnySchema, InferInput } from '../schema/index.ts';
import type { Context } from './context.ts';
import type { HookInput } from './hooks.ts';

/** The methods a route may declare. HEAD is derived from a matching GET when not declared. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export const HTTP_METHODS: readonly HttpMethod[] = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
];

/** One declared response header. */
export interface ResponseHeaderSpec {
  description?: string;
  schema?: AnySchema;
}

/** What a route answers with one status. */
export interface ResponseSpec<B extends AnySchema | undefined = AnySchema | undefined> {
  /** Default `HTTP <status> response`. */
  description?: string;
  /** Validated before sending when the app's `validateResponses` is on. */
  body?: B;
  /** Media type of the body; default `application/json` (strings without a schema: `text/plain`). */
  contentType?: string;
  headers?: Record<string, ResponseHeaderSpec>;
  examples?: Record<string, unknown>;
}

/** Declared responses, by status code. */
export type ResponsesSpec = { readonly [status: number]: ResponseSpec };

/** The request schemas of a route. Each is any Standard Schema. */
export interface RequestSpec {
  params?: AnySchema;
  query?: AnySchema;
  headers?: AnySchema;
  /** Declaring a body is what makes the pipeline read one. */
  body?: AnySchema;
  /** Media types accepted for the body; default the app's `allowedContentTypes`. */
  contentTypes?: readonly string[];
}

/** Route-level authentication declaration, used by auth hooks and OpenAPI. */
export interface AuthSpec {
  /** Name of a declared security scheme. */
  scheme: string;
  scopes?: readonly string[];
  /** Whether the payload is authenticated too; default true. */
  payload?: boolean;
}

/** Free-form route metadata; surfaces in OpenAPI as `x-charter-*` members. */
export type RouteMeta = Record<string, unknown>;

/** A request/response pair documenting the route (OpenAPI examples, mock mode, contract tests). */
export interface RouteExample {
  name?: string;
  summary?: string;
  request?: { params?: unknown; query?: unknown; headers?: Record<string, string>; body?: unknown };
  response: { status: number; body?: unknown; headers?: Record<string, string> };
}

/** An out-of-band request the API makes back to the caller (OpenAPI callbacks). */
export interface CallbackOperation {
  method: HttpMethod;
  summary?: string;
  description?: string;
  request?: { headers?: AnySchema; body?: AnySchema };
  responses: ResponsesSpec;
}

/** Callback name to runtime expression (e.g. `{$request.body#/callbackUrl}`) to operation. */
export type CallbackMap = Record<string, Record<string, CallbackOperation>>;

type ResponseBodyInput<S> = S extends { body: infer B extends AnySchema } ? InferInput<B> : unknown;

/** What a handler returns: one of the declared statuses, with a body of that status's schema. */
export type HandlerResult<R extends ResponsesSpec> = {
  [K in keyof R & number]: undefined extends ResponseBodyInput<R[K]>
    ? { status: K; body?: ResponseBodyInput<R[K]>; headers?: HeadersInit }
    : { status: K; body: ResponseBodyInput<R[K]>; headers?: HeadersInit };
}[keyof R & number];

/** A handler may also answer with a raw Response (see `acknowledgeNoResponseBodySchema`). */
export type HandlerReturn<R extends ResponsesSpec> = HandlerResult<R> | Response;

export type Handler<P extends string, Req extends RequestSpec, R extends ResponsesSpec> = (
  ctx: Context<P, Req>,
) => HandlerReturn<R> | Promise<HandlerReturn<R>>;

/** Everything a route declares except method, path and handler (the shorthands' contract argument). */
export interface RouteContract<
  Req extends RequestSpec = RequestSpec,
  R extends ResponsesSpec = ResponsesSpec,
> {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: readonly string[];
  deprecated?: boolean;
  request?: Req;
  responses: R;
  auth?: AuthSpec;
  hooks?: HookInput;
  meta?: RouteMeta;
  examples?: readonly RouteExample[];
  callbacks?: CallbackMap;
  /**
   * A successful raw Response (from a pre-body or before-handle hook, or the handler) skips
   * response-body validation; a route must opt in to that with this flag. 4xx/5xx denials need not.
   */
  acknowledgeNoResponseBodySchema?: boolean;
}

/** One route: method, path, schemas, responses and the handler. */
export interface RouteDefinition<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Req extends RequestSpec = RequestSpec,
  R extends ResponsesSpec = ResponsesSpec,
> extends RouteContract<Req, R> {
  method: M;
  path: P;
  handler: Handler<P, NoInfer<Req>, NoInfer<R>>;
}

/** A route definition with its types erased, as the app stores it. */
// biome-ignore lint/suspicious/noExplicitAny: erasure of the handler's context type is intended.
export type AnyRouteDefinition = RouteDefinition<HttpMethod, string, any, any>;

/** Literal-preserving identity helper: `defineRoute({ ... })` keeps the path, method and schemas typed. */
export function defineRoute<
  const M extends HttpMethod,
  const P extends string,
  Req extends RequestSpec = {},
  const R extends ResponsesSpec = ResponsesSpec,
>(definition: RouteDefinition<M, P, Req, R>): NoInfer<RouteDefinition<M, P, Req, R>> {
  return definition;
}

/** What `app.introspect()` lists for each route. */
export interface IntrospectedRoute {
  method: HttpMethod;
  path: string;
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  hasBody: boolean;
  hasQuery: boolean;
  hasParams: boolean;
  hasHeaders: boolean;
  responses: number[];
  auth?: { scheme: string; scopes?: string[] };
  meta?: RouteMeta;
}
