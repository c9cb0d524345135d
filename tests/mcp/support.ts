/**
 * Shared fixtures of the MCP edge-case suites (modern-era, legacy-era, hostile-input): one tool
 * server with every kind of record (an arktype tool, a JSON-Schema tool with `x-mcp-header`
 * properties, input-required tools, a throwing tool, fixed resources, templates with a completer,
 * prompts with completers), served through a real App with `mcpRoutes`, plus request builders for
 * both protocol eras and assertions that check status, Content-Type and the JSON-RPC envelope.
 */
import { expect } from 'bun:test';
import { App, type AppOptions } from '@charter/core';
import {
  createMcpHandler,
  defineMcpTool,
  encodeMcpHeaderValue,
  inputRequired,
  MCP_META_KEYS,
  type McpHandler,
  type McpEra,
  type McpHandlerOptions,
  type McpPrompt,
  type McpRequestContext,
  type McpResource,
  type McpResourceTemplate,
  type McpRoutesOptions,
  McpToolError,
  mcpRoutes,
} from '@charter/mcp';
import { type } from 'arktype';

/** The modern revision. */
export const MODERN = '2026-07-28';
/** The legacy revisions, oldest first. */
export const LEGACY_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
/** Every served revision, newest first (what -32022 `data.supported` and `server/discover` list). */
export const ALL_VERSIONS_NEWEST_FIRST = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];
/** The fixture's server identity. */
export const SERVER_INFO = Object.freeze({ name: 'edge-fixture', version: '3.1.4', title: 'Edge fixture' });
export const INSTRUCTIONS = 'Call list_items first.';
/** The tools of the fixture, in declaration (and listing) order. */
export const TOOL_NAMES = [
  'list_items',
  'echo',
  'weather',
  'inspect',
  'confirm_delete',
  'summarize',
  'explode',
] as const;
export const RESOURCE_URIS = ['docs://readme', 'docs://changelog', 'docs://license'] as const;
export const TEMPLATE_URIS = ['docs://pages/{slug}', 'docs://tags/{tag}'] as const;
export const PROMPT_NAMES = ['greet', 'review', 'summarize_page'] as const;
export const PAGES = ['intro', 'install', 'routing', 'errors'] as const;
/** The message the `explode` tool throws: it must never reach a production client. */
export const SECRET_MESSAGE = 'database password is hunter2';

/** One tool-handler invocation, as the handler saw it. */
export interface SeenCall {
  readonly tool: string;
  readonly args: unknown;
  readonly ctx: McpRequestContext;
}

/** What `onError` observed. */
export interface ObservedError {
  readonly error: unknown;
  readonly method: string;
  readonly name?: string;
}

/** A fixture: the App, the bare handler behind it, and what the handlers observed. */
export interface Fixture {
  readonly app: App;
  readonly handler: McpHandler;
  /** Tool-handler invocations, in order. */
  readonly seen: SeenCall[];
  /** Unexpected throws reported to `onError` (never printed). */
  readonly errors: ObservedError[];
}

/** Options of `createFixture`. */
export interface FixtureOptions {
  /** Handler options that replace the fixture's (e.g. `pageSize`, `cache`, `requestStateTtlMs`). */
  readonly handler?: Partial<McpHandlerOptions>;
  /** App options (default `{ logger: false }`). */
  readonly app?: AppOptions;
  /** `mcpRoutes` options (default `{ public: true }`). */
  readonly routes?: McpRoutesOptions;
}

/** A form elicitation asking one boolean question. */
function elicit(message: string, field: string) {
  return {
    method: 'elicitation/create' as const,
    params: {
      mode: 'form',
      message,
      requestedSchema: { type: 'object', properties: { [field]: { type: 'boolean' } }, required: [field] },
    },
  };
}

