/**
 * Builds an error without capturing a stack trace, for the refusals the framework makes of routine
 * client mistakes (a 404, a 422): their stack is never logged (only unexpected errors are), and
 * capturing one costs more than rendering the whole problem.
 */
export function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
