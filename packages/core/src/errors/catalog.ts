import { keepClassNames } from './class-names.ts';
import { errorTypeUri } from './error-types.ts';
import { HttpError, type HttpErrorOptions } from './http-error.ts';

/** Options of the status-specific error classes: a detail string, or the full option bag. */
export type ErrorInit = string | Omit<HttpErrorOptions, 'status'>;

function init(status: number, detailOrOptions: ErrorInit | undefined): HttpErrorOptions {
  if (detailOrOptions === undefined) return { status };
  if (typeof detailOrOptions === 'string') return { status, detail: detailOrOptions };
  return { ...detailOrOptions, status };
}

function withHeader(options: HttpErrorOptions, name: string, value: string): HttpErrorOptions {
  const headers = new Headers(options.headers);
  if (!headers.has(name)) headers.set(name, value);
  return { ...options, headers };
}

export class BadRequestError extends HttpError {
  constructor(detail?: ErrorInit) {
    super(init(400, detail));
  }
}

export interface UnauthorizedErrorOptions extends Omit<HttpErrorOptions, 'status'> {
  /** The challenge for `WWW-Authenticate` (RFC 9110 §11.6.1); default `Bearer realm="api"`. */
  challenge?: string;
}

/** 401: always carries `WWW-Authenticate`, which RFC 9110 §15.5.2 requires. */
export class UnauthorizedError extends HttpError {
  constructor(detail?: string | UnauthorizedErrorOptions) {
    const options = init(401, detail);
    const challenge = (typeof detail === 'object' ? detail.challenge : undefined) ?? 'Bearer realm="api"';
    super(withHeader(options, 'www-authenticate', challenge));
  }
}

export class ForbiddenError extends HttpError {
  constructor(detail?: ErrorInit) {
    super(init(403, detail));
  }
}

export class NotFoundError extends HttpError {
  constructor(detail?: ErrorInit) {
    super(init(404, detail));
  }
}

/** 405: carries `Allow`, which RFC 9110 §15.5.6 requires. */
export class MethodNotAllowedError extends HttpError {
  readonly allowed: readonly string[];
  constructor(allowed: readonly string[], detail?: ErrorInit) {
    super(withHeader(init(405, detail), 'allow', allowed.join(', ')));
    this.allowed = allowed;
  }
}

export interface RequestTimeoutErrorOptions extends Omit<HttpErrorOptions, 'status'> {
  /** 408 (default), 503 or 504, as the app's `requestTimeoutStatus` says. */
  status?: 408 | 503 | 504;
}

/** The request did not finish within `requestTimeoutMs`; type is always `.../errors/request-timeout`. */
export class RequestTimeoutError extends HttpError {
  constructor(detail?: string | RequestTimeoutErrorOptions) {
    const options = typeof detail === 'object' ? detail : { detail };
    super({
      ...options,
      status: options.status ?? 408,
      type: errorTypeUri('request-timeout'),
      title: options.title ?? 'Request Timeout',
      internal: false,
    });
  }
}

/** 409: `Cache-Control: no-store`, so no cache keeps a conflict that will change. */
export class ConflictError extends HttpError {
  constructor(detail?: ErrorInit) {
    super(withHeader(init(409, detail), 'cache-control', 'no-store'));
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(detail?: ErrorInit) {
    super(init(413, detail));
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(detail?: ErrorInit) {
    super(init(415, detail));
  }
}

/** Where in the request a validation issue was found. */
export type IssueLocation = 'params' | 'query' | 'headers' | 'body';

/** One validation issue: a location, a path into the value and a message. */
export interface ValidationIssue {
  in: IssueLocation;
  path: string[];
  message: string;
}

/** 422: the request did not match the route's schemas. The issues are the `issues` member. */
export class ValidationError extends HttpError {
  readonly issues: readonly ValidationIssue[];
  constructor(issues: readonly ValidationIssue[], detail?: string) {
    const first = issues[0];
    super({
      status: 422,
      title: 'Validation Failed',
      detail:
        detail ?? (first === undefined ? 'The request is invalid.' : describeIssue(first, issues.length)),
      extensions: { issues },
      internal: false,
    });
    this.issues = issues;
  }
}

function describeIssue(issue: ValidationIssue, count: number): string {
  const where = issue.path.length === 0 ? issue.in : `${issue.in}.${issue.path.join('.')}`;
  const more = count > 1 ? ` (and ${count - 1} more issue${count > 2 ? 's' : ''})` : '';
  return `${where}: ${issue.message}${more}`;
}

export interface TooManyRequestsErrorOptions extends Omit<HttpErrorOptions, 'status'> {
  /** Seconds until a retry may succeed, sent as `Retry-After` (RFC 9110 §10.2.3); default 1. */
  retryAfterSeconds?: number;
}

export class TooManyRequestsError extends HttpError {
  constructor(detail?: string | TooManyRequestsErrorOptions) {
    const options = init(429, detail);
    const seconds = typeof detail === 'object' ? (detail.retryAfterSeconds ?? 1) : 1;
    super(withHeader(options, 'retry-after', String(Math.max(0, Math.ceil(seconds)))));
  }
}

/** 431: too many request header fields (RFC 6585 §5). */
export class RequestHeaderFieldsTooLargeError extends HttpError {
  constructor(detail?: ErrorInit) {
    super(init(431, detail));
  }
}

/** 500: the detail describes internals, so it is redacted in production. */
export class InternalError extends HttpError {
  constructor(detail?: ErrorInit) {
    super({ ...init(500, detail), internal: true });
  }
}

/** 503 with an optional `Retry-After`. */
export class ServiceUnavailableError extends HttpError {
  constructor(detail?: string | TooManyRequestsErrorOptions) {
    const options = init(503, detail);
    const seconds = typeof detail === 'object' ? detail.retryAfterSeconds : undefined;
    super(
      seconds === undefined
        ? { ...options, internal: false }
        : { ...withHeader(options, 'retry-after', String(Math.ceil(seconds))), internal: false },
    );
  }
}

keepClassNames({
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  MethodNotAllowedError,
  RequestTimeoutError,
  ConflictError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
  TooManyRequestsError,
  RequestHeaderFieldsTooLargeError,
  InternalError,
  ServiceUnavailableError,
});

/** A typed factory: `httpError({ status: 418, detail })` gives the matching class where one exists. */
export function httpError(options: HttpErrorOptions): HttpError {
  const { status } = options;
  const rest = { ...options } as Omit<HttpErrorOptions, 'status'> & { status?: number };
  delete rest.status;
  switch (status) {
    case 400:
      return new BadRequestError(rest);
    case 401:
      return new UnauthorizedError(rest);
    case 403:
      return new ForbiddenError(rest);
    case 404:
      return new NotFoundError(rest);
    case 409:
      return new ConflictError(rest);
    case 413:
      return new PayloadTooLargeError(rest);
    case 415:
      return new UnsupportedMediaTypeError(rest);
    case 429:
      return new TooManyRequestsError(rest);
    case 431:
      return new RequestHeaderFieldsTooLargeError(rest);
    case 500:
      return new InternalError(rest);
    default:
      return new HttpError(options);
  }
}
