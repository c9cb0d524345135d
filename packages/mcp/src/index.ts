/**
 * @module @charter/mcp — the tool-server module (MCP): one Streamable HTTP endpoint for both
 * protocol eras (2024-11-05 through 2025-11-25 with the initialize handshake; 2026-07-28 stateless,
 * with per-request `_meta` and mirrored headers), its routes, input validation and the
 * input-required flow.
 */
export { chargeBatchMembers } from './batch-charge.ts';
export {
  MCP_DEFAULT_LEGACY_VERSION,
  MCP_DEFAULT_MAX_BATCH_RESPONSE_BYTES,
  MCP_DEFAULT_MAX_BATCH_SIZE,
  MCP_DEFAULT_MAX_BODY_BYTES,
  MCP_DEFAULT_MAX_RESOURCE_URI_LENGTH,
  MCP_DISCOVERY_METHODS,
  MCP_ERROR_CODES,
  MCP_LOG_LEVELS,
  MCP_MAX_REQUEST_STATE_LENGTH,
  MCP_META_KEYS,
  MCP_META_PREFIX,
  MCP_MODERN_MIN_VERSION,
  MCP_PROTOCOL_VERSION,
  MCP_SUPPORTED_VERSIONS,
} from './constants.ts';
export { isModernProtocolVersion, type McpEra } from './era.ts';
export { isMcpError, McpError, McpToolError, type McpToolErrorOptions } from './errors.ts';
export { createMcpHandler, type McpHandler, type McpHandlerContext, type McpHandlerInfo } from './handler.ts';
export { decodeMcpHeaderValue, encodeMcpHeaderValue } from './headers.ts';
export { inputRequired, isInputRequired } from './input-required.ts';
export {
  closeMcpListenStreams,
  MCP_MAX_UNREAD_LISTEN_MESSAGES,
  MCP_SUBSCRIPTION_ID_KEY,
  mcpListenStreamCount,
} from './listen.ts';
export type { McpListenOptions } from './listen-options.ts';
export { MCP_ENFORCED_KEYWORDS, MCP_UNENFORCED_KEYWORDS, validateMcpInput } from './input-schema.ts';
export type { McpBatch, McpHandlerOptions } from './options.ts';
export { type McpMethodAuth, type McpRoutesOptions, mcpRoutes } from './routes.ts';
export { defineMcpTool } from './define.ts';
export type {
  McpAnnotations,
  McpCacheHints,
  McpClientCapabilities,
  McpClientInfo,
  McpCompleter,
  McpCompletion,
  McpContent,
  McpIcon,
  McpInputRequest,
  McpInputRequired,
  McpLogLevel,
  McpPrompt,
  McpPromptArgument,
  McpPromptMessage,
  McpPromptResult,
  McpRequestContext,
  McpResource,
  McpResourceContents,
  McpResourceTemplate,
  McpServerInfo,
  McpTool,
  McpToolAnnotations,
  McpToolArguments,
  McpToolResult,
  McpToolReturn,
  McpToolSchema,
} from './types.ts';
export {
  MCP_SESSION_EVENT_LOG_SIZE,
  type McpSessionEvent,
  type McpSessionRecord,
  type McpSessionStore,
  type MemoryMcpSessionStoreOptions,
  memoryMcpSessionStore,
} from './session-store.ts';
export type { McpSessionOptions } from './session.ts';
export type { McpClientRequestOptions } from './session-requests.ts';
