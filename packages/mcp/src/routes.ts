/**
 * `mcpRoutes(path, handler, options?)`: the GET, POST and OPTIONS routes of a tool-server endpoint
 * (https://charter.dev/docs/tool-server, routes options). The POST route carries the hooks; in
 * a production App with secure defaults the routes must be covered by an authenticating hook
 * unless mounted `public` (the `auth-missing` boot guard). `methodAuth` picks hooks by the
 * `Mcp-Method` header before the body is read; the handler refuses a request whose header and body
 * disagree, so a label cannot buy a cheaper hook set.
 */
import {
  type AnyContext,
  type AnyRouteDefinition,
  HOOK_PHASES,
  type HookInput,
  hookList,
  type HookPhase,
  type Hooks,
  hookTraitsOf,
  REQUIRE_AUTH_META,
  withHookTraits,
} from '@charter/core';
import { jsonRpcRequestSchema, jsonRpcResponseSchema } from '@charter/json-rpc';
import { MCP_DISCOVERY_METHODS } from './constants.ts';
import type { McpHandler } from './handler.ts';
import { ENDPOINT_METHODS, SESSION_ENDPOINT_METHODS } from './transport.ts';

/** Hooks chosen per JSON-RPC method (https://charter.dev/docs/tool-server). */
export interface McpMethodAuth {
  /** Hooks for every request that is not discovery, including requests without an `Mcp-Method` header. */
  readonly call: Hooks;
  /** Hooks for discovery requests, or `'public'` to let anyone discover the server. */
  readonly discovery: Hooks | 'public';
  /** Which methods count as discovery; a subset of `MCP_DISCOVERY_METHODS`, default all of them. */
  readonly discoveryMethods?: readonly string[];
}

/** Options of `mcpRoutes`. */
export interface McpRoutesOptions {
  /** Serve without authentication even in production (opts out of the boot guard). Default false. */
  readonly public?: boolean;
  /** Hooks of the POST transport (GET and OPTIONS answer without them). */
  readonly hooks?: HookInput;
  /** Hooks chosen by method; not combinable with `public` or with an authenticating hook in `hooks`. */
  readonly methodAuth?: McpMethodAuth;
  /** Prefix of the routes' operationIds (`<prefix>Post`, `<prefix>Get`, `<prefix>Options`). Default `mcp`. */
  readonly operationIdPrefix?: string;
  /** OpenAPI tags of the routes. */
  readonly tags?: readonly string[];
}

function fail(message: string): never {
  throw new TypeError(`mcpRoutes: ${message}`);
}

function assertHooks(where: string, value: unknown): asserts value is Hooks {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`${where} must be a Hooks object`);
}

/** The request a hook phase is about, from its arguments (see `Hooks` for each phase's signature). */
function requestOf(phase: HookPhase, args: readonly unknown[]): Request | undefined {
  switch (phase) {
    case 'onRequest':
      return args[0] as Request;
    case 'preBody':
    case 'beforeHandle':
    case 'afterHandle':
      return (args[0] as AnyContext).request;
    default:
      // onError, onSend, onResponse: (value, ctx | undefined, request)
      return args[2] as Request | undefined;
  }
}

/**
 * One Hooks object that runs `call` or `discovery` per request: discovery when the `Mcp-Method`
 * header names one of the discovery methods. Traits: it authenticates when `call` does and
 * discovery is either authenticated too or explicitly public.
 */
