/**
 * JSON-RPC 2.0 messages (JSON-RPC 2.0 specification, sections 4 and 5): what a request, a
 * notification and a response look like, and the one classifier that sorts a parsed body into
 * them. Protocols layered on JSON-RPC (MCP, A2A) add their own rules on top.
 */
import { JSON_RPC_ERROR_CODES } from './codes.ts';

/** A request id: a string or an integer. Null and fractional ids are refused (see `classifyMessage`). */
export type JsonRpcId = string | number;

/** A call that expects an answer. */
export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: Record<string, unknown> | readonly unknown[];
}

/** A call that expects none. */
export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: Record<string, unknown> | readonly unknown[];
}

/** The error member of an error response. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A success response. */
export interface JsonRpcSuccess {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly result: unknown;
}

/** An error response; `id` is null only when the request's id could not be read. */
export interface JsonRpcFailure {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId | null;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** One message of a body, sorted by kind; `invalid` carries the error to answer with. */
export type ClassifiedMessage =
  | { readonly kind: 'request'; readonly message: JsonRpcRequest }
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'response'; readonly id: JsonRpcId | null }
  | { readonly kind: 'invalid'; readonly id: JsonRpcId | null; readonly error: JsonRpcErrorObject };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A usable id: a string, or an integer within the safe range. The specification allows numbers
 * but warns against fractions; protocols on top (MCP) forbid null, and a float id cannot be
 * echoed back reliably, so both are refused.
 */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function invalid(id: JsonRpcId | null, message: string): ClassifiedMessage {
  return { kind: 'invalid', id, error: { code: JSON_RPC_ERROR_CODES.invalidRequest, message } };
}

/**
 * Sorts one parsed JSON value into a request, a notification, a response (from a client answering
 * a server's request) or an invalid message with the -32600 error to send back. An id that is
 * present but unusable is reported with a null id, since it cannot be echoed.
 */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (!isPlainObject(value)) return invalid(null, 'Invalid Request: a JSON-RPC message must be an object');
  const hasId = Object.hasOwn(value, 'id');
  const id = hasId && isJsonRpcId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return invalid(id, 'Invalid Request: "jsonrpc" must be exactly "2.0"');
  // A response to a request whose id could not be read carries `"id": null` (JSON-RPC 2.0 §5).
  const isResponse =
    !Object.hasOwn(value, 'method') && (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error'));
  if (isResponse && (!hasId || value.id === null || isJsonRpcId(value.id))) return { kind: 'response', id };
  if (hasId && !isJsonRpcId(value.id)) {
    return invalid(
      null,
      'Invalid Request: "id" must be a string or an integer (not null, a fraction or an object)',
    );
  }
  if (!Object.hasOwn(value, 'method')) {
    if (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error')) return { kind: 'response', id };
    return invalid(id, 'Invalid Request: "method" is missing');
  }
  if (typeof value.method !== 'string' || value.method.length === 0) {
    return invalid(id, 'Invalid Request: "method" must be a non-empty string');
  }
  if (Object.hasOwn(value, 'params') && !isPlainObject(value.params) && !Array.isArray(value.params)) {
    return invalid(id, 'Invalid Request: "params" must be an object or an array');
  }
  const message = value as unknown as JsonRpcRequest;
  return hasId ? { kind: 'request', message } : { kind: 'notification', message };
}

/** A success response. */
export function jsonRpcResult(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

/** An error response; `data` is left out when undefined. */
export function jsonRpcError(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcFailure {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}
