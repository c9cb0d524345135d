/**
 * @module @charter/a2a — the agent module (A2A protocol 1.0, JSON-RPC binding): the agent card,
 * the JSON-RPC endpoint, a bounded in-memory task store, part builders and the wire types.
 */
export {
  A2A_BAD_REQUEST_TYPE,
  A2A_CARD_PATH,
  A2A_DEFAULT_AGENT_TIMEOUT_MS,
  A2A_DEFAULT_CARD_MAX_AGE_SECONDS,
  A2A_DEFAULT_MAX_BODY_BYTES,
  A2A_DEFAULT_MAX_HISTORY,
  A2A_ERROR_DOMAIN,
  A2A_ERROR_INFO_TYPE,
  A2A_ERRORS,
  A2A_EXTENSIONS_HEADER,
  A2A_INTERRUPTED_STATES,
  A2A_JSONRPC_BINDING,
  A2A_LIST_TASKS_PAGE_SIZE,
  A2A_METHODS,
  A2A_PROTOCOL_VERSION,
  A2A_TERMINAL_STATES,
  A2A_VERSION_HEADER,
  type A2aErrorName,
  type A2aMethod,
} from './constants.ts';
export { a2aData, a2aText } from './parts.ts';
export type {
  A2aAgentCapabilities,
  A2aAgentCard,
  A2aAgentCardSignature,
  A2aAgentExtension,
  A2aAgentInterface,
  A2aAgentProvider,
  A2aAgentSkill,
  A2aArtifact,
  A2aCancelTaskRequest,
  A2aDataPart,
  A2aErrorDetail,
  A2aGetTaskRequest,
  A2aJsonValue,
  A2aListTasksRequest,
  A2aListTasksResponse,
  A2aMessage,
  A2aMetadata,
  A2aOAuthFlows,
  A2aPart,
  A2aRawPart,
  A2aRole,
  A2aSecurityRequirement,
  A2aSecurityScheme,
  A2aSendMessageConfiguration,
  A2aSendMessageRequest,
  A2aSendMessageResponse,
  A2aStreamResponse,
  A2aTask,
  A2aTaskPushNotificationConfig,
  A2aTaskState,
  A2aTaskStatus,
  A2aTextPart,
  A2aUrlPart,
} from './types.ts';
export type { A2aCardInput } from './card.ts';
export { type A2aHandler, createA2aHandler } from './handler.ts';
export {
  type A2aHandlerOptions,
  type A2aHost,
  type A2aMessageContext,
  type ResolvedA2aHandlerOptions,
  resolveA2aHandlerOptions,
} from './options.ts';
export type { A2aArtifactInput, A2aReply, A2aReplyStatus, A2aTaskReply } from './reply.ts';
export { type A2aRoutesOptions, a2aRoutes } from './routes.ts';
export {
  type A2aTaskCursor,
  type A2aTaskPage,
  type A2aTaskQuery,
  type A2aTaskStore,
  type A2aMemoryTaskStoreOptions,
  memoryTaskStore,
  selectTasks,
} from './task-store.ts';
export * from './client/index.ts';
