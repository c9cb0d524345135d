/** Builds the Request of one client call: path, query, header fields and body. */
import type { HttpMethod } from '@charter/core';
import { encodeBody } from './body.ts';
import { applyHeaders } from './headers.ts';
import { fillTemplate, type PathTemplate } from './path.ts';
import { buildQuery } from './query.ts';

/** Where a call goes: what the client knows of one operation. */
export interface RequestTarget {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The full route path (group and plugin prefixes applied), split at its `:name`/`*name` segments. */
  readonly path: PathTemplate;
  /** Media types the route accepts for its body. */
  readonly accepted: readonly string[];
}

const INPUT_KEYS: ReadonlySet<string> = new Set(['params', 'query', 'headers', 'body']);

/** Checks the call's argument: undefined or an object with only params, query, headers and body. */
export function checkInput(operationId: string, input: unknown): Record<string, unknown> {
  if (input === undefined) return {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError(
      `${operationId}: the argument must be an object { params?, query?, headers?, body? }`,
    );
  }
  for (const key of Object.keys(input)) {
    if (!INPUT_KEYS.has(key)) {
      throw new TypeError(
        `${operationId}: unknown argument member "${key}" (expected params, query, headers or body)`,
      );
    }
  }
  return input as Record<string, unknown>;
}

/**
 * The Request of one call. Every check runs before the Request exists, so a refused value
 * (TypeError naming the operation and the part) never reaches the network.
 */
export function buildRequest(
  target: RequestTarget,
  input: unknown,
  base: string,
  defaultHeaders: Headers,
): Request {
  const { operationId, method } = target;
  const parts = checkInput(operationId, input);
  const path = fillTemplate(operationId, target.path, parts.params);
  const query = buildQuery(operationId, parts.query);
  const headers = new Headers(defaultHeaders);
  applyHeaders(headers, parts.headers, `${operationId}: headers`);
  const encoded = encodeBody(parts.body, {
    operationId,
    method,
    accepted: target.accepted,
    callerContentType: headers.has('content-type'),
  });
  if (encoded.contentType !== undefined && !headers.has('content-type')) {
    headers.set('content-type', encoded.contentType);
  }
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (encoded.body !== undefined) init.body = encoded.body;
  if (encoded.stream) init.duplex = 'half';
  return new Request(query === '' ? base + path : `${base}${path}?${query}`, init);
}