function tools(seen: SeenCall[]) {
  const record = (tool: string, args: unknown, ctx: McpRequestContext) => seen.push({ tool, args, ctx });
  return [
    defineMcpTool({
      name: 'list_items',
      description: 'Lists the items; takes no arguments.',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', additionalProperties: false },
      handler: (args, ctx) => {
        record('list_items', args, ctx);
        return 'alpha, beta, gamma';
      },
    }),
    defineMcpTool({
      name: 'echo',
      description: 'Repeats a text (arktype input schema, JSON output schema).',
      inputSchema: type({ text: 'string', 'times?': '1 <= number.integer <= 3' }),
      outputSchema: {
        type: 'object',
        properties: { echoed: { type: 'string' } },
        required: ['echoed'],
      },
      handler: (args, ctx) => {
        record('echo', args, ctx);
        const echoed = args.text.repeat(args.times ?? 1);
        return { content: [{ type: 'text', text: echoed }], structuredContent: { echoed } };
      },
    }),
    defineMcpTool({
      name: 'weather',
      description: 'A forecast; region, days and metric are mirrored into Mcp-Param-* headers.',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          days: { type: 'integer', minimum: 1, 'x-mcp-header': 'Days' },
          metric: { type: 'boolean', 'x-mcp-header': 'Metric' },
          note: { type: 'string' },
        },
        required: ['region'],
        additionalProperties: false,
      },
      handler: (args, ctx) => {
        record('weather', args, ctx);
        return `Sunny in ${String(args.region)} for ${String(args.days ?? 1)} day(s)`;
      },
    }),
    defineMcpTool({
      name: 'inspect',
      description: 'Reports what the handler was told about the request; accepts any object.',
      inputSchema: { type: 'object' },
      handler: (args, ctx) => {
        record('inspect', args, ctx);
        return {
          structuredContent: {
            protocolVersion: ctx.protocolVersion,
            era: ctx.era,
            id: ctx.id,
            method: ctx.method,
            clientInfo: ctx.clientInfo ?? null,
            logLevel: ctx.logLevel ?? null,
            clientCapabilities: ctx.clientCapabilities,
          },
        };
      },
    }),
    defineMcpTool({
      name: 'confirm_delete',
      description: 'Deletes an item after two rounds of questions (input-required, multi-round).',
      inputSchema: {
        type: 'object',
        properties: { item: { type: 'string' } },
        required: ['item'],
        additionalProperties: false,
      },
      handler: (args, ctx) => {
        record('confirm_delete', args, ctx);
        const state = ctx.requestState as { round?: number; confirmed?: unknown } | undefined;
        if (state === undefined) {
          return inputRequired({
            inputRequests: { confirm: elicit(`Delete ${String(args.item)}?`, 'ok') },
            requestState: { round: 1, item: args.item },
          });
        }
        if (state.round === 1) {
          return inputRequired({
            inputRequests: { reason: elicit('Is the reason "cleanup"?', 'cleanup') },
            requestState: { round: 2, item: args.item, confirmed: ctx.inputResponses?.confirm ?? null },
          });
        }
        return {
          content: [{ type: 'text', text: `Deleted ${String(args.item)}` }],
          structuredContent: { state, responses: ctx.inputResponses ?? null },
        };
      },
    }),
    defineMcpTool({
      name: 'summarize',
      description: 'Asks the client for a sampled summary and its roots (input-required).',
      inputSchema: { type: 'object', properties: { item: { type: 'string' } }, additionalProperties: false },
      handler: (args, ctx) => {
        record('summarize', args, ctx);
        if (ctx.inputResponses !== undefined) return 'Summarized';
        return inputRequired({
          inputRequests: {
            sample: {
              method: 'sampling/createMessage',
              params: {
                messages: [{ role: 'user', content: { type: 'text', text: 'Summarize' } }],
                maxTokens: 50,
              },
            },
            where: { method: 'roots/list' },
          },
          requestState: 'summary-pending',
        });
      },
    }),
    defineMcpTool({
      name: 'explode',
      description: 'Fails in the way it is asked to.',
      inputSchema: {
        type: 'object',
        properties: { kind: { enum: ['error', 'string', 'object', 'tool-error'] } },
        required: ['kind'],
      },
      handler: (args, ctx) => {
        record('explode', args, ctx);
        switch (args.kind) {
          case 'error':
            throw new Error(SECRET_MESSAGE);
          case 'string':
            throw `a bare string: ${SECRET_MESSAGE}`;
          case 'object':
            throw { message: SECRET_MESSAGE };
          default:
            throw new McpToolError('The item is locked', { structuredContent: { locked: true } });
        }
      },
    }),
  ];
}

