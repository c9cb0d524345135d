/**
 * `createMcpHandler` options (https://charter.dev/docs/tool-server, the handler options), their
 * defaults, and the one function that validates them, naming the option it refuses.
 */
import { isProductionEnv } from '@charter/core';
import type { AnyContext } from '@charter/core';
import {
  MCP_DEFAULT_MAX_BATCH_RESPONSE_BYTES,
  MCP_DEFAULT_MAX_BATCH_SIZE,
  MCP_DEFAULT_MAX_BODY_BYTES,
  MCP_DEFAULT_MAX_RESOURCE_URI_LENGTH,
  MCP_PROTOCOL_VERSION,
  MCP_SUPPORTED_VERSIONS,
} from './constants.ts';
import { isModernProtocolVersion } from './era.ts';
import { type McpListenOptions, type ResolvedListenOptions, resolveListenOptions } from './listen-options.ts';
import { metaKeyProblem } from './records.ts';
import { type McpSessionOptions, type ResolvedSessionOptions, resolveSessionOptions } from './session.ts';
import type {
  McpCacheHints,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpServerInfo,
  McpTool,
} from './types.ts';

/** A JSON-RPC batch about to be served, as `onBatch` sees it. */
export interface McpBatch {
  /** The HTTP request that carried it. */
  readonly request: Request;
  /** How many messages it holds (1 to `maxBatchSize`), notifications included. */
  readonly size: number;
  /** The App's context of the request, when the handler runs behind `mcpRoutes`. */
  readonly context: AnyContext | undefined;
}

/** Options of `createMcpHandler`. */
export interface McpHandlerOptions {
  /** Name and version (and optional title, description, websiteUrl, icons) of the server. Required. */
  serverInfo: McpServerInfo;
  /** Guidance for the model, sent in `initialize` and `server/discover` results. */
  instructions?: string;
  /** Tools, listed in this order. Names must be unique. */
  // biome-ignore lint/suspicious/noExplicitAny: each tool keeps its own argument type.
  tools?: readonly McpTool<any>[];
  /** Resources at fixed URIs. */
  resources?: readonly McpResource[];
  /** Resources under URI templates. */
  resourceTemplates?: readonly McpResourceTemplate[];
  /** Prompt templates. */
  prompts?: readonly McpPrompt[];
  /**
   * Protocol extensions the server supports, advertised as `capabilities.extensions` (modern era):
   * identifier to settings object (`{}` for none). Identifiers need a prefix, as MCP 2026-07-28 says:
   * `io.modelcontextprotocol/tasks`, `com.example/audit`.
   */
  extensions?: Readonly<Record<string, Record<string, unknown>>>;
  /** Cache hints of modern discover, list and read results. Default `{ ttlMs: 0, scope: 'private' }`. */
  cache?: McpCacheHints;
  /**
   * Browser origins allowed to call (`https://app.example`, bare origins only), plus `'null'` to admit
   * opaque origins. Loopback origins and requests without `Origin` are always admitted; any other
   * `Origin` gets 403, which defeats DNS rebinding (MCP Streamable HTTP, "Security Warning").
   */
  allowedOrigins?: readonly string[];
  /** The revisions served. Default: every supported one, 2024-11-05 through 2026-07-28. */
  protocolVersions?: readonly string[];
  /** The revision preferred when a client leaves the choice open. Default `2026-07-28`. */
  preferredProtocolVersion?: string;
  /** Largest request body, in bytes; larger gets a 413 problem. Default 262144. */
  maxBodyBytes?: number;
  /**
   * Most messages one JSON-RPC batch may carry (batches exist only in 2025-03-26); a longer batch is
   * refused whole with -32600 and none of it runs. `0` refuses every batch. Default 16: a batch is
   * that many calls for the price of one HTTP request, so a limit that counts requests sees a
   * sixteenth of the work (see `onBatch` to charge each member).
   */
  maxBatchSize?: number;
  /**
   * Most bytes of JSON the answers of one batch may add up to. Members run in order; the one whose
   * answer would cross the cap, and every later request, answer -32000 (not run: send it again on
   * its own or in a later batch) instead. Default 1048576 (1 MiB). Single messages are not capped.
   */
  maxBatchResponseBytes?: number;
  /**
   * Called once a batch is accepted (revision, size), before any member runs: charge its members
   * to a rate limit, log it, or refuse it. Return a Response to answer that instead; return nothing
   * to serve the batch. A throw propagates: behind `mcpRoutes` the App answers it, so an HttpError
   * (`TooManyRequestsError` from a rate limit) keeps its status and headers.
   */
  onBatch?: (batch: McpBatch) => Response | undefined | void | Promise<Response | undefined | void>;
  /** Headers added to every response of the handler. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Put the message of an unexpected throw in the -32603 error. Default: on only when NODE_ENV is
   * `development` or `test`. Fails closed: when the handler runs inside a production App (through
   * `mcpRoutes`) and this is not set, detail is always hidden. An explicit value wins.
   */
  exposeInternalErrors?: boolean;
  /** Longest URI `resources/read` accepts; longer gets -32602. Default 8192. */
  maxResourceUriLength?: number;
  /** Entries per page of the list methods; a longer list pages with `nextCursor`. Default 100. */
  pageSize?: number;
  /**
   * Secret that seals input-required `requestState` values (at least 32 bytes in production). Default:
   * a random key per handler, right for one process; several instances behind a balancer need one
   * shared key, or a retry landing on another instance is refused.
   */
  requestStateKey?: string | Uint8Array;
  /** How long a sealed `requestState` stays valid, in milliseconds. Default 600000 (10 minutes). */
  requestStateTtlMs?: number;
  /**
   * Binds a sealed `requestState` to the caller: returns an identity for the request, or undefined.
   * Default: a SHA-256 digest of the `Authorization` header, so a state minted for one credential is
   * refused with another.
   */
  requestStatePrincipal?: (request: Request) => string | undefined | Promise<string | undefined>;
  /** Observes unexpected throws of handlers (the client sees -32603). Default: `console.error`. */
  onError?: (error: unknown, info: { readonly method: string; readonly name?: string }) => void;
  /**
   * Legacy-era sessions (`Mcp-Session-Id`), resource subscriptions, the GET stream and
   * server-to-client requests: give a store (`{ store: memoryMcpSessionStore() }`, or charter/redis
   * `redisMcpSessionStore` for several instances). Without it the handler is stateless.
   */
  sessions?: McpSessionOptions;
  /**
   * Limits of 2026-07-28 `subscriptions/listen` streams: per caller, per instance, URIs per request,
   * keepalive interval. Defaults: 4, 1000, 100, 8000 ms.
   */
  listen?: McpListenOptions;
}

