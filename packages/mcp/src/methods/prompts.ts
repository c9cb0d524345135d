/**
 * `prompts/get` (MCP 2025-11-25 and 2026-07-28 "Prompts" §Getting a Prompt): arguments are a map of
 * strings; a required one missing, or an unknown prompt, is -32602.
 */
import { inputRequiredResult, isInputRequired, openRetry } from '../input-required.ts';
import { withClientInput } from '../session-requests.ts';
import { type McpCall, type MethodResult, invalidParams, isRecord } from '../server.ts';

/** `prompts/get`. */
export async function getPrompt(call: McpCall): Promise<MethodResult> {
  const { name, arguments: given } = call.params;
  if (typeof name !== 'string') throw invalidParams('prompts/get needs params.name (the prompt name)');
  const prompt = call.server.catalog.prompts.get(name);
  if (prompt === undefined) throw invalidParams(`Unknown prompt: ${JSON.stringify(name.slice(0, 128))}`);
  const raw = given ?? {};
  if (!isRecord(raw)) throw invalidParams('prompts/get params.arguments must be an object of strings');
  // Only declared arguments reach the handler; each must be a string (the protocol types them so).
  const args: Record<string, string> = {};
  const missing: string[] = [];
  for (const argument of prompt.arguments ?? []) {
    const value = raw[argument.name];
    if (value === undefined) {
      if (argument.required === true) missing.push(argument.name);
      continue;
    }
    if (typeof value !== 'string')
      throw invalidParams(`Prompt argument ${JSON.stringify(argument.name)} must be a string`);
    args[argument.name] = value;
  }
  if (missing.length > 0) {
    throw invalidParams(
      `Prompt ${JSON.stringify(name)} needs the argument${missing.length === 1 ? '' : 's'} ${missing.map((m) => JSON.stringify(m)).join(', ')}`,
      {
        missing,
      },
    );
  }
  const retry = await openRetry(call, name, raw);
  const answer = await withClientInput({ ...call.ctx, ...retry }, call.ask, (c) =>
    prompt.get(Object.freeze(args), c),
  );
  if (isInputRequired(answer)) return inputRequiredResult(call, answer, name, raw);
  if (!isRecord(answer) || !Array.isArray(answer.messages)) {
    throw new Error(`prompt ${name} returned no messages array`);
  }
  const result: Record<string, unknown> = { messages: answer.messages };
  if (answer.description !== undefined) result.description = answer.description;
  if (answer._meta !== undefined) result._meta = answer._meta;
  return { result };
}
