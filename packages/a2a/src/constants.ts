/**
 * A2A protocol 1.0 constants: version, discovery path, limits, JSON-RPC method names and the
 * A2A error table (A2A 1.0 specification §3 "JSON-RPC binding" and the error table of §5/§9).
 */

/** The only A2A protocol version this module speaks (`Major.Minor`; patch numbers never travel). */
export const A2A_PROTOCOL_VERSION = '1.0';

/** Well-known path of the public agent card (A2A 1.0 agent discovery, RFC 8615 well-known URI). */
export const A2A_CARD_PATH = '/.well-known/agent-card.json';

/** Default cap on a JSON-RPC request body, in bytes (256 KiB). */
export const A2A_DEFAULT_MAX_BODY_BYTES = 262144;

/** Default number of messages kept in a task's history (older ones are dropped first). */
export const A2A_DEFAULT_MAX_HISTORY = 50;

/** Default `max-age` of the agent card's `Cache-Control`, in seconds. */
export const A2A_DEFAULT_CARD_MAX_AGE_SECONDS = 300;

/** Default longest run of one `onMessage` call, in ms (5 minutes); 0 in the option disables it. */
export const A2A_DEFAULT_AGENT_TIMEOUT_MS = 300_000;

/** Service-parameter name carrying the requested protocol version (header or query parameter). */
export const A2A_VERSION_HEADER = 'A2A-Version';

/** Service-parameter name listing the extension URIs a client uses (comma separated). */
export const A2A_EXTENSIONS_HEADER = 'A2A-Extensions';

/** Protocol binding name of the JSON-RPC transport, as written in `supportedInterfaces`. */
export const A2A_JSONRPC_BINDING = 'JSONRPC';

/** ErrorInfo domain used in the `data` array of A2A errors. */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';

/** `@type` of the google.rpc.ErrorInfo detail carried in A2A error `data`. */
export const A2A_ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';

/** `@type` of the google.rpc.BadRequest detail carried in -32602 error `data`. */
export const A2A_BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/** PascalCase JSON-RPC method names of A2A 1.0. */
export const A2A_METHODS = {
  sendMessage: 'SendMessage',
  sendStreamingMessage: 'SendStreamingMessage',
  getTask: 'GetTask',
  listTasks: 'ListTasks',
  cancelTask: 'CancelTask',
  subscribeToTask: 'SubscribeToTask',
  createTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
  getTaskPushNotificationConfig: 'GetTaskPushNotificationConfig',
  listTaskPushNotificationConfigs: 'ListTaskPushNotificationConfigs',
  deleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfig',
  getExtendedAgentCard: 'GetExtendedAgentCard',
} as const;

/** One A2A 1.0 JSON-RPC method name. */
export type A2aMethod = (typeof A2A_METHODS)[keyof typeof A2A_METHODS];

/** A2A-specific JSON-RPC error codes (-32001..-32009) with their ErrorInfo `reason` and default message. */
export const A2A_ERRORS = {
  taskNotFound: { code: -32001, reason: 'TASK_NOT_FOUND', message: 'Task not found' },
  taskNotCancelable: { code: -32002, reason: 'TASK_NOT_CANCELABLE', message: 'Task cannot be canceled' },
  pushNotificationNotSupported: {
    code: -32003,
    reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
    message: 'Push notifications are not supported',
  },
  unsupportedOperation: {
    code: -32004,
    reason: 'UNSUPPORTED_OPERATION',
    message: 'This operation is not supported',
  },
  contentTypeNotSupported: {
    code: -32005,
    reason: 'CONTENT_TYPE_NOT_SUPPORTED',
    message: 'Incompatible content types',
  },
  invalidAgentResponse: { code: -32006, reason: 'INVALID_AGENT_RESPONSE', message: 'Invalid agent response' },
  extendedAgentCardNotConfigured: {
    code: -32007,
    reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
    message: 'Extended agent card is not configured',
  },
  extensionSupportRequired: {
    code: -32008,
    reason: 'EXTENSION_SUPPORT_REQUIRED',
    message: 'A required extension was not declared',
  },
  versionNotSupported: {
    code: -32009,
    reason: 'VERSION_NOT_SUPPORTED',
    message: 'Protocol version is not supported',
  },
} as const;

/** Name of one A2A error in {@link A2A_ERRORS}. */
export type A2aErrorName = keyof typeof A2A_ERRORS;

/** Task states after which a task never changes again (A2A 1.0 TaskState). */
export const A2A_TERMINAL_STATES = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
] as const;

/** Task states in which the agent waits for the client (A2A 1.0 TaskState, "interrupted"). */
export const A2A_INTERRUPTED_STATES = ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED'] as const;

/** Default and maximum `pageSize` of ListTasks (A2A 1.0 ListTasksRequest). */
export const A2A_LIST_TASKS_PAGE_SIZE = { default: 50, min: 1, max: 100 } as const;