/** Options after validation, with defaults filled in. */
export interface ResolvedMcpOptions {
  readonly serverInfo: McpServerInfo;
  readonly instructions: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: see McpHandlerOptions.tools.
  readonly tools: readonly McpTool<any>[];
  readonly resources: readonly McpResource[];
  readonly resourceTemplates: readonly McpResourceTemplate[];
  readonly prompts: readonly McpPrompt[];
  readonly extensions: Readonly<Record<string, Record<string, unknown>>> | undefined;
  readonly cache: { readonly ttlMs: number; readonly scope: 'public' | 'private' };
  readonly allowedOrigins: ReadonlySet<string>;
  readonly protocolVersions: readonly string[];
  /** Served legacy revisions, newest first (for `initialize` negotiation). */
  readonly legacyVersions: readonly string[];
  readonly preferredProtocolVersion: string;
  readonly maxBodyBytes: number;
  readonly maxBatchSize: number;
  readonly maxBatchResponseBytes: number;
  readonly onBatch: McpHandlerOptions['onBatch'];
  readonly headers: Readonly<Record<string, string>>;
  /** undefined: decided per request (NODE_ENV, and the App's production flag). */
  readonly exposeInternalErrors: boolean | undefined;
  readonly maxResourceUriLength: number;
  readonly pageSize: number;
  readonly requestStateKey: string | Uint8Array | undefined;
  readonly requestStateTtlMs: number;
  readonly requestStatePrincipal:
    | ((request: Request) => string | undefined | Promise<string | undefined>)
    | undefined;
  readonly onError: (error: unknown, info: { readonly method: string; readonly name?: string }) => void;
  readonly sessions: ResolvedSessionOptions | undefined;
  readonly listen: ResolvedListenOptions;
}

function fail(option: string, message: string): never {
  throw new TypeError(`createMcpHandler: option "${option}" ${message}`);
}

