/**
 * The JSON-RPC layer of A2A 1.0 (§3): the `A2A-Version` service parameter (-32009), required
 * extensions (-32008), PascalCase methods (0.3 names are -32601), capability gating (-32004 for
 * streaming and the extended card, -32003 for push notifications) and the method table.
 */
import {
  JSON_RPC_ERROR_CODES,
  type JsonRpcRequest,
  type JsonRpcResponse,
  jsonRpcError,
  jsonRpcResult,
} from '@charter/json-rpc';
import { internalError, report } from './agent-call.ts';
import { A2A_EXTENSIONS_HEADER, A2A_METHODS, A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER } from './constants.ts';
import { A2aRpcError, a2aError } from './errors.ts';
import type { RpcFrame } from './frame.ts';
import { sendMessage } from './methods/send-message.ts';
import { cancelTask, getTask, listTasks } from './methods/tasks.ts';

/** A2A 0.3 method names and their 1.0 successors, to say so in the -32601. */
const LEGACY_METHODS: Readonly<Record<string, string>> = {
  'message/send': A2A_METHODS.sendMessage,
  'message/stream': A2A_METHODS.sendStreamingMessage,
  'tasks/get': A2A_METHODS.getTask,
  'tasks/cancel': A2A_METHODS.cancelTask,
  'tasks/resubscribe': A2A_METHODS.subscribeToTask,
  'tasks/pushNotificationConfig/set': A2A_METHODS.createTaskPushNotificationConfig,
  'tasks/pushNotificationConfig/get': A2A_METHODS.getTaskPushNotificationConfig,
  'tasks/pushNotificationConfig/list': A2A_METHODS.listTaskPushNotificationConfigs,
  'tasks/pushNotificationConfig/delete': A2A_METHODS.deleteTaskPushNotificationConfig,
  'agent/getAuthenticatedExtendedCard': A2A_METHODS.getExtendedAgentCard,
};

type Method = (frame: RpcFrame, params: unknown) => Promise<unknown>;

const unsupported =
  (what: string): Method =>
  async () => {
    throw a2aError('unsupportedOperation', `${what} is not supported by this agent`);
  };
const noPush: Method = async () => {
  throw a2aError('pushNotificationNotSupported');
};

const METHODS: ReadonlyMap<string, Method> = new Map<string, Method>([
  [A2A_METHODS.sendMessage, sendMessage],
  [A2A_METHODS.getTask, getTask],
  [A2A_METHODS.cancelTask, cancelTask],
  [A2A_METHODS.listTasks, listTasks],
  // The card says streaming, pushNotifications and extendedAgentCard are false (A2A 1.0 §5 gating).
  [A2A_METHODS.sendStreamingMessage, unsupported('Streaming')],
  [A2A_METHODS.subscribeToTask, unsupported('Streaming')],
  [A2A_METHODS.getExtendedAgentCard, unsupported('The extended agent card')],
  [A2A_METHODS.createTaskPushNotificationConfig, noPush],
  [A2A_METHODS.getTaskPushNotificationConfig, noPush],
  [A2A_METHODS.listTaskPushNotificationConfigs, noPush],
  [A2A_METHODS.deleteTaskPushNotificationConfig, noPush],
]);

/**
 * The requested version: the `A2A-Version` header, else the query parameter of the same name
 * (names are case-insensitive, A2A 1.0 §3.2); absent or empty means 0.3.
 */
export function requestedVersion(request: Request): string {
  const header = request.headers.get(A2A_VERSION_HEADER)?.trim();
  if (header !== undefined && header !== '') return header;
  for (const [name, value] of new URL(request.url).searchParams) {
    if (name.toLowerCase() === A2A_VERSION_HEADER.toLowerCase() && value.trim() !== '') return value.trim();
  }
  return '0.3';
}

/** Extension URIs from `A2A-Extensions` (comma separated). */
export function declaredExtensions(request: Request): string[] {
  const raw = request.headers.get(A2A_EXTENSIONS_HEADER);
  if (raw === null) return [];
  return raw
    .split(',')
    .map((uri) => uri.trim())
    .filter((uri) => uri !== '');
}

function checkVersion(request: Request): void {
  const version = requestedVersion(request);
  if (version === A2A_PROTOCOL_VERSION) return;
  throw a2aError(
    'versionNotSupported',
    `A2A protocol version ${JSON.stringify(version.slice(0, 20))} is not supported. Supported versions: ${A2A_PROTOCOL_VERSION}`,
    { requestedVersion: version.slice(0, 20), supportedVersions: A2A_PROTOCOL_VERSION },
  );
}

function checkExtensions(frame: RpcFrame): void {
  for (const extension of frame.options.card.capabilities.extensions ?? []) {
    if (extension.required === true && !frame.extensions.includes(extension.uri)) {
      throw a2aError('extensionSupportRequired', `This agent requires the extension ${extension.uri}`, {
        extension: extension.uri,
      });
    }
  }
}

/** Serves one JSON-RPC request; every failure becomes a JSON-RPC error echoing the request id. */
export async function serveRpc(
  frame: RpcFrame,
  request: Request,
  message: JsonRpcRequest,
): Promise<JsonRpcResponse> {
  try {
    checkVersion(request);
    const method = METHODS.get(message.method);
    if (method === undefined) {
      const successor = Object.hasOwn(LEGACY_METHODS, message.method)
        ? LEGACY_METHODS[message.method]
        : undefined;
      return jsonRpcError(
        message.id,
        JSON_RPC_ERROR_CODES.methodNotFound,
        successor === undefined
          ? `Method not found: ${message.method.slice(0, 100)}`
          : `Method not found: ${message.method} is an A2A 0.3 name; A2A 1.0 calls it ${successor}`,
      );
    }
    checkExtensions(frame);
    return jsonRpcResult(message.id, await method(frame, message.params));
  } catch (error) {
    if (error instanceof A2aRpcError) {
      const { code, message: text, data } = error.toJsonRpc();
      return jsonRpcError(message.id, code, text, data);
    }
    // A store or an unexpected bug: same fail-closed redaction as a throwing agent.
    report(frame, error, message.method);
    const failure = internalError(frame, error);
    return jsonRpcError(message.id, failure.code, failure.message);
  }
}
