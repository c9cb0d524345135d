/**
 * `defineMcpTool`: an identity function that keeps a tool's argument type. With a Standard Schema
 * as `inputSchema`, the handler's `args` is the schema's output type; in an array literal
 * TypeScript would otherwise widen every tool to the loosest one.
 */
import type { McpTool, McpToolSchema } from './types.ts';

/** Declares a tool with its handler's arguments typed from `inputSchema`. */
export function defineMcpTool<const S extends McpToolSchema>(tool: McpTool<S>): McpTool<S> {
  return tool;
}
