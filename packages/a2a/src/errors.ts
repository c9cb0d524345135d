/**
 * A2A errors as JSON-RPC error objects (A2A 1.0 §9 error table): the A2A-specific codes carry a
 * `data` array with one google.rpc.ErrorInfo; -32602 carries a google.rpc.BadRequest.
 */
import { JSON_RPC_ERROR_CODES, type JsonRpcErrorObject } from '@charter/json-rpc';
import {
  A2A_BAD_REQUEST_TYPE,
  A2A_ERROR_DOMAIN,
  A2A_ERROR_INFO_TYPE,
  A2A_ERRORS,
  type A2aErrorName,
} from './constants.ts';

/** A JSON-RPC error an A2A method answers with; thrown inside the handler, caught by the dispatcher. */
export class A2aRpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'A2aRpcError';
    this.code = code;
    this.data = data;
  }

  /** The error member of the response. */
  toJsonRpc(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** An A2A-specific error (-32001..-32009) with its ErrorInfo; metadata values must be strings (ProtoJSON map). */
export function a2aError(
  name: A2aErrorName,
  message?: string,
  metadata?: Record<string, string>,
): A2aRpcError {
  const entry = A2A_ERRORS[name];
  const info: Record<string, unknown> = {
    '@type': A2A_ERROR_INFO_TYPE,
    reason: entry.reason,
    domain: A2A_ERROR_DOMAIN,
  };
  if (metadata !== undefined) info.metadata = metadata;
  return new A2aRpcError(entry.code, message ?? entry.message, [info]);
}

/** One problem with a request field. */
export interface A2aFieldViolation {
  readonly field: string;
  readonly description: string;
}

/** -32602 with a google.rpc.BadRequest naming each bad field. */
export function invalidParams(violations: readonly A2aFieldViolation[]): A2aRpcError {
  const first = violations[0];
  const message =
    first === undefined ? 'Invalid params' : `Invalid params: ${first.field} ${first.description}`;
  return new A2aRpcError(JSON_RPC_ERROR_CODES.invalidParams, message, [
    { '@type': A2A_BAD_REQUEST_TYPE, fieldViolations: violations.map((v) => ({ ...v })) },
  ]);
}

/** -32602 for one field. */
export function invalidField(field: string, description: string): A2aRpcError {
  return invalidParams([{ field, description }]);
}
