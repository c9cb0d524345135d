/**
 * JSON-RPC request builders for the tests of `site/mcp`: a legacy-era call (2025-11-25, the
 * revision the v1 client speaks after `initialize`) and a modern one (2026-07-28, with the
 * per-request `_meta` and mirrored headers), as Request objects or as `app.request` init.
 */
import { MCP_META_KEYS } from '@charter/mcp';

export type Json = Record<string, unknown>;

/** The RequestInit of a JSON-RPC POST. `era` picks the protocol revision and its headers. */
export function rpcInit(
  method: string,
  params: Json = {},
  options: { era?: 'legacy' | 'modern'; headers?: Record<string, string>; id?: number | string } = {},
): RequestInit {
  const modern = options.era === 'modern';
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
    ...options.headers,
  };
  let body: Json = params;
  if (modern) {
    headers['mcp-method'] = method;
    if (method === 'tools/call') headers['mcp-name'] = String(params.name);
    body = {
      ...params,
      _meta: {
        [MCP_META_KEYS.protocolVersion]: '2026-07-28',
        [MCP_META_KEYS.clientCapabilities]: {},
      },
    };
  }
  return {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: options.id ?? 1, method, params: body }),
  };
}

/** A `tools/call` RequestInit. */
export function callInit(name: string, args: Json, options: Parameters<typeof rpcInit>[2] = {}): RequestInit {
  return rpcInit('tools/call', { name, arguments: args }, options);
}

/** The text of the first content block of a tool result. */
export function textOf(result: Json): string {
  const [first] = result.content as { type: string; text: string }[];
  return first?.type === 'text' ? first.text : '';
}
