/**
 * Serving one JSON-RPC request in its era. Modern requests (2026-07-28) climb that revision's
 * validation ladder in its order (https://charter.dev/docs/tool-server), so that a disagreement
 * between a header and `_meta` is a -32020 before the version is judged; legacy requests (2024-11-05 to 2025-11-25) follow the Streamable
 * HTTP rules of their revision. Then the method runs, and a modern result is decorated with
 * `resultType`, the server's identity and, where cacheable, the cache hints.
 */
import type { JsonRpcId, JsonRpcRequest, JsonRpcResponse } from '@charter/json-rpc';
import { jsonRpcError, jsonRpcResult } from '@charter/json-rpc';
import { MCP_DEFAULT_LEGACY_VERSION, MCP_ERROR_CODES, MCP_LOG_LEVELS, MCP_META_KEYS } from './constants.ts';
import { serverCapabilities } from './catalog.ts';
import { isModernProtocolVersion, type McpEra, requestEra, requestMeta } from './era.ts';
import { isMcpError, McpError } from './errors.ts';
import { mirrorsValue } from './headers.ts';
import { logReporter, type NotificationChannel, progressReporter } from './notifications.ts';
import { complete } from './methods/completion.ts';
import { discover, initialize, ping, setLogLevel } from './methods/lifecycle.ts';
import { listPage } from './methods/lists.ts';
import { LISTEN_METHOD, listenAbilities, offersListen } from './listen.ts';
import { getPrompt } from './methods/prompts.ts';
import { readResource } from './methods/resources.ts';
import { callTool, toolEntriesFor } from './methods/tools.ts';
import {
  headerMismatch,
  type McpCall,
  type McpServerState,
  type MethodResult,
  invalidParams,
  isRecord,
  methodNotFound,
} from './server.ts';
import type { McpClientCapabilities, McpClientInfo, McpRequestContext } from './types.ts';
import type { LiveSession } from './session.ts';
import { type ClientAsker, clientRequests, refusingAsker, sessionAsker } from './session-requests.ts';
import { SESSION_METHODS } from './subscriptions.ts';

type Method = (call: McpCall) => MethodResult | Promise<MethodResult>;

/** Methods of both eras. */
const SHARED: Readonly<Record<string, Method>> = {
  'tools/list': (call) => listPage(call, 'tools', toolEntriesFor(call)),
  'tools/call': callTool,
  'resources/list': (call) => listPage(call, 'resources', call.server.catalog.resourceEntries),
  'resources/templates/list': (call) =>
    listPage(call, 'resourceTemplates', call.server.catalog.templateEntries),
  'resources/read': readResource,
  'prompts/list': (call) => listPage(call, 'prompts', call.server.catalog.promptEntries),
  'prompts/get': getPrompt,
};

const LEGACY: Readonly<Record<string, Method>> = {
  ...SHARED,
  initialize,
  ping,
  'logging/setLevel': setLogLevel,
};

const MODERN: Readonly<Record<string, Method>> = { ...SHARED, 'server/discover': discover };

/** Methods the 2026-07-28 revision removed (its changelog): answered 404 -32601 like any unknown one, with a reason. */
const REMOVED_IN_MODERN = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/**
 * The capability each feature method belongs to. 2026-07-28 has no handshake that would stop a
 * client from calling a feature the server never declared: the server itself answers 404 -32601 for
 * the methods of an undeclared capability (a tools-only server has no `prompts/list`), so what
 * `server/discover` declares and what the server answers agree. Legacy revisions keep the lists:
 * 2025-11-25 only says parties use what was negotiated, and answering an empty page there is what
 * clients of that era have always received.
 */
const CAPABILITY_OF: Readonly<Record<string, 'tools' | 'resources' | 'prompts'>> = {
  'tools/list': 'tools',
  'tools/call': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
};

/** Methods whose `Mcp-Name` header mirrors a body field, and which field. */
const NAMED: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** What the handler needs from the HTTP request besides the message. */
export interface RequestFrame {
  readonly request: Request;
  readonly server: McpServerState;
  readonly exposeInternalErrors: boolean;
  /** Where progress and log notifications go; absent in a batch (they are dropped). */
  readonly notifications?: NotificationChannel;
  /** The legacy session of the request (session.ts), when the handler keeps sessions. */
  readonly session?: LiveSession;
}