function positiveInteger(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    fail(option, `must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function nonNegativeInteger(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(option, `must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

function nonEmptyString(option: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) fail(option, 'must be a non-empty string');
  return value;
}

function list<T>(option: string, value: readonly T[] | undefined): readonly T[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) fail(option, 'must be an array');
  return Object.freeze([...value]);
}

function resolveServerInfo(info: unknown): McpServerInfo {
  if (typeof info !== 'object' || info === null) fail('serverInfo', 'is required: { name, version }');
  const { name, version, title, description, websiteUrl, icons } = info as McpServerInfo;
  nonEmptyString('serverInfo.name', name);
  nonEmptyString('serverInfo.version', version);
  for (const [key, value] of Object.entries({ title, description, websiteUrl })) {
    if (value !== undefined && typeof value !== 'string') fail(`serverInfo.${key}`, 'must be a string');
  }
  if (icons !== undefined && !Array.isArray(icons)) fail('serverInfo.icons', 'must be an array');
  return Object.freeze({ ...(info as McpServerInfo) });
}

/** A bare origin: `scheme://host[:port]`, nothing after (what the Origin header carries, RFC 6454 §7). */
function resolveOrigin(origin: unknown): string {
  if (origin === 'null') return origin;
  if (typeof origin !== 'string') fail('allowedOrigins', 'must contain strings');
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    fail('allowedOrigins', `entry ${JSON.stringify(origin)} is not an origin`);
  }
  if (url.origin === 'null' || url.origin !== origin) {
    fail(
      'allowedOrigins',
      `entry ${JSON.stringify(origin)} must be a bare origin such as "https://app.example" (no path, no trailing slash)`,
    );
  }
  return origin;
}

function resolveVersions(options: McpHandlerOptions): { versions: readonly string[]; preferred: string } {
  const versions = options.protocolVersions ?? MCP_SUPPORTED_VERSIONS;
  if (!Array.isArray(versions) || versions.length === 0) {
    fail('protocolVersions', 'must be a non-empty array');
  }
  for (const version of versions) {
    if (!MCP_SUPPORTED_VERSIONS.includes(version)) {
      fail(
        'protocolVersions',
        `contains ${JSON.stringify(version)}; supported: ${MCP_SUPPORTED_VERSIONS.join(', ')}`,
      );
    }
  }
  const sorted = Object.freeze([...new Set(versions)].sort());
  const preferred =
    options.preferredProtocolVersion ??
    (sorted.includes(MCP_PROTOCOL_VERSION) ? MCP_PROTOCOL_VERSION : (sorted.at(-1) as string));
  if (!sorted.includes(preferred)) {
    fail('preferredProtocolVersion', `must be one of the served versions (${sorted.join(', ')})`);
  }
  return { versions: sorted, preferred };
}

function resolveCache(cache: McpCacheHints | undefined): ResolvedMcpOptions['cache'] {
  if (cache === undefined) return Object.freeze({ ttlMs: 0, scope: 'private' });
  if (typeof cache !== 'object' || cache === null) fail('cache', 'must be { ttlMs?, scope? }');
  const ttlMs = cache.ttlMs ?? 0;
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    fail('cache.ttlMs', 'must be a non-negative integer');
  }
  const scope = cache.scope ?? 'private';
  if (scope !== 'public' && scope !== 'private') fail('cache.scope', 'must be "public" or "private"');
  return Object.freeze({ ttlMs, scope });
}

function resolveHeaders(headers: McpHandlerOptions['headers']): Readonly<Record<string, string>> {
  if (headers === undefined) return Object.freeze({});
  if (typeof headers !== 'object' || headers === null) fail('headers', 'must be an object of header values');
  try {
    // Headers validates names and values (RFC 9110 §5.1, §5.5), so a bad one fails here, not per request.
    new Headers(headers as Record<string, string>);
  } catch (error) {
    fail('headers', `is invalid: ${(error as Error).message}`);
  }
  return Object.freeze({ ...headers });
}

function defaultOnError(error: unknown, info: { method: string; name?: string }): void {
  const where = info.name === undefined ? info.method : `${info.method} ${info.name}`;
  console.error(`[charter/mcp] unexpected error in ${where}:`, error);
}

