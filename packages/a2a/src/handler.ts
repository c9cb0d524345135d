/**
 * `createA2aHandler`: the agent card and the JSON-RPC endpoint of an A2A 1.0 agent (
 * https://charter.dev/docs/a2a). `handleRpc` runs these steps in order:
 *
 *   1. Origin         403 problem for a browser Origin not in allowedOrigins
 *   2. HTTP method    OPTIONS 204 (CORS preflight for allowed origins); anything but POST 405
 *   3. Caller         with a task store, taskOwner(host) must resolve, else 401 problem
 *   4. Content-Type   415 problem unless application/json (or application/a2a+json)
 *   5. Body           413 problem past maxBodyBytes; -32700 (id null) for bad UTF-8 or JSON
 *   6. Message        -32600 for a batch or a malformed request; a notification gets 202, unserved
 *   7. JSON-RPC       rpc.ts: version (-32009), method, extensions, the method itself
 *
 * Every JSON-RPC answer, error or not, is HTTP 200 (see `Responder.json`).
 */
import { type HttpError, isHttpError } from '@charter/core';
import {
  classifyMessage,
  hasJsonRpcMediaType,
  JSON_RPC_ERROR_CODES,
  jsonRpcError,
  parseJsonRpcBody,
  readJsonRpcBody,
  unsupportedJsonRpcMediaType,
} from '@charter/json-rpc';

/**
 * The body media types the agent accepts: `application/json` (the JSON-RPC binding) and
 * `application/a2a+json` (what A2A 1.0.1 prefers on HTTP).
 */
const A2A_JSON_TYPES: readonly string[] = ['application/json', 'application/a2a+json'];
import { cardEtag, ifNoneMatchHits, productionCardUrlProblem } from './card.ts';
import type { RpcFrame } from './frame.ts';
import {
  forbiddenOrigin,
  insecureCard,
  methodNotAllowed,
  ownerUnresolved,
  Responder,
  rpcCors,
  rpcPreflightHeaders,
} from './http.ts';
import {
  type A2aHandlerOptions,
  type A2aHost,
  exposesInternalErrors,
  type ResolvedA2aHandlerOptions,
  resolveA2aHandlerOptions,
} from './options.ts';
import { declaredExtensions, serveRpc } from './rpc.ts';
import type { A2aAgentCard } from './types.ts';

/** An A2A agent: its card and its two endpoints, web-standard Request in, Response out. */
export interface A2aHandler {
  /** The published A2A 1.0 card (frozen). */
  readonly agentCard: A2aAgentCard;
  /** Serves the card: GET/HEAD with caching and open CORS, OPTIONS preflight, 405 otherwise. */
  handleCard(request: Request, host?: A2aHost): Promise<Response>;
  /** Serves the JSON-RPC endpoint for the caller `host` (through `a2aRoutes`: the route context). */
  handleRpc(request: Request, host?: A2aHost): Promise<Response>;
  /** The handler's Origin policy, for the App's cross-origin guard. */
  readonly allowsOrigin: (origin: string) => boolean;
  /** Resolved options (for `a2aRoutes`). */
  readonly options: ResolvedA2aHandlerOptions;
}

/** Card headers: public cache with revalidation (RFC 9111 §5.2.2.9), readable from any origin (public discovery). */
function cardHeaders(responder: Responder, etag: string, maxAge: number): Headers {
  return responder.headers({
    'cache-control': `public, max-age=${maxAge}`,
    etag,
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'ETag',
  });
}

async function resolveOwner(
  options: ResolvedA2aHandlerOptions,
  host: A2aHost,
): Promise<string | undefined | null> {
  if (options.taskStore === undefined || options.taskOwner === undefined) return undefined;
  const owner = await options.taskOwner(host);
  return typeof owner === 'string' && owner !== '' ? owner : null;
}

/**
 * Creates an agent. Options and the card are validated now, so a mistake fails at startup with the
 * option's name.
 */
