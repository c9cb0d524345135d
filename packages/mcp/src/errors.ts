/**
 * The module's two error classes: `McpToolError`, which a tool throws to report a failure the model
 * should see (an `isError: true` result, MCP 2025-11-25 "Tools" §Error Handling), and `McpError`, a
 * JSON-RPC error with the HTTP status it travels with.
 */
import type { McpContent } from './types.ts';

/** Options of `McpToolError`. */
export interface McpToolErrorOptions {
  /** Content to return instead of one text block with the message. */
  readonly content?: readonly McpContent[];
  /** Structured details for the model. */
  readonly structuredContent?: Record<string, unknown>;
  readonly cause?: unknown;
}

/**
 * Thrown by a tool handler: the call answers a normal result with `isError: true` and the message
 * as text, so the model can read it and correct itself. Any other throw is an internal error
 * (-32603) whose detail is hidden in production.
 */
export class McpToolError extends Error {
  readonly content: readonly McpContent[] | undefined;
  readonly structuredContent: Record<string, unknown> | undefined;
  constructor(message: string, options: McpToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'McpToolError';
    this.content = options.content;
    this.structuredContent = options.structuredContent;
  }
}

/**
 * A JSON-RPC error answer: `code`, `message`, optional `data`, and the HTTP status of the response
 * (200 for method-level errors, 400 for the transport's validation failures, 404 for unknown
 * methods in the modern era). Resource, prompt and completion handlers may throw one, e.g.
 * `new McpError(-32602, 'Unknown region')`.
 */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly status: number;
  constructor(code: number, message: string, options: { data?: unknown; status?: number } = {}) {
    super(message);
    this.name = 'McpError';
    this.code = code;
    this.data = options.data;
    this.status = options.status ?? 200;
  }
}

/** Whether a value is an `McpError` (also one from another copy of the module). */
export function isMcpError(error: unknown): error is McpError {
  return (
    error instanceof McpError || (error instanceof Error && error.name === 'McpError' && 'code' in error)
  );
}
