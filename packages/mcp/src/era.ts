/**
 * Which protocol era a request belongs to (https://charter.dev/docs/tool-server). Pure: the handler decides once per request,
 * then follows that era's rules throughout.
 */
import { MCP_META_KEYS, MCP_MODERN_MIN_VERSION } from './constants.ts';

/** `modern` (2026-07-28 and later) or `legacy` (2025-11-25 and earlier). */
export type McpEra = 'modern' | 'legacy';

/** Whether a revision belongs to the modern era. Revision strings are dates, so string order is time order. */
export function isModernProtocolVersion(version: string): boolean {
  return isRevisionString(version) && version >= MCP_MODERN_MIN_VERSION;
}

/** Whether a string has the shape of a revision, `YYYY-MM-DD`. */
export function isRevisionString(version: string): boolean {
  if (version.length !== 10 || version[4] !== '-' || version[7] !== '-') return false;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const c = version.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** The `_meta` object of a request's params, if it has one. */
export function requestMeta(params: unknown): Record<string, unknown> | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const meta = (params as Record<string, unknown>)._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/**
 * A request is modern when its `_meta` claims a protocol version, or when its
 * `MCP-Protocol-Version` header names a modern one; everything else (an `initialize`, a claim-less
 * POST) is legacy. A modern header over a body without `_meta` stays on the modern path, where it
 * is refused for the missing `_meta`, rather than being served by the legacy rules it did not ask for.
 */
export function requestEra(params: unknown, headerVersion: string | null): McpEra {
  if (requestMeta(params)?.[MCP_META_KEYS.protocolVersion] !== undefined) return 'modern';
  if (headerVersion !== null && isModernProtocolVersion(headerVersion)) return 'modern';
  return 'legacy';
}