/** A JSON-RPC answer and the HTTP status it travels with. */
export interface Answer {
  readonly status: number;
  readonly body: JsonRpcResponse;
  /** A `subscriptions/listen` answer: this event stream instead of `body`. */
  readonly stream?: ReadableStream<Uint8Array>;
}

function methodOf(server: McpServerState, era: McpEra, method: string): Method | undefined {
  if (method === 'completion/complete') return server.catalog.completions ? complete : undefined;
  if (era === 'modern' && method === LISTEN_METHOD) {
    const abilities = listenAbilities(server.catalog);
    const hub = server.listen;
    return hub !== undefined && offersListen(abilities) ? (call) => hub.listen(call, abilities) : undefined;
  }
  if (era === 'legacy' && Object.hasOwn(SESSION_METHODS, method))
    return server.sessions === undefined ? undefined : SESSION_METHODS[method];
  if (era === 'modern' && Object.hasOwn(CAPABILITY_OF, method)) {
    const capability = CAPABILITY_OF[method] as string;
    if (!Object.hasOwn(serverCapabilities(server.catalog, server.options, era), capability)) return undefined;
  }
  return Object.hasOwn(era === 'modern' ? MODERN : LEGACY, method)
    ? (era === 'modern' ? MODERN : LEGACY)[method]
    : undefined;
}

/** The mirrored `Mcp-Method` and `Mcp-Name` headers, when present, must agree with the body (both eras). */
function checkMirrors(
  headers: Headers,
  method: string,
  params: Record<string, unknown>,
  required: boolean,
): void {
  const mcpMethod = headers.get('mcp-method');
  if (mcpMethod === null ? required : mcpMethod !== method) {
    throw headerMismatch(
      mcpMethod === null
        ? 'the Mcp-Method header is missing'
        : 'the Mcp-Method header does not match the method in the body',
    );
  }
  const field = NAMED[method];
  const value = field === undefined ? undefined : params[field];
  if (typeof value !== 'string') return;
  const mcpName = headers.get('mcp-name');
  if (mcpName === null ? required : !mirrorsValue(mcpName, value)) {
    throw headerMismatch(
      mcpName === null
        ? 'the Mcp-Name header is missing'
        : `the Mcp-Name header does not match params.${field}`,
    );
  }
}

/** The modern ladder, steps 5 to 9 of that ladder; returns the context the method runs with. */
function modernContext(
  frame: RequestFrame,
  message: JsonRpcRequest,
  params: Record<string, unknown>,
): McpRequestContext {
  const { request, server } = frame;
  const meta = requestMeta(params);
  const version = meta?.[MCP_META_KEYS.protocolVersion];
  const capabilities = meta?.[MCP_META_KEYS.clientCapabilities];
  if (meta === undefined || typeof version !== 'string' || !isRecord(capabilities)) {
    throw new McpError(
      MCP_ERROR_CODES.invalidParams,
      `Invalid params: a ${'2026-07-28'} request needs params._meta with "${MCP_META_KEYS.protocolVersion}" (a string) and "${MCP_META_KEYS.clientCapabilities}" (an object)`,
      { status: 400 },
    );
  }
  const clientInfo = meta[MCP_META_KEYS.clientInfo];
  if (clientInfo !== undefined && !isRecord(clientInfo)) {
    throw new McpError(
      MCP_ERROR_CODES.invalidParams,
      `Invalid params: "${MCP_META_KEYS.clientInfo}" must be an object`,
      { status: 400 },
    );
  }
  const logLevel = meta[MCP_META_KEYS.logLevel];
  if (logLevel !== undefined && (typeof logLevel !== 'string' || !MCP_LOG_LEVELS.includes(logLevel))) {
    throw new McpError(
      MCP_ERROR_CODES.invalidParams,
      `Invalid params: "${MCP_META_KEYS.logLevel}" must be one of ${MCP_LOG_LEVELS.join(', ')}`,
      { status: 400 },
    );
  }
  // Equality before support: a header that disagrees with the body is a mismatch even when one of
  // the two values is unsupported (the conformance suite checks this order).
  const header = request.headers.get('mcp-protocol-version');
  if (header !== version) {
    throw headerMismatch(
      header === null
        ? 'the MCP-Protocol-Version header is missing'
        : 'the MCP-Protocol-Version header does not match params._meta protocolVersion',
    );
  }
  // A legacy revision has no per-request `_meta`: it is negotiated by initialize, so claiming one
  // here is as unsupported as an unknown revision.
  if (!server.options.protocolVersions.includes(version) || !isModernProtocolVersion(version)) {
    throw unsupportedVersion(server, version);
  }
  checkMirrors(request.headers, message.method, params, true);
  return {
    request,
    protocolVersion: version,
    era: 'modern',
    id: message.id,
    method: message.method,
    clientCapabilities: capabilities as McpClientCapabilities,
    ...(clientInfo === undefined ? {} : { clientInfo: clientInfo as McpClientInfo }),
    ...(logLevel === undefined ? {} : { logLevel }),
    progress: progressReporter(frame.notifications, params),
    log: logReporter(frame.notifications, logLevel as string | undefined),
    ...clientRequests(
      refusingAsker('2026-07-28 has no server-to-client requests; answer inputRequired(...) instead'),
    ),
  };
}

