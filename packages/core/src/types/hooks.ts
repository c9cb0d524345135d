import type { AnyContext, PreBodyContext } from './context.ts';

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
  /** Error path: observe the error, or return a Response to answer instead of the problem document. */
  onError?: (error: unknown, ctx?: AnyContext) => MaybePromise<Response | void>;
  /** Step 8: replace or mutate the response (headers are mutable). */
  onSend?: (response: Response, ctx?: AnyContext) => MaybePromise<Response | void>;
  /** Step 8, last: observe the final response (logging, metrics). */
  onResponse?: (response: Response, ctx?: AnyContext) => MaybePromise<void>;
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