const resources: readonly McpResource[] = [
  { uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown', read: () => '# Read me' },
  { uri: 'docs://changelog', name: 'changelog', description: 'What changed', read: () => '1.0: first' },
  {
    uri: 'docs://license',
    name: 'license',
    read: () => [{ uri: 'docs://license', mimeType: 'text/plain', text: 'MIT' }],
  },
];

const complete = (candidates: readonly string[]) => (value: string) =>
  candidates.filter((candidate) => candidate.startsWith(value));

const resourceTemplates: readonly McpResourceTemplate[] = [
  {
    uriTemplate: 'docs://pages/{slug}',
    name: 'page',
    mimeType: 'text/markdown',
    complete: { slug: complete(PAGES) },
    read: (_uri, { slug }) => ((PAGES as readonly string[]).includes(slug as string) ? `# ${slug}` : null),
  },
  { uriTemplate: 'docs://tags/{tag}', name: 'tag', read: (_uri, { tag }) => `Pages tagged ${tag}` },
];

const prompts: readonly McpPrompt[] = [
  {
    name: 'greet',
    description: 'Greets someone',
    arguments: [
      { name: 'name', required: true, complete: complete(['Ada', 'Alan', 'Grace']) },
      { name: 'tone', description: 'formal or casual' },
    ],
    get: (args) => ({
      description: 'A greeting',
      messages: [
        { role: 'user', content: { type: 'text', text: `Greet ${args.name} (${args.tone ?? 'casual'})` } },
      ],
    }),
  },
  {
    name: 'review',
    description: 'Reviews code',
    arguments: [{ name: 'code', required: true }],
    get: (args) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Review: ${args.code}` } }],
    }),
  },
  {
    name: 'summarize_page',
    description: 'Summarizes a page',
    arguments: [{ name: 'slug', required: true, complete: complete(PAGES) }],
    get: (args) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${args.slug}` } }],
    }),
  },
];

/** The fixture's handler options; `overrides` replace single options. */
export function fixtureOptions(
  seen: SeenCall[],
  errors: ObservedError[],
  overrides: Partial<McpHandlerOptions> = {},
): McpHandlerOptions {
  return {
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
    tools: tools(seen),
    resources,
    resourceTemplates,
    prompts,
    onError: (error, info) => errors.push({ error, ...info }),
    ...overrides,
  };
}

/** A tool server behind a real App (`app.registerRoutes(mcpRoutes('/mcp', handler, { public: true }))`). */
export function createFixture(options: FixtureOptions = {}): Fixture {
  const seen: SeenCall[] = [];
  const errors: ObservedError[] = [];
  const handler = createMcpHandler(fixtureOptions(seen, errors, options.handler));
  const app = new App({ logger: false, ...options.app });
  app.registerRoutes(mcpRoutes('/mcp', handler, { public: true, ...options.routes }));
  return { app, handler, seen, errors };
}

/** Options of `meta()`: what a modern request's `params._meta` says. */
export interface MetaOptions {
  /** Default `2026-07-28`. */
  readonly version?: unknown;
  /** Default `{}`. */
  readonly capabilities?: unknown;
  readonly clientInfo?: unknown;
  readonly logLevel?: unknown;
  /** Keys to drop (e.g. `MCP_META_KEYS.clientCapabilities`). */
  readonly omit?: readonly string[];
}

