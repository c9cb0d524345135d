/**
 * `chargeBatchMembers(limit)`: an `onBatch` that counts every member of a JSON-RPC batch against a
 * rate limit, not just the HTTP request that carried them (issue 17: one client within 120
 * requests a minute sent batches of 64 searches and held the event loop at 100 %). The limit's
 * hook already counted the request once; it runs once more per further member, so a batch of n
 * costs n, and a batch the quota cannot cover is refused whole (the limit's 429, `Retry-After`
 * and RateLimit fields) before any member runs.
 */
import type { AnyContext, Hooks, PreBodyContext } from '@charter/core';
import type { McpBatch } from './options.ts';

/**
 * The RateLimit fields (draft-ietf-httpapi-ratelimit-headers, and the earlier drafts' single
 * fields). A limit checked after routing adds them to the request's pending headers and keeps a
 * value already there, so they are cleared before each further count: the last count's stand.
 */
const RATE_LIMIT_FIELDS = [
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
] as const;

/**
 * An `onBatch` that charges each member of a batch to `limit`: the hooks of `rateLimit(...)` (any
 * phase) that also guard the route. Needs the App's context, so the handler must run behind
 * `mcpRoutes`; a bare handler's batch throws a TypeError.
 *
 * @example
 * const limit = rateLimit({ windowMs: 60_000, max: 120, phase: 'preBody' });
 * const handler = createMcpHandler({ serverInfo, tools, onBatch: chargeBatchMembers(limit) });
 * app.registerRoutes(mcpRoutes('/mcp', handler, { public: true, hooks: [limit] }));
 */
export function chargeBatchMembers(limit: Hooks): (batch: McpBatch) => Promise<Response | undefined> {
  if (typeof limit !== 'object' || limit === null) {
    throw new TypeError('chargeBatchMembers: limit must be the hooks rateLimit() returned');
  }
  const { onRequest, preBody, beforeHandle } = limit;
  if (onRequest === undefined && preBody === undefined && beforeHandle === undefined) {
    throw new TypeError(
      'chargeBatchMembers: limit has no onRequest, preBody or beforeHandle hook to count with',
    );
  }
  const countOnce = async (context: AnyContext): Promise<Response | void> => {
    if (preBody !== undefined || beforeHandle !== undefined) {
      for (const field of RATE_LIMIT_FIELDS) context.set.headers.delete(field);
      if (preBody !== undefined) return preBody(context as unknown as PreBodyContext);
      return beforeHandle?.(context);
    }
    // The onRequest phase keys by the request and reports the latest count when the answer is sent.
    return onRequest?.(context.request);
  };
  return async ({ size, context }) => {
    if (context === undefined) {
      throw new TypeError(
        'chargeBatchMembers needs the App context of the request: mount the handler with mcpRoutes',
      );
    }
    // The request itself was counted by the route's own hook: one more count per further member.
    for (let member = 1; member < size; member++) {
      const answer = await countOnce(context);
      if (answer instanceof Response) return answer;
    }
    return undefined;
  };
}
