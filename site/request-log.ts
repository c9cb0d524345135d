/**
 * One log line per request (`bun run site`): method, path (never the query, which may carry
 * personal data), status and duration. The start time is kept per Request object, which the
 * pipeline hands unchanged to onRequest and onResponse.
 */
import type { Hooks, Logger } from '@charter/core';

/** Hooks that log each request at `info` when its response is final. */
export function requestLog(logger: Logger): Hooks {
  const started = new WeakMap<Request, number>();
  return {
    onRequest(request) {
      started.set(request, performance.now());
    },
    onResponse(response, _ctx, request) {
      const start = started.get(request);
      const ms = start === undefined ? undefined : Math.round((performance.now() - start) * 10) / 10;
      // The path of an absolute URL, without parsing it: it starts at the first `/` after `//`.
      const url = request.url;
      const slash = url.indexOf('/', url.indexOf('//') + 2);
      const query = url.indexOf('?', slash);
      const path = slash === -1 ? '/' : url.slice(slash, query === -1 ? undefined : query);
      logger.info('request', { method: request.method, path, status: response.status, ms });
    },
  };
}
