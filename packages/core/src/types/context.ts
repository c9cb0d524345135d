import type { AuthContext, AuthUser } from '../auth/types.ts';
import type { AuthSpec, HttpMethod, RequestSpec } from './route.ts';
import type { DeclaredSchema, SchemaOutput } from './schema-types.ts';

/**
 * The state every request context carries: the app's decorations plus a free-form map. Extend it
 * with declaration merging: `declare module 'charter' { interface AppState { db: Db } }`.
 */
export interface AppState {
  /** Set by an authenticating hook: how the caller authenticated. */
  auth?: AuthContext;
  /** Set by an authenticating hook: the authenticated principal. */
  user?: AuthUser;
}

export type State = AppState & Record<string, unknown>;

/** Raw query values before validation: repeated keys become arrays. */
export type RawQuery = Record<string, string | string[] | undefined>;
/** Raw header values before validation, keyed by lower-case name. */
export type RawHeaders = Record<string, string | undefined>;

/** What hooks and handlers may set on the response before it exists. */
export interface ResponseSetter {
  /** Used only when a handler result or hook answer does not give a status. */
  status?: number;
  /** Added to the response: route responses and error responses alike. */
  readonly headers: Headers;
}

/** The matched route, as the context sees it. */
export interface RouteInfo {
  readonly method: HttpMethod;
  readonly path: string;
  readonly operationId: string | undefined;
  /** The route's effective `auth` (its own, else its group's or plugin's). */
  readonly auth: AuthSpec | undefined;
  /**
   * The App runs in production (its `production` option). Handlers that decide what to reveal
   * (the tool server's error detail) read it, so they fail closed inside a production App.
   */
  readonly production: boolean;
}

type Trim<S extends string> = S extends `/${infer R}` ? R : S;
type ParamName<Seg extends string> = Seg extends `:${infer N}` ? N : Seg extends `*${infer N}` ? N : never;
type Segments<S extends string> = S extends `${infer Head}/${infer Rest}` ? Head | Segments<Rest> : S;

/** `/users/:id/files/*path` gives `{ id: string; path: string }`. */
export type PathParams<P extends string> = string extends P
  ? Record<string, string>
  : { [K in ParamName<Segments<Trim<P>>>]: string };

/**
 * A request part's schema output, else `Fallback`. Matched against `Record<K, DeclaredSchema>` (one
 * type per part, shared by every route) and read with `Req[K]`, rather than with `infer S extends ...`
 * from a mapped type built for each route: the same result for about 1% fewer instantiations in a large
 * app (issue 18, `bun bench/types/check.ts`).
 */
type Out<Req, K extends keyof RequestSpec, Fallback> =
  Req extends Record<K, DeclaredSchema> ? SchemaOutput<Req[K]> : Fallback;

/** `params`: the schema's output, else from the path (computed only then). */
type ParamsOut<Req, P extends string> =
  Req extends Record<'params', DeclaredSchema> ? SchemaOutput<Req['params']> : PathParams<P>;

/** The context a pre-body hook sees: raw strings, no body yet. */
export interface PreBodyContext<P extends string = string> {
  readonly request: Request;
  readonly params: PathParams<P>;
  readonly query: RawQuery;
  readonly headers: RawHeaders;
  readonly body: undefined;
  readonly state: State;
  readonly set: ResponseSetter;
  readonly route: RouteInfo;
}

/** The context a handler sees: every part validated and typed from the route's schemas. */
export interface Context<P extends string = string, Req extends RequestSpec<DeclaredSchema> = RequestSpec> {
  readonly request: Request;
  readonly params: ParamsOut<Req, P>;
  readonly query: Out<Req, 'query', RawQuery>;
  readonly headers: Out<Req, 'headers', RawHeaders>;
  readonly body: Out<Req, 'body', undefined>;
  readonly state: State;
  readonly set: ResponseSetter;
  readonly route: RouteInfo;
}

/** A context of any route, as hooks shared between routes see it. */
export interface AnyContext {
  readonly request: Request;
  readonly params: unknown;
  readonly query: unknown;
  readonly headers: unknown;
  readonly body: unknown;
  readonly state: State;
  readonly set: ResponseSetter;
  readonly route: RouteInfo;
}
