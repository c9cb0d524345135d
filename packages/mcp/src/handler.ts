/**
 * `createMcpHandler`: one Streamable HTTP endpoint for both protocol eras (
 * https://charter.dev/docs/tool-server; MCP 2025-11-25 and 2026-07-28 "Transports"). The steps, in order:
 *
 *   1. Origin            403 problem unless absent, loopback or allowed (DNS rebinding)
 *   2. HTTP method       OPTIONS 204; GET 405 with a JSON hint (no stream offered); others 405
 *   3. Content-Type      415 problem unless application/json
 *   4. Body              413 problem past maxBodyBytes; -32700 for bad UTF-8 or JSON, too deep
 *   5. Batch             an array: served only under 2025-03-26, the one revision with batches,
 *                        and bounded (batch.ts: size, onBatch, answer bytes, one member per loop turn)
 *   6. Message           -32600 for a malformed one; notifications and client responses get 202
 *   7. Era and ladder    dispatch.ts: modern `_meta` and mirrored headers, or the legacy rules
 *   8. Method            the result, or a JSON-RPC error that echoes the request id
 *
 * Without a `sessions` store the handler keeps no session: it never issues `Mcp-Session-Id` and
 * ignores one it receives, as the transport allows (sessions are optional, 2025-03-26 §Session
 * Management), and `info.sessions` says so. With one, legacy requests live in sessions (session.ts),
 * GET opens a session's stream (stream.ts) and DELETE ends a session. A 2026-07-28
 * `subscriptions/listen` is answered with a long-lived event stream (listen.ts), store or not.
 */
import { type AnyContext, type HttpError, isHttpError } from '@charter/core';
import {
  classifyMessage,
  jsonRpcError,
  parseJsonRpcBody,
  hasJsonRpcMediaType,
  readJsonRpcBody,
  unsupportedJsonRpcMediaType,
} from '@charter/json-rpc';
import { serveBatch } from './batch.ts';
import { buildCatalog } from './catalog.ts';
import type { RequestFrame } from './dispatch.ts';
import { ListenHub, registerListenHub } from './listen.ts';
import { serveMessage } from './message.ts';
import { acceptsEventStream, eventStream, NotificationChannel } from './notifications.ts';
import { exposesInternalErrors, type McpHandlerOptions, resolveMcpOptions } from './options.ts';
import { createRequestStateSealer } from './request-state.ts';
import type { McpServerState } from './server.ts';
import { replyChannel, SessionKeeper, storeDown } from './session.ts';
import { resumablePostStream } from './session-post-stream.ts';
import { KEEPALIVE_MS, SessionStreams } from './stream.ts';
import {
  ENDPOINT_METHODS,
  forbiddenOrigin,
  isOriginAllowed,
  methodNotAllowed,
  Responder,
  SESSION_ENDPOINT_METHODS,
} from './transport.ts';

/** What the App tells the handler when it runs behind `mcpRoutes`. */
export interface McpHandlerContext {
  /** The App runs in production: internal error detail is hidden unless `exposeInternalErrors` says otherwise. */
  readonly production?: boolean;
  /** The App's context of the request (`onBatch` receives it, to charge a batch to the request's limits). */
  readonly ctx?: AnyContext;
}

/** A tool-server endpoint: a web-standard Request in, a Response out. */
export interface McpHandler {
  (request: Request, context?: McpHandlerContext): Promise<Response>;
  /** A description of the server for the GET hint and for route documentation. */
  readonly info: McpHandlerInfo;
  /**
   * Announces that the resource at `uri` changed: every session watching it (`resources/subscribe`)
   * gets `notifications/resources/updated` on its GET stream, and every 2026-07-28
   * `subscriptions/listen` stream that opted into it on its listen stream, on whichever instance
   * those streams are. Without a `sessions` store only the listen streams of this process are told.
   */
  notifyResourceUpdated(uri: string): Promise<void>;
}

