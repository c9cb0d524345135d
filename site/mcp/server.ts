/**
 * The site's documentation tool server at `/mcp` (site.md: POST /mcp, rule 2, Authentication 1
 * and 4): `createMcpHandler` over the three read-only tools, mounted with `mcpRoutes`, the POST
 * route behind the site's optional-bearer hook and declaring `auth: { scheme: 'bearer', scopes:
 * ['docs:read'], optional: true }` (usable without credentials; credentials that are sent must be
 * valid and carry `docs:read`). Transport refusals the handler answers as problem documents (403,
 * 405, 413, 415) gain the site's `code` and `hint` members.
 */
import { SiteProblem } from '../problems.ts';
import { type } from 'arktype';
import {
  type AnyContext,
  type AnyRouteDefinition,
  type Hooks,
  isHttpError,
  problemResponse as renderProblem,
} from '@charter/core';
import { chargeBatchMembers, createMcpHandler, type McpHandler, mcpRoutes } from '@charter/mcp';
import charterPackage from '../../packages/charter/package.json' with { type: 'json' };
import type { ContentSite } from '../content/types.ts';
import { createSearchIndex, type SearchIndex } from './search.ts';
import { createDocsTools, type DocsTool } from './tools.ts';

/** Path of the endpoint. */
export const DOCS_MCP_PATH = '/mcp';

/**
 * Largest request body the endpoint reads (site.md leaves it open): 64 KiB. A call to any of the
 * three tools is well under 1 KiB even with the 2026-07-28 `_meta`; the cap keeps a hostile body
 * from costing more than a glance.
 */
export const DOCS_MCP_MAX_BODY_BYTES = 65_536;

/**
 * Most messages in one JSON-RPC batch (2025-03-26 clients only; no official client sends them).
 * Each member is also counted against the quota (`batchLimit`), so the cap bounds one request's
 * work, not the client's.
 */
export const DOCS_MCP_MAX_BATCH_SIZE = 16;

/**
 * Most bytes of a batch's answers: 256 KiB, a handful of the longest pages. Past it members are not
 * run (-32000): a 7 KB batch of `get_doc` calls once answered 1.69 MB (issue 17).
 */
export const DOCS_MCP_MAX_BATCH_RESPONSE_BYTES = 262_144;

/** What the server tells an agent in `initialize` and `server/discover` (and in its card). */
export const DOCS_MCP_INSTRUCTIONS = [
  'This server answers questions about Charter, a contract-first TypeScript web framework, from its documentation.',
  'Start with search_docs { query }: it ranks pages by the words given and shows a snippet of each.',
  'Then read a page with get_doc { path }, using a path from the results ("docs/jwt"); it returns the page as Markdown.',
  'list_docs lists every page in reading order (pass nextCursor as cursor for more).',
  'All tools are read-only. No credentials are needed; a bearer token with the docs:read scope is accepted.',
].join(' ');

/** Options of `docsMcpServer`. */
export interface DocsMcpServerOptions {
  /** The documentation, loaded (`buildContent`). Required. */
  readonly content: ContentSite;
  /** The site's public origin (`SITE_ORIGIN`, e.g. `https://charter.dev`): the one browser origin admitted, and the base of result URLs. Required. */
  readonly origin: string;
  /** The site's optional-bearer hook set, run on the POST route. Required. */
  readonly auth: Hooks;
  /** `serverInfo.version`. Default: the version of the `charter` package. */
  readonly version?: string;
  /** The search index. Default: built from `content.pages`. */
  readonly index?: SearchIndex;
  /**
   * The rate limit that guards the POST route (the hooks of `rateLimit(...)`): every member of a
   * batch is counted against it, not only the request (`chargeBatchMembers`). Default: none, and
   * a batch costs one count wherever the route's limit is.
   */
  readonly batchLimit?: Hooks;
}

