/** The error the outbound request guard throws when it refuses a request. */

/** Why the guard refused a request. */
export type SsrfReason =
  | 'protocol-not-allowed'
  | 'host-not-allowed'
  | 'dns-resolution-failed'
  | 'address-not-allowed'
  | 'too-many-redirects'
  | 'credentials-in-url'
  | 'invalid-url';

/** Every reason `SsrfError` can carry. */
export const SSRF_REASONS: readonly SsrfReason[] = Object.freeze([
  'protocol-not-allowed',
  'host-not-allowed',
  'dns-resolution-failed',
  'address-not-allowed',
  'too-many-redirects',
  'credentials-in-url',
  'invalid-url',
]);

const MAX_URL_TEXT = 2048;

/** The URL as the error shows it: userinfo removed (it may hold a password), long text cut. */
export function redactUrl(url: URL | string): string {
  if (typeof url === 'string') return url.length > MAX_URL_TEXT ? `${url.slice(0, MAX_URL_TEXT)}...` : url;
  if (url.username === '' && url.password === '') return redactUrl(url.href);
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return redactUrl(copy.href);
}

/** Options of `SsrfError` beyond its reason and URL. */
export interface SsrfErrorOptions {
  /** The refused address (a DNS answer or the literal host), when an address was the reason. */
  address?: string;
  /** The underlying error (a DNS failure), kept for logs. */
  cause?: unknown;
}

/**
 * Thrown by a `fetchGuard` fetch that refuses a request or one of its redirects. `url` is the refused
 * URL with any userinfo removed; `address` is set for `address-not-allowed`.
 */
export class SsrfError extends Error {
  readonly reason: SsrfReason;
  readonly url: string;
  readonly address: string | undefined;

  constructor(reason: SsrfReason, url: URL | string, message: string, options?: SsrfErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SsrfError';
    this.reason = reason;
    this.url = redactUrl(url);
    this.address = options?.address;
  }
}

/** True for an `SsrfError`, including one from another copy of the library. */
export function isSsrfError(value: unknown): value is SsrfError {
  return (
    value instanceof SsrfError ||
    (value instanceof Error &&
      value.name === 'SsrfError' &&
      SSRF_REASONS.includes((value as { reason?: unknown }).reason as SsrfReason))
  );
}