/** A modern `params._meta`: protocol version, client capabilities and, when given, client info and log level. */
export function meta(options: MetaOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [MCP_META_KEYS.protocolVersion]: options.version ?? MODERN,
    [MCP_META_KEYS.clientCapabilities]: options.capabilities ?? {},
  };
  if (options.clientInfo !== undefined) out[MCP_META_KEYS.clientInfo] = options.clientInfo;
  if (options.logLevel !== undefined) out[MCP_META_KEYS.logLevel] = options.logLevel;
  for (const key of options.omit ?? []) delete out[key];
  return out;
}

/** A JSON-RPC request body. */
export interface RpcBody {
  readonly jsonrpc: '2.0';
  readonly id?: unknown;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** A legacy request body (no `_meta`). */
export function rpc(method: string, params?: Record<string, unknown>, id: string | number = 1): RpcBody {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

/** A modern request body: `params` plus `_meta` (default `meta()`). */
export function modern(
  method: string,
  params: Record<string, unknown> = {},
  id: string | number = 1,
  metaValue: Record<string, unknown> = meta(),
): RpcBody {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: metaValue } };
}

/** Header values by name; `null` removes a header the builder would send. */
export type HeaderOverrides = Readonly<Record<string, string | null>>;

/** What every real client sends on a POST (Streamable HTTP: JSON or an event stream is accepted). */
export const CLIENT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

const NAMED: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * The headers a correct modern client sends for `body`: `CLIENT_HEADERS`, `MCP-Protocol-Version` (the `_meta`
 * version), `Mcp-Method`, and `Mcp-Name` (encoded) on tools/call, prompts/get and resources/read.
 * `Mcp-Param-*` headers are left to the test.
 */
export function modernHeaders(body: RpcBody): Record<string, string> {
  const headers: Record<string, string> = { ...CLIENT_HEADERS };
  const version = (body.params?._meta as Record<string, unknown> | undefined)?.[
    MCP_META_KEYS.protocolVersion
  ];
  if (typeof version === 'string') headers['mcp-protocol-version'] = version;
  if (typeof body.method === 'string') headers['mcp-method'] = body.method;
  const field = NAMED[body.method];
  const value = field === undefined ? undefined : body.params?.[field];
  if (typeof value === 'string') headers['mcp-name'] = encodeMcpHeaderValue(value);
  return headers;
}

function merge(base: Record<string, string>, overrides: HeaderOverrides): Headers {
  const headers = new Headers(base);
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
}

/** POSTs a modern request to `/mcp` with the headers a correct client sends, changed by `headers`. */
export function modernPost(target: App | McpHandler, body: RpcBody, headers: HeaderOverrides = {}) {
  return send(target, merge(modernHeaders(body), headers), JSON.stringify(body));
}

/** POSTs a legacy request (or any raw body) to `/mcp` with `CLIENT_HEADERS`, changed by `headers`. */
export function legacyPost(target: App | McpHandler, body: unknown, headers: HeaderOverrides = {}) {
  const raw: BodyInit =
    typeof body === 'string'
      ? body
      : body instanceof Uint8Array
        ? new Uint8Array(body)
        : JSON.stringify(body);
  return send(target, merge(CLIENT_HEADERS, headers), raw);
}

/** Sends to the App at `/mcp`, or straight to a bare handler. */
export function send(
  target: App | McpHandler,
  headers: Headers | Record<string, string>,
  body: BodyInit | null,
  method = 'POST',
): Promise<Response> {
  const init: RequestInit = { method, headers, body };
  if (target instanceof App) return target.request('/mcp', init);
  return target(new Request('http://127.0.0.1/mcp', init));
}

/** What a JSON-RPC error answer carried. */
export interface RpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** Expected error: HTTP status, JSON-RPC code, echoed id, a fragment of the message. */
export interface ExpectedError {
  readonly status: number;
  readonly code: number;
  readonly id: string | number | null;
  readonly message: string | RegExp;
}

async function envelope(res: Response, status: number): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.jsonrpc).toBe('2.0');
  return body;
}