/** -32022 with HTTP 400 and the versions served, both eras (2026-07-28 "Versioning"). */
export function unsupportedVersion(server: McpServerState, requested: string): McpError {
  return new McpError(
    MCP_ERROR_CODES.unsupportedProtocolVersion,
    `Unsupported protocol version: ${JSON.stringify(requested.slice(0, 40))}`,
    { status: 400, data: { supported: [...server.options.protocolVersions].reverse(), requested } },
  );
}

/**
 * The legacy rules: the revision is the `MCP-Protocol-Version` header (validated when present: an
 * unsupported one is a 400), else 2025-03-26 as the transport says to assume; `initialize` decides
 * its own revision. Mirrored headers are optional here, but checked when sent: a client cannot
 * label a request as one method (for `methodAuth`) and send another.
 */
function legacyContext(
  frame: RequestFrame,
  message: JsonRpcRequest,
  params: Record<string, unknown>,
): McpRequestContext {
  const { request, server } = frame;
  const header = request.headers.get('mcp-protocol-version');
  if (header !== null && !server.options.legacyVersions.includes(header))
    throw unsupportedVersion(server, header);
  checkMirrors(request.headers, message.method, params, false);
  const session = frame.session?.record;
  let version = header ?? session?.protocolVersion ?? MCP_DEFAULT_LEGACY_VERSION;
  if (message.method === 'initialize' && typeof params.protocolVersion === 'string') {
    version = server.options.legacyVersions.includes(params.protocolVersion)
      ? params.protocolVersion
      : (server.options.legacyVersions[0] ?? version);
  }
  return {
    request,
    protocolVersion: version,
    era: 'legacy',
    id: message.id,
    method: message.method,
    // Only a session remembers what initialize declared.
    clientCapabilities: session?.clientCapabilities ?? {},
    ...(session?.clientInfo === undefined ? {} : { clientInfo: session.clientInfo }),
    progress: progressReporter(frame.notifications, params),
    // Without a session nothing remembers logging/setLevel: messages from `info` up are sent.
    log: logReporter(frame.notifications, session?.logLevel ?? 'info'),
    ...clientRequests(askerOf(frame)),
  };
}

/** How a legacy request asks its client: through its session, or not at all. */
function askerOf(frame: RequestFrame): ClientAsker {
  const keeper = frame.server.sessions;
  if (keeper === undefined || frame.session === undefined) {
    return refusingAsker(
      'this tool server keeps no sessions (give createMcpHandler a sessions store to send requests to clients)',
    );
  }
  return sessionAsker(keeper, frame.session, frame.notifications);
}