/** What `docsMcpServer` builds. */
export interface DocsMcpServer {
  /** The bare endpoint (a Request in, a Response out). */
  readonly handler: McpHandler;
  /** POST, GET and OPTIONS on `/mcp`, for `app.registerRoutes`. */
  readonly routes: AnyRouteDefinition[];
  /** The three tools, in listing order. */
  readonly tools: readonly DocsTool[];
  /** The search index the tools use. */
  readonly index: SearchIndex;
}

interface ResolvedDocsMcpServerOptions {
  readonly content: ContentSite;
  readonly origin: string;
  readonly auth: Hooks;
  readonly version: string;
  readonly index: SearchIndex | undefined;
  readonly batchLimit: Hooks | undefined;
}

function fail(option: string, message: string): never {
  throw new TypeError(`docsMcpServer: option "${option}" ${message}`);
}

/** Validates the options (TypeError naming the option) and fills the defaults. */
export function resolveDocsMcpServerOptions(options: DocsMcpServerOptions): ResolvedDocsMcpServerOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      'docsMcpServer needs options: { content, origin, auth, version?, index?, batchLimit? }',
    );
  }
  const { content, origin, auth, version, index, batchLimit } = options;
  if (typeof content !== 'object' || content === null || !Array.isArray(content.pages)) {
    fail('content', 'must be a ContentSite (see buildContent)');
  }
  if (typeof origin !== 'string' || !URL.canParse(origin)) {
    fail('origin', 'must be an absolute URL such as "https://charter.dev"');
  }
  const url = new URL(origin);
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    fail(
      'origin',
      `must be a bare http(s) origin such as "https://charter.dev", got ${JSON.stringify(origin)}`,
    );
  }
  if (typeof auth !== 'object' || auth === null || Array.isArray(auth))
    fail('auth', 'must be a Hooks object');
  const resolvedVersion = version ?? charterPackage.version;
  if (typeof resolvedVersion !== 'string' || resolvedVersion.length === 0) {
    fail('version', 'must be a non-empty string');
  }
  if (
    index !== undefined &&
    (typeof index !== 'object' || index === null || typeof index.search !== 'function')
  ) {
    fail('index', 'must be a SearchIndex (createSearchIndex)');
  }
  if (
    batchLimit !== undefined &&
    (typeof batchLimit !== 'object' ||
      batchLimit === null ||
      (batchLimit.onRequest ?? batchLimit.preBody ?? batchLimit.beforeHandle) === undefined)
  ) {
    fail('batchLimit', 'must be the hooks of rateLimit(...) (an onRequest, preBody or beforeHandle hook)');
  }
  return Object.freeze({
    content,
    origin: url.origin,
    auth,
    version: resolvedVersion,
    index,
    batchLimit,
  });
}

/** The 405 answer of GET /mcp: a problem that also says how to talk to the endpoint. */
export const McpGetHint = SiteProblem.and({
  transport: "'streamable-http'",
  protocolVersions: 'string[]',
});

/** `code` and `hint` for the problems the handler answers itself (below JSON-RPC). */
const PROBLEM_MEMBERS: Readonly<Record<number, { readonly code: string; readonly hint: string }>> = {
  400: { code: 'bad_request', hint: 'Send one JSON-RPC 2.0 message as a UTF-8 JSON body.' },
  403: {
    code: 'origin_not_allowed',
    hint: 'Call the tool server from a client that sends no Origin header, or from pages of this site.',
  },
  405: { code: 'method_not_allowed', hint: 'POST JSON-RPC 2.0 messages to this URL.' },
  413: {
    code: 'payload_too_large',
    hint: `Send a smaller JSON-RPC message: at most ${DOCS_MCP_MAX_BODY_BYTES} bytes.`,
  },
  415: {
    code: 'unsupported_media_type',
    hint: 'Send the JSON-RPC message with Content-Type: application/json.',
  },
};

