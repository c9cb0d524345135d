/**
 * What the method handlers share: the resolved options, the compiled catalog, the request-state
 * sealer, and the request being served. Plus the errors they throw, named by what went wrong.
 */
import type { Catalog } from './catalog.ts';
import { MCP_ERROR_CODES } from './constants.ts';
import { McpError } from './errors.ts';
import type { ListenHub } from './listen.ts';
import type { ResolvedMcpOptions } from './options.ts';
import type { RequestStateSealer } from './request-state.ts';
import type { LiveSession, SessionKeeper } from './session.ts';
import type { ClientAsker } from './session-requests.ts';
import type { McpRequestContext } from './types.ts';

/** One handler's fixed parts. */
export interface McpServerState {
  readonly options: ResolvedMcpOptions;
  readonly catalog: Catalog;
  readonly sealer: RequestStateSealer;
  /** Present when the app gave the handler a session store (`sessions` option). */
  readonly sessions?: SessionKeeper;
  /** The `subscriptions/listen` streams of this instance (listen.ts). */
  readonly listen?: ListenHub;
}

/** One JSON-RPC request being served. */
export interface McpCall {
  readonly server: McpServerState;
  /** The request's params (an empty object when it sent none). */
  readonly params: Record<string, unknown>;
  /** The context handed to tool, resource, prompt and completion handlers. */
  readonly ctx: McpRequestContext;
  /** Whether unexpected errors may show their message. */
  readonly exposeInternalErrors: boolean;
  /** The legacy session the request belongs to, when the handler keeps sessions. */
  readonly session?: LiveSession;
  /** Sends server-to-client requests inside that session. */
  readonly ask?: ClientAsker;
}

/** What a method answers: its result, and whether that result carries cache hints in the modern era. */
export interface MethodResult {
  readonly result: Record<string, unknown>;
  /** The six cacheable results of 2026-07-28 (discover, the four lists, resources/read). */
  readonly cacheable?: boolean;
  /** An input-required interim result: no cache hints, `resultType: "input_required"`. */
  readonly inputRequired?: boolean;
  /** An answer that is an event stream (`subscriptions/listen`): sent as it is, `result` unused. */
  readonly stream?: ReadableStream<Uint8Array>;
}

/** -32602 Invalid params, HTTP 200: the method exists but the call's parameters are wrong. */
export function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(MCP_ERROR_CODES.invalidParams, message, { data });
}

/** -32601 Method not found; `status` 404 in the modern era (2026-07-28 transport), 200 in the legacy one. */
export function methodNotFound(method: string, status: number, detail?: string): McpError {
  const name = JSON.stringify(method.slice(0, 100));
  return new McpError(
    MCP_ERROR_CODES.methodNotFound,
    `Method not found: ${name}${detail === undefined ? '' : `: ${detail}`}`,
    {
      status,
    },
  );
}

/** -32020 with HTTP 400: a mirrored header is missing or disagrees with the body. */
export function headerMismatch(message: string): McpError {
  return new McpError(MCP_ERROR_CODES.headerMismatch, `Header mismatch: ${message}`, { status: 400 });
}

/** A plain object, not an array or null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
