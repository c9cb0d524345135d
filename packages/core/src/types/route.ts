import type { AnySchema, JsonSchema } from '../schema/index.ts';
import type { Context } from './context.ts';
import type { HookInput } from './hooks.ts';
import type { DeclaredSchema, SchemaInput } from './schema-types.ts';
import type { HeadersInit } from './web.ts';

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
  /** Sent on every response of this status (OpenAPI `required`; the contract tests check it is there). */
  required?: boolean;
}

/**
 * What a route answers with one status. `B` is the body schema's type: `ResponseSpec<DeclaredSchema>`
 * is what a route's responses are checked against (see `DeclaredSchema`).
 */
export interface ResponseSpec<B extends DeclaredSchema | undefined = AnySchema | undefined> {
  /** Default `HTTP <status> response`. */
  description?: string;
  /** Validated before sending when the app's `validateResponses` is on. */
  body?: B;
  /**
   * Media type of the body. Default: a string value is sent as `text/plain; charset=utf-8`, any other
   * value as `application/json` (the OpenAPI document lists each one the body schema admits).
   */
  contentType?: string;
  /**
   * Other media types this status goes out in, from answers the handler builds itself as a `Response`
   * (an event stream beside JSON, a problem document beside a JSON-RPC error). Only documented: the
   * OpenAPI document lists each beside `contentType`, with its `schema` when given, else a string for a
   * `text/*` type and the problem document for `application/problem+json` (RFC 9457).
   */
  alsoSentAs?: Readonly<Record<string, { readonly schema?: AnySchema }>>;
  headers?: Record<string, ResponseHeaderSpec>;
  examples?: Record<string, unknown>;
}

/** An OpenAPI Example Object (OpenAPI 3.1 §4.8.19): a value with a summary and description. */
export interface ExampleObject {
  summary?: string;
  description?: string;
  value?: unknown;
  externalValue?: string;
}

// §4.8.19: the fixed fields of an Example Object; an object with any other member (`x-` extensions
// aside) is an example value that happens to have a `value` key, such as `{ value: 3, unit: 'kg' }`.
const EXAMPLE_FIELDS: ReadonlySet<string> = new Set(['summary', 'description', 'value', 'externalValue']);

/**
 * Whether an entry of `ResponseSpec.examples` is an Example Object (`{ value }` or `{ externalValue }`,
 * only Example Object members) rather than the example value itself. One rule for the OpenAPI
 * document, mock mode and the contract tests.
 */
export function isExampleObject(entry: unknown): entry is ExampleObject {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  if (!Object.hasOwn(entry, 'value') && !Object.hasOwn(entry, 'externalValue')) return false;
  return Object.keys(entry).every((key) => EXAMPLE_FIELDS.has(key) || key.startsWith('x-'));
}

/** The value an entry of `ResponseSpec.examples` stands for (an Example Object's `value`, else the entry). */
export function exampleValue(entry: unknown): unknown {
  return isExampleObject(entry) ? entry.value : entry;
}

/**
 * Declared responses, by status code. `S` is the type of the body schemas: a route's type parameters
 * are constrained by `ResponsesSpec<DeclaredSchema>` (see `DeclaredSchema`).
 */
export type ResponsesSpec<S extends DeclaredSchema = AnySchema> = {
  readonly [status: number]: ResponseSpec<S | undefined>;
};

/**
 * The request schemas of a route. Each is any Standard Schema; `S` is their type, and a route's type
 * parameters are constrained by `RequestSpec<DeclaredSchema>` (see `DeclaredSchema`).
 */
export interface RequestSpec<S extends DeclaredSchema = AnySchema> {
  params?: S;
  query?: S;
  headers?: S;
  /** Declaring a body is what makes the pipeline read one. */
  body?: S;
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
  /**
   * The route also serves anonymous callers; credentials, when sent, must be valid and carry the
   * scopes. OpenAPI lists an empty requirement beside the scheme (§4.8.30: `[{}, { scheme: scopes }]`).
   * Default false.
   */
  optional?: boolean;
}

/**
 * Per-route OpenAPI settings. `jsonSchema` is the escape hatch for a schema that cannot describe
 * itself (no `~standard.jsonSchema`, or a morph the library cannot express): the JSON Schema given
 * here is used in the document and by the contract tests instead; validation still uses the schema.
 */
