/**
 * `completion/complete` (MCP 2025-11-25 and 2026-07-28 "Completion"): suggestions for a prompt
 * argument or a resource-template variable, at most 100 values per answer.
 */
import { type McpCall, type MethodResult, invalidParams, isRecord } from '../server.ts';
import type { McpCompleter } from '../types.ts';

const MAX_VALUES = 100;

function completerFor(
  call: McpCall,
  ref: Record<string, unknown>,
  argument: string,
): McpCompleter | undefined {
  const { catalog } = call.server;
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string') throw invalidParams('completion/complete ref/prompt needs a name');
    const prompt = catalog.prompts.get(ref.name);
    if (prompt === undefined)
      throw invalidParams(`Unknown prompt: ${JSON.stringify(ref.name.slice(0, 128))}`);
    return prompt.arguments?.find((a) => a.name === argument)?.complete;
  }
  if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') throw invalidParams('completion/complete ref/resource needs a uri');
    const template = catalog.templates.find((t) => t.template.uriTemplate === ref.uri);
    if (template === undefined)
      throw invalidParams(`Unknown resource template: ${JSON.stringify(ref.uri.slice(0, 200))}`);
    return template.template.complete?.[argument];
  }
  throw invalidParams('completion/complete params.ref.type must be "ref/prompt" or "ref/resource"');
}

function contextArguments(context: unknown): Record<string, string> {
  if (context === undefined) return {};
  if (!isRecord(context)) throw invalidParams('completion/complete params.context must be an object');
  const args = context.arguments ?? {};
  if (!isRecord(args) || Object.values(args).some((v) => typeof v !== 'string')) {
    throw invalidParams('completion/complete params.context.arguments must be an object of strings');
  }
  return args as Record<string, string>;
}

/** `completion/complete`. */
export async function complete(call: McpCall): Promise<MethodResult> {
  const { ref, argument, context } = call.params;
  if (!isRecord(ref)) throw invalidParams('completion/complete needs params.ref');
  if (!isRecord(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams('completion/complete needs params.argument { name, value } (strings)');
  }
  const completer = completerFor(call, ref, argument.name);
  const args = contextArguments(context);
  if (completer === undefined) return { result: { completion: { values: [] } } };
  const answer = await completer(argument.value, { arguments: args }, call.ctx);
  const list = Array.isArray(answer) ? answer : (answer as { values?: unknown }).values;
  if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
    throw new Error(`the completer of ${argument.name} returned no string values`);
  }
  const values = list.slice(0, MAX_VALUES);
  const completion: Record<string, unknown> = { values };
  const total = Array.isArray(answer) ? list.length : (answer as { total?: number }).total;
  if (typeof total === 'number') completion.total = total;
  const hasMore =
    list.length > MAX_VALUES ||
    (!Array.isArray(answer) && (answer as { hasMore?: boolean }).hasMore === true);
  if (hasMore) completion.hasMore = true;
  return { result: { completion } };
}