/** Validates the options (TypeError naming the option) and fills the defaults. */
export function resolveMcpOptions(options: McpHandlerOptions): ResolvedMcpOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createMcpHandler needs options: { serverInfo, tools?, resources?, prompts?, ... }');
  }
  const { versions, preferred } = resolveVersions(options);
  if (options.instructions !== undefined && typeof options.instructions !== 'string') {
    fail('instructions', 'must be a string');
  }
  if (options.exposeInternalErrors !== undefined && typeof options.exposeInternalErrors !== 'boolean') {
    fail('exposeInternalErrors', 'must be a boolean');
  }
  if (
    options.extensions !== undefined &&
    (typeof options.extensions !== 'object' || options.extensions === null)
  ) {
    fail('extensions', 'must be an object mapping extension ids to settings objects');
  }
  for (const [id, settings] of Object.entries(options.extensions ?? {})) {
    // 2026-07-28 "Extension Negotiation": identifiers "MUST follow the `_meta` key naming rules, with
    // a mandatory prefix" (reverse DNS is a SHOULD: `io.modelcontextprotocol/tasks`, `com.example/audit`).
    const problem = metaKeyProblem(id, true);
    if (problem !== undefined) {
      fail(
        'extensions',
        `has the identifier ${JSON.stringify(id)}, which ${problem}; MCP 2026-07-28 extension identifiers follow the _meta key naming rules with a mandatory prefix, e.g. "io.modelcontextprotocol/tasks" or "com.example/audit"`,
      );
    }
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
      fail('extensions', `entry ${JSON.stringify(id)} must be a settings object (use {} for none)`);
    }
  }
  for (const name of ['requestStatePrincipal', 'onError', 'onBatch'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') fail(name, 'must be a function');
  }
  return Object.freeze({
    serverInfo: resolveServerInfo(options.serverInfo),
    instructions: options.instructions,
    tools: list('tools', options.tools),
    resources: list('resources', options.resources),
    resourceTemplates: list('resourceTemplates', options.resourceTemplates),
    prompts: list('prompts', options.prompts),
    extensions: options.extensions === undefined ? undefined : Object.freeze({ ...options.extensions }),
    cache: resolveCache(options.cache),
    allowedOrigins: new Set(list('allowedOrigins', options.allowedOrigins).map(resolveOrigin)),
    protocolVersions: versions,
    legacyVersions: Object.freeze(versions.filter((v) => !isModernProtocolVersion(v)).reverse()),
    preferredProtocolVersion: preferred,
    maxBodyBytes: positiveInteger('maxBodyBytes', options.maxBodyBytes, MCP_DEFAULT_MAX_BODY_BYTES),
    maxBatchSize: nonNegativeInteger('maxBatchSize', options.maxBatchSize, MCP_DEFAULT_MAX_BATCH_SIZE),
    maxBatchResponseBytes: positiveInteger(
      'maxBatchResponseBytes',
      options.maxBatchResponseBytes,
      MCP_DEFAULT_MAX_BATCH_RESPONSE_BYTES,
    ),
    onBatch: options.onBatch,
    headers: resolveHeaders(options.headers),
    exposeInternalErrors: options.exposeInternalErrors,
    maxResourceUriLength: positiveInteger(
      'maxResourceUriLength',
      options.maxResourceUriLength,
      MCP_DEFAULT_MAX_RESOURCE_URI_LENGTH,
    ),
    pageSize: positiveInteger('pageSize', options.pageSize, 100),
    requestStateKey: options.requestStateKey,
    requestStateTtlMs: positiveInteger('requestStateTtlMs', options.requestStateTtlMs, 600_000),
    requestStatePrincipal: options.requestStatePrincipal,
    onError: options.onError ?? defaultOnError,
    sessions: resolveSessionOptions(options.sessions),
    listen: resolveListenOptions(options.listen),
  });
}

/**
 * Whether internal detail may be shown: an explicit option wins; otherwise never inside a
 * production App, and elsewhere only when NODE_ENV says development or test.
 */
export function exposesInternalErrors(
  options: ResolvedMcpOptions,
  appProduction: boolean | undefined,
): boolean {
  if (options.exposeInternalErrors !== undefined) return options.exposeInternalErrors;
  if (appProduction === true) return false;
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    ?.NODE_ENV;
  return !isProductionEnv() && (env === 'development' || env === 'test');
}