/** A modern result: `resultType`, cache hints on the cacheable ones, the server's identity in `_meta`. */
function decorate(call: McpCall, outcome: MethodResult): Record<string, unknown> {
  if (call.ctx.era === 'legacy') return outcome.result;
  const { options } = call.server;
  const result: Record<string, unknown> = {
    resultType: outcome.inputRequired === true ? 'input_required' : 'complete',
    ...outcome.result,
  };
  if (outcome.cacheable === true && outcome.inputRequired !== true) {
    result.ttlMs = options.cache.ttlMs;
    result.cacheScope = options.cache.scope;
  }
  const meta = isRecord(outcome.result._meta) ? outcome.result._meta : {};
  result._meta = { ...meta, [MCP_META_KEYS.serverInfo]: options.serverInfo };
  return result;
}

function errorAnswer(id: JsonRpcId | null, error: McpError): Answer {
  return { status: error.status, body: jsonRpcError(id, error.code, error.message, error.data) };
}

/** The name of the tool, prompt or resource a failing call concerned, for the error log. */
function subjectOf(params: Record<string, unknown>): string | undefined {
  const subject = params.name ?? params.uri;
  return typeof subject === 'string' ? subject.slice(0, 200) : undefined;
}

/** Serves one request message. Every error answer echoes the request's id. */
export async function serveRequest(
  frame: RequestFrame,
  message: JsonRpcRequest,
  forcedEra?: McpEra,
): Promise<Answer> {
  const params = isRecord(message.params) ? message.params : {};
  const header = frame.request.headers.get('mcp-protocol-version');
  const era = forcedEra ?? requestEra(params, header);
  if (message.params !== undefined && !isRecord(message.params)) {
    // A modern request without an object cannot carry `_meta`: refused like a missing one (400).
    const status = era === 'modern' ? 400 : 200;
    return errorAnswer(
      message.id,
      new McpError(MCP_ERROR_CODES.invalidParams, 'Invalid params: MCP params must be an object', { status }),
    );
  }
  const { server } = frame;
  let ctx: McpRequestContext;
  try {
    ctx = era === 'modern' ? modernContext(frame, message, params) : legacyContext(frame, message, params);
  } catch (error) {
    return errorAnswer(message.id, error as McpError);
  }
  const method = methodOf(server, era, message.method);
  if (method === undefined) {
    const removed = era === 'modern' && REMOVED_IN_MODERN.has(message.method);
    const capability =
      era === 'modern' && Object.hasOwn(CAPABILITY_OF, message.method)
        ? CAPABILITY_OF[message.method]
        : undefined;
    const detail = removed
      ? `it is not part of protocol revision ${ctx.protocolVersion}`
      : capability !== undefined
        ? `this server does not declare the ${capability} capability`
        : era === 'modern' && message.method === LISTEN_METHOD
          ? 'this server has nothing to notify (no resources to subscribe to)'
          : undefined;
    return errorAnswer(message.id, methodNotFound(message.method, era === 'modern' ? 404 : 200, detail));
  }
  const call: McpCall = {
    server,
    params,
    ctx,
    exposeInternalErrors: frame.exposeInternalErrors,
    ...(era === 'legacy' && frame.session !== undefined && server.sessions !== undefined
      ? { session: frame.session, ask: sessionAsker(server.sessions, frame.session, frame.notifications) }
      : {}),
  };
  try {
    const outcome = await method(call);
    if (outcome.stream !== undefined)
      return { status: 200, body: jsonRpcResult(message.id, {}), stream: outcome.stream };
    return { status: 200, body: jsonRpcResult(message.id, decorate(call, outcome)) };
  } catch (error) {
    if (isMcpError(error)) return errorAnswer(message.id, error);
    server.options.onError(error, { method: message.method, name: subjectOf(params) });
    const label = message.method === 'tools/call' ? 'Tool execution failed' : 'Internal error';
    const detail = frame.exposeInternalErrors && error instanceof Error ? `: ${error.message}` : '';
    return errorAnswer(message.id, new McpError(MCP_ERROR_CODES.internalError, `${label}${detail}`));
  }
}
