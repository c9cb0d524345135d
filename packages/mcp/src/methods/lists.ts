/**
 * The list methods (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`) and
 * their cursors (MCP 2025-11-25 "Pagination"): a cursor is opaque to the client; here it names the
 * list and the offset (not secret, not signed: it only selects a page of a public list), so a
 * cursor from one list is refused by another, and one naming no offset in the list gets -32602.
 */
import { decodeBase64Url, encodeBase64Url } from '@charter/core';
import { type McpCall, type MethodResult, invalidParams } from '../server.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function encodeCursor(list: string, offset: number): string {
  return encodeBase64Url(encoder.encode(`${list}:${offset}`));
}

function decodeCursor(cursor: unknown, list: string, length: number): number {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 200) {
    throw invalidParams('Invalid cursor: it was not issued by this server for this list');
  }
  const bytes = decodeBase64Url(cursor);
  let text: string | undefined;
  try {
    text = bytes === undefined ? undefined : decoder.decode(bytes);
  } catch {
    text = undefined;
  }
  const prefix = `${list}:`;
  const digits = text?.startsWith(prefix) ? text.slice(prefix.length) : '';
  const offset = /^[1-9][0-9]{0,8}$/.test(digits) ? Number(digits) : Number.NaN;
  if (!(offset > 0 && offset < length)) {
    throw invalidParams('Invalid cursor: it was not issued by this server for this list');
  }
  return offset;
}

/** One page of a list, with `nextCursor` when more follow. */
export function listPage(
  call: McpCall,
  list: 'tools' | 'resources' | 'resourceTemplates' | 'prompts',
  entries: readonly Record<string, unknown>[],
): MethodResult {
  const size = call.server.options.pageSize;
  const cursor = call.params.cursor;
  const offset = cursor === undefined ? 0 : decodeCursor(cursor, list, entries.length);
  const page = entries.slice(offset, offset + size);
  const result: Record<string, unknown> = { [list]: page };
  if (offset + size < entries.length) result.nextCursor = encodeCursor(list, offset + size);
  return { result, cacheable: true };
}