/** Asserts a JSON-RPC error response and returns its error object. */
export async function expectRpcError(res: Response, expected: ExpectedError): Promise<RpcErrorObject> {
  const body = await envelope(res, expected.status);
  expect(body.id).toEqual(expected.id);
  expect(body.result).toBeUndefined();
  const error = body.error as RpcErrorObject;
  expect(error.code).toBe(expected.code);
  expect(typeof error.message).toBe('string');
  if (typeof expected.message === 'string') expect(error.message).toContain(expected.message);
  else expect(error.message).toMatch(expected.message);
  return error;
}

/** A request `expectMethodNotFound` sends, and the part of the error message it expects. */
export interface UnknownMethodCase {
  readonly method: string;
  readonly params?: Record<string, unknown>;
  readonly id: string | number;
  /** Default: `Method not found: "<method>"`. */
  readonly message?: string | RegExp;
}

/**
 * POSTs `method` to `target` as a request of `era` (`rpc` for legacy, `modern` with `_meta` for
 * 2026-07-28) and asserts JSON-RPC -32601 Method not found for its id: HTTP 200 in the legacy era,
 * HTTP 404 in the modern one.
 */
export async function expectMethodNotFound(
  target: App | McpHandler,
  era: McpEra,
  { method, params = {}, id, message = `Method not found: "${method}"` }: UnknownMethodCase,
): Promise<RpcErrorObject> {
  const res =
    era === 'legacy'
      ? await legacyPost(target, rpc(method, params, id))
      : await modernPost(target, modern(method, params, id));
  return expectRpcError(res, { status: era === 'legacy' ? 200 : 404, code: -32601, id, message });
}

/**
 * Sends `request` (a tools/call of the fixture's `inspect` tool), asserts a result for `id`, and
 * returns the request context the tool was given.
 */
export async function inspectedContext(
  fx: Fixture,
  request: () => Promise<Response>,
  id: string | number,
): Promise<Record<string, unknown>> {
  const before = fx.seen.length;
  await expectRpcResult(await request(), id);
  return (fx.seen[before] as unknown as { ctx: Record<string, unknown> }).ctx;
}

/**
 * Asserts the answer to a message whose id could not be read (JSON-RPC 2.0 §5: the id is null):
 * HTTP 400 with `code`, -32700 Parse error or -32600 Invalid Request, and a part of `message`.
 */
export function expectIdNullError(
  res: Response,
  code: -32700 | -32600,
  message: string | RegExp,
): Promise<RpcErrorObject> {
  return expectRpcError(res, { status: 400, code, id: null, message });
}

/** Asserts a JSON-RPC success response (HTTP 200) with this id and returns its result. */
export async function expectRpcResult(res: Response, id: string | number): Promise<Record<string, unknown>> {
  const body = await envelope(res, 200);
  expect(body.id).toEqual(id);
  expect(body.error).toBeUndefined();
  expect(typeof body.result).toBe('object');
  return body.result as Record<string, unknown>;
}

/** Asserts a batch answer (HTTP 200, a JSON array) and returns it. */
export async function expectBatch(res: Response): Promise<Record<string, unknown>[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as unknown;
  expect(Array.isArray(body)).toBe(true);
  return body as Record<string, unknown>[];
}

/** Asserts 202 Accepted with no body and no Content-Type. */
export async function expectAccepted(res: Response): Promise<void> {
  expect(res.status).toBe(202);
  expect(res.headers.get('content-type')).toBeNull();
  expect(await res.text()).toBe('');
}

/** Asserts an RFC 9457 problem with this status and catalog type, and returns it. */
export async function expectProblem(
  res: Response,
  status: number,
  code: string,
  detail?: string,
): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.type).toBe(`https://charter.dev/errors/${code}`);
  expect(body.status).toBe(status);
  if (detail !== undefined) expect(String(body.detail)).toContain(detail);
  return body;
}

/** The text of a tool result's first content block. */
export function firstText(result: Record<string, unknown>): string {
  const content = result.content as { type: string; text?: string }[];
  expect(content[0]?.type).toBe('text');
  return content[0]?.text as string;
}
