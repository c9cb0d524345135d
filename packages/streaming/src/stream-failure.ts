// What a stream sends when its source fails after the response has started: the status line is gone,
// so the failure is reported in band, as the RFC 9457 problem document the App would have answered with.
import { type ProblemDetails, toHttpError } from '@charter/core';

/** Called with whatever a stream's source threw (or the item it could not encode), for logging. */
export type StreamingErrorHandler = (error: unknown) => void;

/**
 * The problem document for an error a source threw. An `HttpError` of status 4xx keeps its public
 * detail (as in a response); anything else is the generic 500 problem, its detail and extensions
 * left out (the same redaction as production), so no message, stack or cause reaches the client.
 */
export function streamingFailureProblem(error: unknown): ProblemDetails {
  return toHttpError(error).error.toProblem(true);
}

/** The default `onError`: the failure is written to `console.error`, so it is never silently lost. */
export const reportStreamError: StreamingErrorHandler = (error) => {
  console.error('charter/streaming: the stream source failed; the stream was ended', error);
};

/** Checks an `onError` option: undefined (the default, `console.error`) or a function. */
export function resolveErrorHandler(value: unknown, where: string): StreamingErrorHandler {
  if (value === undefined) return reportStreamError;
  if (typeof value !== 'function') throw new TypeError(`${where}: onError must be a function`);
  return value as StreamingErrorHandler;
}
