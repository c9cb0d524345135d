/**
 * `GET /.well-known/mcp/server-card.json` (site.md "Tool-server card"): a discovery document that
 * says what the tool server at `/mcp` is, where it is, how to reach it and which tools it has,
 * before a client connects. Server cards are a draft proposal; the card is advisory and the
 * endpoint's own `server/discover` wins where they differ. Everything the handler knows (protocol
 * versions, capabilities, instructions, each tool's input schema) is read from the handler itself,
 * by calling it in-process with `server/discover` and `tools/list`, so the card cannot drift from
 * what `tools/list` answers.
 */
import { type } from 'arktype';
import { type AnyRouteDefinition, entityTagOf, ifNoneMatchMatches } from '@charter/core';
import { MCP_META_KEYS, type McpHandler } from '@charter/mcp';
import { DOCS_MCP_PATH } from './server.ts';
import type { DocsTool } from './tools.ts';

/** Path of the card (site.md endpoint table). */
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

/**
 * The `$schema` of the card. The draft proposal names its JSON Schema by this URL for the card
 * format version 1.0 whose fields site.md's table lists (`serverInfo`, `transport`,
 * `capabilities`, `authentication`, `tools`). The later revision of the draft
 * (`schemas/v2/server-card.schema.json`) describes another shape (a reverse-DNS `name`, `remotes[]`)
 * that this card does not follow, so naming it would send validators to the wrong schema.
 */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json';

/** The card format version this document follows. */
export const SERVER_CARD_VERSION = '1.0';

/** `Cache-Control` of the card: it changes only when the site is deployed again. */
export const SERVER_CARD_CACHE_CONTROL = 'public, max-age=3600';

/** The card, as site.md's table describes it. */
export const ServerCard = type({
  $schema: 'string.url',
  version: 'string',
  protocolVersion: 'string',
  serverInfo: { name: 'string', 'title?': 'string', version: 'string' },
  'description?': 'string',
  'iconUrl?': 'string.url',
  'documentationUrl?': 'string.url',
  transport: { type: "'streamable-http'", endpoint: 'string.url' },
  capabilities: 'Record<string, unknown>',
  'authentication?': { required: 'boolean', schemes: 'string[]' },
  'instructions?': 'string',
  'tools?': type({
    name: 'string',
    'title?': 'string',
    'description?': 'string',
    inputSchema: 'Record<string, unknown>',
  }).array(),
});

/** The card's type. */
export type ServerCard = typeof ServerCard.infer;

/** Options of `buildServerCard` and `serverCardRoute`. */
export interface ServerCardOptions {
  /** The site's public origin (`https://charter.dev`). Required. */
  readonly origin: string;
  /** The tool server's handler (`docsMcpServer(...).handler`). Required. */
  readonly handler: McpHandler;
  /** The tools to list, in this order; each must be served by the handler. Default: every tool `tools/list` gives. */
  readonly tools?: readonly DocsTool[];
  /** The card's `description`. Default: the handler's `serverInfo.description`. */
  readonly description?: string;
  /** The card's `iconUrl`. Default: none. */
  readonly iconUrl?: string;
}

type Json = Record<string, unknown>;

