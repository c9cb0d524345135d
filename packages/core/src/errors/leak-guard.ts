/**
 * Error responses may carry only headers from a known-safe list. A custom header on an error
 * (`X-Debug-Query: SELECT ...`) is a classic way internals leak to clients, so anything outside
 * the list is refused rather than sent.
 */
import type { HeadersInit } from '../types/web.ts';

export const SAFE_ERROR_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-patch',
  'accept-post',
  'accept-ranges',
  'allow',
  'cache-control',
  'content-language',
  'content-type',
  'deprecation',
  'link',
  'location',
  'proxy-authenticate',
  'ratelimit',
  'ratelimit-limit',
  'ratelimit-policy',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'sunset',
  'vary',
  'www-authenticate',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
  'request-id',
  'traceparent',
  'tracestate',
]);

/** Thrown when an error response would carry a header outside the safe allowlist. */
export class ErrorHeaderLeakError extends Error {
  readonly header: string;
  constructor(header: string) {
    super(
      `Error responses may not set the header "${header}": it is outside the safe allowlist ` +
        '(SAFE_ERROR_RESPONSE_HEADERS) and could leak internal detail',
    );
    this.name = 'ErrorHeaderLeakError';
    this.header = header;
  }
}

/** Throws ErrorHeaderLeakError when a header is outside SAFE_ERROR_RESPONSE_HEADERS. */
export function checkCustomErrorResponseHeaders(headers: HeadersInit | undefined): void {
  if (headers === undefined) return;
  // An HttpError's headers are already a Headers (names lower-cased): read them without a copy.
  for (const name of (headers instanceof Headers ? headers : new Headers(headers)).keys()) {
    if (!SAFE_ERROR_RESPONSE_HEADERS.has(name)) throw new ErrorHeaderLeakError(name);
  }
}
