/**
 * `a2aRoutes(path, handler, options?)`: the routes of an A2A 1.0 agent (https://charter.dev/docs/a2a,
 * routes options): GET (and OPTIONS) for the public card at `cardPath`, POST and OPTIONS for
 * JSON-RPC at `path`. Only POST carries the hooks; in a production App with secure defaults it must
 * be covered by an authenticating hook unless mounted `public` (the core's `auth-missing` boot guard).
 */
import {
  type AnyContext,
  type AnyRouteDefinition,
  type HookInput,
  hookList,
  isProductionEnv,
  REQUIRE_AUTH_META,
  withHookTraits,
} from '@charter/core';
import { jsonRpcRequestSchema, jsonRpcResponseSchema } from '@charter/json-rpc';
import { productionCardUrlProblem } from './card.ts';
import { A2A_CARD_PATH } from './constants.ts';
import type { A2aHandler } from './handler.ts';
import type { A2aHost } from './options.ts';

/** Options of `a2aRoutes`. */
export interface A2aRoutesOptions {
  /** Serve JSON-RPC without authentication even in production (opts out of the boot guard). Default false. */
  readonly public?: boolean;
  /** Hooks of the POST (JSON-RPC) route; the card and OPTIONS answer without them. */
  readonly hooks?: HookInput;
  /** Path of the card, or `false` to serve none. Default `/.well-known/agent-card.json`. */
  readonly cardPath?: string | false;
  /** OpenAPI tags of the routes. */
  readonly tags?: readonly string[];
}

function fail(message: string): never {
  throw new TypeError(`a2aRoutes: ${message}`);
}

function hostOf(ctx: AnyContext): A2aHost {
  return { request: ctx.request, state: ctx.state, production: ctx.route.production };
}

const JSON_RPC_REQUEST = jsonRpcRequestSchema(
  'An A2A 1.0 JSON-RPC request (SendMessage, GetTask, CancelTask, ListTasks...)',
  ['jsonrpc', 'id', 'method'],
);

const JSON_RPC_RESPONSE = jsonRpcResponseSchema(
  'A JSON-RPC 2.0 response: result or error (A2A errors carry an ErrorInfo data array)',
  ['jsonrpc', 'id'],
  { type: 'array' },
);

/**
 * The routes of an agent. Register them with `app.registerRoutes(a2aRoutes('/a2a', agent))`. An
 * insecure card url (not https, or loopback) throws here under NODE_ENV=production, makes a production
 * App refuse to boot (`insecure-in-production`), and, should it be served anyway, is answered with a
 * 500 problem.
 */
export function a2aRoutes(
  path: string,
  handler: A2aHandler,
  options: A2aRoutesOptions = {},
): AnyRouteDefinition[] {
  if (typeof path !== 'string' || !path.startsWith('/')) fail('path must start with "/"');
  if (typeof handler !== 'object' || handler === null || typeof handler.handleRpc !== 'function') {
    fail('handler must be what createA2aHandler returned');
  }
  const isPublic = options.public ?? false;
  if (typeof isPublic !== 'boolean') fail('option "public" must be a boolean');
  const cardPath = options.cardPath ?? A2A_CARD_PATH;
  if (cardPath !== false && (typeof cardPath !== 'string' || !cardPath.startsWith('/'))) {
    fail('option "cardPath" must be a path starting with "/" or false');
  }
  if (cardPath === path) fail('option "cardPath" must differ from the JSON-RPC path');
  const cardUrl = handler.agentCard.supportedInterfaces[0]?.url as string;
  const problem = productionCardUrlProblem(cardUrl);
  if (problem !== undefined && isProductionEnv())
    fail(`refusing to publish an agent in production: ${problem}`);
  // The handler checks Origin itself; the App's cross-origin guard must admit what it admits. The same
  // layer tells the boot guards about an insecure card url, so a production App refuses to start.
  const originPolicy = withHookTraits(
    {},
    {
      trustsOrigin: handler.allowsOrigin,
      ...(problem !== undefined && { insecureInProduction: [`the agent card url ${problem}`] }),
    },
  );
  const rpc = (ctx: AnyContext) => handler.handleRpc(ctx.request, hostOf(ctx));
  const card = (ctx: AnyContext) => handler.handleCard(ctx.request, hostOf(ctx));
  const describe = (description: string) => ({ description });
  const routes: Record<string, unknown>[] = [
    {
      path,
      method: 'POST',
      operationId: 'a2aRpc',
      tags: options.tags,
      summary: `Agent (A2A 1.0): JSON-RPC`,
      description: `${handler.agentCard.name}: ${handler.agentCard.description}`,
      acknowledgeNoResponseBodySchema: true,
      hooks: [originPolicy, ...hookList(options.hooks, 'a2aRoutes option "hooks"')],
      // The agent must be authenticated in production unless declared public (boot guard).
      meta: { [REQUIRE_AUTH_META]: !isPublic },
      request: { contentTypes: ['application/json', 'application/a2a+json'] },
      responses: {
        200: { description: 'A JSON-RPC response (errors included)', contentType: 'application/json' },
        202: describe('A JSON-RPC notification: not served'),
        401: describe('The task owner could not be resolved'),
        403: describe('The Origin is not allowed'),
        413: describe('The body is larger than the agent accepts'),
        415: describe('The body is not application/json'),
      },
      openapi: { jsonSchema: { body: JSON_RPC_REQUEST, responses: { 200: JSON_RPC_RESPONSE } } },
      handler: rpc,
    },
    {
      path,
      method: 'OPTIONS',
      operationId: 'a2aRpcOptions',
      tags: options.tags,
      summary: 'Agent (A2A 1.0): allowed methods and CORS preflight',
      acknowledgeNoResponseBodySchema: true,
      responses: { 204: describe('Allow lists POST, OPTIONS'), 403: describe('The Origin is not allowed') },
      handler: rpc,
    },
  ];
  if (cardPath !== false) {
    routes.push(
      {
        path: cardPath,
        method: 'GET',
        operationId: 'a2aAgentCard',
        tags: options.tags,
        summary: 'Agent (A2A 1.0): the public agent card',
        acknowledgeNoResponseBodySchema: true,
        responses: {
          200: { description: 'The agent card', contentType: 'application/json' },
          304: describe('The card has not changed (If-None-Match)'),
        },
        handler: card,
      },
      {
        path: cardPath,
        method: 'OPTIONS',
        operationId: 'a2aAgentCardOptions',
        tags: options.tags,
        summary: 'Agent (A2A 1.0): CORS preflight of the card',
        acknowledgeNoResponseBodySchema: true,
        responses: { 204: describe('Readable from any origin') },
        handler: card,
      },
    );
  }
  return routes as unknown as AnyRouteDefinition[];
}