/** What the endpoint tells a GET (and its route documentation). */
export interface McpHandlerInfo {
  readonly serverInfo: McpServerState['options']['serverInfo'];
  readonly protocolVersions: readonly string[];
  readonly tools: readonly string[];
  readonly resources: readonly string[];
  readonly prompts: readonly string[];
  /** Most messages in a JSON-RPC batch; 0 when batches are refused (or 2025-03-26 is not served). */
  readonly maxBatchSize: number;
  /** The handler's Origin policy (absent, loopback or listed), for the App's cross-origin guard. */
  readonly allowsOrigin: (origin: string) => boolean;
  /**
   * `stateful` when the handler keeps legacy-era sessions (a `sessions` store): `Mcp-Session-Id`,
   * the GET stream, DELETE, subscriptions, server-to-client requests. `stateless` otherwise.
   */
  readonly sessions: 'stateful' | 'stateless';
}

/**
 * Creates the endpoint. Options are checked and every tool, resource, template and prompt compiled
 * now, so a mistake fails at startup with its name, not on the first call.
 */
export function createMcpHandler(options: McpHandlerOptions): McpHandler {
  const resolved = resolveMcpOptions(options);
  const keeper =
    resolved.sessions === undefined
      ? undefined
      : new SessionKeeper(resolved.sessions, resolved.requestStatePrincipal);
  const listen = new ListenHub(resolved.listen, keeper?.store, resolved.serverInfo);
  const server: McpServerState = Object.freeze({
    options: resolved,
    catalog: buildCatalog(resolved),
    sealer: createRequestStateSealer({ key: resolved.requestStateKey, ttlMs: resolved.requestStateTtlMs }),
    ...(keeper === undefined ? {} : { sessions: keeper }),
    listen,
  });
  const streams = keeper === undefined ? undefined : new SessionStreams(keeper);
  const allow = keeper === undefined ? ENDPOINT_METHODS : SESSION_ENDPOINT_METHODS;
  const responder = new Responder(resolved.headers);
  const info: McpHandlerInfo = Object.freeze({
    serverInfo: resolved.serverInfo,
    protocolVersions: resolved.protocolVersions,
    tools: Object.freeze([...server.catalog.tools.keys()]),
    resources: Object.freeze([...server.catalog.resources.keys()]),
    prompts: Object.freeze([...server.catalog.prompts.keys()]),
    maxBatchSize: resolved.protocolVersions.includes('2025-03-26') ? resolved.maxBatchSize : 0,
    allowsOrigin: (origin: string) => isOriginAllowed(origin, resolved.allowedOrigins),
    sessions: keeper === undefined ? 'stateless' : 'stateful',
  });

  const handle = async (request: Request, context?: McpHandlerContext): Promise<Response> => {
    // 1. Origin
    const origin = request.headers.get('origin');
    if (!isOriginAllowed(origin, resolved.allowedOrigins))
      return responder.problem(forbiddenOrigin(origin as string));
    // 2. HTTP method
    if (request.method === 'OPTIONS') return responder.options(allow);
    if (request.method === 'GET' && streams !== undefined) {
      const outcome = await streams.open(request);
      if (outcome !== undefined)
        return 'error' in outcome ? responder.problem(outcome.error) : responder.eventStream(outcome.body);
    }
    if (request.method === 'DELETE' && keeper !== undefined) {
      const refused = await keeper.end(request);
      return refused === undefined ? responder.noContent() : responder.problem(refused);
    }
    if (request.method !== 'POST') {
      const hint =
        request.method === 'GET'
          ? // No tool names: GET runs without the POST route's hooks, so it reveals no more than the protocol.
            {
              transport: 'streamable-http',
              protocolVersions: info.protocolVersions,
              hint: 'POST JSON-RPC 2.0 messages to this URL',
            }
          : undefined;
      return responder.problem(methodNotAllowed(request.method, allow), hint);
    }
    // 3. Content-Type
    const contentType = request.headers.get('content-type');
    if (!hasJsonRpcMediaType(contentType, ['application/json']))
      return responder.problem(unsupportedJsonRpcMediaType(contentType));
    // 4. Body
    const bytes = await readJsonRpcBody(request, resolved.maxBodyBytes);
    if (isHttpError(bytes)) return responder.problem(bytes as HttpError);
    const parsed = parseJsonRpcBody(bytes as Uint8Array);
    if (!parsed.ok) return responder.json(jsonRpcError(null, parsed.error.code, parsed.error.message), 400);
    // A 2026-07-28 subscriptions/listen is only ever answered with an event stream (listen.ts).
    const notAcceptable = listen.refusal(request, parsed.value);
    if (notAcceptable !== undefined) return responder.problem(notAcceptable);
    // Sessions (session.ts): which messages need one, and the session they name.
    const gate = keeper === undefined ? undefined : await keeper.gate(request, parsed.value);
    if (gate?.kind === 'refused') return responder.problem(gate.error);
    const session = gate?.kind === 'session' ? gate.session : undefined;
    const frame: RequestFrame = {
      request,
      server,
      exposeInternalErrors: exposesInternalErrors(resolved, context?.production),
      ...(session === undefined ? {} : { session }),
    };
    if (session !== undefined && keeper !== undefined && !Array.isArray(parsed.value)) {
      const classified = classifyMessage(parsed.value);
      // A client's answer to a server-to-client request: to the instance waiting for it.
      if (classified.kind === 'response' && typeof classified.id === 'string') {
        try {
          await keeper.store.publish(replyChannel(session.id, classified.id), JSON.stringify(parsed.value));
        } catch {
          return responder.problem(storeDown());
        }
        return responder.accepted();
      }
    }
    // 5. Batch
    if (Array.isArray(parsed.value)) return serveBatch(frame, responder, parsed.value, context?.ctx);
    // 6-8. Message, era and ladder, method; notifications the handler sends before its result turn
    // the answer into an event stream.
    const notifications = new NotificationChannel(acceptsEventStream(request));
    const pending = serveMessage({ ...frame, notifications }, classifyMessage(parsed.value), false);
    const first = notifications.enabled
      ? await Promise.race([
          pending.then((answer) => ({ answer })),
          notifications.first().then(() => undefined),
        ])
      : { answer: await pending };
    if (first === undefined) {
      const answered = pending.then((answer) => answer?.body);
      // Inside a session whose store records events, the POST stream is resumable (session-post-stream.ts).
      const body =
        session !== undefined && keeper?.store.appendEvent !== undefined
          ? resumablePostStream(
              keeper.store,
              session.id,
              notifications,
              answered,
              request.signal,
              KEEPALIVE_MS,
            )
          : eventStream(
              notifications,
              answered,
              request.signal,
              session === undefined ? undefined : KEEPALIVE_MS,
            );
      return responder.eventStream(body);
    }
    notifications.close();
    const { answer } = first;
    if (answer === undefined) return responder.accepted();
    if (answer.stream !== undefined) return responder.eventStream(answer.stream);
    const response = responder.json(answer.body, answer.status);
    if (gate?.kind === 'initialize' && 'result' in answer.body) {
      const result = answer.body.result as { protocolVersion?: unknown };
      const minted = await (keeper as SessionKeeper).mint(
        request,
        (parsed.value as { params?: unknown }).params,
        String(result.protocolVersion),
      );
      if (typeof minted !== 'string') return responder.problem(minted);
      response.headers.set('mcp-session-id', minted);
    }
    return response;
  };
  const notifyResourceUpdated = async (uri: string): Promise<void> => {
    if (typeof uri !== 'string' || uri.length === 0) {
      throw new TypeError('notifyResourceUpdated needs the resource URI (a non-empty string)');
    }
    // With a store the announcement travels through its pub/sub, to GET and listen streams of every
    // instance; without one it can only reach this process's listen streams.
    if (streams === undefined) listen.deliver(uri);
    else await streams.notifyResourceUpdated(uri);
  };
  const handler = Object.assign(handle, { info, notifyResourceUpdated });
  registerListenHub(handler, listen);
  return handler;
}