/**
 * Adds `code` and `hint` to a problem document the handler answered, keeping any it already has
 * (the GET 405 brings its own hint). JSON-RPC answers and successes pass through untouched.
 */
export async function withSiteProblemMembers(response: Response): Promise<Response> {
  const members = PROBLEM_MEMBERS[response.status];
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status === 400 && contentType.startsWith('application/json'))
    return asInvalidRequestProblem(response);
  if (members === undefined || !contentType.startsWith('application/problem+json')) return response;
  const problem = (await response.json()) as Record<string, unknown>;
  const body = JSON.stringify({
    ...problem,
    code: problem.code ?? members.code,
    hint: problem.hint ?? members.hint,
  });
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** The JSON-RPC codes of a body that is not a usable message: not JSON, or not a request object. */
const UNREADABLE_BODY_CODES = new Set([-32700, -32600]);

/**
 * site.md answers an invalid request to `/mcp` with a 400 problem. The handler's answer to a body
 * that is not a JSON-RPC message is a JSON-RPC error envelope (id null); it becomes a problem
 * document that keeps the envelope's members (`jsonrpc`, `id`, `error`), so a JSON-RPC client reads
 * the same error and a problem reader gets `code` and `hint`. Other 400s (the modern era's header
 * checks, version negotiation) stay JSON-RPC answers: clients act on them.
 */
async function asInvalidRequestProblem(response: Response): Promise<Response> {
  const text = await response.text();
  const rebuild = (body: string, type: string) => {
    const headers = new Headers(response.headers);
    headers.set('content-type', type);
    headers.delete('content-length');
    return new Response(body, { status: 400, statusText: response.statusText, headers });
  };
  let envelope: { id?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = undefined;
  }
  const error = envelope?.error;
  if (envelope?.id !== null || typeof error?.code !== 'number' || !UNREADABLE_BODY_CODES.has(error.code)) {
    return rebuild(text, response.headers.get('content-type') ?? 'application/json');
  }
  return rebuild(
    JSON.stringify({
      type: 'https://charter.dev/errors/bad-request',
      title: 'Bad Request',
      status: 400,
      detail: typeof error.message === 'string' ? error.message : 'The body is not a JSON-RPC 2.0 message',
      code: 'invalid_jsonrpc',
      hint: 'Send one JSON-RPC 2.0 request object as a UTF-8 JSON body, with Content-Type: application/json.',
      ...envelope,
    }),
    'application/problem+json',
  );
}

const problemResponse = (description: string) => ({
  description,
  contentType: 'application/problem+json',
  body: SiteProblem,
});

/**
 * JSON-RPC 2.0 §5.1 leaves -32000 to -32099 to the server; MCP defines no rate-limit code, so a
 * refused request reads as this "server error" to a JSON-RPC client.
 */
const RATE_LIMITED_RPC_CODE = -32000;

/**
 * The 429 of the POST route, as site.md requires it (a problem document, `Retry-After`, the RateLimit
 * fields), plus the JSON-RPC error envelope as extension members (RFC 9457 §3.2), as the 400s of this
 * route carry: `id` is null because the quota is spent before the body is read (JSON-RPC 2.0 §5).
 * A client that reads JSON-RPC error bodies sees a rate limit; the official v2 client's version probe
 * reads it as "not modern" all the same (see the site APIs guide).
 */
const rateLimitedEnvelope: Hooks = {
  onError(error) {
    if (!isHttpError(error) || error.status !== 429) return undefined;
    // A 429 is no internal error: nothing is redacted from it in any mode.
    const problem = error.toProblem(false);
    const retryAfter = Number(error.headers?.get('retry-after'));
    return renderProblem(
      {
        ...problem,
        jsonrpc: '2.0',
        id: null,
        error: {
          code: RATE_LIMITED_RPC_CODE,
          message: Number.isFinite(retryAfter)
            ? `Rate limited: retry after ${retryAfter} seconds`
            : 'Rate limited: retry later',
          ...(Number.isFinite(retryAfter) ? { data: { retryAfter } } : {}),
        },
      },
      error.headers,
    );
  },
};

