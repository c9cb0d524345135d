/**
 * The records a tool server is made of (https://charter.dev/docs/tool-server: server info,
 * Tool, Tool result, Tool request context, Input-required result, cache hints) and the MCP shapes
 * they carry (content blocks, resources, prompts, icons; schema.ts of revisions 2025-11-25 and
 * 2026-07-28).
 */
import type { AnySchema, InferOutput, JsonSchema } from '@charter/core';
import type { JsonRpcId } from '@charter/json-rpc';
import type { McpEra } from './era.ts';

type MaybePromise<T> = T | Promise<T>;

/** An icon a client may show (2025-11-25 `Icon`). */
export interface McpIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

/** Who the server is (`Implementation`): sent in `initialize` results and in every modern result's `_meta`. */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly websiteUrl?: string;
  readonly icons?: readonly McpIcon[];
}

/** Who the client says it is: advisory only, never a basis for authorisation. */
export interface McpClientInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly [key: string]: unknown;
}

/** Hints about how a piece of content is meant to be used (`Annotations`). */
export interface McpAnnotations {
  readonly audience?: readonly ('user' | 'assistant')[];
  readonly priority?: number;
  readonly lastModified?: string;
}

/** Text or binary contents of a resource (`TextResourceContents` / `BlobResourceContents`). */
export type McpResourceContents =
  | {
      readonly uri: string;
      readonly mimeType?: string;
      readonly text: string;
      readonly _meta?: Record<string, unknown>;
    }
  | {
      readonly uri: string;
      readonly mimeType?: string;
      readonly blob: string;
      readonly _meta?: Record<string, unknown>;
    };

/** A content block of a tool result or a prompt message (`ContentBlock`). */
export type McpContent =
  | {
      readonly type: 'text';
      readonly text: string;
      readonly annotations?: McpAnnotations;
      readonly _meta?: Record<string, unknown>;
    }
  | {
      readonly type: 'image' | 'audio';
      /** Base64 of the bytes. */
      readonly data: string;
      readonly mimeType: string;
      readonly annotations?: McpAnnotations;
      readonly _meta?: Record<string, unknown>;
    }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
      readonly title?: string;
      readonly description?: string;
      readonly mimeType?: string;
      readonly size?: number;
      readonly annotations?: McpAnnotations;
      readonly _meta?: Record<string, unknown>;
    }
  | {
      readonly type: 'resource';
      readonly resource: McpResourceContents;
      readonly annotations?: McpAnnotations;
      readonly _meta?: Record<string, unknown>;
    };

