import type { JsonSchema } from '../schema/index.ts';
import type { AnyContext, PreBodyContext } from './context.ts';
import type { HeadersInit } from './web.ts';

type MaybePromise<T> = T | Promise<T>;

/** A handler result as hooks see it (any declared status). */
export interface AnyHandlerResult {
  status: number;
  body?: unknown;
  headers?: HeadersInit;
}

/**
 * Lifecycle hooks. See the pipeline table in the docs: onRequest, (match), preBody, validation,
 * beforeHandle, handler, afterHandle, onSend, onResponse; onError on the error path.
 */
export interface Hooks {
  /** Step 1, before routing: the raw request. Throw (or return a Response) to answer early. */
  onRequest?: (request: Request) => MaybePromise<Response | void>;
  /** Step 3: header-only checks; the body is untouched. Return a Response or throw to answer early. */
  preBody?: (ctx: PreBodyContext) => MaybePromise<Response | void>;
  /** Step 5: body-aware checks on the validated context. Return a Response or throw to answer early. */
  beforeHandle?: (ctx: AnyContext) => MaybePromise<Response | void>;
  /** Step 7: transform the handler's result; return a replacement or nothing. */
  afterHandle?: (ctx: AnyContext, result: AnyHandlerResult) => MaybePromise<AnyHandlerResult | void>;
  /**
   * Error path: observe the error, or return a Response to answer instead of the problem document.
   * `ctx` is absent when no route matched; `request` (as the adapter handed it in) is always there.
   */
  onError?: (error: unknown, ctx: AnyContext | undefined, request: Request) => MaybePromise<Response | void>;
  /** Step 8: replace or mutate the response (headers are mutable). `ctx` is absent when no route matched. */
  onSend?: (
    response: Response,
    ctx: AnyContext | undefined,
    request: Request,
  ) => MaybePromise<Response | void>;
  /** Step 8, last: observe the final response (logging, metrics). `ctx` is absent when no route matched. */
  onResponse?: (response: Response, ctx: AnyContext | undefined, request: Request) => MaybePromise<void>;
}

/** Where hooks are accepted: one Hooks object or several, applied in order. */
export type HookInput = Hooks | readonly Hooks[];

export const HOOK_PHASES = [
  'onRequest',
  'preBody',
  'beforeHandle',
  'afterHandle',
  'onError',
  'onSend',
  'onResponse',
] as const satisfies readonly (keyof Hooks)[];

export type HookPhase = (typeof HOOK_PHASES)[number];

/**
 * What a set of hooks does for security, declared by the helper that built it. The App reads the
 * traits of every hook layer of a route once, at registration: the boot guards check that a
 * state-changing session route has CSRF protection and that tool-server and agent routes are
 * authenticated, and the cross-origin guard learns which origins a route's CORS policy admits.
 */
export interface HookTraits {
  /** The hooks authenticate the caller and refuse (401/403) when they cannot. */
  authenticates?: boolean;
  /**
   * The hooks authenticate a caller who sends credentials (refusing bad ones) and let a request
   * without any through anonymously, e.g. `bearer({ optional: true })`. Not enough for routes that
   * must be authenticated (tool servers, agents), enough to enforce a route's declared `auth`.
   */
  authenticatesOptionally?: boolean;
  /** The hooks protect state-changing requests against cross-site request forgery. */
  csrfProtection?: boolean;
  /** The hooks read or write a cookie-based session. */
  usesSession?: boolean;
  /** The hooks apply a CORS policy; the cross-origin guard admits the origins it allows. */
  cors?: CorsTraits;
  /**
   * Origins the hooks trust for state-changing requests (e.g. CSRF `trustedOrigins`); the App's
   * cross-origin guard admits them too.
   */
  trustsOrigin?: (origin: string) => boolean;
  /**
   * The hooks may answer with a stored copy of a response the route already produced (and
   * validated), e.g. an idempotent replay: such a raw Response needs no
   * `acknowledgeNoResponseBodySchema` on the route.
   */
  replaysResponses?: boolean;
  /** Secrets the hooks rely on (session, CSRF or webhook keys); the boot guards check their strength. */
  secrets?: readonly { readonly where: string; readonly value: string | Uint8Array }[];
  /**
   * Reasons the route these hooks cover must not be served in production (e.g. an agent card whose url
   * is not https); a production App refuses to boot with them (`insecure-in-production`).
   */
  insecureInProduction?: readonly string[];
  /**
   * Answers the hooks may give by themselves (a 429 from a rate limit, a 401 from an authenticator),
   * so the OpenAPI document lists them on every route the hooks cover.
   */
  answers?: readonly FrameworkAnswer[];
}

/** A header field a framework answer carries, as the OpenAPI document describes it. */
export interface FrameworkAnswerHeader {
  readonly description: string;
  /** A JSON Schema (the core builds no Standard Schema for its own fields). */
  readonly schema: JsonSchema;
  /** Sent on every such answer (OpenAPI 3.1 §4.8.21 `required`). */
  readonly required?: boolean;
}

/**
 * An answer the framework gives on a route by itself, with no handler involved: a malformed
 * request (400), a body over the limit (413), a 422 from validation, a 429 from a rate limit...
 * Each is an `application/problem+json` document (RFC 9457); `problem: 'validation'` says it is the
 * validation problem, whose `issues` member lists what failed.
 */
export interface FrameworkAnswer {
  readonly status: number;
  readonly description: string;
  readonly problem?: 'problem' | 'validation';
  readonly headers?: Readonly<Record<string, FrameworkAnswerHeader>>;
}

/** The part of a CORS policy the App's guards need. */
export interface CorsTraits {
  /** Whether a request from `origin` (serialised, e.g. `https://app.example`) is allowed. */
  allowsOrigin(origin: string): boolean;
  /** The policy allows any origin (`*` or a function admitting every origin). */
  anyOrigin: boolean;
  /** The policy sends `Access-Control-Allow-Credentials: true`. */
  credentials: boolean;
}

/** The property under which a Hooks object carries its traits (a registered symbol: survives bundling). */
const HOOK_TRAITS: unique symbol = Symbol.for('charter.hookTraits');

/** A Hooks object with traits attached. */
type TraitedHooks = Hooks & { readonly [HOOK_TRAITS]?: HookTraits };

/** Attaches traits to a Hooks object (merged with any it already has) and returns it. */
export function withHookTraits<H extends Hooks>(hooks: H, traits: HookTraits): H {
  const current = (hooks as TraitedHooks)[HOOK_TRAITS];
  Object.defineProperty(hooks, HOOK_TRAITS, {
    value: Object.freeze({ ...current, ...traits }),
    enumerable: false,
    configurable: true,
  });
  return hooks;
}

/** The traits of a Hooks object, if its builder declared any. */
export function hookTraitsOf(hooks: Hooks): HookTraits | undefined {
  return (hooks as TraitedHooks)[HOOK_TRAITS];
}