export function createA2aHandler(options: A2aHandlerOptions): A2aHandler {
  const resolved = resolveA2aHandlerOptions(options);
  const responder = new Responder(resolved.headers);
  const cardJson = JSON.stringify(resolved.card);
  let etag: Promise<string> | undefined;
  const running = new Map<string, AbortController>();
  const allowsOrigin = (origin: string): boolean => resolved.allowedOrigins.has(origin);
  const insecureUrl = productionCardUrlProblem(resolved.card.supportedInterfaces[0]?.url as string);
  // Fails closed: a production App never publishes or serves an agent behind a plain-http card url.
  const misconfigured = (host: A2aHost | undefined): HttpError | undefined =>
    host?.production === true && insecureUrl !== undefined ? insecureCard(insecureUrl) : undefined;

  const handleCard = async (request: Request, host?: A2aHost): Promise<Response> => {
    const refusal = misconfigured(host);
    if (refusal !== undefined) return responder.problem(refusal);
    if (request.method === 'OPTIONS') {
      const headers = responder.headers({
        allow: 'GET, HEAD, OPTIONS',
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD',
        'access-control-allow-headers': 'A2A-Version, A2A-Extensions, If-None-Match',
        'access-control-max-age': '600',
      });
      return new Response(null, { status: 204, headers });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return responder.problem(methodNotAllowed(request.method, ['GET', 'HEAD', 'OPTIONS']));
    }
    etag ??= cardEtag(cardJson);
    const tag = await etag;
    const headers = cardHeaders(responder, tag, resolved.cardMaxAgeSeconds);
    // RFC 9110 §13.1.2: a matching If-None-Match on GET/HEAD answers 304 with the validators.
    if (ifNoneMatchHits(request.headers.get('if-none-match'), tag)) {
      return new Response(null, { status: 304, headers });
    }
    headers.set('content-type', 'application/json');
    return new Response(request.method === 'HEAD' ? null : cardJson, { status: 200, headers });
  };

  const handleRpc = async (request: Request, host: A2aHost = {}): Promise<Response> => {
    const refusal = misconfigured(host);
    if (refusal !== undefined) return responder.problem(refusal);
    // 1. Origin: a browser page may call only from a listed origin (no credentials are implied).
    const origin = request.headers.get('origin');
    if (origin !== null && !allowsOrigin(origin)) return responder.problem(forbiddenOrigin(origin));
    const cors = rpcCors(origin);
    // 2. HTTP method
    if (request.method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: responder.headers(rpcPreflightHeaders(origin)) });
    }
    if (request.method !== 'POST')
      return responder.problem(methodNotAllowed(request.method, ['POST', 'OPTIONS']), cors);
    // 3. Caller: resolved before the body is read, so an unknown caller costs no upload.
    const owner = await resolveOwner(resolved, { ...host, request: host.request ?? request });
    if (owner === null) return responder.problem(ownerUnresolved(), cors);
    // 4. Content-Type
    const contentType = request.headers.get('content-type');
    if (!hasJsonRpcMediaType(contentType, A2A_JSON_TYPES))
      return responder.problem(unsupportedJsonRpcMediaType(contentType), cors);
    // 5. Body
    const bytes = await readJsonRpcBody(request, resolved.maxBodyBytes);
    if (isHttpError(bytes)) return responder.problem(bytes as HttpError, cors);
    const parsed = parseJsonRpcBody(bytes as Uint8Array);
    if (!parsed.ok) return responder.json(jsonRpcError(null, parsed.error.code, parsed.error.message), cors);
    // 6. Message: A2A defines no batches and no notifications.
    if (Array.isArray(parsed.value)) {
      return responder.json(
        jsonRpcError(
          null,
          JSON_RPC_ERROR_CODES.invalidRequest,
          'Invalid Request: A2A does not use JSON-RPC batches',
        ),
        cors,
      );
    }
    const classified = classifyMessage(parsed.value);
    switch (classified.kind) {
      case 'invalid':
        return responder.json(
          jsonRpcError(classified.id, classified.error.code, classified.error.message),
          cors,
        );
      case 'response':
        return responder.json(
          jsonRpcError(
            classified.id,
            JSON_RPC_ERROR_CODES.invalidRequest,
            'Invalid Request: "method" is missing',
          ),
          cors,
        );
      case 'notification':
        // JSON-RPC 2.0 §4.1: never answered. Not served either: its result could not reach anyone.
        return responder.accepted(cors);
    }
    // 7. JSON-RPC
    const frame: RpcFrame = {
      options: resolved,
      host,
      owner,
      extensions: declaredExtensions(request),
      signal: request.signal,
      exposeInternalErrors: exposesInternalErrors(resolved, host.production),
      running,
    };
    return responder.json(await serveRpc(frame, request, classified.message), cors);
  };

  return Object.freeze({ agentCard: resolved.card, handleCard, handleRpc, allowsOrigin, options: resolved });
}