/** Untrusted hints about a tool's behaviour (`ToolAnnotations`). */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What a tool handler returns (https://charter.dev/docs/tool-server). */
export interface McpToolResult {
  readonly content?: readonly McpContent[];
  /** A JSON object; validated against the tool's `outputSchema` when it has one. */
  readonly structuredContent?: Record<string, unknown>;
  /** True when the tool failed in a way the model should see and may correct. */
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;
}

/** One request a server makes of the client through an input-required result (2026-07-28 MRTR). */
export type McpInputRequest =
  | { readonly method: 'elicitation/create'; readonly params: Record<string, unknown> }
  | { readonly method: 'sampling/createMessage'; readonly params: Record<string, unknown> }
  | { readonly method: 'roots/list'; readonly params?: Record<string, unknown> };

/**
 * An input-required answer (https://charter.dev/docs/tool-server): the client fulfils
 * `inputRequests` and retries the call with `inputResponses`. `requestState` is any JSON value the
 * handler wants back on the retry; the module seals it (encrypted, authenticated, bound to this
 * call and caller, short-lived, single-use) and hands it back, verified, as `ctx.requestState`.
 * Build one with `inputRequired()`.
 */
export interface McpInputRequired {
  readonly resultType: 'input_required';
  readonly inputRequests?: Readonly<Record<string, McpInputRequest>>;
  readonly requestState?: unknown;
}

/** The client capabilities of a request (`ClientCapabilities`). */
export interface McpClientCapabilities {
  readonly elicitation?: Record<string, unknown>;
  readonly sampling?: Record<string, unknown>;
  readonly roots?: Record<string, unknown>;
  readonly experimental?: Record<string, unknown>;
  readonly extensions?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** What every tool, resource, prompt and completion handler is told about the request (https://charter.dev/docs/tool-server). */
export interface McpRequestContext {
  /** The HTTP request (its body already read). */
  readonly request: Request;
  /** The revision the request is served under. */
  readonly protocolVersion: string;
  readonly era: McpEra;
  /** The JSON-RPC id. */
  readonly id: JsonRpcId;
  /** The JSON-RPC method, e.g. `tools/call`. */
  readonly method: string;
  /** What the client declared for this request; an empty object on legacy requests (a stateless server cannot remember `initialize`). */
  readonly clientCapabilities: McpClientCapabilities;
  /** Who the client says it is: advisory only. */
  readonly clientInfo?: McpClientInfo;
  /** The log level the request opted into (modern `_meta`). */
  readonly logLevel?: string;
  /** The client's answers to an earlier input-required result, keyed as the handler asked. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /**
   * The `requestState` the handler returned with its input-required result. The client sends it
   * back and controls those bytes: the module refuses (-32602) any state it did not seal for this
   * very call and caller, or that expired or was used before, so what arrives here is verified.
   */
  readonly requestState?: unknown;
  /**
   * Reports progress (`notifications/progress`) when the request sent `_meta.progressToken` and
   * accepts an event stream; otherwise does nothing. Values must increase; others are dropped.
   */
  readonly progress: (progress: number, total?: number, message?: string) => void;
  /**
   * Sends a log message (`notifications/message`, RFC 5424 level names): in the modern era at or
   * above the request's `_meta` logLevel (none set: nothing is sent), in the legacy era from `info`
   * up. Only when the client accepts an event stream.
   */
  readonly log: (level: McpLogLevel, data: unknown, logger?: string) => void;
  /**
   * Legacy era, inside a session (a handler with `sessions`): asks the client to sample
   * (`sampling/createMessage`) and resolves with its `CreateMessageResult`. Rejects when there is no
   * session, the client did not declare `sampling`, refused, or did not answer within the deadline
   * (-32001). In 2026-07-28 answer `inputRequired(...)` instead (which works in sessions too).
   */
  readonly sample: (
    params: Readonly<Record<string, unknown>>,
    options?: { timeoutMs?: number },
  ) => Promise<Record<string, unknown>>;
  /** As `sample`, for `elicitation/create`: resolves with the `ElicitResult` (`action`, `content`). */
  readonly elicit: (
    params: Readonly<Record<string, unknown>>,
    options?: { timeoutMs?: number },
  ) => Promise<Record<string, unknown>>;
  /** As `sample`, for `roots/list`: resolves with the `ListRootsResult` (`roots`). */
  readonly listRoots: (options?: { timeoutMs?: number }) => Promise<Record<string, unknown>>;
}

/** RFC 5424 severities as MCP names them. */
export type McpLogLevel =
  | 'debug'
  | 'info'
  | 'notice'
  | 'warning'
  | 'error'
  | 'critical'
  | 'alert'
  | 'emergency';

/** Completion values for an argument (`completion/complete`); at most 100 are sent. */
export type McpCompletion =
  | readonly string[]
  | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/** Suggests values for one argument: `value` is what the user typed so far. */
export type McpCompleter = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>> },
  ctx: McpRequestContext,
) => MaybePromise<McpCompletion>;

/** A tool's input: a JSON Schema object, or a Standard Schema (arktype, zod, valibot, TypeBox via `typebox()`). */
export type McpToolSchema = JsonSchema | AnySchema;

/** The arguments a tool handler receives: typed from a Standard Schema, a plain object otherwise. */
export type McpToolArguments<S> = S extends AnySchema ? InferOutput<S> : Record<string, unknown>;

/** What a tool handler may return: a result, plain text (one text block) or an input-required answer. */
export type McpToolReturn = McpToolResult | McpInputRequired | string;

/** A tool (https://charter.dev/docs/tool-server). */
export interface McpTool<S extends McpToolSchema = McpToolSchema> {
  /** 1-128 characters of `A-Z a-z 0-9 _ - .`, unique in the server. */
  readonly name: string;
  /** What the tool does, for the model. Optional in every MCP revision, but a model picks tools by it. */
  readonly description?: string;
  readonly title?: string;
  /** An object-rooted JSON Schema, or a Standard Schema the module converts. */
  readonly inputSchema: S;
  /** The shape of `structuredContent`; results are checked against it. */
  readonly outputSchema?: McpToolSchema;
  readonly annotations?: McpToolAnnotations;
  readonly icons?: readonly McpIcon[];
  readonly _meta?: Record<string, unknown>;
  readonly handler: (args: McpToolArguments<S>, ctx: McpRequestContext) => MaybePromise<McpToolReturn>;
}

/** A resource at a fixed URI. */
export interface McpResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: McpAnnotations;
  readonly icons?: readonly McpIcon[];
  readonly _meta?: Record<string, unknown>;
  /** The contents: a string is one text entry with the resource's URI and MIME type. */
  readonly read: (
    ctx: McpRequestContext,
  ) => MaybePromise<string | readonly McpResourceContents[] | McpInputRequired>;
}

/**
 * Resources under an RFC 6570 level-1 template: each `{name}` expression matches one non-empty
 * path segment (no `/`), percent-decoded.
 */
export interface McpResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: McpAnnotations;
  readonly icons?: readonly McpIcon[];
  readonly _meta?: Record<string, unknown>;
  /** Suggestions per template variable, for `completion/complete`. */
  readonly complete?: Readonly<Record<string, McpCompleter>>;
  /** The contents, or null when no resource exists at that URI (answered as not found). */
  readonly read: (
    uri: string,
    variables: Readonly<Record<string, string>>,
    ctx: McpRequestContext,
  ) => MaybePromise<string | readonly McpResourceContents[] | McpInputRequired | null>;
}

/** An argument a prompt takes. */
export interface McpPromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
  /** Suggestions for `completion/complete`. */
  readonly complete?: McpCompleter;
}

/** A message of a prompt (`PromptMessage`). */
export interface McpPromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: McpContent;
}

/** What `prompts/get` answers (`GetPromptResult`). */
export interface McpPromptResult {
  readonly description?: string;
  readonly messages: readonly McpPromptMessage[];
  readonly _meta?: Record<string, unknown>;
}

/** A prompt template. */
export interface McpPrompt {
  /** Unique in the server. */
  readonly name: string;
  /** Optional in every MCP revision. */
  readonly description?: string;
  readonly title?: string;
  readonly arguments?: readonly McpPromptArgument[];
  readonly icons?: readonly McpIcon[];
  readonly _meta?: Record<string, unknown>;
  readonly get: (
    args: Readonly<Record<string, string>>,
    ctx: McpRequestContext,
  ) => MaybePromise<McpPromptResult | McpInputRequired>;
}

/** Caching hints of modern list and read results (https://charter.dev/docs/tool-server). */
export interface McpCacheHints {
  /** How long, in milliseconds, a client may reuse the result. Default 0 (immediately stale). */
  readonly ttlMs?: number;
  /** `public`: the same for every caller; `private` (default): reuse within one authorisation context only. */
  readonly scope?: 'public' | 'private';
}