/** Calls the handler in-process with a 2026-07-28 request and returns its result. */
async function callHandler(
  handler: McpHandler,
  version: string,
  method: string,
  params: Json,
): Promise<Json> {
  const request = new Request(`http://charter.local${DOCS_MCP_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': version,
      'mcp-method': method,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          [MCP_META_KEYS.protocolVersion]: version,
          [MCP_META_KEYS.clientCapabilities]: {},
          [MCP_META_KEYS.clientInfo]: { name: 'charter-server-card', version: '1.0.0' },
        },
      },
    }),
  });
  const response = await handler(request);
  const body = (await response.json()) as { result?: Json; error?: { message?: string } };
  if (body.result === undefined) {
    throw new Error(
      `serverCardRoute: ${method} failed in-process: ${body.error?.message ?? response.status}`,
    );
  }
  return body.result;
}

function bareOrigin(origin: unknown): string {
  if (typeof origin !== 'string' || !URL.canParse(origin)) {
    throw new TypeError(
      'serverCardRoute: option "origin" must be an absolute URL such as "https://charter.dev"',
    );
  }
  return new URL(origin).origin;
}

/** Builds the card by asking the handler (`server/discover`, then every page of `tools/list`). */
export async function buildServerCard(options: ServerCardOptions): Promise<ServerCard> {
  const origin = bareOrigin(options.origin);
  const { handler } = options;
  if (typeof handler !== 'function' || typeof handler.info !== 'object') {
    throw new TypeError('serverCardRoute: option "handler" must be the handler createMcpHandler returned');
  }
  // Versions sort as dates; the newest is the one a new client should speak.
  const protocolVersion = [...handler.info.protocolVersions].sort().at(-1) as string;
  const discovered = await callHandler(handler, protocolVersion, 'server/discover', {});
  const listed: Json[] = [];
  let cursor: string | undefined;
  do {
    const page = await callHandler(
      handler,
      protocolVersion,
      'tools/list',
      cursor === undefined ? {} : { cursor },
    );
    listed.push(...(page.tools as Json[]));
    cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
  } while (cursor !== undefined);
  const byName = new Map(listed.map((tool) => [tool.name as string, tool]));
  const chosen =
    options.tools === undefined
      ? listed
      : options.tools.map((tool) => {
          const entry = byName.get(tool.name);
          if (entry === undefined) {
            throw new TypeError(
              `serverCardRoute: tool ${JSON.stringify(tool.name)} is not served by the handler`,
            );
          }
          return entry;
        });
  const { serverInfo } = handler.info;
  const card: ServerCard = {
    $schema: SERVER_CARD_SCHEMA,
    version: SERVER_CARD_VERSION,
    protocolVersion,
    serverInfo: {
      name: serverInfo.name,
      ...(serverInfo.title === undefined ? {} : { title: serverInfo.title }),
      version: serverInfo.version,
    },
    ...((options.description ?? serverInfo.description)
      ? { description: options.description ?? serverInfo.description }
      : {}),
    ...(options.iconUrl === undefined ? {} : { iconUrl: options.iconUrl }),
    documentationUrl: `${origin}/docs/tool-server`,
    transport: { type: 'streamable-http', endpoint: `${origin}${DOCS_MCP_PATH}` },
    capabilities: discovered.capabilities as Json,
    // Tokens are optional (site.md, Authentication 1): a client may connect without one.
    authentication: { required: false, schemes: ['bearer'] },
    ...(typeof discovered.instructions === 'string' ? { instructions: discovered.instructions } : {}),
    tools: chosen.map((tool) => ({
      name: tool.name as string,
      ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema as Json,
    })),
  };
  const checked = ServerCard(card);
  if (checked instanceof type.errors)
    throw new Error(`serverCardRoute: the card is malformed: ${checked.summary}`);
  return card;
}

/**
 * The route of `GET /.well-known/mcp/server-card.json`. The card is built at the first request
 * (the handler is asked in-process) and kept: JSON with a strong ETag (RFC 9110 §8.8.3) over its
 * exact bytes, `Cache-Control: public, max-age=3600`, and 304 for a matching `If-None-Match`
 * (RFC 9110 §13.1.2).
 */
export function serverCardRoute(options: ServerCardOptions): AnyRouteDefinition {
  bareOrigin(options.origin);
  let built: Promise<{ bytes: Uint8Array; etag: string }> | undefined;
  const representation = () => {
    if (built === undefined) {
      const attempt = buildServerCard(options).then(async (card) => {
        const bytes = new TextEncoder().encode(JSON.stringify(card));
        return { bytes, etag: await entityTagOf(bytes) };
      });
      // A failure is not kept: the next request tries again.
      attempt.catch(() => {
        if (built === attempt) built = undefined;
      });
      built = attempt;
    }
    return built;
  };
  const cacheHeaders = {
    ETag: { description: 'Strong entity tag of the card (RFC 9110 §8.8.3)', schema: type('string') },
    'Cache-Control': { description: SERVER_CARD_CACHE_CONTROL, schema: type('string') },
  };
  return {
    method: 'GET',
    path: SERVER_CARD_PATH,
    operationId: 'getMcpServerCard',
    summary: 'Tool-server card: what /mcp is and which tools it offers',
    description:
      'A discovery document for the documentation tool server (a draft server-card format): its identity, transport endpoint, capabilities, authentication and tools with their input schemas.',
    tags: ['mcp', 'discovery'],
    // The handler answers the exact bytes its ETag was computed over; the card was checked against
    // the schema when it was built.
    acknowledgeNoResponseBodySchema: true,
    responses: {
      200: {
        description: 'The server card',
        contentType: 'application/json',
        body: ServerCard,
        headers: cacheHeaders,
      },
      304: { description: 'The card has not changed since the ETag in If-None-Match', headers: cacheHeaders },
    },
    handler: async (ctx) => {
      const { bytes, etag } = await representation();
      const headers = { etag, 'cache-control': SERVER_CARD_CACHE_CONTROL };
      const ifNoneMatch =
        (ctx.headers as Readonly<Record<string, string | undefined>>)['if-none-match'] ?? null;
      if (ifNoneMatch !== null && ifNoneMatchMatches(ifNoneMatch, etag)) {
        return new Response(null, { status: 304, headers });
      }
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: { ...headers, 'content-type': 'application/json' },
      });
    },
  };
}
