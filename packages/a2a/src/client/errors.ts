/**
 * The error every failed A2A client call rejects with (A2A 1.0 §3 JSON-RPC binding, §6 error table):
 * either a JSON-RPC error the agent answered (`code` is its code) or a refusal made on the client side
 * (`code` 0, with a `reason` saying which rule refused).
 */

/** Why a call failed. Every reason but `rpc` comes with `code` 0. */
export type A2aClientErrorReason =
  /** The agent answered a JSON-RPC error; `code`, `message` and `data` are the agent's. */
  | 'rpc'
  /** The request could not be sent or the connection failed (DNS, refused, reset, TLS). */
  | 'network'
  /** The outbound request guard refused the address (`cause` is the `SsrfError`). */
  | 'blocked'
  /** No complete answer within `timeoutMs`. */
  | 'timeout'
  /** The caller's `signal` aborted the call. */
  | 'aborted'
  /** A non-2xx answer that is not a JSON-RPC error (3xx included: redirects are never followed). */
  | 'http-status'
  /** A 2xx answer whose `Content-Type` is not JSON. */
  | 'content-type'
  /** The body is larger than `maxResponseBytes`. */
  | 'too-large'
  /** The body is not a JSON-RPC 2.0 response to this request, or its result has the wrong shape. */
  | 'invalid-response'
  /** The agent card is not a valid A2A 1.0 card or has no JSON-RPC 1.0 interface. */
  | 'invalid-card'
  /** The card's interface URL is not https or points to an origin the client may not reach. */
  | 'interface-not-allowed';

/** Every reason an `A2aClientError` can carry. */
export const A2A_CLIENT_ERROR_REASONS: readonly A2aClientErrorReason[] = Object.freeze([
  'rpc',
  'network',
  'blocked',
  'timeout',
  'aborted',
  'http-status',
  'content-type',
  'too-large',
  'invalid-response',
  'invalid-card',
  'interface-not-allowed',
]);

/** Fields of an `A2aClientError` beyond its message. */
export interface A2aClientErrorInit {
  /** JSON-RPC error code; 0 (the default) for a client-side refusal. */
  code?: number;
  /** Why the call failed. */
  reason: A2aClientErrorReason;
  /** The JSON-RPC error `data` (A2A puts `google.rpc.ErrorInfo` objects there), or a problem document. */
  data?: unknown;
  /** HTTP status of the answer, when one arrived. */
  status?: number;
  /** The underlying error (a network failure, an `SsrfError`, a JSON syntax error). */
  cause?: unknown;
}

/**
 * A failed A2A client call: `code` is the agent's JSON-RPC error code (-32001 task not found, ...),
 * or 0 when the client refused or could not complete the exchange; `reason` tells which.
 */
export class A2aClientError extends Error {
  /** JSON-RPC error code; 0 means the client refused or could not complete the exchange. */
  readonly code: number;
  /** Why the call failed. */
  readonly reason: A2aClientErrorReason;
  /** The JSON-RPC error `data`, when the agent sent one. */
  readonly data: unknown;
  /** HTTP status of the answer, when one arrived. */
  readonly status: number | undefined;

  constructor(message: string, init: A2aClientErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'A2aClientError';
    this.code = init.code ?? 0;
    this.reason = init.reason;
    this.data = init.data;
    this.status = init.status;
  }
}

/** True for an `A2aClientError`, including one from another copy of the library. */
export function isA2aClientError(value: unknown): value is A2aClientError {
  return (
    value instanceof A2aClientError ||
    (value instanceof Error &&
      value.name === 'A2aClientError' &&
      typeof (value as { code?: unknown }).code === 'number' &&
      A2A_CLIENT_ERROR_REASONS.includes((value as { reason?: unknown }).reason as A2aClientErrorReason))
  );
}
