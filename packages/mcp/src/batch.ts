/**
 * Step 5 of the handler: a JSON-RPC batch (a JSON array, JSON-RPC 2.0 §6). Batches exist only in
 * MCP 2025-03-26 (2025-06-18 removed them; the modern era never had them), so one is served when
 * `MCP-Protocol-Version` names that revision or is absent (2025-03-26 is then assumed).
 *
 * A batch is many calls for the price of one HTTP request, so whatever counts requests (a rate
 * limit, a quota) undercounts it. What bounds it here (issue 17, where 64 searches per request held
 * a server's event loop at 100 %):
 *
 *   - `maxBatchSize` members at most (default 16; 0 refuses batches), or -32600 and nothing runs;
 *   - `onBatch`, before any member runs, to charge each member to a limit or refuse the batch;
 *   - `maxBatchResponseBytes` of answers (default 1 MiB): past it, members are not run (-32000);
 *   - members of all batches run in one lane, one per turn of the event loop (batch-lane.ts), so
 *     another request waits for at most one member, not for whole batches.
 */
import { classifyMessage, JSON_RPC_ERROR_CODES, type JsonRpcId, jsonRpcError } from '@charter/json-rpc';
import type { AnyContext } from '@charter/core';
import { MCP_DEFAULT_LEGACY_VERSION, MCP_ERROR_CODES } from './constants.ts';
import type { RequestFrame } from './dispatch.ts';
import { isModernProtocolVersion } from './era.ts';
import { batchTurn } from './batch-lane.ts';
import { serveMessage } from './message.ts';
import type { Responder } from './transport.ts';

/** The only revision with batches. */
const BATCH_REVISION = '2025-03-26';

/** Bytes of `text` in UTF-8, without encoding it (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two code units, one 4-byte code point.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The answer of a member that was not run because the batch's answers reached the cap. */
function notRun(id: JsonRpcId | null, max: number): string {
  return JSON.stringify(
    jsonRpcError(
      id,
      MCP_ERROR_CODES.batchBudgetExhausted,
      `Not run: the answers of this batch reached ${max} bytes; send this request again on its own or in another batch`,
      { maxBatchResponseBytes: max },
    ),
  );
}

/**
 * Serves a batch: checks it (revision, size), lets `onBatch` charge or refuse it, then serves each
 * message in turn. The answers form one array, or 202 when none needed one.
 */
export async function serveBatch(
  frame: RequestFrame,
  responder: Responder,
  items: readonly unknown[],
  context: AnyContext | undefined,
): Promise<Response> {
  const { options } = frame.server;
  const header = frame.request.headers.get('mcp-protocol-version');
  const version = header ?? MCP_DEFAULT_LEGACY_VERSION;
  const refuse = (message: string) =>
    responder.json(jsonRpcError(null, JSON_RPC_ERROR_CODES.invalidRequest, message), 400);
  if (version !== BATCH_REVISION || !options.protocolVersions.includes(version)) {
    return refuse(
      `Invalid Request: JSON-RPC batches are not allowed in protocol revision ${isModernProtocolVersion(version) ? version : JSON.stringify(version.slice(0, 40))}`,
    );
  }
  if (options.maxBatchSize === 0) {
    return refuse('Invalid Request: this server accepts no JSON-RPC batches; send one message per request');
  }
  if (items.length === 0) return refuse('Invalid Request: an empty batch');
  if (items.length > options.maxBatchSize) {
    return refuse(`Invalid Request: a batch may carry at most ${options.maxBatchSize} messages`);
  }
  if (options.onBatch !== undefined) {
    const answer = await options.onBatch({ request: frame.request, size: items.length, context });
    if (answer instanceof Response) return answer;
  }
  const max = options.maxBatchResponseBytes;
  const answers: string[] = [];
  // "[" and "]", plus a "," before every answer but the first.
  let bytes = 2;
  let exhausted = false;
  for (let i = 0; i < items.length; i++) {
    const classified = classifyMessage(items[i]);
    // Members of every batch take turns, one per turn of the event loop (batch-lane.ts).
    if (classified.kind === 'request' && !exhausted) await batchTurn();
    if (exhausted && classified.kind === 'request') {
      answers.push(notRun(classified.message.id, max));
      continue;
    }
    const answer = await serveMessage(frame, classified, true);
    if (answer === undefined) continue;
    const text = JSON.stringify(answer.body);
    const size = utf8Length(text) + (answers.length > 0 ? 1 : 0);
    if (!exhausted && bytes + size > max) {
      // The answer is computed but not sent: the cap holds whatever the handlers return.
      exhausted = true;
      answers.push(notRun(answer.body.id, max));
      continue;
    }
    answers.push(text);
    bytes += size;
  }
  return answers.length === 0 ? responder.accepted() : responder.jsonText(`[${answers.join(',')}]`, 200);
}