export interface RouteOpenAPIOptions {
  /** Leave the route out of the OpenAPI document (the docs routes themselves, internal endpoints). */
  exclude?: boolean;
  jsonSchema?: {
    params?: JsonSchema;
    query?: JsonSchema;
    headers?: JsonSchema;
    body?: JsonSchema;
    /** By status: the JSON Schema of that response's body. */
    responses?: { readonly [status: number]: JsonSchema };
  };
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

/**
 * A declared response's body input, read with `S['body']` after matching `{ body: DeclaredSchema }` (one
 * type shared by every route) instead of inferring `B` from a pattern built for each status of each
 * route: the same type for about 1% fewer instantiations in a large app (issue 18, `bun
 * bench/types/check.ts`: 1,000 routes 4.93 M -> 4.88 M).
 */
type ResponseBodyInput<S> = S extends { body: DeclaredSchema } ? SchemaInput<S['body']> : unknown;

/** What a handler returns: one of the declared statuses, with a body of that status's schema. */
export type HandlerResult<R extends ResponsesSpec<DeclaredSchema>> = {
  [K in keyof R & number]: undefined extends ResponseBodyInput<R[K]>
    ? { status: K; body?: ResponseBodyInput<R[K]>; headers?: HeadersInit }
    : { status: K; body: ResponseBodyInput<R[K]>; headers?: HeadersInit };
}[keyof R & number];

/** A handler may also answer with a raw Response (see `acknowledgeNoResponseBodySchema`). */
export type HandlerReturn<R extends ResponsesSpec<DeclaredSchema>> = HandlerResult<R> | Response;

export type Handler<
  P extends string,
  Req extends RequestSpec<DeclaredSchema>,
  R extends ResponsesSpec<DeclaredSchema>,
> = (ctx: Context<P, Req>) => HandlerReturn<R> | Promise<HandlerReturn<R>>;

/** Everything a route declares except method, path and handler (the shorthands' contract argument). */
export interface RouteContract<
  Req extends RequestSpec<DeclaredSchema> = RequestSpec,
  R extends ResponsesSpec<DeclaredSchema> = ResponsesSpec,
  O extends string = string,
> {
  operationId?: O;
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
  openapi?: RouteOpenAPIOptions;
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
  Req extends RequestSpec<DeclaredSchema> = RequestSpec,
  R extends ResponsesSpec<DeclaredSchema> = ResponsesSpec,
  O extends string = string,
> extends RouteContract<Req, R, O> {
  method: M;
  path: P;
  handler: Handler<P, NoInfer<Req>, NoInfer<R>>;
}

/** A route definition with its types erased, as the app stores it. */
// biome-ignore lint/suspicious/noExplicitAny: erasure of the handler's context type is intended.
export type AnyRouteDefinition = RouteDefinition<HttpMethod, string, any, any, string>;

/** Literal-preserving identity helper: `defineRoute({ ... })` keeps the path, method and schemas typed. */
export function defineRoute<
  const M extends HttpMethod,
  const P extends string,
  Req extends RequestSpec<DeclaredSchema> = {},
  const R extends ResponsesSpec<DeclaredSchema> = ResponsesSpec,
  const O extends string = string,
>(definition: RouteDefinition<M, P, Req, R, O>): NoInfer<RouteDefinition<M, P, Req, R, O>> {
  return definition;
}

/**
 * What the type system knows of one registered operation: its operationId, method, path, request
 * schemas and responses. The typed client (`charter/client`) reads these; nothing exists at run time.
 */
export interface OperationType<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Req extends RequestSpec<DeclaredSchema> = RequestSpec,
  R extends ResponsesSpec<DeclaredSchema> = ResponsesSpec,
  O extends string = string,
> {
  operationId: O;
  method: M;
  path: P;
  request: Req;
  responses: R;
}

/**
 * The phantom members that record, in a scope's type, the operations registered on it: `Ops` is the
 * union of their `OperationType`s, `Base` the scope's type without the record. A `Scope` without
 * routes has neither (its operations read as `unknown`, its base as `unknown`). Never set at run time.
 */
export interface WithOperations<Ops, Base = unknown> {
  readonly '~operations'?: OperationList<Ops>;
  readonly '~scope'?: Base;
}

/**
 * The union of a scope's operations, wrapped: inferring `Prev` from `OperationList<...>` is one step,
 * where inferring it from the bare union (with the `undefined` of an optional member) would go through
 * its members, one more with each route.
 */
export interface OperationList<Ops> {
  readonly operations: Ops;
}

/**
 * What `route()`, the shorthands, `registerRoutes()` and `group()` return: the scope's type with `Ops`
 * (a union of `OperationType`s) added to its record, so `typeof app` lists every chained route. The
 * methods take their receiver as a `this` parameter of type `This & WithOperations<Prev, Base>`,
 * inferred with the route's own type arguments: `This` is the receiver, `Prev` its operations and
 * `Base` its type without them (`unknown` before the first operation).
 *
 * Built for long chains: `typeof app` stays `Base & WithOperations<Prev | Ops, Base>` however many
 * routes it has, and nothing here matches, indexes or re-instantiates the receiver's type as a whole.
 * With the class's own `this` type, or with a conditional or indexed access on the receiver, the
 * compiler would walk every operation recorded so far on each call, and a chain of N routes would
 * cost N² (issue 18: 1,000 routes took 21 s and 1.2 GB). The map by operationId is built once, where
 * it is read (`OperationsOf`).
 */
export type WithOperationsAdded<This, Prev, Base, Ops> = [Ops] extends [never]
  ? This
  : unknown extends Base
    ? This & WithOperations<Ops, This>
    : Base & WithOperations<Prev | Ops, Base>;

/**
 * The operations recorded in a scope's type (`unknown` before the first), and the type without them:
 * the defaults of `Prev` and `Base` in a call whose type arguments are given explicitly (inferred
 * calls never use them).
 */
export type RecordedOperations<S> = S extends WithOperations<infer Ops, unknown> ? Ops : unknown;
export type ScopeWithoutOperations<S> = S extends WithOperations<unknown, infer Base> ? Base : unknown;

/**
 * `ResponsesSpec<DeclaredSchema>` as an interface, for `OperationOf`: a type reference whose
 * arguments name a type alias is deferred, and tsc 7 orders the members of a union of deferred
 * references by comparing their type mappers, where it compares other references by their arguments
 * (the method, then the path). Every route of a chain adds its operation to the union of those
 * before it, so that comparison runs about N log N times per route (issue 18).
 */
interface DeclaredResponses {
  readonly [status: number]: ResponseSpec<DeclaredSchema | undefined>;
}

/** The operation a route adds (an `OperationType`), or `never` without a literal operationId. */
export type OperationOf<O extends string, M extends HttpMethod, P extends string, Req, R> = [O] extends [
  never,
]
  ? never
  : string extends O
    ? never
    : OperationType<
        M,
        P,
        Req extends RequestSpec<DeclaredSchema> ? Req : {},
        R extends DeclaredResponses ? R : {},
        O
      >;

/** The operation of a route definition's type (as `defineRoute` keeps it). */
export type OperationOfDefinition<D> = D extends {
  method: infer M extends HttpMethod;
  path: infer P extends string;
  responses: infer R;
}
  ? OperationOf<
      D extends { operationId?: infer O extends string } ? O : never,
      M,
      P,
      D extends { request?: infer Req } ? NonNullable<Req> : {},
      R
    >
  : never;

/** The operations of many route definitions (`registerRoutes([...])`), as a union. */
export type OperationsOfDefinitions<D> = D extends unknown ? OperationOfDefinition<D> : never;

/** The operations recorded in an app's (or scope's) type, as a union of `OperationType`s. */
export type OperationUnionOf<A> =
  A extends WithOperations<infer Ops> ? Extract<Ops, { operationId: string }> : never;

/** The operations recorded in an app's (or scope's) type, by operationId. */
export type OperationsOf<A> = { [Op in OperationUnionOf<A> as Op['operationId']]: Op };

/**
 * A route's full path under a group prefix, as the App builds it at run time: `normalisePrefix` (a
 * prefix of `/` adds nothing, one trailing slash is dropped), then `joinPath` (a route path of `/` is
 * the prefix itself).
 */
type PrefixedPath<Prefix extends string, P extends string> = Prefix extends '' | '/'
  ? P
  : JoinedPath<Prefix extends `${infer Trimmed}/` ? Trimmed : Prefix, P>;

type JoinedPath<Prefix extends string, P extends string> = P extends '/' ? Prefix : `${Prefix}${P}`;

/** Operations (a union) with a path prefix put in front of each path (`group(prefix, ...)`). */
export type PrefixOperations<Ops, Prefix extends string> =
  Ops extends OperationType<infer M, infer P, infer Req, infer R, infer O>
    ? OperationType<M, PrefixedPath<Prefix, P>, Req, R, O>
    : never;

/**
 * One registered route with its whole definition (schemas, examples, callbacks), as feature modules
 * read it (`app.registeredRoutes()`): `path` is the full path (group and plugin prefixes applied),
 * `tags` and `auth` include what the route inherited from its group or plugin.
 */
export interface RegisteredRoute {
  readonly method: HttpMethod;
  readonly path: string;
  readonly operationId: string | undefined;
  readonly tags: readonly string[] | undefined;
  readonly auth: AuthSpec | undefined;
  readonly definition: AnyRouteDefinition;
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
  auth?: { scheme: string; scopes?: string[]; optional?: boolean };
  meta?: RouteMeta;
}