function methodAuthHooks(auth: McpMethodAuth): Hooks {
  assertHooks('methodAuth.call', auth.call);
  if (auth.discovery !== 'public') assertHooks('methodAuth.discovery', auth.discovery);
  const methods = auth.discoveryMethods ?? MCP_DISCOVERY_METHODS;
  if (!Array.isArray(methods)) fail('methodAuth.discoveryMethods must be an array');
  for (const method of methods) {
    if (!MCP_DISCOVERY_METHODS.includes(method)) {
      fail(
        `methodAuth.discoveryMethods contains ${JSON.stringify(method)}; discovery methods are ${MCP_DISCOVERY_METHODS.join(', ')}`,
      );
    }
  }
  const discoverySet = new Set(methods);
  const discovery: Hooks = auth.discovery === 'public' ? {} : auth.discovery;
  const pick = (request: Request | undefined): Hooks => {
    const method = request?.headers.get('mcp-method');
    return method !== null && method !== undefined && discoverySet.has(method) ? discovery : auth.call;
  };
  const out: Hooks = {};
  for (const phase of HOOK_PHASES) {
    if (auth.call[phase] === undefined && discovery[phase] === undefined) continue;
    // Each phase forwards its arguments unchanged to the chosen set's hook of the same phase.
    (out as Record<string, unknown>)[phase] = (...args: unknown[]) => {
      const hook = pick(requestOf(phase, args))[phase] as ((...a: unknown[]) => unknown) | undefined;
      return hook?.(...args);
    };
  }
  const callTraits = hookTraitsOf(auth.call) ?? {};
  const discoveryTraits = auth.discovery === 'public' ? undefined : (hookTraitsOf(auth.discovery) ?? {});
  return withHookTraits(out, {
    authenticates:
      callTraits.authenticates === true &&
      (discoveryTraits === undefined || discoveryTraits.authenticates === true),
  });
}

const JSON_RPC_MESSAGE = jsonRpcRequestSchema('A JSON-RPC 2.0 request or notification', ['jsonrpc']);

/**
 * The POST body: one message, or, when the handler serves batches, a batch of 1 to `maxBatchSize`
 * messages (2025-03-26 only), so the document states the cap a client must respect.
 */
function jsonRpcBody(maxBatchSize: number): Record<string, unknown> {
  if (maxBatchSize === 0) return JSON_RPC_MESSAGE;
  return {
    anyOf: [
      JSON_RPC_MESSAGE,
      {
        type: 'array',
        description: `A JSON-RPC batch (protocol revision 2025-03-26 only), at most ${maxBatchSize} messages`,
        items: JSON_RPC_MESSAGE,
        minItems: 1,
        maxItems: maxBatchSize,
      },
    ],
  };
}

const JSON_RPC_RESPONSE = jsonRpcResponseSchema('A JSON-RPC 2.0 response: result or error', ['jsonrpc'], {});

/** The 200 body: one response, or the array of a batch's responses (at most one per message). */
function jsonRpcAnswer(maxBatchSize: number): Record<string, unknown> {
  if (maxBatchSize === 0) return JSON_RPC_RESPONSE;
  return {
    anyOf: [
      JSON_RPC_RESPONSE,
      {
        type: 'array',
        description: 'The responses to the requests of a batch, in order',
        items: JSON_RPC_RESPONSE,
        minItems: 1,
        maxItems: maxBatchSize,
      },
    ],
  };
}

/**
 * The routes of a tool-server endpoint at `path`: POST (JSON-RPC, with the hooks), GET (405 with a
 * JSON hint: no stream is offered) and OPTIONS (204 with `Allow`), then DELETE, PUT and PATCH, which
 * the handler answers 405 too. Register them with `app.registerRoutes(mcpRoutes('/mcp', handler))`.
 *
 * Only POST and OPTIONS are served, so only they are in `Allow` and in the OpenAPI document. GET is
 * answered 405 as the Streamable HTTP transport prescribes for a server without a server-to-client
 * stream ("Listening for Messages from the Server"), and RFC 9110 §15.5.6 makes that 405's `Allow`
 * the methods the resource supports: GET cannot be listed there, so it is not documented as an
 * operation either. The other methods go to the handler as well, so that every 405 at the path
 * carries the same `Allow` instead of the router's list of registered routes.
 */
