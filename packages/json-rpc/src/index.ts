/**
 * @module @charter/json-rpc — JSON-RPC 2.0 message handling shared by the tool-server (MCP) and
 * agent (A2A) modules. Internal: users reach it through those modules.
 */
export { JSON_RPC_ERROR_CODES } from './codes.ts';
export {
  type ClassifiedMessage,
  classifyMessage,
  isJsonRpcId,
  type JsonRpcErrorObject,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccess,
  jsonRpcError,
  jsonRpcResult,
} from './message.ts';
export { JSON_RPC_MAX_DEPTH, nestsDeeperThan, type ParsedBody, parseJsonRpcBody } from './parse.ts';
export { hasJsonRpcMediaType, readJsonRpcBody, unsupportedJsonRpcMediaType } from './http.ts';
export { jsonRpcRequestSchema, jsonRpcResponseSchema } from './openapi.ts';
