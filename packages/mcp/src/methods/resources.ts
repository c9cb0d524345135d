/**
 * `resources/read` (MCP 2025-11-25 and 2026-07-28 "Resources" §Reading Resources): a fixed URI
 * first, then the templates in declaration order. A URI nothing serves is not found: -32002 in the
 * legacy era, -32602 in the modern one (SEP-2164), with `data.uri` either way.
 */
import { MCP_ERROR_CODES } from '../constants.ts';
import { McpError } from '../errors.ts';
import { inputRequiredResult, isInputRequired, openRetry } from '../input-required.ts';
import { withClientInput } from '../session-requests.ts';
import { type McpCall, type MethodResult, invalidParams, isRecord } from '../server.ts';
import type { McpResourceContents } from '../types.ts';

function notFound(call: McpCall, uri: string): McpError {
  const code = call.ctx.era === 'modern' ? MCP_ERROR_CODES.invalidParams : MCP_ERROR_CODES.resourceNotFound;
  return new McpError(code, `Resource not found: ${JSON.stringify(uri.slice(0, 200))}`, { data: { uri } });
}

/** The `contents` of a read: a string becomes one text entry; entries are checked (a bad one is a server bug). */
function contentsOf(
  answer: string | readonly McpResourceContents[],
  uri: string,
  mimeType: string | undefined,
): readonly McpResourceContents[] {
  if (typeof answer === 'string')
    return [mimeType === undefined ? { uri, text: answer } : { uri, mimeType, text: answer }];
  if (!Array.isArray(answer))
    throw new Error(`the read handler of ${uri} returned neither a string nor an array of contents`);
  for (const entry of answer) {
    const ok =
      isRecord(entry) &&
      typeof entry.uri === 'string' &&
      (typeof (entry as { text?: unknown }).text === 'string' ||
        typeof (entry as { blob?: unknown }).blob === 'string');
    if (!ok)
      throw new Error(`the read handler of ${uri} returned a contents entry without uri and text or blob`);
  }
  return answer;
}

/** `resources/read`. */
export async function readResource(call: McpCall): Promise<MethodResult> {
  const uri = call.params.uri;
  if (typeof uri !== 'string' || uri.length === 0) throw invalidParams('resources/read needs params.uri');
  const limit = call.server.options.maxResourceUriLength;
  if (uri.length > limit) throw invalidParams(`params.uri is longer than ${limit} characters`);
  const { catalog } = call.server;
  const retry = await openRetry(call, uri, undefined);
  const ctx = { ...call.ctx, ...retry };
  let answer: string | readonly McpResourceContents[] | ReturnType<typeof Object> | null = null;
  let mimeType: string | undefined;
  const fixed = catalog.resources.get(uri);
  if (fixed !== undefined) {
    answer = await withClientInput(ctx, call.ask, (c) => fixed.read(c));
    mimeType = fixed.mimeType;
  } else {
    for (const { template, compiled } of catalog.templates) {
      const variables = compiled.match(uri);
      if (variables === undefined) continue;
      answer = await withClientInput(ctx, call.ask, (c) => template.read(uri, variables, c));
      mimeType = template.mimeType;
      break;
    }
  }
  if (answer === null || answer === undefined) throw notFound(call, uri);
  if (isInputRequired(answer)) return inputRequiredResult(call, answer, uri, undefined);
  const contents = contentsOf(answer as string | readonly McpResourceContents[], uri, mimeType);
  // Never an empty list (2026-07-28): nothing to show is "not found".
  if (contents.length === 0) throw notFound(call, uri);
  return { result: { contents }, cacheable: true };
}
