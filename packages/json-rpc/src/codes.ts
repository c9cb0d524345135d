/**
 * JSON-RPC 2.0 error codes (JSON-RPC 2.0 specification, section 5.1). Codes from -32000 to -32099
 * are left to implementations; the protocols built on JSON-RPC allocate their own there.
 */
export const JSON_RPC_ERROR_CODES = Object.freeze({
  /** Invalid JSON was received. */
  parseError: -32700,
  /** The JSON sent is not a valid Request object. */
  invalidRequest: -32600,
  /** The method does not exist or is not available. */
  methodNotFound: -32601,
  /** Invalid method parameters. */
  invalidParams: -32602,
  /** Internal JSON-RPC error. */
  internalError: -32603,
} as const);
