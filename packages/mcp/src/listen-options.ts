/**
 * The `listen` option of `createMcpHandler`: the limits of 2026-07-28 `subscriptions/listen` streams
 * (listen.ts), their defaults, and their validation. A listen stream holds a connection, a timer and
 * a place in the fan-out of every resource announcement for as long as the client keeps it open, so
 * each caller gets a small budget of them and the instance a ceiling.
 */

import { KEEPALIVE_MS } from './stream.ts';

/** Options of `subscriptions/listen` streams (2026-07-28). */
export interface McpListenOptions {
  /**
   * Most listen streams one caller may hold open on this instance at once; one more is refused
   * with -32602. The caller is who `requestStatePrincipal` says (default: a digest of the
   * `Authorization` header); callers without a credential share one budget. Default 4.
   */
  maxStreamsPerCaller?: number;
  /** Most listen streams open on this instance, every caller together. Default 1000. */
  maxStreams?: number;
  /** Most URIs one listen request may name in `resourceSubscriptions`; more is refused with -32602. Default 100. */
  maxResourceSubscriptions?: number;
  /**
   * How often an idle stream carries a comment line, in milliseconds, so that Bun's idle timeout
   * (10 s by default) and proxies do not close it. Default 8000.
   */
  keepaliveMs?: number;
}

/** The options after validation, with defaults filled in. */
export interface ResolvedListenOptions {
  readonly maxStreamsPerCaller: number;
  readonly maxStreams: number;
  readonly maxResourceSubscriptions: number;
  readonly keepaliveMs: number;
}

export const MCP_DEFAULT_LISTEN_OPTIONS: ResolvedListenOptions = Object.freeze({
  maxStreamsPerCaller: 4,
  maxStreams: 1000,
  maxResourceSubscriptions: 100,
  // The legacy GET stream's interval: one idle-timeout budget for every stream of the handler.
  keepaliveMs: KEEPALIVE_MS,
});

/** Checks the `listen` option; a mistake throws a TypeError naming the field. */
export function resolveListenOptions(options: McpListenOptions | undefined): ResolvedListenOptions {
  if (options === undefined) return MCP_DEFAULT_LISTEN_OPTIONS;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError('createMcpHandler: option "listen" must be an object');
  }
  const known = new Set(Object.keys(MCP_DEFAULT_LISTEN_OPTIONS));
  for (const key of Object.keys(options)) {
    if (!known.has(key)) {
      throw new TypeError(
        `createMcpHandler: option "listen" has an unknown field ${JSON.stringify(key)}; known: ${[...known].join(', ')}`,
      );
    }
  }
  const resolved: Record<string, number> = {};
  for (const key of known) {
    const value = (options as Record<string, unknown>)[key];
    const fallback = MCP_DEFAULT_LISTEN_OPTIONS[key as keyof ResolvedListenOptions];
    if (value === undefined) {
      resolved[key] = fallback;
      continue;
    }
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(
        `createMcpHandler: option "listen.${key}" must be a positive integer, got ${String(value)}`,
      );
    }
    resolved[key] = value;
  }
  return Object.freeze(resolved as unknown as ResolvedListenOptions);
}
