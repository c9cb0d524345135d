/**
 * The typed client's types, read from the phantom operation map an App's type carries
 * (`OperationsOf<typeof app>`): no code generation, nothing of this exists at run time.
 */
import type {
  DeclaredSchema,
  HttpMethod,
  OperationsOf,
  PathParams,
  RegisteredRoute,
  SchemaInput,
  SchemaOutput,
} from '@charter/core';

/** A value a path parameter may take: sent as `String(value)`, percent-encoded. */
export type ParamValue = string | number;

/** A value a query parameter may take: Dates are sent as `toISOString()`, the rest as `String(value)`. */
export type QueryValue = string | number | boolean | Date;

/** Query parameters: an array repeats the key (`?tag=a&tag=b`), `undefined` leaves the key out. */
export type QueryInput = { readonly [key: string]: QueryValue | readonly QueryValue[] | undefined };

/** Request header fields by name: values are strings, `undefined` leaves the field out. */
export type HeadersInput = { readonly [name: string]: string | undefined };

/** Bodies sent as they are (their own content type, when they have one, is kept). */
export type RawBody =
  | FormData
  | URLSearchParams
  | Blob
  | ArrayBuffer
  | ArrayBufferView
  | ReadableStream<Uint8Array>;

/** The argument of a client method, untyped: what every method accepts at run time. */
export interface OperationInput {
  params?: Readonly<Record<string, unknown>>;
  query?: QueryInput | Readonly<Record<string, unknown>>;
  headers?: HeadersInput | Readonly<Record<string, unknown>>;
  body?: unknown;
}

/** One answer with a status the route declares. */
export interface ClientResponse<S extends number = number, B = unknown> {
  readonly status: S;
  /** Parsed: JSON for `application/json` and `+json`, text for `text/*`, else a Blob; none for HEAD/204/205/304. */
  readonly body: B;
  readonly headers: Headers;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type PartSchema<Req, K extends string> = Req extends { [P in K]: infer S extends DeclaredSchema }
  ? S
  : undefined;

/** `params`: required when the path has parameters; typed by `request.params`, else by the path. */
type ParamsPart<P extends string, Req> = string extends P
  ? { params?: Readonly<Record<string, ParamValue>> }
  : [keyof PathParams<P>] extends [never]
    ? { params?: Readonly<Record<string, never>> }
    : {
        params: PartSchema<Req, 'params'> extends infer S extends DeclaredSchema
          ? SchemaInput<S>
          : { readonly [K in keyof PathParams<P>]: ParamValue };
      };

/** `query`: typed by `request.query`, required only when that type does not accept `{}`. */
type QueryPart<Req> =
  PartSchema<Req, 'query'> extends infer S extends DeclaredSchema
    ? {} extends SchemaInput<S>
      ? { query?: SchemaInput<S> }
      : { query: SchemaInput<S> }
    : { query?: QueryInput };

/** Header values travel as text: a schema that converts (`number`) is given the text. */
type HeaderValues<T> = { [K in keyof T]: T[K] extends string | undefined ? T[K] : string };

/** `headers`: typed by `request.headers` (other fields allowed), required only when `{}` is not accepted. */
type HeadersPart<Req> =
  PartSchema<Req, 'headers'> extends infer S extends DeclaredSchema
    ? {} extends SchemaInput<S>
      ? { headers?: HeaderValues<SchemaInput<S>> & HeadersInput }
      : { headers: HeaderValues<SchemaInput<S>> & HeadersInput }
    : { headers?: HeadersInput };

/** `body`: never on GET/HEAD; required when `request.body` is declared (and does not accept undefined). */
type BodyPart<M, Req> = M extends 'GET' | 'HEAD'
  ? { body?: undefined }
  : PartSchema<Req, 'body'> extends infer S extends DeclaredSchema
    ? undefined extends SchemaInput<S>
      ? { body?: SchemaInput<S> | RawBody }
      : { body: SchemaInput<S> | RawBody }
    : { body?: unknown };

/** The argument of the client method of one operation (`OperationType`). */
export type InputOf<Op> = Op extends { method: infer M; path: infer P extends string; request: infer Req }
  ? Simplify<ParamsPart<P, Req> & QueryPart<Req> & HeadersPart<Req> & BodyPart<M, Req>>
  : OperationInput;

// RFC 9110 §15.3.5, §15.3.6, §15.4.5 and §9.3.2: no content.
type NoContentStatus = 204 | 205 | 304;

type ResponseBody<M, S, Spec> = M extends 'HEAD'
  ? undefined
  : S extends NoContentStatus
    ? undefined
    : Spec extends { body: infer B extends DeclaredSchema }
      ? SchemaOutput<B>
      : unknown;

/** What the client method of one operation resolves: a union over its declared statuses. */
export type ResponseOf<Op> = Op extends { method: infer M; responses: infer R }
  ? { [S in keyof R & number]: ClientResponse<S, ResponseBody<M, S, R[S]>> }[keyof R & number]
  : ClientResponse;

/** The client method of one operation; its argument is optional when nothing in it is required. */
export type OperationMethod<Op> =
  {} extends InputOf<Op>
    ? (input?: InputOf<Op>) => Promise<ResponseOf<Op>>
    : (input: InputOf<Op>) => Promise<ResponseOf<Op>>;

/** A typed client of an App: one method per operationId recorded in the App's type. */
export type Client<A> = { readonly [K in keyof OperationsOf<A>]: OperationMethod<OperationsOf<A>[K]> };

/** What `createClient` needs of an App: its routes (and its accepted body media types, if it has them). */
export interface ClientApp {
  registeredRoutes(): readonly RegisteredRoute[];
  readonly options?: { readonly allowedContentTypes?: readonly string[] };
}

/** What `createInProcessClient` needs of an App: its routes and `fetch`. */
export interface InProcessClientApp extends ClientApp {
  fetch(request: Request): Promise<Response>;
}
