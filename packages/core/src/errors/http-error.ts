import type { HeadersInit } from '../types/web.ts';
import { keepClassNames } from './class-names.ts';
import { type ErrorCode, ERROR_CODES, errorTypeUri, statusTitle } from './error-types.ts';

/** An RFC 9457 problem details object. Extension members sit beside the standard ones. */
export interface ProblemDetails {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

export interface HttpErrorOptions {
  status: number;
  title?: string;
  /** Defaults to the catalog URI for the status, if it has one (else `about:blank`, RFC 9457 §4.2.1). */
  type?: string;
  detail?: string;
  instance?: string;
  /** Response headers this error needs (`WWW-Authenticate`, `Retry-After`...); see the leak allowlist. */
  headers?: HeadersInit;
  /** Extension members (RFC 9457 §3.2) added to the problem document. */
  extensions?: Record<string, unknown>;
  /** The underlying error, kept for logs and never serialised. */
  cause?: unknown;
  /** True when `detail` may describe internals: it is then replaced in production. */
  internal?: boolean;
}

const RESERVED_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'instance']);

/**
 * The base of every error the framework answers with. Thrown anywhere in a request (hooks,
 * handler, validation) it becomes an `application/problem+json` response.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly title: string;
  readonly type: string | undefined;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  readonly headers: Headers | undefined;
  readonly extensions: Record<string, unknown> | undefined;
  readonly internal: boolean;

  constructor(options: HttpErrorOptions) {
    const status = options.status;
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer from 400 to 599, got ${String(status)}`);
    }
    const title = options.title ?? statusTitle(status);
    super(options.detail ?? title, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.title = title;
    const code = (ERROR_CODES as Record<number, ErrorCode | undefined>)[status];
    this.type = options.type ?? (code === undefined ? undefined : errorTypeUri(code));
    this.detail = options.detail;
    this.instance = options.instance;
    this.headers = options.headers === undefined ? undefined : new Headers(options.headers);
    this.extensions = options.extensions;
    this.internal = options.internal ?? status >= 500;
  }

  /** The problem document. With `redact`, internal detail and extensions are left out. */
  toProblem(redact = false): ProblemDetails {
    const problem: ProblemDetails = {
      type: this.type ?? 'about:blank',
      title: this.title,
      status: this.status,
    };
    const hideDetail = redact && this.internal;
    if (this.detail !== undefined && !hideDetail) problem.detail = this.detail;
    if (this.instance !== undefined) problem.instance = this.instance;
    if (this.extensions !== undefined && !hideDetail) {
      for (const key of Object.keys(this.extensions)) {
        if (!RESERVED_MEMBERS.has(key)) problem[key] = this.extensions[key];
      }
    }
    return problem;
  }
}

keepClassNames({ HttpError });

/** True for any HttpError, including ones from another copy of the library. */
export function isHttpError(value: unknown): value is HttpError {
  return (
    value instanceof HttpError ||
    (value instanceof Error &&
      typeof (value as { status?: unknown }).status === 'number' &&
      typeof (value as { toProblem?: unknown }).toProblem === 'function')
  );
}