/** The POST route: optional bearer auth, and every answer site.md lists for it declared. */
function extendPost(route: AnyRouteDefinition): AnyRouteDefinition {
  return {
    ...route,
    hooks: [...(route.hooks === undefined ? [] : [route.hooks].flat()), rateLimitedEnvelope],
    auth: { scheme: 'bearer', scopes: ['docs:read'], optional: true },
    handler: async (ctx: AnyContext) => withSiteProblemMembers((await route.handler(ctx)) as Response),
    responses: {
      ...route.responses,
      401: {
        ...problemResponse('The bearer token sent is not valid (none is needed: leave Authorization out)'),
        headers: {
          'WWW-Authenticate': {
            description: 'Bearer challenge with resource_metadata (RFC 6750 §3, RFC 9728 §5.1)',
            schema: type('string'),
          },
        },
      },
      403: problemResponse('The Origin is not allowed, or the token lacks the docs:read scope'),
      405: problemResponse('Only POST carries JSON-RPC messages'),
      413: problemResponse(`The body is larger than ${DOCS_MCP_MAX_BODY_BYTES} bytes`),
      415: problemResponse('The body is not application/json'),
    },
  };
}

function extendGet(route: AnyRouteDefinition): AnyRouteDefinition {
  return {
    ...route,
    handler: async (ctx: AnyContext) => withSiteProblemMembers((await route.handler(ctx)) as Response),
    responses: {
      ...route.responses,
      403: problemResponse('The Origin is not allowed'),
      405: {
        description:
          'No server-to-client stream is offered: a problem with a hint on how to use the endpoint',
        contentType: 'application/problem+json',
        body: McpGetHint,
        headers: { Allow: { description: 'POST, OPTIONS', schema: type('string') } },
      },
    },
  };
}

/**
 * The documentation tool server: the handler, its routes (POST behind `auth`, GET 405 with a hint,
 * OPTIONS 204) and its tools. Register with `app.registerRoutes(docsMcpServer(...).routes)`.
 */
export function docsMcpServer(options: DocsMcpServerOptions): DocsMcpServer {
  const resolved = resolveDocsMcpServerOptions(options);
  const index = resolved.index ?? createSearchIndex(resolved.content.pages);
  const tools = createDocsTools({ content: resolved.content, origin: resolved.origin, index });
  const handler = createMcpHandler({
    serverInfo: {
      name: 'charter-docs',
      title: 'Charter documentation',
      version: resolved.version,
      description: 'Search and read the Charter documentation: read-only tools over every page of this site.',
      websiteUrl: `${resolved.origin}/`,
    },
    instructions: DOCS_MCP_INSTRUCTIONS,
    tools,
    allowedOrigins: [resolved.origin],
    maxBodyBytes: DOCS_MCP_MAX_BODY_BYTES,
    maxBatchSize: DOCS_MCP_MAX_BATCH_SIZE,
    maxBatchResponseBytes: DOCS_MCP_MAX_BATCH_RESPONSE_BYTES,
    // Work is charged, not requests (issue 17): a batch of n costs n of the client's quota.
    onBatch: resolved.batchLimit === undefined ? undefined : chargeBatchMembers(resolved.batchLimit),
    // Every caller sees the same public pages: lists may be reused by anyone for five minutes.
    cache: { ttlMs: 300_000, scope: 'public' },
  });
  const routes = mcpRoutes(DOCS_MCP_PATH, handler, {
    // Public by design (site.md Authentication 1): a token is optional, so no boot guard may demand one.
    public: true,
    hooks: [resolved.auth],
    tags: ['mcp'],
  }).map((route) => {
    if (route.method === 'POST') return extendPost(route);
    if (route.method === 'GET') return extendGet(route);
    return route;
  });
  return Object.freeze({ handler, routes, tools, index });
}
