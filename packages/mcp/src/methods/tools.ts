/**
 * `tools/call` (MCP 2025-11-25 and 2026-07-28 "Tools" §Calling Tools): finds the tool, checks the
 * `Mcp-Param-*` mirrors (due in the modern era, checked when sent in the legacy one), validates the arguments against `inputSchema` before the handler
 * runs (-32602 with the list of problems, see https://charter.dev/docs/tool-server), runs it, and shapes its answer:
 * text, a result (its `structuredContent` checked against `outputSchema`), an `isError` result for
 * an `McpToolError`, or an input-required interim result.
 */
import { flattenIssues } from '@charter/core';
import type { CompiledTool } from '../catalog.ts';
import { McpToolError } from '../errors.ts';
import { checkMcpParamHeaders } from '../headers.ts';
import { inputRequiredResult, isInputRequired, openRetry } from '../input-required.ts';
import { withClientInput } from '../session-requests.ts';
import { renderLocation, validateMcpInput } from '../input-schema.ts';
import { headerMismatch, type McpCall, type MethodResult, invalidParams, isRecord } from '../server.ts';
import type { McpContent, McpToolResult } from '../types.ts';

/** Problems of a Standard Schema validation, located the way validateMcpInput locates its own. */
function issuesOf(issues: ReturnType<typeof flattenIssues>): string[] {
  return issues.map((issue) => {
    // flattenIssues gives every key as a string; an all-digit one is an array index.
    const keys = issue.path.map((key) => (/^\d+$/.test(key) ? Number(key) : key));
    return `${renderLocation(keys, 'arguments')}: ${issue.message}`;
  });
}

function invalidArguments(tool: string, problems: readonly string[]): Error {
  return invalidParams(`Invalid arguments for tool ${JSON.stringify(tool)}: ${problems.join('; ')}`, {
    problems,
  });
}

/** The arguments after both checks: the JSON Schema subset always, the Standard Schema when declared (its output is what the handler gets). */
async function validatedArguments(compiled: CompiledTool, args: Record<string, unknown>): Promise<unknown> {
  const name = compiled.tool.name;
  const problems = validateMcpInput(compiled.inputSchema, args);
  if (problems.length > 0) throw invalidArguments(name, problems);
  if (compiled.inputStandard === undefined) return args;
  const result = await compiled.inputStandard['~standard'].validate(args);
  if (result.issues !== undefined) throw invalidArguments(name, issuesOf(flattenIssues(result.issues)));
  return result.value;
}

/** A result's content: as given; else the JSON of `structuredContent` as one text block (2025-06-18 "Structured Content": for clients that only read content). */
function contentOf(result: McpToolResult): readonly McpContent[] {
  if (result.content !== undefined) return result.content;
  if (result.structuredContent !== undefined)
    return [{ type: 'text', text: JSON.stringify(result.structuredContent) }];
  return [];
}

/** Checks a handler's result: a bug in it is the server's failure (-32603), not the client's. */
async function checkedResult(
  call: McpCall,
  compiled: CompiledTool,
  result: McpToolResult,
): Promise<Record<string, unknown>> {
  if (!isRecord(result))
    throw new Error(`tool ${compiled.tool.name} returned neither a result object nor a string`);
  if (result.content !== undefined && !Array.isArray(result.content)) {
    throw new Error(`tool ${compiled.tool.name} returned content that is not an array`);
  }
  const { structuredContent } = result;
  if (structuredContent !== undefined && !isRecord(structuredContent)) {
    throw new Error(`tool ${compiled.tool.name} returned structuredContent that is not an object`);
  }
  if (compiled.outputSchema !== undefined && result.isError !== true) {
    // 2025-06-18 "Output Schema": a server that declares one MUST return conforming results.
    if (structuredContent === undefined)
      throw new Error(`tool ${compiled.tool.name} has an outputSchema but returned no structuredContent`);
    const problems = validateMcpInput(compiled.outputSchema, structuredContent);
    if (problems.length > 0) {
      throw new Error(
        `tool ${compiled.tool.name} returned structuredContent that does not match its outputSchema: ${problems.join('; ')}`,
      );
    }
    if (compiled.outputStandard !== undefined) {
      const checked = await compiled.outputStandard['~standard'].validate(structuredContent);
      if (checked.issues !== undefined) {
        throw new Error(
          `tool ${compiled.tool.name} returned structuredContent that does not match its outputSchema`,
        );
      }
    }
  }
  const out: Record<string, unknown> = { content: contentOf(result) };
  // structuredContent arrived with 2025-06-18; older revisions get the text block only.
  if (structuredContent !== undefined && call.ctx.protocolVersion >= '2025-06-18')
    out.structuredContent = structuredContent;
  if (result.isError === true) out.isError = true;
  if (result._meta !== undefined) out._meta = result._meta;
  return out;
}

/** `tools/call`. */
export async function callTool(call: McpCall): Promise<MethodResult> {
  const { name, arguments: given } = call.params;
  if (typeof name !== 'string') throw invalidParams('tools/call needs params.name (the tool name)');
  const compiled = call.server.catalog.tools.get(name);
  if (compiled === undefined) throw invalidParams(`Unknown tool: ${JSON.stringify(name.slice(0, 128))}`);
  const args = given ?? {};
  if (!isRecord(args)) throw invalidParams('tools/call params.arguments must be an object');
  if (compiled.headerParams.length > 0) {
    // Due in the modern era; in the legacy one checked when sent, so a gateway that routes by the
    // header never sees one value while the tool runs with another.
    const problem = checkMcpParamHeaders(
      call.ctx.request.headers,
      compiled.headerParams,
      args,
      call.ctx.era === 'modern',
    );
    if (problem !== undefined) throw headerMismatch(problem);
  }
  const value = await validatedArguments(compiled, args);
  const retry = await openRetry(call, name, args);
  const ctx = { ...call.ctx, ...retry };
  let answer: unknown;
  try {
    answer = await withClientInput(ctx, call.ask, (c) => compiled.tool.handler(value, c));
  } catch (error) {
    if (!(error instanceof McpToolError)) throw error;
    const content: readonly McpContent[] = error.content ?? [{ type: 'text', text: error.message }];
    const result: Record<string, unknown> = { content, isError: true };
    if (error.structuredContent !== undefined && call.ctx.protocolVersion >= '2025-06-18') {
      result.structuredContent = error.structuredContent;
    }
    return { result };
  }
  if (typeof answer === 'string') return { result: { content: [{ type: 'text', text: answer }] } };
  if (isInputRequired(answer)) return inputRequiredResult(call, answer, name, args);
  return { result: await checkedResult(call, compiled, answer as McpToolResult) };
}

/** `tools/list` entries for a revision: `outputSchema` only from 2025-06-18, which introduced it. */
export function toolEntriesFor(call: McpCall): readonly Record<string, unknown>[] {
  const entries = call.server.catalog.toolEntries;
  if (call.ctx.protocolVersion >= '2025-06-18') return entries;
  return entries.map(({ outputSchema: _outputSchema, ...entry }) => entry);
}