export function mcpRoutes(
  path: string,
  handler: McpHandler,
  options: McpRoutesOptions = {},
): AnyRouteDefinition[] {
  if (typeof path !== 'string' || !path.startsWith('/')) fail('path must start with "/"');
  if (typeof handler !== 'function') fail('handler must be the function createMcpHandler returned');
  const isPublic = options.public ?? false;
  if (typeof isPublic !== 'boolean') fail('option "public" must be a boolean');
  const hooks = hookList(options.hooks, 'mcpRoutes option "hooks"');
  if (options.methodAuth !== undefined) {
    if (isPublic)
      fail(
        'methodAuth cannot be combined with public: true (methodAuth already says which methods are public)',
      );
    if (hooks.some((h) => hookTraitsOf(h)?.authenticates === true)) {
      fail(
        'methodAuth cannot be combined with an authenticating hook in hooks: put authentication in methodAuth.call and methodAuth.discovery',
      );
    }
  }
  const prefix = options.operationIdPrefix ?? 'mcp';
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
    fail('option "operationIdPrefix" must be an identifier');
  }
  // The handler checks Origin itself (allowedOrigins, loopback); the App's cross-origin guard is
  // told to admit what the handler admits, or it would refuse those origins first.
  const originPolicy = withHookTraits({}, { trustsOrigin: handler.info.allowsOrigin });
  const methodHooks = options.methodAuth === undefined ? [] : [methodAuthHooks(options.methodAuth)];
  const postHooks = [originPolicy, ...hooks, ...methodHooks];
  const common = {
    path,
    tags: options.tags,
    acknowledgeNoResponseBodySchema: true,
    handler: (ctx: AnyContext) => handler(ctx.request, { production: ctx.route.production, ctx }),
  };
  const problem = (description: string) => ({ description });
  // With a sessions store (session.ts, stream.ts) the endpoint also answers these.
  const stateful = handler.info.sessions === 'stateful';
  const sessionResponses = stateful ? { 503: problem('The session store is unavailable (Retry-After)') } : {};
  // The session id travels in a header the handler reads itself (2025-11-25 Transports §Session
  // Management), so the document is told about it here rather than through a request schema.
  const sessionHeader = (required: boolean, lastEventId: boolean) => ({
    jsonSchema: {
      headers: {
        type: 'object',
        properties: {
          'mcp-session-id': {
            type: 'string',
            description: 'The session id the answer to initialize gave (legacy era)',
          },
          ...(lastEventId
            ? {
                'last-event-id': {
                  type: 'string',
                  description: 'Resume after this event: of the session stream, or of a POST stream',
                },
              }
            : {}),
        },
        ...(required ? { required: ['mcp-session-id'] } : {}),
      },
    },
  });
  const sessionRoutes = stateful
    ? [
        {
          ...common,
          method: 'GET',
          operationId: `${prefix}Get`,
          summary: "Tool server (MCP): the session's server-to-client event stream (legacy era)",
          responses: {
            200: { description: 'The event stream of the session', contentType: 'text/event-stream' },
            400: problem('No Mcp-Session-Id header'),
            403: problem('The Origin is not allowed'),
            404: problem('The Mcp-Session-Id is unknown or expired'),
            405: problem('2026-07-28 has no GET stream'),
            406: problem('Accept does not list text/event-stream'),
            409: problem('The session already has a stream open on this instance'),
            503: problem('The session store is unavailable (Retry-After)'),
          },
          openapi: sessionHeader(true, true),
        },
        {
          ...common,
          method: 'DELETE',
          operationId: `${prefix}Delete`,
          summary: 'Tool server (MCP): ends the session named by Mcp-Session-Id',
          responses: {
            204: { description: 'The session ended' },
            400: problem('No Mcp-Session-Id header'),
            403: problem('The Origin is not allowed'),
            404: problem('The Mcp-Session-Id is unknown or expired'),
            503: problem('The session store is unavailable (Retry-After)'),
          },
          openapi: sessionHeader(true, false),
        },
      ]
    : [];
  return [
    {
      ...common,
      method: 'POST',
      operationId: `${prefix}Post`,
      summary: `Tool server (MCP): JSON-RPC over Streamable HTTP`,
      description: `${handler.info.serverInfo.name}: protocol revisions ${handler.info.protocolVersions.join(', ')}`,
      hooks: postHooks,
      // The protocol route must be authenticated in production unless declared public (boot guard).
      // GET and OPTIONS only say which methods exist, so they carry no hooks and need none.
      meta: { [REQUIRE_AUTH_META]: !isPublic },
      request: { contentTypes: ['application/json'] },
      responses: {
        200: {
          description:
            'A JSON-RPC response (application/json), or text/event-stream: the notifications of the request (progress, log messages) then its response. A 2026-07-28 subscriptions/listen is always answered with text/event-stream, a stream that stays open: notifications/subscriptions/acknowledged first, then notifications/resources/updated for the URIs it opted in to, keepalive comment lines, and the listen result when the server ends it',
          contentType: 'application/json',
          alsoSentAs: { 'text/event-stream': {} },
          ...(stateful
            ? {
                headers: {
                  'Mcp-Session-Id': {
                    description: 'On the answer to initialize: the new session (legacy era)',
                  },
                },
              }
            : {}),
        },
        202: { description: 'A notification or a client response was accepted' },
        400: {
          description: 'A JSON-RPC error: malformed message, or a modern-era header or _meta problem',
          contentType: 'application/json',
        },
        403: problem('The Origin is not allowed'),
        404: {
          description: stateful
            ? 'Modern era: the method does not exist (-32601); legacy era: the Mcp-Session-Id is unknown or expired (a problem)'
            : 'Modern era: the method does not exist (-32601)',
          contentType: 'application/json',
          ...(stateful ? { alsoSentAs: { 'application/problem+json': {} } } : {}),
        },
        406: problem('A 2026-07-28 subscriptions/listen whose Accept does not list text/event-stream'),
        413: problem('The body is larger than the tool server accepts'),
        415: problem('The body is not application/json'),
        ...sessionResponses,
      },
      openapi: {
        jsonSchema: {
          // Required after initialize, which has none yet: so not required in the document.
          ...(stateful ? { headers: sessionHeader(false, false).jsonSchema.headers } : {}),
          body: jsonRpcBody(handler.info.maxBatchSize),
          responses: {
            200: jsonRpcAnswer(handler.info.maxBatchSize),
            400: JSON_RPC_RESPONSE,
            404: JSON_RPC_RESPONSE,
          },
        },
      },
    },
    ...sessionRoutes,
    ...(stateful
      ? []
      : [
          {
            ...common,
            method: 'GET',
            operationId: `${prefix}Get`,
            summary: 'Tool server (MCP): no server-to-client stream; answers 405 with a hint',
            responses: {
              403: problem('The Origin is not allowed'),
              405: problem('Use POST; the body carries a JSON hint'),
            },
            openapi: { exclude: true },
          },
        ]),
    {
      ...common,
      method: 'OPTIONS',
      operationId: `${prefix}Options`,
      summary: 'Tool server (MCP): allowed methods',
      responses: {
        204: { description: `Allow: ${stateful ? SESSION_ENDPOINT_METHODS : ENDPOINT_METHODS}` },
        403: problem('The Origin is not allowed'),
      },
    },
    ...((stateful ? ['PUT', 'PATCH'] : ['DELETE', 'PUT', 'PATCH']) as readonly string[]).map((method) => ({
      ...common,
      method,
      operationId: `${prefix}${method[0]}${method.slice(1).toLowerCase()}`,
      summary: `Tool server (MCP): ${method} is not served; answers 405`,
      responses: {
        403: problem('The Origin is not allowed'),
        405: problem('Use POST'),
      },
      openapi: { exclude: true },
    })),
  ] as AnyRouteDefinition[];
}
