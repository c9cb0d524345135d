import { checkCustomErrorResponseHeaders, ErrorHeaderLeakError } from './leak-guard.ts';
import { type HttpError, isHttpError, type ProblemDetails } from './http-error.ts';
import { InternalError } from './catalog.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** What the pipeline learns from turning any thrown value into a problem response. */
export interface RenderedError {
  response: Response;
  /** The HttpError that was rendered (an unknown throw becomes an InternalError). */
  error: HttpError;
  /** True when the thrown value was not an HttpError: a bug, worth logging with its stack. */
  unexpected: boolean;
}

/** Turns any error into an HttpError: unknown values become a 500 whose detail is internal. */
export function toHttpError(error: unknown): { error: HttpError; unexpected: boolean } {
  if (isHttpError(error)) return { error, unexpected: false };
  const detail = error instanceof Error ? error.message : 'An unexpected value was thrown';
  return { error: new InternalError({ detail, cause: error }), unexpected: true };
}

/**
 * Renders an error as an RFC 9457 response. With `redact` (production), internal detail is
 * dropped. Headers set by the error pass the leak guard; a violation becomes a plain 500.
 */
export function renderError(thrown: unknown, redact: boolean, extraHeaders?: Headers): RenderedError {
  let { error, unexpected } = toHttpError(thrown);
  try {
    checkCustomErrorResponseHeaders(error.headers);
  } catch (leak) {
    if (!(leak instanceof ErrorHeaderLeakError)) throw leak;
    error = new InternalError({ detail: leak.message, cause: thrown });
    unexpected = true;
  }
  return {
    response: problemResponse(error.toProblem(redact), error.headers, extraHeaders),
    error,
    unexpected,
  };
}

/** A `application/problem+json` response for a problem document. */
export function problemResponse(
  problem: ProblemDetails,
  headers?: Headers,
  extraHeaders?: Headers,
): Response {
  const out = new Headers(extraHeaders);
  if (headers !== undefined) for (const [name, value] of headers) out.set(name, value);
  out.set('content-type', PROBLEM_CONTENT_TYPE);
  return new Response(JSON.stringify(problem), { status: problem.status, headers: out });
}
